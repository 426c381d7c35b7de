"""Tests for judging.answerline: directives, required parts, notes and plain lists."""

from __future__ import annotations

import pytest

from judging.answerline import parse_answerline

BEETHOVEN = (
    "<b><u>Ludwig van Beethoven</u></b> [accept <u>Beethoven</u>; prompt on <u>Ludwig</u>; "
    "do not accept <u>Johann</u> van Beethoven]"
)


def texts(alts) -> list[str]:
    return [a.text for a in alts]


def test_parse_main_accept_prompt_reject() -> None:
    line = parse_answerline(BEETHOVEN)
    assert texts(line.answers) == ["Ludwig van Beethoven"]
    assert texts(line.accepts) == ["Beethoven"]
    assert texts(line.prompts) == ["Ludwig"]
    assert texts(line.rejects) == ["Johann van Beethoven"]
    assert line.rejects[0].required == ("Johann",)


@pytest.mark.parametrize(
    ("raw", "answers", "accepts", "prompts", "rejects"),
    [
        pytest.param("Canberra", ["Canberra"], [], [], [], id="plain"),
        pytest.param("Kolkata or Calcutta", ["Kolkata", "Calcutta"], [], [], [], id="or-alternative"),
        pytest.param("Kolkata [or Calcutta]", ["Kolkata"], ["Calcutta"], [], [], id="bracket-or"),
        pytest.param(
            "Moonlight Sonata (or Piano Sonata No. 14) [prompt on sonata; reject “Pathétique”]",
            ["Moonlight Sonata"], ["Piano Sonata No. 14"], ["sonata"], ["Pathétique"],
            id="paren-or-and-unicode-quotes",
        ),
        pytest.param(
            "Kolkata [accept Calcutta, prompt on Bengal before mentioned, do not accept Delhi]",
            ["Kolkata"], ["Calcutta"], ["Bengal"], ["Delhi"], id="comma-separated-directives",
        ),
        pytest.param(
            "Mercury [accept either Hg or quicksilver; reject Hermes]",
            ["Mercury"], ["Hg", "quicksilver"], [], ["Hermes"], id="accept-either-or",
        ),
        pytest.param(
            "Paris [do not accept Versailles; don't accept France]",
            ["Paris"], [], [], ["Versailles", "France"], id="two-rejects",
        ),
        pytest.param('"Yesterday"', ["Yesterday"], [], [], [], id="quoted-title"),
        pytest.param("ANSWER: Ganymede", ["Ganymede"], [], [], [], id="answer-prefix"),
    ],
)
def test_parse_directives(raw: str, answers: list[str], accepts: list[str],
                          prompts: list[str], rejects: list[str]) -> None:
    line = parse_answerline(raw)
    assert texts(line.answers) == answers
    assert texts(line.accepts) == accepts
    assert texts(line.prompts) == prompts
    assert texts(line.rejects) == rejects


@pytest.mark.parametrize(
    ("raw", "text", "required"),
    [
        pytest.param("<u>Hamlet</u>, Prince of Denmark", "Hamlet, Prince of Denmark",
                     ("Hamlet",), id="underline"),
        pytest.param("{Hamlet}, Prince of Denmark", "Hamlet, Prince of Denmark",
                     ("Hamlet",), id="braces"),
        pytest.param("<b>Hamlet</b>, Prince of Denmark", "Hamlet, Prince of Denmark",
                     ("Hamlet",), id="bold"),
        pytest.param("<b><u>Beethoven</u></b>", "Beethoven", (), id="whole-answer-marked"),
        pytest.param("the <u>anthem</u> of <u>Bolivia</u>", "the anthem of Bolivia",
                     ("anthem", "Bolivia"), id="two-parts"),
    ],
)
def test_parse_required_parts(raw: str, text: str, required: tuple[str, ...]) -> None:
    alt = parse_answerline(raw).answers[0]
    assert alt.text == text
    assert alt.required == required


def test_parenthetical_note_is_kept_apart() -> None:
    line = parse_answerline("Beethoven (the composer)")
    assert texts(line.answers) == ["Beethoven"]
    assert line.notes == ("the composer",)


def test_plain_list_of_answers() -> None:
    line = parse_answerline(["Wilhelm Conrad Röntgen", "Windows Playlist (WPL)",
                             "hit points or health points"])
    assert texts(line.answers) == ["Wilhelm Conrad Röntgen", "Windows Playlist", "hit points",
                                   "health points"]
    assert "WPL" in texts(line.accepts)  # acronym in parentheses is an alias
    assert "hit points or health points" in texts(line.accepts)
    assert {a.kind for a in line.answers} == {"list"}


def test_parse_is_cached() -> None:
    assert parse_answerline(BEETHOVEN) is parse_answerline(BEETHOVEN)
    assert parse_answerline(["a", "b"]) is parse_answerline(("a", "b"))
