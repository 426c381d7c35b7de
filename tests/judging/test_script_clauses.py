"""Rule 3b in a sentence of several clauses (2026.12.9): in a script without spaces the
normalizer turns a comma or a full stop into a space and the character matcher drops
spaces, so an answer that ends a clause looked like the inside of a longer word
("东京，它是日本的首都" read as 东京它是...: a hard `other-word` rejection at 0.06, for the
way language models answer in Chinese, Japanese and Thai). The clauses as written
(``scripts.clauses_of``, after a self-correction's retracted part is dropped) are
now matched one by one. Traps: two answers listed or offered with "or", a retracted
first answer, the enumeration comma 、, names written with a middle dot, a number after
a title."""

from __future__ import annotations

import pytest

from judging.equivalence import judge
from judging.scripts import clauses_of

# (candidate, answerline, correct)
CASES = [
    pytest.param("东京，它是日本的首都", "东京", True, id="zh-apposition"),
    pytest.param("答案是东京，因为它是日本的首都", "东京", True, id="zh-because"),
    pytest.param("我认为是东京。它是日本的首都。", "东京", True, id="zh-two-sentences"),
    pytest.param("应该是北京，中国的首都", "北京", True, id="zh-should-be"),
    pytest.param("作曲是聂耳，作词是田汉", "聂耳", True, id="zh-two-roles"),
    pytest.param("作曲是聂耳，作词是田汉", "田汉", True, id="zh-two-roles-second"),
    pytest.param("กรุงเทพ เพราะเป็นเมืองหลวง", "กรุงเทพ", True, id="th-space-clause"),
    # traps
    pytest.param("东京，大阪", "东京", False, id="zh-two-names-listed"),
    pytest.param("东京，或者大阪", "东京", False, id="zh-or"),
    pytest.param("可能是东京，也可能是大阪", "东京", False, id="zh-maybe-maybe"),
    pytest.param("东京，还是大阪呢", "东京", False, id="zh-haishi"),
    pytest.param("เชียงใหม่ หรือ เชียงราย", "เชียงใหม่", False, id="th-or"),
    pytest.param("苏州，我是说杭州", "苏州", False, id="zh-retracted"),
    pytest.param("กรุงเทพ ไม่สิ เชียงใหม่", "กรุงเทพ", False, id="th-retracted"),
    pytest.param("不是东京，是京都", "东京", False, id="zh-negated-clause"),
    pytest.param("東京、日本の首都", "東京", False, id="ja-enumeration-comma-left"),
    pytest.param("レアル・マドリード", "マドリード", False, id="ja-middle-dot-name"),
    pytest.param("教父2", "教父", False, id="zh-sequel-number"),
    pytest.param("北京大学，在中国", "北京", False, id="zh-inside-a-word-still"),
]


@pytest.mark.parametrize(("candidate", "answerline", "correct"), CASES)
def test_an_answer_ending_a_clause(candidate: str, answerline: str, correct: bool) -> None:
    verdict = judge(candidate, answerline)
    assert verdict.correct is correct, (candidate, verdict.rule, verdict.explanation)
    if not correct:
        assert verdict.score < 0.9


def test_clauses_as_written() -> None:
    assert clauses_of("东京，它是日本的首都") == ("东京", "它是日本的首都")
    assert clauses_of("東京") == ()
    assert clauses_of("レアル・マドリード") == ()  # (a middle dot is no clause end)


def test_an_answer_ending_in_the_japanese_or_is_no_hedge() -> None:
    # (blind17: the hiragana of アフリカ ends in か, "or"; its affix-stripped form
    # "あふり" was found before "か大陸です" and read as a hedge at 0.03)
    from judging.scripts import find_in_run

    assert find_in_run("あふりか", "あふりか大陆です") == "embedded"
    assert judge("アフリカ大陸です", "アフリカ").rule != "hedge"
    assert judge("宮崎駿か高畑勲", "宮崎駿").rule == "hedge"  # (a real "or")
