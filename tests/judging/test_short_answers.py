"""The hand-written short-answer table, and the calibration report trained on it."""

from __future__ import annotations

import copy
import json
from collections import Counter

import numpy as np
import pytest

from judging.calibration import CALIBRATOR_PATH
from judging.equivalence import judge
from judging.name_rules import answerline_names
from judging.train_calibrator import (
    REPO_DATA_DIR,
    balanced_weights,
    calibration,
    grouped_folds,
    load_rows,
)
from tests.judging.reference_data import needs_pure
from tests.judging.reference_grey import reference_grey, reference_regime

TABLE = REPO_DATA_DIR / "short_answers.jsonl"
SEED_LANGUAGES = {"en", "ko", "zh", "ja", "th", "vi", "id"}


def _rows() -> list[dict]:
    return [json.loads(line) for line in TABLE.read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")]


def test_table_has_provenance_and_covers_every_family_and_seed_language() -> None:
    header = [line for line in TABLE.read_text(encoding="utf-8").splitlines()
              if line.startswith("#")]
    assert any("hand-written" in line for line in header)
    rows = _rows()
    assert len(rows) >= 300
    for r in rows:
        assert r["tests"] and r["family"] and r["lang"] and isinstance(r["human_correct"], bool)
    langs = {r["lang"] for r in rows}
    assert langs >= SEED_LANGUAGES
    by_family = Counter(r["family"] for r in rows)
    for family in ("entity", "correction", "number", "script", "korean", "negation", "unicode"):
        assert by_family[family] >= 20, family
    for family in ("entity", "correction", "number", "negation"):
        assert {r["lang"] for r in rows if r["family"] == family} >= SEED_LANGUAGES, family
    # both verdicts in every family: traps and finds
    for family in by_family:
        assert {r["human_correct"] for r in rows if r["family"] == family} == {True, False}


def test_load_rows_reads_the_table_and_skips_its_header() -> None:
    rows = load_rows(REPO_DATA_DIR)
    assert len(rows) == len(_rows())
    assert {r.file for r in rows} == {"short_answers.jsonl"}


def test_shipped_judge_on_the_table() -> None:
    # (trained on it, so an optimistic number; the cross-validated one is in
    # calibrator.json and docs/benchmarks.md)
    rows = [r for r in _rows() if r["source"] == "earshot_short_answers"]
    verdicts = [judge(r["candidate"], r["references"], question=r["question"]) for r in rows]
    accuracy = np.mean([v.correct == r["human_correct"] for v, r in zip(verdicts, rows, strict=True)])
    assert accuracy >= 0.97
    confident_wrong = [r["candidate"] for v, r in zip(verdicts, rows, strict=True)
                       if v.score >= 0.9 and not r["human_correct"]]
    assert len(confident_wrong) <= 1, confident_wrong


# The probe rows' wrong answers still accepted at p >= 0.9 (docs/judging.md, known
# misses): knowledge the rules do not have. Retraining on the table may move them.
PROBE_CONFIDENT_WRONG = {"Cộng hòa Dominica", "New Guinea", "Beverly Hills", "London, Ontario",
                         # blind11 (h-probe11): which verb the question asks about
                         "They absorb oxygen and release carbon dioxide.",
                         # blind22: the score is right, the winner said with it wrong
                         "Brazil won 7-1",
                         # blind27: the answer's distinguishing part negated ("not Part II")
                         "The original Godfather won it, not Part II.",
                         # blind28: a pronoun that negates the answer said before it, and
                         # a comparison the rules do not read ("that of a cello")
                         "This sounds like a preacher in the style of Martin Luther King "
                         "Jr., but it is not him; probably Jesse Jackson.",
                         "The melody is played on a viola, whose tone sits just above "
                         "that of a cello."}


# Families of blind16 (2026-12-04) that need a translation dictionary the project does
# not have: titles translated (`기생충` for `Parasite`, `Tây du ký` for `Journey to the
# West`) and East Asian names read in another language (`Khổng Tử`, `Mao Trạch Đông`,
# `徳川家康`); their floor is what they score (20/38, 31/48), so that they do not fall.
KNOWLEDGE_FAMILIES = {"work-title": 0.52, "asian-person": 0.64,
                      # blind19 (same-language everyday answers): synonyms, registers,
                      # loanwords and respellings a dictionary would know (`bahagia` for
                      # `senang`, `핸드폰` for `휴대폰`, `姥姥` for `外婆`, `jeepney` for
                      # `dyip`), and a compound extending a one-word answer (`pisang
                      # goreng` for `pisang`, `kereta api` for `kereta`: no rule tells
                      # a new thing from a description, `kereta baru`)
                      "b19-feeling": 0.57, "b19-kinship": 0.76, "b19-loanword": 0.55,
                      "b19-narrower": 0.5, "b19-spelling": 0.4, "b19-synonym": 0.5,
                      "b19-hedge": 0.82,
                      # blind20 (zh/ja/ko same-language answers): kana readings UniDic
                      # does not give, clock times (`15点` for `下午三点`), short forms
                      # (`姉` for `お姉さん`), everyday synonyms (`的士` for `出租车`), an
                      # answer inside a Chinese or Japanese sentence (no segmenter for
                      # them: `坐地铁` for `地铁`); blind21: generic words matched
                      "b20-action": 0.66, "b20-date": 0.82, "b20-family": 0.5,
                      "b20-feeling": 0.83, "b20-hedge": 0.8, "b20-kana": 0.81,
                      "b20-price": 0.77, "b20-synonym": 0.83, "b20-time": 0.77,
                      "b21-trap-words": 0.84,
                      # blind22 (numbers): Filipino and Malay number words with their
                      # ligatures and currencies (`labindalawang`, `lima ringgit` for
                      # `RM5`), scores and approximations read as numbers, a currency
                      # sign (`4.50 euros` for `$4.50`); blind23: compounds of an element
                      # (`carbon monoxide` for `carbon dioxide`, a grey accept)
                      "b22-approx": 0.83, "b22-duration": 0.83, "b22-percent": 0.84,
                      "b22-price": 0.76, "b22-score": 0.7, "b23-element": 0.75,
                      # blind24: names misspelt into other names (`Paul Auster` for `Jane
                      # Austen`, `Bellini` for `Fellini`, grey) and a given name spelt
                      # otherwise (`Frederick` for `Frideric`); blind25: synonyms,
                      # registers and loanwords (`cikgu` for `guru`, `má` for `mẹ`,
                      # `มือถือ` for `โทรศัพท์มือถือ`) and a compound extending a
                      # one-word answer (`durian belanda`, `kereta api`, `Hổ phách`;
                      # the synonyms 20/40 since 2026.12.13's calibrator, a grey row moved)
                      "b24-spelling": 0.84, "b25-confusable": 0.78, "b25-synonym": 0.5,
                      # blind26 (numbers in every seed language): kana number words
                      # (`さんぼん`, `ごひゃくえん`), measures in other units or
                      # words (`五成` for `50%`, `一割`, `2½ cups`, `hai ký rưỡi`), ranks said
                      # otherwise (`naib johan`, `ร.9`), numbers inside zh/ja sentences;
                      # blind27 (confusable entities): translations, romanizations and short
                      # forms no rule knows (`Parasite` for `기생충`, `Sumut`, `경북`), one
                      # qualifier word for another (`phía Bắc` for `miền Bắc`)
                      "b26-cardinal": 0.8, "b26-measure": 0.61, "b26-ordinal-rank": 0.8,
                      "b26-sentence": 0.81, "b27-org-thing": 0.8, "b27-person": 0.73,
                      "b27-qualifier": 0.73, "b27-work": 0.8,
                      # blind28 (audio trivia): a speech's speaker by another name
                      # (`El-Hajj Malik el-Shabazz`, `Bung Karno`); blind29 (held-out
                      # multilingual answers): synonyms (`大夫` for `医生`, `มารดา` for
                      # `แม่`, `pagamutan` for `ospital`), other scripts and short forms
                      # (`漢江` for `한강`, `Jogja`, `nasgor`), a thing's name shortened
                      # (`スカイツリー`, `Hạ Long`)
                      "b28-speech": 0.8, "b29-confusable": 0.75, "b29-everyday": 0.65,
                      "b29-script": 0.75}
# the probe parts scored once before their rows were read, then fixed where the cause
# was general: all rows but the newest twelve parts reach 0.96; blind18 (audio trivia),
# blind19 and blind20 (same-language answers), blind21 (verbose answers of audio
# models), blind22 (numbers), blind23 (confusable entities), blind24 (quizbowl
# answerlines), blind25 (vi, id, ms, th, tl everyday answers), blind26 (numbers, times
# and prices in every seed language), blind27 (confusable entities in every seed
# language), blind28 (held-out audio trivia) and blind29 (held-out multilingual
# answers), first scored 0.906, 0.722, 0.825, 0.904, 0.866, 0.898, 0.930, 0.756, 0.714,
# 0.795, 0.868 and 0.825 (the last two after 2026.12.13's first rules), keep what they
# reach (blind19's grey rows move with each retrained calibrator: 0.861 in 2026.12.11,
# 0.853 now)
NEWEST_PARTS = {"blind18": 0.93, "blind19": 0.85, "blind20": 0.88, "blind21": 0.97,
                "blind22": 0.89, "blind23": 0.92, "blind24": 0.96, "blind25": 0.81,
                "blind26": 0.84, "blind27": 0.82, "blind28": 0.88, "blind29": 0.85}


def test_shipped_judge_on_the_probe_rows() -> None:
    # the probe rows (h-jprobe, 2026-12-03) were written after the calibrator was
    # trained: a held-out number for the rules with the shipped calibrator
    rows = [r for r in _rows() if r["source"] == "earshot_probe_2026_12_03"]
    assert len(rows) >= 1000
    assert {r["lang"] for r in rows} >= SEED_LANGUAGES
    verdicts = [judge(r["candidate"], r["references"], question=r["question"]) for r in rows]
    by_family: dict[str, list[bool]] = {}
    by_part: dict[str, list[bool]] = {}
    for v, r in zip(verdicts, rows, strict=True):
        by_family.setdefault(r["family"], []).append(v.correct == r["human_correct"])
        part = r["probe"] if r["probe"] in NEWEST_PARTS else "older"
        by_part.setdefault(part, []).append(v.correct == r["human_correct"])
    assert np.mean(by_part["older"]) >= 0.96
    for part, floor in NEWEST_PARTS.items():
        assert np.mean(by_part[part]) >= floor, part
    for family, ok in by_family.items():
        # (0.85 since blind11 and blind12: the script family, 92 rows, is 80/92 with their
        # blind misses, readings and romanizations that need a dictionary, `とうきょう` for
        # `東京`, `Du Fu` for `杜甫`, `Krung Thep`; spelling is 28/31, `Keller` for Kepler and
        # `Walt Whitmore`, whose rule tipped NQ301's nested CV under its floor; docs/judging.md)
        assert np.mean(ok) >= KNOWLEDGE_FAMILIES.get(family, 0.85), family
    confident_wrong = {r["candidate"] for v, r in zip(verdicts, rows, strict=True)
                       if v.score >= 0.9 and not r["human_correct"]}
    assert confident_wrong <= PROBE_CONFIDENT_WRONG


def test_committed_cv_report_per_file() -> None:
    cv = json.loads(CALIBRATOR_PATH.read_text(encoding="utf-8"))["cv"]["per_file"]
    table = cv["short_answers.jsonl"]
    # (0.954 with blind23 as its last part; blind25's synonyms and loanwords, which no
    # rule knows, took it to 0.938 in 2026.12.12, and blind26 to blind29's translations,
    # scripts and measures to 0.930 in 2026.12.13: see KNOWLEDGE_FAMILIES)
    assert table["accuracy"] >= 0.925
    for m in cv.values():
        assert {"ece", "errors_in_grey_zone", "wrong_accepted_p90"} <= set(m)


def _ece_reference(score, gold, bins=10):
    """ECE written out the textbook way: sum_b |B_b|/n * |acc(B_b) - conf(B_b)|."""
    n = len(score)
    total = 0.0
    for b in range(bins):
        lo, hi = b / bins, (b + 1) / bins
        idx = [i for i, s in enumerate(score) if lo <= s < hi or (b == bins - 1 and s == 1.0)]
        if idx:
            conf = sum(score[i] for i in idx) / len(idx)
            acc = sum(gold[i] for i in idx) / len(idx)
            total += len(idx) / n * abs(acc - conf)
    return total


def test_calibration_ece_matches_the_textbook_formula() -> None:
    rng = np.random.default_rng(13)
    score = rng.random(500)
    gold = rng.random(500) < score ** 1.5
    got = calibration(score, score >= 0.5, gold)
    assert got["ece"] == pytest.approx(_ece_reference(list(score), list(gold)), abs=1e-4)
    perfect = calibration(np.array([0.0, 1.0, 1.0]), np.array([False, True, True]),
                          np.array([False, True, True]))
    assert perfect == {"ece": 0.0, "errors_in_grey_zone": 1.0, "wrong_accepted_p90": 0}


def test_calibration_counts_grey_zone_catches_and_confident_wrongs() -> None:
    score = np.array([0.95, 0.6, 0.4, 0.2, 0.92])
    gold = np.array([False, False, True, False, True])
    got = calibration(score, score >= 0.5, gold)
    # errors: 0.95 (wrong, accepted), 0.6 (wrong, accepted), 0.4 (right, rejected)
    assert got["errors_in_grey_zone"] == pytest.approx(2 / 3, abs=1e-4)
    assert got["wrong_accepted_p90"] == 1


def test_balanced_weights_give_each_file_the_same_weight() -> None:
    files = ["a"] * 90 + ["b"] * 10
    w = balanced_weights(files)
    assert w.mean() == pytest.approx(1.0)
    assert w[:90].sum() == pytest.approx(w[90:].sum())


def test_folds_of_one_file_do_not_move_when_another_is_added() -> None:
    a = [f"a.jsonl\tq{i}" for i in range(50)]
    b = [f"b.jsonl\tq{i}" for i in range(30)]
    assert list(grouped_folds(a)) == list(grouped_folds(a + b)[:50])


@needs_pure
def test_regime_features_built_inline_match_their_specification() -> None:
    from judging import equivalence as eq
    from judging.preparation import describe_text, prepared, question_tokens

    for r in _rows():
        info = describe_text(r["candidate"])
        a = eq.analyze(r["candidate"], r["references"], r["question"])
        if info is None or a.hard is not None:
            continue
        refs = r["references"] if isinstance(r["references"], str) else tuple(r["references"])
        if "in another language or by another name" in a.detail:
            refs = answerline_names(refs)[1]  # (rule 12m: read against the other names)
        _line, accept, _p, _r, alt_tokens, answer_short = prepared(refs)[:6]
        info = eq._without_particle(info, alt_tokens)  # ("Si Jose Rizal po": as _analyze reads it)
        qtok = question_tokens(r["question"])
        script = 0.0 if info.full_norm.isascii() else 1.0
        fresh = copy.copy(info)
        fresh.memo = {}  # (the plain version fills its own spelling memo)
        plain = reference_grey(fresh, accept, qtok, alt_tokens)
        spec = reference_regime(plain, info, answer_short, script)
        assert a.features == spec.features, r["candidate"]
