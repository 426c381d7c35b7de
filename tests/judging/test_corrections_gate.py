"""``corrections._may_correct``: the cheap test that lets ``final_answer`` skip its
two case-insensitive patterns must never miss a text they match (a missed one would
judge a self-correction by its first answer)."""

from __future__ import annotations

import json
import random
import re

from judging import corrections as c
from tests.judging.reference_data import DATA

# The module docstring's examples, and texts around each marker and its traps.
EXAMPLES = [
    "Sydney? No, actually Canberra", "Sydney, no wait, Canberra", "Sydney, I mean Canberra",
    "not Sydney but Canberra", "부산, 아니 서울", "부산이 아니라 서울", "北京，不对，上海",
    "不是北京，是上海", "大阪じゃなくて東京", "Hà Nội, không, Sài Gòn", "bukan Bandung, tapi Jakarta",
    "ไม่ใช่เชียงใหม่ แต่เป็นกรุงเทพ", "Sydney, LET ME CORRECT THAT, Canberra", "Paris — NO. Lyon",
    "SYDNEY? NO WAİT, CANBERRA", "Sydney, waıt, Canberra", "Sydney, ſorry, Canberra",
    "Sydney… XIN LỖI, Canberra", "It's not Sydney but Canberra", "KHÔNG PHẢI Hà Nội mà là Huế",
]
_PIECES = ["no", "NO", "No", "wait", "WAIT", "actually", "I", "mean", "or", "rather", "sorry",
           "không", "KHÔNG", "bukan", "tapi", "but", "not", "It's", "아니", "아니라", "이", "不",
           "不对", "是", "じゃなくて", "ไม่ใช่", "แต่", "salah", "eh", "ı", "İ", "ſ", "Sydney",
           "Canberra", "Hà Nội", "東京", ",", ".", "?", "!", "—", "、", "，", "…", " ", "  ", "\t"]


def _matches(text: str) -> bool:
    return c._NOT_BUT.search(text) is not None or c._MARKER.search(text) is not None


def test_gate_mirrors_the_patterns() -> None:
    # _may_correct reads _MARKER as these three alternatives and _NOT_BUT as anchored
    # alternatives plus one that needs "아니" or "말고"; a change to either pattern must
    # change the gate too.
    assert c._MARKER.pattern == (
        rf"(?:{c._ALONE})|{c._BEFORE}(?:{c._BETWEEN_PUNCT})\s*{c._P}+"
        rf"|{c._BEFORE}(?:{c._AFTER_PUNCT})(?:\s*{c._P})*(?=\s|$|\w)")
    alternatives = c._NOT_BUT.pattern.split("|^")
    assert all(a.startswith(r"\s*") for a in alternatives[1:])
    unanchored = [a for a in re.split(r"\|(?=\\S)", c._NOT_BUT.pattern) if a.startswith(r"\S")]
    assert len(unanchored) == 1 and "아니" in unanchored[0]
    for pattern in (c._ALONE, c._BETWEEN_PUNCT, c._AFTER_PUNCT, c._NOT_BUT.pattern):
        letters = re.sub(r"\\.", "", pattern)  # (\S, \W: classes, not letters)
        assert letters == letters.lower()  # lower-cased text meets lower-case letters


def test_gate_never_misses_a_marker() -> None:
    rng = random.Random(13)
    texts = list(EXAMPLES)
    for _ in range(20000):
        texts.append("".join(rng.choice(_PIECES) + rng.choice(["", " "])
                             for _ in range(rng.randint(1, 8))))
    for path in sorted(DATA.glob("*.jsonl")):
        with path.open(encoding="utf-8") as fh:
            texts += [json.loads(line)["candidate"] for line in fh if line.strip()]
    matched = 0
    for text in texts:
        if _matches(text):
            matched += 1
            assert c._may_correct(text), text
        if not c._may_correct(text):
            assert c.final_answer(text) is None, text
    assert matched > 1000  # the random texts reach the markers
    assert not c._may_correct("The capital of Australia is Canberra, a planned city.")
