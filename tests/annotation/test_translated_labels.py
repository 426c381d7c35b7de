"""Listening-test instructions, scale labels and choice labels reach raters and researchers
in their language; stored values and English exports do not change with it."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.utils import translation

from annotation.scales import SCALES, TEMPLATES
from annotation.services import TEMPLATE_INSTRUCTIONS, template_instructions

LANGUAGES = [code for code, _name in settings.LANGUAGES if code != "en"]

#: the four instructions whose source once held ``\u`` escapes (xgettext kept them
#: undecoded, so these never translated), with a character each must now hold literally
ESCAPED_ONCE = {"ab": "“", "ccr": "−", "mushra": "–", "ranking": "↑"}


@pytest.mark.parametrize("template,char", ESCAPED_ONCE.items())
def test_instructions_hold_literal_typography(template, char):
    with translation.override("en"):
        text = template_instructions(template)
    assert char in text and "\\u" not in text


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("template", sorted(TEMPLATE_INSTRUCTIONS))
def test_every_template_instruction_comes_out_translated(language, template):
    with translation.override("en"):
        english = template_instructions(template)
    with translation.override(language):
        translated = template_instructions(template)
    assert translated and translated != english, (language, template)
    # the typography of the English text (quotes, minus, dash, arrows) survives translation
    for char in "−–↑↓":
        if char in english:
            assert char in translated, (language, template, char)


def test_template_without_instructions_gives_empty_text():
    assert template_instructions("mos") == ""


@pytest.mark.parametrize("language", LANGUAGES)
def test_campaign_stores_the_instructions_in_its_creators_language(project, language):
    from annotation import services

    with translation.override(language):
        campaign = services.campaign_create(project=project, name="AB", slug=f"ab-{language}", template="ab")
        expected = template_instructions("ab")
    with translation.override("en"):
        assert campaign.instructions == expected != template_instructions("ab")


@pytest.mark.parametrize("language", LANGUAGES)
def test_default_scale_and_criterion_labels_are_in_the_catalogs(language):
    labels = {label for _values, shown, _keys in SCALES.values() for label in shown if not label.isdigit()}
    labels |= {c["label"] for criteria in TEMPLATES.values() for c in criteria}
    labels -= {"A", "B"}  # stimulus names, the same in every language
    with translation.override(language):
        untranslated = sorted(label for label in labels if translation.gettext(label) == label)
    assert not untranslated, (language, untranslated)


@pytest.mark.parametrize("language", LANGUAGES)
def test_rater_sees_scale_labels_in_their_language(make_campaign, make_annotator, language):
    from annotation import selectors, services

    campaign = make_campaign(n=2, template="mos", audio=False)
    campaign.criteria = [*campaign.criteria,
                         {"key": "own", "label": "Mon critère", "scale": "custom",
                          "values": ["a", "b"], "labels": ["", "Ceci"]}]
    campaign.save(update_fields=["criteria"])
    annotator = make_annotator(campaign)
    assignment = services.assignment_next_for_annotator(annotator)
    with translation.override(language):
        payload = selectors.item_payload(assignment)
        # the English texts come from the scale and template tables (a literal here
        # would make makemessages list this test as a source of the message)
        bad = translation.gettext(SCALES["acr5"][1][0])
        quality = translation.gettext(TEMPLATES["mos"][0]["label"])
    mos, own = payload["criteria"]
    assert (mos["label"], mos["choices"][0]["label"]) == (quality, bad)
    assert (bad, quality) != ("Bad", "Overall quality")
    assert [c["value"] for c in mos["choices"]] == ["1", "2", "3", "4", "5"]  # values never change
    assert own["label"] == "Mon critère"  # a campaign's own labels pass through
    assert [c["label"] for c in own["choices"]] == ["", "Ceci"]  # "" is not the catalog header


@pytest.mark.parametrize("language", LANGUAGES)
def test_choice_labels_translate_without_changing_stored_values(language):
    from annotation.models import CampaignStatus, Template
    from irt.models import FitStatus
    from quiz.models import StudyDesign

    with translation.override(language):
        assert str(Template.CCR.label) != "CCR / CMOS (−3…+3 against a reference)"
        assert str(StudyDesign.BETWEEN.label).strip()
        assert str(CampaignStatus.CLOSED.label) != "Closed"
        fit_failed = str(FitStatus.FAILED.label)
    assert Template.CCR == "ccr" and CampaignStatus.CLOSED == "closed"
    assert fit_failed != "Failed"
