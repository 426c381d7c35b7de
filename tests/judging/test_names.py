"""Rules 12m and 12n (:mod:`judging.names`): the same place, language or ocean named in
another language or by an older name is right; a known name of another one is wrong.

The families come from blind probe 15 (h-probe15, rows ``"probe": "blind15"`` of
``judging/data/short_answers.jsonl``), scored 98/198 before the rule (94 of its 98
right answers rejected as ``no-match``) and 194/198 after, and from the seed languages'
ways of saying an answer (particles, copulas, sentences, negation, hedges).
"""

from __future__ import annotations

import json

import pytest

from judging import names
from judging.equivalence import judge

# (candidate, answerline, question, correct)
CASES = [
    # countries, both directions, every seed language
    pytest.param("日本", "Japan", "Which country's capital is Tokyo?", True, id="zh-ja-country"),
    pytest.param("Nhật Bản", "Japan", "Which country's capital is Tokyo?", True, id="vi-country"),
    pytest.param("Jepang", "Japan", "Negara mana yang beribu kota Tokyo?", True, id="id-country"),
    pytest.param("Jepun", "Japan", "Negara manakah yang beribu negara Tokyo?", True,
                 id="ms-country"),
    pytest.param("Hapon po", "Japan", "Anong bansa ang may kabisera na Tokyo?", True,
                 id="tl-country-polite"),
    pytest.param("일본입니다", "Japan", "도쿄는 어느 나라의 수도입니까?", True, id="ko-copula"),
    pytest.param("答案是日本。", "Japan", "东京是哪个国家的首都？", True, id="zh-sentence"),
    pytest.param("The answer is Japan.", "日本", "东京是哪个国家的首都？", True,
                 id="en-for-zh"),
    pytest.param("Japan", "ญี่ปุ่น", "โตเกียวเป็นเมืองหลวงของประเทศใด", True, id="en-for-th"),
    pytest.param("Germany", "Deutschland", "Which country is Berlin the capital of?", True,
                 id="endonym"),
    pytest.param("호주", "Australia", "Which country's capital is Canberra?", True,
                 id="ko-common-name"),
    pytest.param("Ý", "Italy", "Which country's capital is Rome?", True, id="vi-short-name"),
    # cities, older names, exonyms
    pytest.param("Peking", "Beijing", "What is the capital of China?", True, id="older-name"),
    pytest.param("북경", "베이징", "중국의 수도는 어디입니까?", True, id="ko-sino-reading"),
    pytest.param("汉城", "首尔", "韩国的首都是哪里？", True, id="zh-older-name"),
    pytest.param("Krung Thep", "กรุงเทพมหานคร", "เมืองหลวงของประเทศไทยคือเมืองใด", True,
                 id="th-romanized"),
    pytest.param("Torino", "Turin", "Which city hosted the 2006 Winter Olympics?", True,
                 id="it-endonym"),
    pytest.param("Viên", "Vienna", "What is the capital of Austria?", True, id="vi-exonym"),
    pytest.param("Mátxcơva", "Moscow", "What is the capital of Russia?", True,
                 id="vi-city"),
    # continents, oceans, languages
    pytest.param("châu Á", "Asia", "What is the largest continent?", True, id="vi-continent"),
    pytest.param("Asia", "ทวีปเอเชีย", "ทวีปที่ใหญ่ที่สุดในโลกคือทวีปใด", True,
                 id="th-continent-word"),
    pytest.param("南極大陸", "Antarctica", "On which continent is the South Pole?", True,
                 id="ja-continent-word"),
    pytest.param("Thái Bình Dương", "Pacific Ocean", "What is the largest ocean?", True,
                 id="vi-ocean"),
    pytest.param("일본어", "Japanese", "What is the official language of Japan?", True,
                 id="ko-language"),
    pytest.param("bahasa Jepang", "Japanese", "What language is spoken in Japan?", True,
                 id="id-language"),
    pytest.param("ภาษาไทย", "Thai", "What is the official language of Thailand?", True,
                 id="th-language"),
    pytest.param("Farsi", "Persian", "What is the official language of Iran?", True,
                 id="other-name-language"),
    # what the other rules still see in the other language
    pytest.param("không phải Nhật Bản", "Japan", "Which country's capital is Tokyo?", False,
                 id="negated"),
    pytest.param("日本还是中国", "Japan", "Which country's capital is Tokyo?", False,
                 id="hedged"),
    # the name the question says is no answer
    pytest.param("Bombay", "Mumbai", "In 1995 the city of Bombay was officially renamed to what?",
                 False, id="renamed-from-question"),
    pytest.param("Burma", "Myanmar",
                 "In 1989 the military government changed the country's English name from "
                 "Burma to what?", False, id="renamed-country-from-question"),
    # 12n: a known name of another entity
    pytest.param("India", "Indian Ocean", "Which ocean lies between Africa and Australia?",
                 False, id="country-for-ocean"),
    pytest.param("Genova", "Geneva", "In which Swiss city is the Red Cross based?", False,
                 id="similar-city"),
    pytest.param("Japanese", "Japan", "Which country's capital is Tokyo?", False,
                 id="language-for-country"),
    pytest.param("Swedish", "Sweden", "Which country's capital is Stockholm?", False,
                 id="demonym-for-country"),
    pytest.param("오스트리아", "Australia", "Which country's capital is Canberra?", False,
                 id="ko-neighbour-name"),
    pytest.param("Áo", "Australia", "Which country's capital is Canberra?", False,
                 id="vi-austria"),
    pytest.param("東京", "Japan", "Which country's capital is Tokyo?", False,
                 id="capital-for-country"),
    pytest.param("일본어", "Japan", "Which country's capital is Tokyo?", False,
                 id="ko-language-for-country"),
    pytest.param("Triều Tiên", "Hàn Quốc", "Thủ đô của nước nào là Seoul?", False,
                 id="vi-north-for-south"),
    pytest.param("Niger", "Nigeria", "Which country's capital is Abuja?", False,
                 id="prefix-country"),
    # blind17's traps (h-probe17)
    pytest.param("华盛顿州", "Washington, D.C. [accept Washington]",
                 "What is the capital of the United States?", False, id="zh-state-of-the-name"),
    pytest.param("gấu trúc đỏ", "giant panda [accept panda]", "Which bear eats bamboo?", False,
                 id="vi-thing-with-a-qualifier"),
    pytest.param("Korea Selatan", "South Korea", "Which country's capital is Seoul?", True,
                 id="id-country-sharing-a-word"),
    pytest.param("Thành phố Hồ Chí Minh", "Hồ Chí Minh [accept Nguyễn Ái Quốc]",
                 "Ai là người đọc Tuyên ngôn Độc lập năm 1945?", False,
                 id="vi-city-named-after-the-person"),
    pytest.param("광주", "Gwangju [accept Kwangju]", "Which Korean city had the 1980 uprising?",
                 True, id="ko-romanized-backwards"),
]


@pytest.mark.parametrize(("candidate", "answerline", "question", "correct"), CASES)
def test_names_across_languages(candidate: str, answerline: str, question: str,
                                correct: bool) -> None:
    v = judge(candidate, answerline, question=question)
    assert v.correct is correct, v
    if correct:
        assert v.score >= 0.5, v
    else:
        assert v.score < 0.5, v


def test_an_accept_says_which_name_it_read() -> None:
    v = judge("Nhật Bản", "Japan", question="Which country's capital is Tokyo?")
    assert v.rule == "alias:translation"
    assert v.matched == "Japan"
    assert "'Nhật Bản' is 'Japan' in another language" in v.explanation


def test_a_mention_in_a_sentence_goes_to_the_calibrator() -> None:
    v = judge("Tôi chọn Nhật Bản", "Japan", question="Which country's capital is Tokyo?")
    assert v.rule == "contains" and v.correct
    assert "'Japan' in another language" in v.explanation


def test_other_entity_names_what_it_is() -> None:
    v = judge("India", "Indian Ocean", question="Which ocean lies between Africa and Australia?")
    assert v.rule == "other-entity"
    assert "another country or region than 'Indian Ocean'" in v.explanation


def test_a_name_two_entities_share_names_neither() -> None:
    # CLDR's Korean names of Hong Kong and Macau both carry "중국 특별행정구"
    assert names.entity_of("중국 특별행정구") is None
    # and "Korea" alone is the peninsula, no country (two share it) and no language
    assert names.entity_of("Korea") == "R:Korea"
    v = judge("Korea", "Korean", question="Which language is written in Hangul?")
    assert v.rule == "other-entity" and not v.correct  # (was a fuzzy accept at 0.95)
    assert judge("Korea", "한국").rule != "other-entity"  # (a region may mean the country)


def test_a_name_of_two_kinds_means_the_country() -> None:
    # Indonesian "Jepang" is Japan and, in CLDR, Japanese
    assert names.entity_of("Jepang") == "T:JP"
    assert names.entity_of("bahasa Jepang") == "L:ja"


def test_every_added_name_reads_as_its_entity() -> None:
    """A hand-written name that normalizes to nothing, or that another entity of its
    kind also has, would be dropped without a word: each must read as its entity."""
    data = json.loads((names._DATA / "names_added.json").read_text(encoding="utf-8"))
    def reads_as(name: str, entity: str) -> bool:
        got = names.entity_of(name)
        # (a name of several kinds reads as the preferred kind, see names._PREFER)
        return got == entity or (got is not None and names._PREFER.index(got[0])
                                 < names._PREFER.index(entity[0]))

    wrong = [(entity, name) for entity, written in data["entities"].items()
             for name in written if not reads_as(name, entity)]
    assert wrong == []


def test_the_cldr_file_is_what_build_names_writes() -> None:
    """``judging/data/names_cldr.json`` is generated; regenerate it with ``python -m
    judging.build_names`` after upgrading Babel (pinned in pyproject's dev extra)."""
    pytest.importorskip("babel", reason="babel is in the dev extra (pip install -e '.[dev]')")
    from judging.build_names import OUT, build

    assert json.loads(OUT.read_text(encoding="utf-8")) == build()
