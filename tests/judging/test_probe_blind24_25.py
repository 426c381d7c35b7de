"""The rule families blind24 (quizbowl answerlines) and blind25 (Vietnamese, Indonesian,
Malay, Thai and Tagalog everyday answers) found missing on their first scoring
(2026-12-04), each with its trap: the answer a careless version of the rule would get
wrong (docs/judging.md, rules 7c, 8m, 12s, 12t and the corrections of 2026.12.12)."""

from __future__ import annotations

import pytest

from judging.equivalence import judge
from judging.normalize import tokens
from judging.preparation import prepared

SYMPHONY = "Symphony No. 9 in D minor [accept Choral Symphony or Beethoven's Ninth]"
SYMPHONY_Q = "Which symphony by Beethoven is heard in this clip?"
PROMPT_LINE = ("Symphony No. 9 in E minor, 'From the New World' [accept New World Symphony; "
               "prompt on Symphony No. 9 or Ninth Symphony]")
MAYON_Q = "Saang lalawigan matatagpuan ang Bulkang Mayon?"

CASES = [
    # a correction after a dash, as after a comma
    ("Definitely not Raphael — it's Michelangelo.", "Michelangelo", "", True),
    ("Not Raphael - it's Michelangelo", "Michelangelo", "", True),
    ("not Michelangelo — Raphael", "Michelangelo", "", False),
    # a belief reported, then contradicted, in the seed languages
    ("Ramai kata Pulau Pinang, tetapi saya pilih Langkawi", ["Langkawi", "Pulau Langkawi"],
     "", True),
    ("Banyak orang bilang Bali, tapi jawabannya Lombok", ["Lombok"], "", True),
    ("Akala ko lechon, pero kaldereta pala", ["lechon", "litson"], "", False),
    ("Akala ko kaldereta, pero lechon pala", ["lechon", "litson"], "", True),
    ("Nhiều người nghĩ là Hà Nội, nhưng thật ra là Huế", ["Huế"], "", True),
    ("Nhiều người nghĩ là Huế, nhưng thật ra là Hà Nội", ["Huế"], "", False),
    ("หลายคนคิดว่าผัดไทย แต่ผมว่าเป็นผัดซีอิ๊ว", ["ผัดไทย"], "", False),
    ("หลายคนคิดว่าผัดซีอิ๊ว แต่ผมว่าเป็นผัดไทย", ["ผัดไทย"], "", True),
    ("I thought it was Lyon, but it's Paris", ["Lyon"], "", False),
    ("I thought it was Paris, but it's Lyon", ["Lyon"], "", True),
    # Tagalog: "hindi X, Y" corrects; "wala ... ang <subject>" negates what comes before
    ("Hindi Sorsogon, Albay po", ["Albay"], MAYON_Q, True),
    ("Wala po sa Albay ang Bulkang Mayon", ["Albay"], MAYON_Q, False),
    ("Nasa Albay po ang Bulkang Mayon", ["Albay"], MAYON_Q, True),
    # vi "ở" (at) is no tl "o" (or); a written "o" still is
    ("Mặt trời mọc ở phía đông ạ", ["hướng đông", "phía đông", "đông"],
     "Mặt trời mọc ở hướng nào?", True),
    ("Maynila o Cebu", ["Maynila"], "", False),
    # Thai: a negation, then a kind word before the name
    ("ไม่ใช่แม่น้ำเจ้าพระยาครับ", ["แม่น้ำเจ้าพระยา", "เจ้าพระยา"], "", False),
    ("แม่น้ำเจ้าพระยาครับ", ["แม่น้ำเจ้าพระยา", "เจ้าพระยา"], "", True),
    ("ไม่ใช่แม่น้ำโขง แต่เป็นแม่น้ำเจ้าพระยา", ["แม่น้ำเจ้าพระยา", "เจ้าพระยา"], "", True),
    # dot thousands before a currency; number words against answers in words
    ("Một trăm năm mươi nghìn đồng", ["100.000 đồng", "một trăm nghìn đồng"], "", False),
    ("Hai trăm nghìn đồng", ["100.000 đồng", "một trăm nghìn đồng"], "", False),
    ("100.000 đồng ạ", ["100.000 đồng", "một trăm nghìn đồng"], "", True),
    ("Mười một tháng", ["12 tháng", "mười hai tháng", "12"], "Một năm có bao nhiêu tháng?",
     False),
    ("Mười hai tháng ạ", ["12 tháng", "mười hai tháng", "12"], "Một năm có bao nhiêu tháng?",
     True),
    ("Isang daang piso po", ["100 piso", "isandaang piso"], "", True),
    ("labindalawang beses", ["12"], "Ilang beses tumunog ang kampana?", True),
    ("labintatlong beses", ["12"], "Ilang beses tumunog ang kampana?", False),
    ("3 ekor", ["tiga ekor"], "Berapa ekor kucing?", True),
    ("tujuh ringgit lima puluh sen", ["RM7", "tujuh ringgit"], "", False),
    ("tujuh ringgit", ["RM7", "tujuh ringgit"], "", True),
    ("tujuh ringgit lima puluh sen", ["RM7.50", "tujuh ringgit lima puluh sen"], "", True),
    # works: no persons; another number (7c) or another owner (12s) of a work
    ("the Ninth Symphony", SYMPHONY, SYMPHONY_Q, True),
    ("Symphony number nine", SYMPHONY, SYMPHONY_Q, True),
    ("the Fifth Symphony", SYMPHONY, SYMPHONY_Q, False),
    ("Symphony No. 5", SYMPHONY, SYMPHONY_Q, False),
    ("Dvořák's Ninth Symphony", SYMPHONY, SYMPHONY_Q, False),
    ("Beethoven's Ninth", SYMPHONY, SYMPHONY_Q, True),
    ("It's Beethoven's Ninth", SYMPHONY, SYMPHONY_Q, True),
    ("It's Dvořák's Ninth Symphony", SYMPHONY, SYMPHONY_Q, False),
    ("It's his Ninth Symphony.", SYMPHONY, SYMPHONY_Q, True),
    # a head-first compound with the question's word swapped
    ("mi goreng", ["nasi goreng"],
     "Nasi yang digoreng dengan kecap manis dan bumbu, makanan populer di Indonesia, "
     "namanya apa?", False),
    ("nasi goreng", ["nasi goreng"], "Nasi yang digoreng dengan kecap manis, namanya apa?",
     True),
    # a silent letter dropped from a name; honorifics are no given names
    ("Gustav Maler", "Gustav Mahler", "", True),
    ("Pak Soekarno, ya", ["Soekarno", "Sukarno", "Ir. Soekarno"],
     "Siapa presiden pertama Indonesia?", True),
    ("Bu Kartini", ["Raden Ajeng Kartini", "Kartini"], "", True),
    # a rejected name in a clause naming the answer otherwise
    ("Artemis, whom the Romans called Diana", "Artemis [do not accept Diana]", "", True),
    ("Diana, whom the Greeks called Artemis", "Artemis [do not accept Diana]", "", False),
    ("Artemis, though it could be Diana", "Artemis [do not accept Diana]", "", False),
    # the city of a metropolitan area
    ("Washington, D.C.", ["FedExField in Landover, Maryland", "the Washington metropolitan area"],
     "where are the washington redskins based out of", True),
]


@pytest.mark.parametrize(("candidate", "references", "question", "correct"), CASES)
def test_blind24_25_families(candidate: str, references: str | list[str], question: str,
                             correct: bool) -> None:
    v = judge(candidate, references, question=question)
    assert v.correct is correct, v.explanation


def test_a_prompt_after_a_possessive() -> None:
    v = judge("his ninth symphony", PROMPT_LINE, question="Which Dvorak symphony is this?")
    assert v.prompt and not v.correct


def test_washington_state_is_no_metropolitan_area() -> None:
    v = judge("Washington State", ["FedExField in Landover, Maryland",
                                   "the Washington metropolitan area"])
    assert v.rule != "alias:metro"


@pytest.mark.parametrize(("text", "toks"), [
    ("100.000 đồng", ("100000", "dong")),
    ("30.000 rupiah", ("30000", "rupiah")),
    ("1.000 juta", ("1000", "juta")),
    ("Rp 30.000", ("rp", "30000")),
    ("10.000 won", ("10000", "won")),
    ("1.500.000 đồng", ("1500000", "dong")),
    # elsewhere one point stays a decimal point
    ("2.500 kg", ("2.5", "kg")),
    ("100.000", ("100",)),
    ("2.5 đồng", ("2.5", "dong")),
])
def test_dot_thousands_only_beside_a_currency(text: str, toks: tuple[str, ...]) -> None:
    assert tokens(text) == toks


@pytest.mark.parametrize("line", ["Choral Symphony", "Beethoven's Ninth", "Emperor Concerto"])
def test_works_are_no_persons(line: str) -> None:
    assert not prepared(line)[1][0].person


def test_a_person_is_still_a_person() -> None:
    assert prepared("Ludwig van Beethoven")[1][0].person
