"""Admin for stored fits: read-mostly (fits are created by the service, not by hand)."""

from django.contrib import admin

from irt.models import Fit, FitAbility, FitItem


@admin.register(Fit)
class FitAdmin(admin.ModelAdmin):
    list_display = ("id", "project", "mode", "model", "method", "status", "progress", "n_responses", "created_at")
    list_filter = ("status", "mode", "model")
    search_fields = ("project__slug",)
    readonly_fields = (
        "status", "progress", "progress_message", "method", "rule_versions", "data_hash",
        "n_responders", "n_items", "n_responses", "started_at", "finished_at", "duration_s",
        "error", "warnings", "created_by",
    )
    exclude = ("result",)


@admin.register(FitAbility)
class FitAbilityAdmin(admin.ModelAdmin):
    list_display = ("fit", "responder", "theta", "sd", "n_answered", "accuracy")
    list_select_related = ("fit", "responder")
    raw_id_fields = ("fit", "responder")


@admin.register(FitItem)
class FitItemAdmin(admin.ModelAdmin):
    list_display = ("fit", "question", "a", "b", "n_answered", "p_correct")
    list_select_related = ("fit", "question")
    raw_id_fields = ("fit", "question")
