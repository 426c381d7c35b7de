"""Researcher forms: create a campaign from a template, upload items and audio."""

from __future__ import annotations

import json

from django import forms
from django.utils.translation import gettext_lazy as _

from .models import Campaign, PolicyKind, Template
from .scales import choices_for, template_criteria
from .services import POLICY_FIELDS, TEMPLATE_DEFAULTS, TEMPLATE_INSTRUCTIONS, template_instructions

POLICY_FIELDS_ALL = sorted({f for fields in POLICY_FIELDS.values() for f in fields})


def template_criteria_json(template: str) -> str:
    """A template's questions as the form shows them: JSON with the scale labels spelled
    out, so a researcher sees (and may translate) the labels the annotators will see."""
    out = []
    for crit in template_criteria(template):
        if crit.get("scale") in ("mushra100", "rank"):  # a slider / an order: no labels to edit
            out.append(crit)
            continue
        labels = [c.label for c in choices_for({**crit, "values": crit.get("values", [])})] \
            if crit.get("scale") != "custom" else crit.get("labels", [])
        out.append({**crit, "labels": labels})
    return json.dumps(out, ensure_ascii=False) if out else ""


def form_config() -> dict:
    """What the creation form's script needs: per template the default policy, k/n
    and questions; per policy the fields it reads."""
    return {
        "templates": {t: {**{k: (v.value if hasattr(v, "value") else v) for k, v in
                             TEMPLATE_DEFAULTS.get(t, {}).items()},
                          "criteria_json": template_criteria_json(t),
                          "instructions": template_instructions(t)} for t in Template.values},
        "policy_fields": {str(k): list(v) for k, v in POLICY_FIELDS.items()},
        "all_policy_fields": sorted({f for v in POLICY_FIELDS.values() for f in v}),
    }


class CampaignForm(forms.ModelForm):
    """Create a campaign; the template's defaults fill whatever is left blank.

    The policy, its k / n and the questions (with their scale labels) start from the
    chosen template's defaults (``annotation.services.TEMPLATE_DEFAULTS``); only the
    fields of the chosen policy are read (the page's script hides the others, and the
    server ignores them); a field that policy needs and the template does not supply
    is an error naming it, never a silent 1.
    """

    criteria_json = forms.CharField(
        label=_("Questions (JSON)"), required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=_("Starts as the template's questions and scale labels; edit to customise or "
                    "translate. Scales: acr5, natural, yes_no, score0_5, custom; listening tests: ccr7, "
                    "dcr5, smos5, preference, forced_ab, mushra100, rank."),
    )

    screening = forms.MultipleChoiceField(
        label=_("Listening checks before rating"), required=False, widget=forms.CheckboxSelectMultiple,
        choices=[("calibration", _("Volume calibration")),
                 ("headphones", _("Headphone check (anti-phase tones, Woods et al. 2017)")),
                 ("huggins", _("Headphone check (Huggins pitch)")),
                 ("digits", _("Listening in noise (counted digits)"))],
        help_text=_("Run in this order; failing one ends the task with the screened-out code. "
                    "Finer settings (trials, pass marks, SNRs): the API's screening field."))

    completion_url = forms.URLField(
        label=_("Completion URL"), required=False, max_length=500, assume_scheme="https",
        help_text=_("Where annotators are sent at the end, {code} replaced by the code their "
                    "outcome earned, e.g. https://app.prolific.com/submissions/complete?cc={code}"),
    )

    class Meta:
        model = Campaign
        fields = [
            "name", "slug", "template", "question_text", "instructions", "consent_text", "language",
            "policy", "policy_k", "policy_n", "policy_quota", "policy_annotators", "control_every",
            "expiry_minutes", "allow_repeat", "require_full_listen", "min_listen_fraction",
            "completion_code", "no_work_code", "screened_out_code", "completion_url", "screening",
        ]
        labels = {
            "policy": _("Assignment policy"),
            "policy_k": _("k: annotators per item"),
            "policy_n": _("n: items per listener (audit: per batch)"),
            "policy_quota": _("Most items per annotator"),
            "policy_annotators": _("Expected annotators (partition)"),
            "min_listen_fraction": _("Share of each clip that must be heard (0–1)"),
            "completion_code": _("Completion code (quota met)"),
            "no_work_code": _("No-work code (study full)"),
            "screened_out_code": _("Screened-out code (failed qualification)"),
        }
        widgets = {
            "instructions": forms.Textarea(attrs={"rows": 4}),
            "consent_text": forms.Textarea(attrs={"rows": 3}),
            "question_text": forms.Textarea(attrs={"rows": 2}),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        defaults = TEMPLATE_DEFAULTS[Template.MOS]
        self.fields["policy"].required = False
        self.fields["policy"].initial = defaults["policy"]
        self.fields["policy_n"].initial = defaults.get("policy_n")
        self.fields["criteria_json"].initial = template_criteria_json(Template.MOS)
        for name in POLICY_FIELDS_ALL:
            self.fields[name].widget.attrs["data-policy-field"] = name

    def clean_screening(self):
        picked = self.cleaned_data.get("screening") or []
        if "headphones" in picked and "huggins" in picked:
            raise forms.ValidationError(_("Choose one headphone check."))
        return [{"step": "headphones", "method": "huggins"} if s == "huggins" else {"step": s}
                for s in ("calibration", "headphones", "huggins", "digits") if s in picked]

    def clean_criteria_json(self):
        raw = (self.cleaned_data.get("criteria_json") or "").strip()
        if not raw:
            return None
        try:
            return json.loads(raw)
        except json.JSONDecodeError as exc:
            raise forms.ValidationError(_("Not valid JSON: %(msg)s") % {"msg": exc.msg}) from exc

    def clean(self):
        data = super().clean()
        template = data.get("template") or Template.MOS
        defaults = TEMPLATE_DEFAULTS.get(template, {})
        policy = data.get("policy") or defaults.get("policy") or PolicyKind.OVERLAP
        data["policy"] = policy
        wanted = POLICY_FIELDS.get(policy, ())
        for name in POLICY_FIELDS_ALL:
            if name not in wanted:
                data[name] = None  # hidden for this policy: never read
            elif data.get(name) is None and policy == defaults.get("policy") and defaults.get(name):
                data[name] = defaults[name]
        required = {PolicyKind.OVERLAP: "policy_k", PolicyKind.LISTENER_SAMPLE: "policy_n",
                    PolicyKind.AUDIT_SAMPLE: "policy_n"}.get(policy)
        if required and not data.get(required):
            self.add_error(required, _("This policy needs a value here."))
        if data.get("min_listen_fraction") is None:
            data["min_listen_fraction"] = 1.0
        if not (data.get("instructions") or "").strip() and template in TEMPLATE_INSTRUCTIONS:
            data["instructions"] = template_instructions(template)
        return data


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
