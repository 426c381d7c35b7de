"""Admin for judging records (read-mostly: decisions are made on the adjudication page)."""

from django.contrib import admin

from .models import Challenge, HumanJudgement, Judge, LlmCall, Rubric, VerdictRecord


@admin.register(VerdictRecord)
class VerdictRecordAdmin(admin.ModelAdmin):
    list_display = ("id", "response", "judge", "event", "correct", "score", "quality", "rule", "rule_version", "created_at")
    list_filter = ("judge", "event", "rule_version")
    raw_id_fields = ("response", "llm_call", "judge_ref")


@admin.register(HumanJudgement)
class HumanJudgementAdmin(admin.ModelAdmin):
    list_display = ("id", "response", "correct", "quality", "by", "annotator", "source", "created_at")
    list_filter = ("source", "correct")
    raw_id_fields = ("response", "by")


@admin.register(Challenge)
class ChallengeAdmin(admin.ModelAdmin):
    list_display = ("id", "response", "by", "status", "created_at", "resolved_by", "resolved_at")
    list_filter = ("status",)
    raw_id_fields = ("response", "by", "resolved_by", "judgement")


@admin.register(LlmCall)
class LlmCallAdmin(admin.ModelAdmin):
    list_display = ("id", "purpose", "prompt_id", "model", "attempts", "latency_ms", "error", "created_at")
    list_filter = ("purpose", "prompt_id", "model")
    search_fields = ("key",)
    readonly_fields = ("key", "request", "response_text", "parsed")


@admin.register(Judge)
class JudgeAdmin(admin.ModelAdmin):
    list_display = ("id", "name", "kind", "purpose", "model", "prompt_id", "version", "created_at")
    list_filter = ("kind", "purpose")
    search_fields = ("name", "model", "key")
    readonly_fields = ("key", "name", "kind", "purpose", "version", "model", "prompt_id", "prompt_version",
                       "rubric", "parameters")


@admin.register(Rubric)
class RubricAdmin(admin.ModelAdmin):
    """Read-only: a new version is saved from the rubric page, so old verdicts keep theirs."""

    list_display = ("id", "project", "name", "version", "purpose", "created_by", "created_at")
    list_filter = ("purpose", "project")
    readonly_fields = ("project", "name", "version", "purpose", "system", "user", "note", "based_on",
                       "created_by")

    def has_add_permission(self, request) -> bool:
        return False
