"""Rule 7's surname spelling (``equivalence._surname_spelling``): a one-word answer
misspelling a person's surname is that surname only when every edit keeps the name's
sound (a vowel, a silent h or w, a doubled letter, c/k, s/z, v/w/f, s/t/c in a
sibilant cluster; a swap of two letters; a moved letter). A consonant replaced by
another consonant makes another surname (``Keller`` for ``Kepler``, blind11's confident
miss at 0.96), which is left to the grey zone, scored under 0.9: a researcher sees it
in adjudication."""

from __future__ import annotations

import pytest

from judging.equivalence import _sound_alike, _surname_spelling, judge

# (candidate, answerline, question)
SPELLINGS = [
    pytest.param("Bethoven", "Ludwig van Beethoven", "", id="en-vowel-dropped"),
    pytest.param("Roentgen", "Wilhelm Rontgen", "", id="de-vowel-added"),
    pytest.param("Stravinski", "Igor Stravinsky", "", id="ru-i-for-y"),
    pytest.param("Tschaikowsky", "Pyotr Ilyich Tchaikovsky", "", id="de-transliteration"),
    pytest.param("Shostakovitch", "Dmitri Shostakovich", "Who composed the Leningrad Symphony?",
                 id="fr-transliteration"),
    pytest.param("Rachmaninov", "Sergei Rachmaninoff", "", id="ru-v-for-ff"),
    pytest.param("Nietzche", "Friedrich Nietzsche", "", id="de-sch"),
    pytest.param("Motzart", "Wolfgang Amadeus Mozart", "", id="de-tz"),
    pytest.param("Mendelsohn", "Felix Mendelssohn", "", id="de-double-s"),
    pytest.param("Hemmingway", "Ernest Hemingway", "", id="en-double-m"),
    pytest.param("Fisher", "Bobby Fischer", "Who won the 1972 World Chess Championship?",
                 id="de-sch-for-sh"),
    pytest.param("Einstien", "Albert Einstein", "", id="en-swap"),
    pytest.param("Ghandi", "Mahatma Gandhi", "", id="en-moved-h"),
]

# another surname one consonant away (candidate, answerline, question)
OTHER_SURNAMES = [
    pytest.param("Keller", "Johannes Kepler", "Who formulated the three laws of planetary motion?",
                 id="en-keller-kepler"),
    pytest.param("Carter", "George Washington Carver",
                 "Who developed hundreds of uses for the peanut?", id="en-carter-carver"),
    pytest.param("Hooper", "Edward Hopper", "Who painted Nighthawks?", id="en-hooper-hopper"),
    pytest.param("Warner", "Richard Wagner", "Who composed the Ring cycle?", id="de-warner-wagner"),
]


@pytest.mark.parametrize(("candidate", "answerline", "question"), SPELLINGS)
def test_a_sound_alike_misspelling_is_the_surname(candidate: str, answerline: str,
                                                  question: str) -> None:
    verdict = judge(candidate, answerline, question=question)
    assert verdict.correct, (candidate, verdict.rule, verdict.score)
    assert verdict.rule == "surname"


@pytest.mark.parametrize(("candidate", "answerline", "question"), OTHER_SURNAMES)
def test_another_surname_one_consonant_away_is_not_confidently_accepted(
        candidate: str, answerline: str, question: str) -> None:
    verdict = judge(candidate, answerline, question=question)
    assert verdict.rule != "surname"
    assert verdict.score < 0.9, (candidate, verdict.rule, verdict.score)


@pytest.mark.parametrize(("c", "surname", "alike"), [
    ("keller", "kepler", False),  # p -> l
    ("carter", "carver", False),  # v -> t
    ("bethoven", "beethoven", True),  # a vowel
    ("tschaikowsky", "tchaikovsky", True),  # s beside c, w -> v
    ("motzart", "mozart", True),  # t beside z
    ("mendelsohn", "mendelssohn", True),  # a doubled letter
    ("kopernikus", "copernicus", True),  # k/c
    ("darwen", "darwin", True),  # a vowel for a vowel
    ("hunger", "hunter", False),  # g -> t
])
def test_sound_alike_edits(c: str, surname: str, alike: bool) -> None:
    assert _sound_alike(c, surname) is alike


def test_a_swap_still_counts_as_one_edit_but_a_replacement_is_not_a_swap() -> None:
    assert _surname_spelling("einstien", "einstein")
    assert _surname_spelling("ghandi", "gandhi")
    assert not _surname_spelling("keller", "kepler")
