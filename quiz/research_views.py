"""The researcher's study settings page for a project's quiz (``/p/<slug>/study/``)."""

from __future__ import annotations

import json

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods, require_POST

from . import study as studies
from .models import FeedbackPolicy, Mode, PlayAccess, QuestionSelection, StudyDesign


class StudyForm(forms.Form):
    """Every study setting, with the help a study designer needs to choose."""

    design = forms.ChoiceField(choices=StudyDesign.choices, label=_("Design"),
                               help_text=_("Between-subjects is the default: no player sees a question twice."))
    one_mode = forms.ChoiceField(choices=Mode.choices, label=_("Mode (one-mode design)"))
    selection = forms.ChoiceField(
        choices=QuestionSelection.choices, label=_("Which question comes next"), required=False,
        help_text=_("Adaptive picks the question most informative for the player's ability, by the "
                    "project's newest IRT fit (at random until there is one); the design still decides "
                    "the mode, and no question comes twice."))
    feedback = forms.ChoiceField(choices=FeedbackPolicy.choices, label=_("Feedback after each answer"))
    results_released = forms.BooleanField(
        required=False, label=_("The study has ended: show players their results (stops play)"))
    access = forms.ChoiceField(choices=PlayAccess.choices, label=_("Who may play"))
    prompt_limit = forms.IntegerField(min_value=0, max_value=5, label=_("Prompts per question"))
    guests_per_hour = forms.IntegerField(min_value=0, max_value=1000,
                                         label=_("New guest players per browser or address per hour"))
    leaderboard_min_answers = forms.IntegerField(min_value=0, max_value=1000,
                                                 label=_("Answers needed to be ranked"))
    consent_text = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 4}),
                                   label=_("Consent text (empty: no consent page)"), max_length=20000)
    instructions_text = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 4}),
                                        label=_("Instructions (empty: none)"), max_length=20000)
    ask_native_language = forms.BooleanField(required=False, label=_("Ask for the native language"))
    ask_trivia_experience = forms.BooleanField(required=False, label=_("Ask for trivia experience"))
    questionnaire = forms.CharField(
        required=False, widget=forms.Textarea(attrs={"rows": 3}),
        label=_("More questionnaire fields (JSON list)"),
        help_text=_('e.g. [{"name": "age_band", "label": "Age", "kind": "choice", '
                    '"choices": ["18-29", "30+"], "required": true}]'),
    )
    collect_payment_email = forms.BooleanField(
        required=False, label=_("Collect a payment e-mail (stored apart, staff only, never exported)"))
    # The game (docs/playing.md); left empty, a setting keeps its value.
    points_correct = forms.IntegerField(required=False, min_value=0, max_value=100,
                                        label=_("Points for a correct answer"))
    points_early_bonus = forms.IntegerField(
        required=False, min_value=0, max_value=100, label=_("Early-buzz bonus (at the very start of a pyramid)"))
    points_wrong_early = forms.IntegerField(
        required=False, min_value=0, max_value=100, label=_("Penalty for a wrong buzz before the end (0: none)"))
    answer_seconds = forms.IntegerField(required=False, min_value=3, max_value=120,
                                        label=_("Seconds to answer after a buzz"))
    question_seconds = forms.IntegerField(required=False, min_value=0, max_value=600,
                                          label=_("Seconds per question (0: no question timer)"))
    round_size = forms.IntegerField(required=False, min_value=1, max_value=100, label=_("Questions per round"))
    daily_size = forms.IntegerField(required=False, min_value=1, max_value=50,
                                    label=_("Questions in the daily challenge"))

    def clean(self) -> dict:
        cleaned = super().clean()
        if not cleaned.get("selection"):
            cleaned.pop("selection", None)  # left out of the form: the current selection stays
        return cleaned

    def clean_questionnaire(self) -> list:
        text = (self.cleaned_data.get("questionnaire") or "").strip()
        if not text:
            return []
        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
            raise forms.ValidationError(_("Not valid JSON: %(error)s") % {"error": exc}) from exc


def _initial(study) -> dict:
    data = {name: getattr(study, name) for name in StudyForm.base_fields}
    data["questionnaire"] = json.dumps(study.questionnaire, ensure_ascii=False) if study.questionnaire else ""
    return data


@login_required
@require_http_methods(["GET", "POST"])
def study_settings(request: HttpRequest, slug: str) -> HttpResponse:
    """Show and change the project's study design, feedback policy, access and protocol."""
    from frontend.views import _research_project

    project = _research_project(request, slug)
    study = studies.study_for(project)
    form = StudyForm(request.POST or None, initial=_initial(study))
    if request.method == "POST" and form.is_valid():
        try:
            changes = {k: v for k, v in form.cleaned_data.items()
                       if not (k in studies.GAME_LIMITS and v is None)}
            studies.study_update(project=project, **changes)
        except studies.StudyError as exc:
            form.add_error(exc.field.split("[")[0] if exc.field.split("[")[0] in form.fields else None,
                           f"{exc.field}: {exc.message}")
        else:
            return redirect("quiz:study_settings", slug=slug)
    link = request.build_absolute_uri(reverse("quiz:play_start", args=[slug])) + f"?k={study.link_token}"
    return render(request, "quiz/study_settings.html", {
        "project": project, "study": study, "form": form, "study_link": link,
    }, status=400 if form.errors else 200)


@login_required
@require_POST
def study_link_rotate(request: HttpRequest, slug: str) -> HttpResponse:
    """Replace the study link's token: links given out before stop working."""
    from frontend.views import _research_project

    project = _research_project(request, slug)
    studies.study_link_rotate(project=project)
    return redirect("quiz:study_settings", slug=slug)
