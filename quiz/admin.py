from django.contrib import admin

from .models import Category, Clip, ModelSystem, Question, QuestionClip, Responder, Response


@admin.register(Category)
class CategoryAdmin(admin.ModelAdmin):
    list_display = ("name", "project", "position")
    list_filter = ("project",)


@admin.register(Clip)
class ClipAdmin(admin.ModelAdmin):
    list_display = ("public_id", "project", "original_name", "duration_s", "sample_rate", "channels")
    list_filter = ("project", "format")
    readonly_fields = ("public_id", "sha256", "duration_s", "sample_rate", "channels", "frames", "size_bytes")


class QuestionClipInline(admin.TabularInline):
    model = QuestionClip
    extra = 0
    raw_id_fields = ("clip",)


@admin.register(Question)
class QuestionAdmin(admin.ModelAdmin):
    list_display = ("external_id", "prompt", "category", "source", "pyramidal", "is_active")
    list_filter = ("project", "category", "source", "pyramidal", "is_active")
    search_fields = ("external_id", "prompt", "answerline")
    inlines = (QuestionClipInline,)


@admin.register(ModelSystem)
class ModelSystemAdmin(admin.ModelAdmin):
    list_display = ("name", "project")
    list_filter = ("project",)


@admin.register(Responder)
class ResponderAdmin(admin.ModelAdmin):
    list_display = ("label", "kind", "condition", "project")
    list_filter = ("project", "kind")


@admin.register(Response)
class ResponseAdmin(admin.ModelAdmin):
    list_display = ("id", "question", "responder", "mode", "answer_text", "correct", "rule", "created_at")
    list_filter = ("project", "mode", "correct", "rule")
    raw_id_fields = ("question", "responder")
    search_fields = ("answer_text",)
