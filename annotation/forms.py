"""Researcher forms: create a campaign from a template, upload items and audio."""

from __future__ import annotations

import json

from django import forms
from django.utils.translation import gettext_lazy as _

from .models import Campaign


class CampaignForm(forms.ModelForm):
    """Create a campaign; criteria default to the template's (JSON to customise)."""

    criteria_json = forms.CharField(
        label=_("Questions (JSON, optional)"), required=False,
        widget=forms.Textarea(attrs={"rows": 4, "placeholder": '[{"key": "mos", "label": "Quality", "scale": "acr5"}]'}),
        help_text=_("Leave empty to use the template's questions. Scales: acr5, natural, yes_no, score0_5, custom."),
    )

    completion_url = forms.URLField(
        label=_("Completion URL"), required=False, max_length=500, assume_scheme="https",
        help_text=_("Where finishing annotators are sent, e.g. https://app.prolific.com/submissions/complete?cc={code}"),
    )

    class Meta:
        model = Campaign
        fields = [
            "name", "slug", "template", "question_text", "instructions", "consent_text", "language",
            "policy", "policy_k", "policy_n", "policy_quota", "policy_annotators", "control_every",
            "expiry_minutes", "allow_repeat", "require_full_listen", "completion_code", "completion_url",
        ]
        widgets = {
            "instructions": forms.Textarea(attrs={"rows": 4}),
            "consent_text": forms.Textarea(attrs={"rows": 3}),
            "question_text": forms.Textarea(attrs={"rows": 2}),
        }

    def clean_criteria_json(self):
        raw = (self.cleaned_data.get("criteria_json") or "").strip()
        if not raw:
            return None
        try:
            return json.loads(raw)
        except json.JSONDecodeError as exc:
            raise forms.ValidationError(_("Not valid JSON: %(msg)s") % {"msg": exc.msg}) from exc


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    """A file field that accepts several files at once."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("widget", MultipleFileInput())
        super().__init__(*args, **kwargs)

    def clean(self, data, initial=None):
        single = super().clean
        if isinstance(data, list | tuple):
            return [single(d, initial) for d in data]
        return [single(data, initial)] if data else []


class ItemImportForm(forms.Form):
    """Items file (JSONL/CSV) plus the audio files it names."""

    items = forms.FileField(label=_("Items file (.jsonl or .csv)"))
    audio = MultipleFileField(label=_("Audio files"), required=False)
