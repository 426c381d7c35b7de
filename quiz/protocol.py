"""A quiz study's protocol: consent, instructions and a short questionnaire before play.

Answers to the questionnaire are research data, stored pseudonymously with the
player's enrolment and the protocol version they saw. A payment e-mail is contact
data: it goes to the staff-only :class:`accounts.models.ContactInfo` table and is
never stored with the answers or exported.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.services import contact_set

from .models import PlayerEnrolment, QuizStudy, Responder
from .study import StudyError

TRIVIA_EXPERIENCE = ("none", "casual", "pub quiz or online trivia", "quizbowl or competitive")


def questionnaire_fields(study: QuizStudy) -> list[dict]:
    """Every questionnaire field the player is asked, built-in ones first."""
    fields: list[dict] = []
    if study.ask_native_language:
        fields.append({"name": "native_language", "label": _("Your native language"),
                       "kind": "text", "choices": [], "required": True})
    if study.ask_trivia_experience:
        fields.append({"name": "trivia_experience", "label": _("Your trivia experience"),
                       "kind": "choice", "choices": list(TRIVIA_EXPERIENCE), "required": True})
    return fields + list(study.questionnaire or [])


def protocol_submit(*, study: QuizStudy, responder: Responder, data) -> PlayerEnrolment:
    """Record consent, instructions read and questionnaire answers; e-mail to contact data.

    Raises :class:`~quiz.study.StudyError` naming the field; nothing is stored then.
    """
    now = timezone.now()
    if study.consent_text and data.get("consent") != "yes":
        raise StudyError("consent", _("Tick the box to consent, or close this page to leave."))
    answers: dict[str, str] = {}
    for field in questionnaire_fields(study):
        value = str(data.get(f"q_{field['name']}") or "").strip()
        if "\x00" in value or len(value) > 500:
            raise StudyError(field["name"], _("Keep answers under 500 characters."))
        if field["required"] and not value:
            raise StudyError(field["name"], _("Please answer this question."))
        if value and field["kind"] == "choice" and value not in field["choices"]:
            raise StudyError(field["name"], _("Choose one of the options."))
        if value and field["kind"] == "number":
            try:
                float(value)
            except ValueError as exc:
                raise StudyError(field["name"], _("Enter a number.")) from exc
        answers[field["name"]] = value
    email = ""
    if study.collect_payment_email:
        email = str(data.get("email") or "").strip()
        try:
            validate_email(email)
        except ValidationError as exc:
            raise StudyError("email", _("Enter the e-mail address for your payment.")) from exc
    with transaction.atomic():
        enrolment, _created = PlayerEnrolment.objects.get_or_create(
            responder=responder, defaults={"protocol_version": study.protocol_version}
        )
        enrolment.protocol_version = study.protocol_version
        enrolment.consent_at = now if study.consent_text else None
        enrolment.instructions_at = now if study.instructions_text else None
        enrolment.questionnaire_at = now
        enrolment.answers = answers
        enrolment.save()
        if email:
            contact_set(user=responder.user, email=email)
    return enrolment
