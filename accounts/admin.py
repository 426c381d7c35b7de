from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin

from .models import ContactInfo, Membership, Project, User


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    list_display = ("handle", "username", "is_guest", "is_staff", "date_joined")
    list_filter = ("is_guest", "is_staff", "is_superuser")
    search_fields = ("handle", "username")
    fieldsets = (*BaseUserAdmin.fieldsets, ("Earshot", {"fields": ("handle", "is_guest")}))
    add_fieldsets = (*BaseUserAdmin.add_fieldsets, ("Earshot", {"fields": ("handle",)}))


@admin.register(ContactInfo)
class ContactInfoAdmin(admin.ModelAdmin):
    """Contact data: staff only (superusers or staff with explicit permission)."""

    list_display = ("user", "email", "updated_at")
    search_fields = ("email", "user__handle")

    def has_module_permission(self, request) -> bool:
        return request.user.is_active and request.user.is_staff and super().has_module_permission(request)


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ("user",)


@admin.register(Project)
class ProjectAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "is_public", "created_at")
    prepopulated_fields = {"slug": ("name",)}
    search_fields = ("name", "slug")
    inlines = (MembershipInline,)
