"""Admin: campaigns with their items; annotators by pseudonym; read-only ratings."""

from django.contrib import admin

from .models import Annotator, Assignment, Campaign, Item, Rating, Stimulus


@admin.register(Campaign)
class CampaignAdmin(admin.ModelAdmin):
    list_display = ("name", "project", "template", "policy", "status", "created_at")
    list_filter = ("status", "template", "policy")
    search_fields = ("name", "slug")


class StimulusInline(admin.TabularInline):
    """A listening-test item's stimuli (role, system, condition, clip) — researchers only."""

    model = Stimulus
    extra = 0
    fields = ("position", "role", "system", "condition", "clip", "public_id")
    readonly_fields = ("public_id",)
    raw_id_fields = ("clip",)


@admin.register(Item)
class ItemAdmin(admin.ModelAdmin):
    inlines = (StimulusInline,)
    list_display = ("external_id", "campaign", "kind", "system", "condition", "task", "n_active", "n_done")
    list_filter = ("kind", "campaign")
    search_fields = ("external_id",)
    raw_id_fields = ("clip",)
    readonly_fields = ("n_active", "n_done")


@admin.register(Annotator)
class AnnotatorAdmin(admin.ModelAdmin):
    list_display = ("public_id", "campaign", "platform", "qualification", "consent_at", "completed_at", "outcome")
    list_filter = ("platform", "qualification", "campaign")
    raw_id_fields = ("user",)


@admin.register(Assignment)
class AssignmentAdmin(admin.ModelAdmin):
    list_display = ("public_id", "campaign", "item", "annotator", "status", "served_at", "expires_at")
    list_filter = ("status",)
    raw_id_fields = ("item", "annotator")


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    list_display = ("campaign", "item", "stimulus", "annotator", "criterion", "value", "submitted_at",
                    "heard_fraction")
    list_filter = ("campaign", "criterion")
    raw_id_fields = ("assignment", "item", "annotator", "stimulus")

    def has_change_permission(self, request, obj=None) -> bool:
        return False
