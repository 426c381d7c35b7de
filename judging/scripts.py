"""Writing systems for the judge: Korean particles, and matching in scripts without
spaces (pure Python, no Django).

* :func:`strip_korean` takes the particles and copulas off a Korean word
  (``서울입니다`` -> ``서울``, ``정답은`` -> ``정답``), so Korean answers match word by
  word like English ones. :mod:`judging.normalize` applies it to every Hangul token.
* :func:`find_in_run` finds an answer written in Chinese, Japanese, Thai, Myanmar,
  Khmer or Lao inside a candidate at character level. Those scripts put no spaces
  between words, so "contains" alone would find 京都 inside 東京都 (Tokyo
  Metropolis). A match counts only where the characters around it are a known
  boundary: the start or end of the text, punctuation, or a listed affix --
  administrative suffixes (市 都 省 県 区 ...), particles and copulas (は が を です
  是 的 คือ ...), polite endings (ค่ะ ครับ) -- on that side.
* :data:`NEGATION_BEFORE` / :data:`NEGATION_AFTER`: negation words of these languages
  (不是 没有 ไม่ใช่ じゃない ...), read around a match.

The lists are short and hand-written: they cover how an answer is said, not the
whole grammar. Anything they miss leaves the case to the ordinary rules (a mention
with an unknown neighbour is "different word", wrong for a short answer).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import TYPE_CHECKING, Final

from judging.numbers import (
    FIRST_CHARS,
    JA_DAY_READINGS,
    KO_MONTH_SOUNDS,
    read_number,
    strip_copulas,
    strip_counters,
)

if TYPE_CHECKING:
    from judging.preparation import Alt

__all__ = [
    "HANGUL",
    "NEGATION_AFTER",
    "NEGATION_BEFORE",
    "NOSPACE",
    "MatchKind",
    "batchim",
    "clauses_of",
    "find_in_run",
    "in_a_clause",
    "strip_korean",
]

# Scripts written without spaces between words.
NOSPACE: Final = re.compile(
    "[\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u3040-\u30ff\u31f0-\u31ff"
    "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uaa60-\uaa7f]"
)
HANGUL: Final = re.compile("[\uac00-\ud7a3]")


# ------------------------------------------------------------------------- Korean

def batchim(syllable: str) -> bool:
    """Does a Hangul syllable end in a consonant (then 이/은/을/과 follow it)?"""
    code = ord(syllable) - 0xAC00
    return 0 <= code < 11172 and code % 28 != 0


# (ending, needs a final consonant before it: True / a vowel: False / either: None)
_KO_COPULAS: tuple[tuple[str, bool | None], ...] = (
    ("이었습니다", True), ("였습니다", False), ("입니다", None), ("이에요", True),
    ("예요", False), ("이었어요", True), ("였어요", False), ("이었다", True), ("였다", False),
    ("이다", True), ("이야", True), ("이죠", True), ("이지요", True), ("인가요", None),
    ("일까요", None), ("이요", True), ("라고", False), ("이라고", True), ("입니까", None),
    # honorific and guessing endings: 세종대왕이십니다, 서울이겠죠, 한강일걸요
    ("이십니다", True), ("십니다", False), ("이시죠", True), ("시죠", False), ("이겠죠", True),
    ("겠죠", False), ("이겠지요", True), ("일걸요", None), ("일걸", None), ("일거예요", None),
    ("일겁니다", None),
    # the polite honorific copula: 선생님이세요, 할머니세요 (blind20)
    ("이세요", True), ("세요", False), ("이셨어요", True), ("셨어요", False),
)
_KO_PARTICLES: tuple[tuple[str, bool | None], ...] = (
    ("에서는", None), ("에서", None), ("으로는", True), ("으로", True), ("로는", False),
    ("에게", None), ("께서", None), ("이랑", True), ("랑", False), ("까지", None),
    ("부터", None), ("처럼", None), ("이나", True), ("나", False), ("은", True),
    ("는", False), ("이", True), ("가", False), ("을", True), ("를", False), ("의", None),
    ("에", None), ("로", False), ("과", True), ("와", False), ("도", None), ("만", None),
    ("요", False),
)


def _final_rieul(syllable: str) -> bool:
    """Does a Hangul syllable end in ㄹ (then 로, not 으로, follows it: 지하철로)?"""
    code = ord(syllable) - 0xAC00
    return 0 <= code < 11172 and code % 28 == 8


# the particles that follow a vowel or a final ㄹ (서울로, 지하철로는)
_AFTER_RIEUL: Final = frozenset({"로", "로는"})


def _strip_one(word: str, endings: tuple[tuple[str, bool | None], ...]) -> str:
    for end, cons in endings:
        if word.endswith(end) and len(word) > len(end):
            before = word[-len(end) - 1]
            if cons is None or batchim(before) == cons or (
                    end in _AFTER_RIEUL and _final_rieul(before)):
                return word[: -len(end)]
    return word


# particles after which the polite 요 may follow (서울에서요, 버스로요, 부산까지요)
_KO_BEFORE_YO: tuple[tuple[str, bool | None], ...] = (
    ("에서", None), ("으로", True), ("로", False), ("에게", None), ("한테", None),
    ("까지", None), ("부터", None), ("처럼", None), ("에", None), ("도", None), ("만", None),
)


# Administrative suffixes (서울특별시 -> 서울, 강남구 -> 강남), taken off when two
# syllables at least remain (도시 "city", 친구 "friend" stay).
_KO_SUFFIXES: Final = ("특별자치시", "특별자치도", "특별시", "광역시", "시", "도", "군", "구",
               "대왕")  # (a king's title: 세종대왕 -> 세종, 광개토대왕 -> 광개토)


_SINO_DIGITS: Final = "영공일이삼사오육륙칠팔구십백천만억"


def strip_korean(word: str) -> str:
    """``word`` without one copula and then one particle (``서울이에요`` -> ``서울``,
    ``부산에서는`` -> ``부산``, ``파리예요`` -> ``파리``). The ending must agree with the
    syllable before it (이/은/을 after a final consonant, 가/는/를 after a vowel),
    and a one-syllable word is left alone; then an administrative suffix
    (특별시, 광역시, 시, 도, 군, 구) if two syllables remain. Both the answer and the candidate go
    through it, so a word that only looks like it ends in a particle (고양이) is
    shortened the same way on both sides."""
    if len(word) < 2 or not HANGUL.search(word[-1]) or not word.strip(_SINO_DIGITS):
        return word  # (a Sino-Korean number: 구백구십구 ends in 구 "nine", not "district")
    if word.endswith("하나"):
        return word  # the native number one (스물하나), not 하 + the particle 나
    stripped = _strip_one(word, _KO_COPULAS)
    if stripped == word and word.endswith("요") and len(word) >= 3 and (
            _strip_one(word[:-1], _KO_BEFORE_YO) != word[:-1] or batchim(word[-2])):
        # the polite 요 after a particle (서울에서요, 부산까지요), or straight after a
        # name that ends in a consonant, as people say it (서울요 for 서울이요)
        stripped = word[:-1]
    if len(stripped) >= 3 and stripped[-1] == "님":
        stripped = stripped[:-1]  # the honorific after a name or title: 세종대왕님 (not 아님)
    stripped = _strip_one(stripped, _KO_PARTICLES)
    for suffix in _KO_SUFFIXES:
        if stripped.endswith(suffix) and len(stripped) - len(suffix) >= 2:
            return stripped[: -len(suffix)]
    return stripped


# ------------------------------------------------------------ scripts without spaces

# What may stand right after an answer: administrative suffixes (a boundary or a
# particle must follow them: 北京大学 is not 北京) ...
_SUFFIXES = tuple(sorted({
    "特别行政区", "自治区", "特别市", "市", "都", "省", "县", "県", "区", "府", "道", "州", "郡",
    "村", "町", "镇", "岛", "島", "国", "王国", "共和国", "ฯ", "มหานคร",
}, key=len, reverse=True))
# ... and titles said after a person's name (宮崎駿監督, 孙中山先生, 鲁迅老师): "Director
# Miyazaki" is Miyazaki. (Not 天皇/皇帝: 明治天皇 is not the era 明治.)
_TITLES_AFTER: tuple[str, ...] = ("監督", "监督", "先生", "老师", "老師", "教授", "博士", "大师", "大師", "様",
                 "さま", "将军", "將軍", "選手", "选手")
# ... and particles, copulas and polite endings (zh, ja, th, my, km, lo), after which
# anything may follow (成都是省会). Longest first.
_AFTER = tuple(sorted({
    # zh particles and copulas; "X wrote it" (是曹雪芹写的)
    "写的", "寫的", "是", "的",
    # ... and "X composed it", "X sang it" (是冼星海作的曲; h-probe13)
    "作的", "作的曲", "作曲的", "谱的曲", "譜的曲", "唱的", "演唱的", "创作的", "創作的", "吧", "吗", "嗎", "呢", "啊", "呀", "了", "啦", "嘛", "哦", "对", "對", "吧。",
    # ja
    "です", "でした", "だ", "だと", "だよ", "である", "でしょう", "かな", "か", "は", "が", "を",
    "に", "で", "へ", "と", "の", "も", "や", "ね", "よ", "さん", "思います", "だと思います",
    "と思います",
    # th
    "ค่ะ", "ครับ", "คะ", "นะ", "จ้ะ", "จ้า", "ครับผม", "คับ", "ฮะ", "เลย", "แน่นอน", "มั้ง",
    "มั๊ง", "มั้ย", "หรือเปล่า", "ใช่ไหม", "ใช่มั้ย", "ใช่มั๊ย", "ไหม",
    # my, km, lo (polite endings)
    "ပါ", "ပါတယ်", "ဖြစ်ပါတယ်", "បាទ", "ចាស", "ເດີ", "ແມ່ນ",
}, key=len, reverse=True))
# What may stand right before an answer (the end of the words before it).
_BEFORE = tuple(sorted({
    # zh
    "是", "为", "為", "叫", "叫做", "在", "说", "說", "于", "於", "即", "就", "得", "觉得",
    "覺得", "认为", "認為", "应该是", "應該是", "答案", "了", "去", "到", "自", "从", "從",
    # ja
    "は", "が", "を", "に", "で", "と", "の", "も", "へ", "答え", "たぶん", "多分", "きっと",
    "たしか", "確か", "おそらく", "恐らく", "もしかして", "やっぱり", "やはり",
    # th
    "คือ", "เป็น", "ว่า", "ที่", "ใน", "ตอบ", "คำตอบ", "น่าจะ", "จังหวัด", "เมือง",
    "แม่น้ำ", "ภูเขา", "ประเทศ", "เกาะ", "ทะเล", "มหาสมุทร", "จ", "กรุง",
    # th title before a person's name ("ท่านสุนทรภู่": the honourable Sunthon Phu)
    "ท่าน",
    # my, km, lo
    "က", "မှာ", "គឺ", "ແມ່ນ",
}, key=len, reverse=True))

_SHORT_ONLY: Final = frozenset(unicodedata.normalize("NFKC", w) for w in ("จ", "กรุง"))
NEGATION_BEFORE = tuple(sorted({
    "不是", "没有", "沒有", "并非", "並非", "非", "不", "ไม่ใช่", "ไม่", "မဟုတ်", "មិនមែន", "ບໍ່ແມ່ນ",
    # "mistaken for X" (zh)
    "被误认为", "被誤認為", "误认为", "誤認為", "误以为", "誤以為",
}, key=len, reverse=True))
NEGATION_AFTER = tuple(sorted({
    "じゃない", "ではない", "じゃありません", "ではありません", "ではなく", "じゃなく", "ではなかった",
    "じゃなかった", "不是", "ไม่ใช่",
    # "often mistaken for X" (ja: ウグイスとよく間違えられます; blind21)
    "と間違え", "とよく間違え", "と間違われ", "とよく間違われ", "と混同され", "とよく混同され",
    # (as the judge folds them: its traditional-to-simplified pass also reads kanji)
    "と间违え", "とよく间违え", "と间违われ", "とよく间违われ",
}, key=len, reverse=True))

def _folded(words: tuple[str, ...]) -> tuple[str, ...]:
    """The lists as the judge's text is folded (NFKC: Thai ำ becomes ํ + า), longest
    first."""
    return tuple(sorted({unicodedata.normalize("NFKC", w) for w in words}, key=len,
                        reverse=True))


_TITLES_AFTER = _folded(_TITLES_AFTER)
_SUFFIXES = _folded((*_SUFFIXES, *_TITLES_AFTER))
_AFTER = _folded(_AFTER)
_BEFORE = _folded(_BEFORE)
NEGATION_BEFORE = _folded(NEGATION_BEFORE)
NEGATION_AFTER = _folded(NEGATION_AFTER)

MatchKind = str  # "exact", "found", "negated", "hedged", "embedded", "shares", "none"


def _ok_after(rest: str, suffix_ok: bool = True) -> bool:
    """Is the text after a match a boundary: nothing, non-letter, a particle or
    copula, or an administrative suffix followed by one of those?"""
    if not rest or not rest[0].isalnum():
        return True
    if rest.startswith(_AFTER):
        return True
    if suffix_ok:
        for a in _SUFFIXES:
            if rest.startswith(a) and _ok_after(rest[len(a):], suffix_ok=False):
                return True
    return False


# "isn't it X?": a guess, not a negation (神戸じゃないかな, 神戸ではないでしょうか)
_TENTATIVE: Final = _folded(("じゃないかな", "じゃないか", "ではないか", "じゃないでしょうか",
                      "ではないでしょうか", "じゃないですか", "ではないですか", "じゃね"))
# "X 不是 Y" / "X ไม่ใช่ Y": X, not Y (the negation is of the word after it)
_NOT_BE: Final = _folded(("不是", "ไม่ใช่"))


def _not_the_other(rest: str) -> bool:
    """After a match, is ``rest`` "not" followed by another word (``不是北京``), so
    the negation is of that word, not of the match? (``不是吧``: a tag, it negates.)"""
    for neg in _NOT_BE:
        if rest.startswith(neg):
            tail = rest[len(neg):]
            return bool(tail) and tail[0].isalnum() and not tail.startswith(_AFTER)
    return False


# what か starts when it is no "or" before another answer: a guess (かな, かも, かと思う,
# かしら, かね), or the end of a question
_KA_TAGS: Final = _folded(("かな", "かも", "かと", "かしら", "かね", "かい", "かなあ", "かなぁ",
                    # words that start with か and are no "or": "from" (午後三時からです;
                    # blind20), an adjective's past (高かった)
                    "から", "かった",
                    # th "or not?" tags after an answer: a question, no second answer
                    "หรือเปล่า", "หรือไม่", "หรือยัง"))


# "or" between two answers: after a match (ja か, もしくは, または; zh 或者, 还是 ... are no
# boundary, so a match before them is "embedded" already), and before one (北京还是上海)
_OR_AFTER: Final = _folded(("か", "もしくは", "または", "又は", "あるいは", "หรือ"))
_OR_FIRST: Final = frozenset(w[0] for w in _OR_AFTER)
_OR_BEFORE: Final = _folded(("还是", "還是", "或是", "或者是", "或者", "或", "もしくは", "または", "又は",
                      "あるいは", "か", "หรือ", "หรือว่า"))


# words before 还是 that make it "after all", not "or" (and _BEFORE's: 觉得, 答案, 是 ...)
_THINK: Final = (*_BEFORE, *_folded(("想", "看", "说", "說", "猜", "估计", "估計", "我", "感觉", "感覺")))


def _hedged(answer: str, head: str, rest: str) -> bool:
    """Is a match between ``head`` and ``rest`` one of two answers joined by "or"
    (``宮崎駿か高畑勲``, ``宮崎駿か、高畑勲``, ``東京もしくは大阪``, ``北京还是上海``), the other
    not ``answer`` too? A guess after the match is none (``宮崎駿かな``, ``宮崎駿かも``)."""
    if rest.startswith(_OR_AFTER) and not rest.startswith(_KA_TAGS):
        word = next(w for w in _OR_AFTER if rest.startswith(w))
        other = rest[len(word):].lstrip("、，, ")
        if other and other[0].isalnum() and find_in_run(answer, other) not in ("exact", "found"):
            return True
    if head.endswith(_OR_BEFORE):
        word = next(w for w in _OR_BEFORE if head.endswith(w))
        other = head[:-len(word)].rstrip("、，, ")
        # (还是 is also "after all": 我觉得还是上海, 我想还是上海 say one answer)
        if other and other[-1].isalnum() and not other.endswith(_THINK) and find_in_run(
                answer, other) not in ("exact", "found"):
            return True
    return False


def _ok_before(head: str) -> bool:
    """Is the text before a match a boundary (nothing, non-letter or a listed word)?"""
    if not head or not head[-1].isalnum():
        return True
    return head.endswith(_BEFORE)


def _negated_before_word(head: str) -> bool:
    """Does the text before a match end in a negation and then one listed word before
    names (``ไม่ใช่แม่น้ำ`` before ``เจ้าพระยา``: "not the river Chao Phraya"; blind25)?"""
    for b in _BEFORE:
        if head.endswith(b):
            return head[:-len(b)].endswith(NEGATION_BEFORE)
    return False


def _strip_affixes(text: str) -> str:
    """Drop listed affixes from the end and the start of a whole answer."""
    changed = True
    while changed and len(text) > 1:
        changed = False
        for a in (*_SUFFIXES, *_AFTER):
            if text.endswith(a) and len(text) > len(a) + 1:
                text = text[: -len(a)]
                changed = True
                break
        for b in _BEFORE:
            if text.startswith(b) and len(text) > len(b) + (3 if b in _SHORT_ONLY else 1):
                # (จ and กรุง only before a name of four letters or more: กรุงเทพ stays)
                text = text[len(b):]
                changed = True
                break
    return text


# the suffixes that name a kind of place (not ฯ, the abbreviation mark, nor มหานคร)
_KIND_SUFFIXES: Final = tuple(x for x in _SUFFIXES
                       if x not in _folded(("ฯ", "มหานคร")) and x not in _TITLES_AFTER)


def _kind_suffixes_differ(a: str, c: str) -> bool:
    """Do both end in a kind-of-place suffix, and different ones (``ドミニカ国`` and
    ``ドミニカ共和国``: two countries; ``大阪府`` and ``大阪市``: a prefecture and a city)?"""
    ka = next((x for x in _KIND_SUFFIXES if a.endswith(x)), None)
    kc = next((x for x in _KIND_SUFFIXES if c.endswith(x)), None)
    return ka is not None and kc is not None and ka != kc


def find_in_run(answer: str, candidate: str, words: bool = True) -> MatchKind:
    """How a no-space-script ``answer`` occurs in ``candidate`` (both normalized;
    spaces are ignored).

    * ``"exact"``: the same once listed affixes are stripped from both
      (``東京都`` ~ ``東京``, ``กรุงเทพฯ`` ~ ``กรุงเทพ``, ``北京です`` ~ ``北京``);
    * ``"found"``: inside the candidate with a boundary on both sides
      (``答案是东京`` has ``东京``);
    * ``"negated"``: found, with a negation before or after it (``不是东京``);
    * ``"hedged"``: found, followed by the Japanese "or" and another answer
      (``宮崎駿か高畑勲``);
    * ``"embedded"``: only inside another word (``京都`` in ``東京都``, ``北京`` in
      ``北京大学``);
    * ``"shares"``: not there, but sharing characters (``東京`` vs ``京都``);
    * ``"none"``: no character in common.

    ``words``: a Thai or Japanese sentence may be read in words by its dictionary
    (PyThaiNLP, UniDic); not for a text rewritten for matching (kana folded to hiragana).
    """
    a = answer.replace(" ", "")
    c = candidate.replace(" ", "")
    if not a or not c:
        return "none"
    if a == c:
        return "exact"
    sa, sc = _strip_affixes(a), _strip_affixes(c)
    if sa in (sc, c) or a == sc:
        if sa == sc != c and a != sc and _kind_suffixes_differ(a, c):
            return "shares"  # ドミニカ国 / ドミニカ共和国, 大阪府 / 大阪市: another entity
        return "exact"
    best = "none"
    # (the answer less its affixes only where the whole answer is not there: the
    # hiragana of アフリカ ends in か, the Japanese "or", which is no affix inside it)
    for needle in (a,) if a in c else dict.fromkeys((a, sa)):
        if len(needle) < 2 and needle != c and not (words and HAS_KANA.search(c)):
            continue
        start = c.find(needle)
        while start >= 0:
            head, rest = c[:start], c[start + len(needle):]
            ok_before = _ok_before(head) or bool(_COUNTED.search(head))
            bounded = ok_before and (_ok_after(rest) or (
                len(rest) <= 3 and _COUNTED.search(needle) is not None and rest.isalpha()))
            if not bounded and words and _THAI.match(needle) and (
                    c.endswith(_THAI_ENDINGS) or rest.startswith(_THAI_LINKS)) and not (
                    head.endswith(_THAI_OTHER_KIND)) and start in (
                    bounds := thai_word_bounds(c)) and start + len(needle) in bounds:
                # a Thai sentence, said with its polite ending, holding the answer as a
                # word ("ซื้อเสื้อครับ", "bought a shirt", for เสื้อ; "เสื้อผ้า", clothes, is
                # one word; blind19); not a name built on the answer ("ถนนเชียงใหม่", a
                # road, "กินีบิสเซา", Guinea-Bissau)
                ok_before = bounded = True
            elif not bounded and words and HAS_KANA.search(c) and _japanese_word(
                    c, start, start + len(needle)):
                # a Japanese sentence holding the answer as a word, particles or auxiliary
                # verbs after it ("駅で会いました" for 駅, "450円でした"; blind20): UniDic's
                # words; not a compound ("ドミニカ共和国" is no ドミニカ)
                ok_before = bounded = True
            if ok_before and rest.startswith(NEGATION_AFTER):
                if _not_the_other(rest) or rest.startswith(_TENTATIVE):
                    return "found"  # 上海，不是北京: "Shanghai, not Beijing"
                best = "negated"
            elif bounded:
                if head.endswith(NEGATION_BEFORE) or rest.startswith(NEGATION_AFTER) or (
                        _negated_before_word(head)):
                    best = "negated"
                elif (rest[:1] in _OR_FIRST or head.endswith(_OR_BEFORE)) and _hedged(
                        answer, head, rest):
                    best = "hedged"  # 宮崎駿か高畑勲: "Miyazaki or Takahata"
                else:
                    return "found"
            elif best == "none":
                best = "embedded"
            start = c.find(needle, start + 1)
    if best not in ("none", "embedded"):
        return best
    if _ORDINAL_MARK.search(a) or _ORDINAL_MARK.search(c):
        a2, c2 = _ordinal_digits(a), _ordinal_digits(c)
        if (a2, c2) != (a, c):
            return find_in_run(a2, c2, words)  # สงครามโลกครั้งที่ 1 / ครั้งที่หนึ่ง
    if _DIGITS.search(a) or _DIGITS.search(c) or "月" in a or "月" in c:
        a2, c2 = _dated_digits(a), _dated_digits(c)
        if (a2, c2) != (a, c) and (_DIGITS.search(a2) and _DIGITS.search(c2)):
            return find_in_run(a2, c2, words)  # 三月五日 / 3月5日 / 三月五号 (blind20)
    if _DIGITS.search(a) or _DIGITS.search(c):
        a2, c2 = _words_as_digits(a, c), _words_as_digits(c, a)
        if (a2, c2) != (a, c):
            return find_in_run(a2, c2, words)  # 流浪地球二 / 流浪地球2
    if ((a[:1].isdigit() or a[:1] in FIRST_CHARS) and (c[:1].isdigit() or c[:1] in FIRST_CHARS)
            and (whole := whole_number(a)) is not None and whole == whole_number(c)):
        return "exact"  # 一千九百八十四年 / 1984年 / 一九八四年
    if (a[:1].isdigit() or c[:1].isdigit()) and _number_then_same(a, c):
        return "exact"  # 三十六計 / 36計, 一千零一夜 / 1001夜
    if best != "none":
        return best
    if set(a) & set(c) - set(" "):
        return "shares"
    return "none"


_THAI: Final = re.compile("[\u0e01-\u0e4f]")
# a number and its counter (zh, ja): before a noun it counts ("一只松鼠" has 松鼠), and
# an answer that is one ("三只") is said with the noun after it ("三只猫"; blind19)
_COUNTED: Final = re.compile("[一二两兩三四五六七八九十百千万萬几幾\\d][只隻个個本匹头頭羽台枚条條张張辆輛棵朵杯]$")
# the endings of a Thai sentence as spoken (polite particles, "surely", "isn't it?")
_THAI_ENDINGS: Final = tuple(w for w in _AFTER if _THAI.match(w))
# Thai words that, after an answer, begin a phrase about it ("ภาคเหนือของประเทศไทย",
# the north of Thailand; blind27): of, in, at, which, and, is
_THAI_LINKS: Final = _folded(("ของ", "ใน", "ที่", "ซึ่ง", "และ", "เป็น"))
# Thai words that, before a name, make another thing of it (its language, a road, a
# school, a planet: ดาวเสาร์ is Saturn, เสาร์ Saturday)
_THAI_OTHER_KIND: Final = _folded(("ภาษา", "ถนน", "ซอย", "สนามบิน", "มหาวิทยาลัย", "โรงเรียน",
                            "โรงพยาบาล", "สถานี", "ชาว", "อาหาร", "ดาว", "วัด", "ตลาด",
                            "สะพาน", "ทีม", "สโมสร", "บริษัท", "พรรค"))


@lru_cache(maxsize=4096)
def thai_word_bounds(text: str) -> frozenset[int]:
    """The offsets in ``text`` (normalized, no spaces) where a word starts or ends, by
    PyThaiNLP's dictionary segmentation (newmm, its dictionary in the wheel; imported
    on first use). NFKC splits ำ into ํ and า: the text is segmented as written."""
    from pythainlp.tokenize import word_tokenize

    bounds = {0}
    pos = 0
    for word in word_tokenize(text.replace("\u0e4d\u0e32", "\u0e33"), engine="newmm"):
        pos += len(unicodedata.normalize("NFKC", word))
        bounds.add(pos)
    return frozenset(bounds)


# What ends a clause as written (not the enumeration comma 、, which lists: 東京、大阪),
# and whitespace typed between words (Thai writes a space between clauses)
_CLAUSE_END: Final = re.compile(r"[，。；;！？!?,\s]+")
# the least a clause beside the answer's holds, in characters: a name listed beside it
# ("东京，大阪": another answer) is shorter than a clause that says something about it
_CLAUSE_MIN: Final = 4
# "or" and "maybe ... maybe" in a clause (zh, ja, th): another answer offered; the words
# of _OR_BEFORE long enough to be looked for anywhere (not 或 nor か, inside many words)
_OR_MARKS: Final = tuple(w for w in _OR_BEFORE if len(w) >= 2) + _folded(("也可能", "或许", "或許", "或いは"))


def clauses_of(text: str) -> tuple[str, ...]:
    """The clauses of a candidate in a script without spaces as written, normalized
    (``"东京，它是日本的首都"`` -> ``("东京", "它是日本的首都")``); ``()`` when there is one."""
    parts = [p for p in _CLAUSE_END.split(text) if p]
    if len(parts) < 2:
        return ()
    from judging.normalize import tokens  # (normalize imports this module)

    return tuple(n for n in (" ".join(tokens(p)) for p in parts) if n)


def in_a_clause(answer: str, clauses: tuple[str, ...]) -> MatchKind | None:
    """``"found"`` when ``answer`` is a clause of the candidate or a word of one
    (:func:`judging.scripts.find_in_run`: "exact" or "found" there; "negated" likewise)
    and every other clause is at least :data:`_CLAUSE_MIN` characters (a sentence about
    it, not another name listed beside it); else ``None``."""
    if any(m in c for c in clauses for m in _OR_MARKS):
        return None  # (two answers offered: "东京，或者大阪" is a hedge, not an answer)
    kinds = [find_in_run(answer, c) for c in clauses]
    for i, kind in enumerate(kinds):
        if kind in ("exact", "found", "negated") and all(
                len(c.replace(" ", "")) >= _CLAUSE_MIN for j, c in enumerate(clauses) if j != i):
            return "negated" if kind == "negated" else "found"
    return None


_LEADING_DIGITS: Final = re.compile("[0-9]+")


def _number_then_same(a: str, c: str) -> bool:
    """Is one text digits and a tail, and the other number words and the same tail
    (``36計`` / ``三十六計``, ``1001夜`` / ``一千零一夜``)? The number starts both texts, so a
    number word inside a word (``统一``, ``万一``) is never read."""
    for x, y in ((a, c), (c, a)):
        m = _LEADING_DIGITS.match(x)
        if m is None or m.end() == len(x):
            continue
        tail = x[m.end():]
        if _DIGITS.search(tail) or not y.endswith(tail) or len(y) == len(tail):
            continue
        head = y[:-len(tail)]
        if head[:1] in FIRST_CHARS and strip_counters(head) == head and read_number(
                head) == int(m.group()):
            return True
    return False


def whole_number(text: str) -> tuple[int, str] | None:
    """A text that is one number and the counters around it (``1984年``,
    ``一千九百八十四年``, ``제3``): its value and those counters (``"\x00年"``), so that
    two such texts are the same answer when both agree (``二〇〇八年`` / ``2008年``;
    not ``三月`` / ``3日``); ``None`` for any other text."""
    if text[:2] in KO_MONTH_SOUNDS:
        text = KO_MONTH_SOUNDS[text[:2]] + text[2:]
    core = strip_counters(text)
    if not core:
        return None
    value = int(core) if core.isdigit() else read_number(core)
    if value is None:
        return None
    i = text.find(core)
    if core in JA_DAY_READINGS:  # (なのか is 七日: its counter is 日)
        return value, text[:i] + "\x00日" + strip_copulas(text[i + len(core):])
    # (a copula after the counter is no counter: 六十分です is 60分)
    return value, text[:i] + "\x00" + strip_copulas(text[i + len(core):])


# an ordinal marker and the number words after it (ครั้งที่หนึ่ง, 第一, 제일)
_ORDINAL_MARK: Final = re.compile("(?:ที่|第)(?=[^0-9])")


def _ordinal_digits(text: str) -> str:
    """``text`` with the number words after an ordinal marker written in digits
    (``รัชกาลที่หนึ่ง`` -> ``รัชกาลที่1``), so that they match an answer with digits."""
    out = []
    pos = 0
    for m in _ORDINAL_MARK.finditer(text):
        j = m.end()
        if j < pos:
            continue
        for k in range(len(text), j, -1):
            seg = text[j:k]
            value = read_number(seg) if strip_counters(seg) == seg else None
            if value is not None:
                out.append(text[pos:j] + str(value))
                pos = k
                break
    return "".join(out) + text[pos:] if out else text


_DIGITS: Final = re.compile("[0-9]+")
_NUMBER_SPAN: Final = 16  # the longest number words read against digits (九千九百九十九 is 7)


# number words right before a unit of a date or a time (zh, ja): 三月五日, 十一月, 二〇二〇年
_DATED_WORDS: Final = re.compile("([〇零一二两兩三四五六七八九十百千]+)(?=[年月日号號時时点點分秒])")
# the colloquial zh day of the month: 3月5号 is 3月5日
_DAY_HAO: Final = re.compile("(\\d+月\\d+)[号號]")


def _dated_digits(text: str) -> str:
    """``text`` with the number words before a date's or a time's unit in digits and a
    day written with 号 written with 日 (``三月五号`` -> ``3月5日``)."""
    def digits(m: re.Match[str]) -> str:
        value = read_number(m.group(1))
        return m.group(1) if value is None else str(value)

    return _DAY_HAO.sub("\\1日", _DATED_WORDS.sub(digits, text))


def _words_as_digits(text: str, other: str) -> str:
    """``text`` with number words written in digits where ``other`` has digits between
    the same characters (``流浪地球二`` -> ``流浪地球2`` against ``流浪地球2``, also inside a
    sentence, ``我觉得是流浪地球二``; ``二号线`` -> ``2号线`` against ``2号线``): the
    characters next to the number must be there on both sides, at least two of them,
    so a number word inside an ordinary word (``统一``, ``万一``) is never read. ``text``
    itself when it has digits or nothing matches."""
    if _DIGITS.search(text):
        return text
    for m in _DIGITS.finditer(other):
        before, after = other[:m.start()], other[m.end():]
        if len(before) + len(after) < 2 or _DIGITS.search(before + after):
            continue
        value, digits = int(m.group()), m.group()
        anchor = before or after
        at = text.find(anchor)
        while at >= 0:
            # the number words right after ``before`` (or right before ``after``)
            # (at most _NUMBER_SPAN characters: a number word of 0-9999 is shorter, and
            # a longer text would cost a reading per span)
            start = at + len(before)
            spans = ([(start, k) for k in range(min(len(text), start + _NUMBER_SPAN), start, -1)]
                     if before else [(j, at) for j in range(max(0, at - _NUMBER_SPAN), at)])
            for j, k in spans:
                seg = text[j:k]
                if text[k:].startswith(after) and strip_counters(seg) == seg \
                        and read_number(seg) == value:
                    return text[:j] + digits + text[k:]
            at = text.find(anchor, at + 1)
    return text


# ------------------------------------------------------------ kana read as romaji

# Hepburn romaji of the kana (hiragana; katakana is mapped onto it), the two-kana
# sounds first: a reading in kana against an answerline's romanized form ("とうきょう"
# for "東京 [accept Tokyo]").
_KANA_PAIRS: Final = {
    "きゃ": "kya", "きゅ": "kyu", "きょ": "kyo", "しゃ": "sha", "しゅ": "shu", "しょ": "sho",
    "ちゃ": "cha", "ちゅ": "chu", "ちょ": "cho", "にゃ": "nya", "にゅ": "nyu", "にょ": "nyo",
    "ひゃ": "hya", "ひゅ": "hyu", "ひょ": "hyo", "みゃ": "mya", "みゅ": "myu", "みょ": "myo",
    "りゃ": "rya", "りゅ": "ryu", "りょ": "ryo", "ぎゃ": "gya", "ぎゅ": "gyu", "ぎょ": "gyo",
    "じゃ": "ja", "じゅ": "ju", "じょ": "jo", "びゃ": "bya", "びゅ": "byu", "びょ": "byo",
    "ぴゃ": "pya", "ぴゅ": "pyu", "ぴょ": "pyo",
}
_KANA: Final = dict(zip(
    "あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめもやゆよらりるれろわをん"
    "がぎぐげござじずぜぞだぢづでどばびぶべぼぱぴぷぺぽぁぃぅぇぉゔ",
    ["a", "i", "u", "e", "o", "ka", "ki", "ku", "ke", "ko", "sa", "shi", "su", "se", "so", "ta", "chi", "tsu", "te", "to", "na", "ni", "nu", "ne", "no", "ha", "hi", "fu", "he", "ho", "ma", "mi", "mu", "me", "mo", "ya", "yu", "yo", "ra", "ri", "ru", "re", "ro", "wa", "o", "n", "ga", "gi", "gu", "ge", "go", "za", "ji", "zu", "ze", "zo", "da", "ji", "zu", "de", "do", "ba", "bi", "bu", "be", "bo", "pa", "pi", "pu", "pe", "po", "a", "i", "u", "e", "o", "vu"], strict=True))
_KANA_ONLY: Final = re.compile("[\u3041-\u3096\u30a1-\u30fa\u30fc]+")
_LONG_VOWELS: Final = re.compile(r"([aeiou])\1|ou")


def kana_romaji(text: str) -> str | None:
    """``text`` (kana only) in Hepburn romaji with its long vowels written once
    (``とうきょう`` -> ``tokyo``, ``おおさか`` -> ``osaka``, ``ほっかいどう`` ->
    ``hokkaido``); ``None`` for anything else."""
    if not _KANA_ONLY.fullmatch(text):
        return None
    # katakana onto hiragana (the long-vowel mark repeats the vowel before it)
    kana = "".join(chr(ord(c) - 0x60) if "\u30a1" <= c <= "\u30f6" else c for c in text)
    out: list[str] = []
    i, double = 0, False
    while i < len(kana):
        pair = _KANA_PAIRS.get(kana[i:i + 2])
        if kana[i] == "っ":
            double, i = True, i + 1
            continue
        if kana[i] == "ー":
            if out:
                out.append(out[-1][-1])
            i += 1
            continue
        syl = pair or _KANA.get(kana[i])
        if syl is None:
            return None
        if double:
            syl = ("t" if syl.startswith("ch") else syl[0]) + syl
            double = False
        out.append(syl)
        i += 2 if pair else 1
    return long_vowels("".join(out))


def long_vowels(romaji: str) -> str:
    """A romanized Japanese word with its long vowels written once (``toukyou``,
    ``tookyoo`` -> ``tokyo``)."""
    return _LONG_VOWELS.sub(lambda m: m.group(0)[0], romaji)


def kana_reading(cand: str, accept: tuple[Alt, ...]) -> Alt | None:
    """The acceptable answer written in Latin letters that the kana answer ``cand``
    (its copula aside) reads as (``とうきょうです`` for ``東京 [accept Tokyo]``), else
    ``None``."""
    romaji = kana_romaji(strip_copulas(cand))
    if not romaji:
        return None
    for a in accept:
        if a.norm.isascii() and long_vowels(a.norm.replace(" ", "").replace("-", "")) == romaji:
            return a
    return None


# kanji (kana alone: _KANA_ONLY above)
_KANJI: Final = re.compile("[\u4e00-\u9fff\u3400-\u4dbf\u3005]")


@lru_cache(maxsize=1)
def _japanese_tagger():
    """MeCab (fugashi) with the UniDic-lite dictionary, both installed from PyPI."""
    from fugashi import Tagger

    return Tagger()


@lru_cache(maxsize=4096)
def japanese_kana(text: str) -> str:
    """The reading of a Japanese word or phrase in katakana by UniDic (``林檎`` ->
    ``リンゴ``, ``鈴木`` -> ``スズキ``), voiced marks folded so that a word read alone
    and in a compound agree (``火曜日`` カヨウヒ, ``かようび`` カヨウヒ); ``""`` when a
    part has no reading."""
    out = []
    for word in _japanese_tagger()(text):
        kana = getattr(word.feature, "kana", None)
        if not kana or kana == "*":
            return ""
        out.append(kana)
    # (katakana; NFD splits a voiced kana into the plain one and its mark)
    return "".join(ch for ch in unicodedata.normalize("NFD", "".join(out))
                   if ch not in "\u3099\u309a")


@lru_cache(maxsize=4096)
def _japanese_words(text: str) -> tuple[tuple[int, int, str], ...]:
    """UniDic's words of ``text`` as (start, end, part of speech)."""
    out = []
    pos = 0
    for word in _japanese_tagger()(text):
        at = text.find(word.surface, pos)
        if at < 0:
            return ()
        pos = at + len(word.surface)
        out.append((at, pos, word.feature.pos1 or ""))
    return tuple(out)


HAS_KANA: Final = re.compile("[\u3041-\u30ff]")
# what may follow a word that stands alone in a sentence (particles, auxiliary verbs,
# punctuation), and what may not stand right before it (a noun or a prefix: a compound)
_JA_AFTER_WORD: Final = frozenset({"助詞", "助動詞", "補助記号"})
_JA_COMPOUNDING: Final = frozenset({"名詞", "接頭辞"})


def _japanese_word(text: str, start: int, end: int) -> bool:
    """Is ``text[start:end]`` one or more whole words of a Japanese sentence, followed
    by a particle, an auxiliary verb or nothing, after no noun or prefix?"""
    words = _japanese_words(text)
    starts = {w[0]: w for w in words}
    ends = {w[1]: w for w in words}
    if start not in starts or end not in ends:
        return False
    after = starts.get(end)
    before = ends.get(start)
    return (after is None or after[2] in _JA_AFTER_WORD) and (
        before is None or before[2] not in _JA_COMPOUNDING)


def japanese_reading(cand: str, answer_texts: tuple[tuple[str, Alt], ...]) -> Alt | None:
    """The acceptable answer in kanji that a Japanese answer in kana alone reads as, or
    the answer in kana that one in kanji reads as (``りんご`` for ``林檎``, ``おばです``
    for ``伯母``, ``さんびき`` for ``三匹``; blind20), its copula aside; else ``None``.
    Both written in kanji with one reading are not compared: ``箸`` is not ``橋``."""
    cand = strip_copulas(cand.strip())
    if not cand or not (_KANA_ONLY.fullmatch(cand) or _KANJI.search(cand)):
        return None
    kana_cand = bool(_KANA_ONLY.fullmatch(cand))
    mine = None
    for text, a in answer_texts:
        text = strip_copulas(text.strip())
        if not text or text == cand or (kana_cand == bool(_KANA_ONLY.fullmatch(text))) or not (
                _KANA_ONLY.fullmatch(text) or _KANJI.search(text)):
            continue
        if mine is None:
            mine = japanese_kana(cand)
            if not mine:
                return None
        if japanese_kana(text) == mine:
            return a
    return None


# ------------------------------------------------ readings of Hangul and Chinese in Latin

# Revised Romanization of Korean (2000), letter by letter: the initials, vowels and
# finals of a Hangul syllable (U+AC00 + (initial * 21 + vowel) * 28 + final)
_RR_INITIAL: Final = ("g", "kk", "n", "d", "tt", "r", "m", "b", "pp", "s", "ss", "", "j", "jj",
               "ch", "k", "t", "p", "h")
_RR_VOWEL: Final = ("a", "ae", "ya", "yae", "eo", "e", "yeo", "ye", "o", "wa", "wae", "oe", "yo",
             "u", "wo", "we", "wi", "yu", "eu", "ui", "i")
_RR_FINAL: Final = ("", "k", "k", "k", "n", "n", "n", "t", "l", "k", "m", "l", "l", "l", "p", "l",
             "m", "p", "p", "t", "t", "ng", "t", "t", "k", "t", "p", "t")
# a final before a syllable with no initial sound (ㅇ) is said as that syllable's
# initial: 한국어 han-gu-geo, 서울역 seo-ul-yeok (only the single finals; the rest keep
# their final reading)
_RR_LINKED: Final = {1: "g", 4: "n", 7: "d", 8: "r", 16: "m", 17: "b", 19: "s", 22: "j", 23: "ch",
              24: "k", 25: "t", 26: "p", 27: "h"}


def hangul_romanized(text: str) -> str:
    """``text`` in the Revised Romanization, its spaces and other letters dropped
    (``경주`` -> ``gyeongju``, ``서울`` -> ``seoul``, ``한국어`` -> ``hangugeo``). The
    sound changes across syllables other than a final carried over to a vowel are not
    applied (``신라`` is ``sinra``, said "silla"): :func:`loose_romanization` makes up
    for the commonest."""
    codes = [ord(ch) - 0xAC00 for ch in text if "\uac00" <= ch <= "\ud7a3"]
    out = []
    for i, code in enumerate(codes):
        initial, vowel, final = code // 588, (code % 588) // 28, code % 28
        out.append(_RR_INITIAL[initial] + _RR_VOWEL[vowel])
        if final:
            linked = i + 1 < len(codes) and codes[i + 1] // 588 == 11 and final in _RR_LINKED
            out.append(_RR_LINKED[final] if linked else _RR_FINAL[final])
    return "".join(out)


# the spellings romanizations of Korean and Chinese differ by (McCune-Reischauer and
# older spellings: Kyongju / Gyeongju, Pusan / Busan, Inchon / Incheon, Silla / Sinra;
# pinyin tone marks are folded already): both sides are compared with these folded
_LOOSE: Final = (("eo", "o"), ("eu", "u"), ("ch", "j"), ("k", "g"), ("t", "d"), ("p", "b"),
          ("r", "l"), ("wo", "o"), ("nl", "ll"), ("ln", "ll"), ("sh", "s"))


def loose_romanization(text: str) -> str:
    """``text`` (Latin letters, lower case, no spaces) with the spellings of
    :data:`_LOOSE` folded, so that two romanizations of one word compare equal."""
    for a, b in _LOOSE:
        text = text.replace(a, b)
    return text


HAN_ONLY: Final = re.compile("[\u4e00-\u9fff]+")


def latin_reading(text: str) -> str | None:
    """Hangul in the Revised Romanization, Chinese characters in pinyin without tones
    (``경주`` -> ``gyeongju``, ``杜甫`` -> ``dufu``), spaces aside; ``None`` for text of
    any other kind (mixed scripts, kana, Thai)."""
    text = text.replace(" ", "")
    if text and all("\uac00" <= ch <= "\ud7a3" for ch in text):
        return hangul_romanized(text)
    if HAN_ONLY.fullmatch(text):
        return "".join(pinyin_syllables(text))
    return None


def _reads_as(mine: str, theirs: str) -> bool:
    """Are two romanizations the same word, older spellings folded?"""
    return theirs == mine or loose_romanization(theirs) == loose_romanization(mine)


def romanized_reading(cand: str, accept: tuple[Alt, ...]) -> Alt | None:
    """The acceptable answer written in Hangul or in Chinese characters that the short
    Latin answer ``cand`` (normalized) reads as: ``Gyeongju`` or ``Kyongju`` for ``경주``
    (Revised Romanization, older spellings folded), ``Du Fu`` for ``杜甫`` (pinyin, read
    by pypinyin, which ships its dictionary). Letters only, spaces and hyphens aside;
    ``None`` when none reads so. (Japanese readings of kanji need a dictionary the
    project does not ship.)"""
    mine = "".join(ch for ch in cand if ch.isalpha())
    if len(mine) < 3:
        return None
    for a in accept:
        if not a.norm.isascii() and (theirs := latin_reading(a.norm)) is not None and (
                _reads_as(mine, theirs)):
            return a
    return None


def romanized_candidate(cand: str, accept: tuple[Alt, ...]) -> Alt | None:
    """Rule 12k the other way round: the acceptable answer in Latin letters that the
    short answer ``cand`` (normalized), in Hangul or in Chinese characters, reads as
    (``광주`` for ``Gwangju [accept Kwangju]``, ``杜甫`` for ``Du Fu``); ``None`` when
    none does."""
    mine = latin_reading(cand)
    if mine is None or len(mine) < 3:
        return None
    for a in accept:
        if a.norm.isascii() and _reads_as(mine, "".join(ch for ch in a.norm if ch.isalpha())):
            return a
    return None


def pinyin_syllables(text: str) -> list[str]:
    """The pinyin of Chinese characters without tones (``杜甫`` -> ``["du", "fu"]``);
    pypinyin is imported on first use (its phrase dictionary takes a while to load)."""
    from pypinyin import Style, lazy_pinyin

    return lazy_pinyin(text, style=Style.NORMAL, v_to_u=True)
