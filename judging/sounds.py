"""Rule 12o: a foreign name written in another script by its sound.

Korean, Japanese and Chinese write foreign names as they sound (``아인슈타인``,
``アインシュタイン``, ``爱因斯坦`` for ``Einstein``; ``베토벤``, ``ベートーヴェン``, ``贝多芬``
for ``Beethoven``), so an answer and its answerline in two scripts may share no letter.
Each side is read into Latin letters (Hangul by the Revised Romanization, kana by
Hepburn romaji, Chinese characters by pinyin: :mod:`judging.scripts`) and reduced to a
*consonant skeleton*: consonants in classes the three languages cannot tell apart
(``b p f v``, ``d t``, ``g k c q``, ``s z j ch sh ts x``, ``l r``, ``m``, ``n ng``),
``h``, ``w``, ``y`` and the vowels dropped (the languages add vowels between
consonants), a first vowel kept as a mark. ``einstein`` and ``ainsyutain`` are both
``_nstn``; ``beethoven``, ``betoben``, ``beidofen`` are ``ptpn``.

Two skeletons match when they are equal, or, both of four consonants or more, when
one has an ``l`` more (``셰익스피어`` drops Shakespeare's final r; ``ディキンソン``,
Dickinson, has an n more than Dickens and is another name); an n before a p is an m
(``コロンブス``). A skeleton of fewer than three
consonants says too little and matches nothing; one of three counts in Hangul, Chinese
characters or Thai only with a mark of a foreign word (a Hangul syllable with ㅠ or ㅡ,
a character Chinese uses to transliterate, Thai's silencing mark; katakana is one
itself), since Korean and Chinese names of their own share three consonants often
(``광주`` and ``경주`` are both ``kns``). Thai is read as spelled, silenced letters too:
Thai keeps a foreign name's spelling and silences what it does not say. A Vietnamese
respelling (``Anhxtanh``, ``Ê-đi-xơn``) is read with Vietnamese letters.

This is a heuristic for names, not a transliteration: it knows no dictionary, so a
translated title (``기생충`` for ``Parasite``) is out of its reach, and two names that
sound alike in these classes (``Edison``, ``Addison``) are one.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import TYPE_CHECKING, Final

from judging.scripts import HAN_ONLY, kana_romaji, latin_reading

if TYPE_CHECKING:
    from judging.preparation import Alt

_KATAKANA: Final = re.compile("[\u30a1-\u30fa\u30fc]+")
# marks of a foreign word: Hangul syllables with the vowels ㅠ (yu) or ㅡ (eu), which
# Korean puts after a foreign consonant (뉴턴, 슈, 스, 트); Chinese characters of
# transliteration (斯, 特, 尔, 顿, 因, ...)
_KO_LOAN_VOWELS: Final = frozenset({17, 18})
_ZH_LOAN: Final = frozenset("斯特尔爾克夫诺諾莫亚亞拉德顿頓森逊遜伯布普洛罗羅维維韦韋芬琴因兹茨迪娜丽麗"
                     "莉玛瑪娅雅妮奥奧欧歐埃艾伊乌烏卡萨薩塔纳納哈巴帕达達瓦曼朗蒂利里基吉索托科"
                     "戈波佩贝貝梅赫霍约約杰傑詹")
MIN_CONSONANTS: Final = 3

# a Latin spelling's letter groups, in the order they are read (before single letters)
_LATIN: Final = re.compile("tsch|sch|tch|ch|sh|ts|tz|ph|th|ck|qu|ng|gh|[a-z]")
_LATIN_CLASS: Final = {
    "tsch": "s", "sch": "s", "tch": "s", "ch": "s", "sh": "s", "ts": "s", "tz": "s",
    "ph": "p", "th": "t", "ck": "k", "qu": "k", "ng": "n", "gh": "",
    "b": "p", "p": "p", "f": "p", "v": "p", "d": "t", "t": "t", "g": "k", "k": "k",
    "q": "k", "c": "k", "s": "s", "z": "s", "j": "s", "x": "ks", "l": "l", "r": "l",
    "m": "m", "n": "n", "h": "", "w": "", "y": "",
}
_VOWELS: Final = frozenset("aeiou")
# pinyin's sibilants and affricates (c is "ts", q "ch", x "sh")
_PINYIN: Final = re.compile("zh|ch|sh|[zcsjqx]")


def _skeleton_of_latin(text: str) -> str:
    """The skeleton of lower-case Latin letters (see the module docstring)."""
    letters = "".join(ch for ch in text if "a" <= ch <= "z")
    out: list[str] = []
    last = ""  # the class of the letter group just before (a vowel resets it)
    for i, m in enumerate(_LATIN.finditer(letters)):
        group = m.group()
        if group in _VOWELS:
            if i == 0:
                out.append("_")
            last = ""
            continue
        cls = _LATIN_CLASS.get(group, "")
        if group == "c" and letters[m.end():m.end() + 1] in ("e", "i", "y"):
            cls = "s"  # (c before e, i, y is s: Cecil, Cicero)
        for c in cls:
            if c != last:  # (a doubled consonant is one: Picasso)
                if c == "p" and out and out[-1] == "n" and last == "n":
                    out[-1] = "m"  # (n before b or p is said m: コロンブス, Columbus)
                out.append(c)
            last = c
    return "".join(out)


# a copula or particle after a name in katakana (ヘンデルです): it is written in hiragana,
# which a katakana name does not contain
_HIRAGANA_TAIL: Final = re.compile("(?<=[\u30a1-\u30fa\u30fc])[\u3041-\u3096]+$")


@lru_cache(maxsize=65536)
def skeleton(text: str) -> str | None:
    """The consonant skeleton of a name as normalized by the judge (lower case,
    folded): Latin letters as they are, Hangul, kana or Chinese characters read into
    Latin first; ``None`` for text in other scripts, mixed scripts, or with fewer than
    :data:`MIN_CONSONANTS` consonants."""
    text = text.replace(" ", "").replace("・", "")
    if not text:
        return None
    if text.isascii():
        sk = _skeleton_of_latin(text)
        return sk if len(sk.lstrip("_")) >= MIN_CONSONANTS else None
    if (latin := latin_reading(text)) is not None:  # (Hangul, or Chinese characters)
        if HAN_ONLY.fullmatch(text):
            sk = _skeleton_of_latin(_PINYIN.sub("s", latin))
            foreign = not _ZH_LOAN.isdisjoint(text)
        else:
            sk = _skeleton_of_latin(latin)
            foreign = any((ord(ch) - 0xAC00) % 588 // 28 in _KO_LOAN_VOWELS for ch in text)
    elif _KATAKANA.fullmatch(text := _HIRAGANA_TAIL.sub("", text)) and (
            romaji := kana_romaji(text)) is not None:
        sk, foreign = _skeleton_of_latin(romaji), True  # (katakana writes the foreign)
    elif _THAI.match(text):
        sk = _skeleton_of_thai(text) or ""
        foreign = "\u0e4c" in text  # (the silencing mark: a spelling kept from abroad)
    else:
        return None
    n = len(sk.lstrip("_"))
    # three consonants say little: Korean, Chinese and Thai names of their own share
    # them often (광주 and 경주, 전주 and 진주 are all "kns"/"sns"), so a short skeleton
    # counts only with a mark of a foreign word
    return sk if n > MIN_CONSONANTS or (n == MIN_CONSONANTS and foreign) else None


# Thai consonants by class (a consonant under the silencing mark ์ is read too: Thai
# spells a foreign name letter by letter and silences what it does not say, so the
# spelling, not the sound, is what matches: ไอน์สไตน์ is _nstn like "Einstein")
_THAI_CLASS: Final = {
    **dict.fromkeys("กขฃคฅฆ", "k"), "ง": "n", **dict.fromkeys("จฉชซฌศษส", "s"),
    **dict.fromkeys("ฎฏดตฐฑฒถทธ", "t"), **dict.fromkeys("ณน", "n"),
    **dict.fromkeys("บปผฝพฟภ", "p"), "ม": "m", **dict.fromkeys("รลฬ", "l"),
}
_THAI_LEADING_VOWELS: Final = frozenset("เแโใไ")
_THAI: Final = re.compile("[\u0e01-\u0e5b]")


def _skeleton_of_thai(text: str) -> str | None:
    """The skeleton of a word in Thai letters (vowels, tone marks, ย ว ห อ dropped; a
    first อ after the vowels written before it marks a first vowel)."""
    out: list[str] = []
    first = True
    for ch in text:
        if not "\u0e01" <= ch <= "\u0e5b":
            return None
        if first and ch in _THAI_LEADING_VOWELS:
            continue
        if first and ch == "อ":
            out.append("_")
        first = False
        cls = _THAI_CLASS.get(ch)
        if cls and (not out or out[-1] != cls):
            out.append(cls)
    return "".join(out)


def sounds_alike(a: str, b: str) -> bool:
    """Do two skeletons match: equal, or, both of four consonants or more, one an
    ``l`` (an r) longer than the other (Korean, Japanese and Chinese drop an r after a
    vowel: ``셰익스피어`` for Shakespeare; another consonant more is another name:
    ``ディキンソン``, Dickinson, is not Dickens)?"""
    if a == b:
        return True
    if len(a) < len(b):
        a, b = b, a
    if len(a) != len(b) + 1 or len(b.lstrip("_")) < 4:
        return False
    return any(a[i] == "l" and a[:i] + a[i + 1:] == b for i in range(len(a)))


def _vietnamese_pair(cand: str, text: str, a: Alt) -> bool:
    """Is one of two Latin names a Vietnamese respelling of the other (``Anhxtanh``
    for ``Albert Einstein``, ``Albert Einstein`` for ``Anhxtanh``)?"""
    # (the answer's own words as written, its frame aside: "Đó là Ê-đi-xơn" is read
    # as "Ê-đi-xơn")
    written = text.split()
    mine = next((sk for k in range(1, min(len(written), 3) + 1)
                 if (sk := vietnamese_skeleton(" ".join(written[-k:]))) is not None), None)
    theirs = vietnamese_skeleton(a.alt.text)
    if (mine is None) == (theirs is None):
        return False  # (neither is one, or both are: the other rules compare them)
    if mine is not None:
        return any(sounds_alike(mine, y) for y in name_skeletons(a.norm))
    if theirs is None:
        return False  # (unreachable: one of the two is a skeleton)
    words = cand.split()
    others = (skeleton(cand), skeleton(words[-1]) if len(words) == 2 else None)
    return any(x is not None and sounds_alike(x, theirs) for x in others)


@lru_cache(maxsize=65536)
def name_skeletons(norm: str) -> tuple[str, ...]:
    """An answer's skeletons: the whole name's and, for a name of two words or more,
    its last word's (a surname alone: ``아인슈타인`` for ``Albert Einstein``); ``()``
    when the whole name says too little."""
    whole = skeleton(norm)
    if whole is None:
        return ()
    words = norm.split()
    last = skeleton(words[-1]) if len(words) >= 2 else None
    return (whole, last) if last else (whole,)


# a Vietnamese respelling of a foreign name: its letters with marks (Niu-tơn, Ê-đi-xơn)
# or "nh" before a consonant or at the end (Anhxtanh)
_VI_RESPELLING: Final = re.compile("[đơưăâêô]|[àáảãạèéẻẽẹìíỉĩịòóỏõọùúủũụỳýỷỹỵ]|nh(?![aeiouy])",
                            re.IGNORECASE)
_VI_LETTERS: Final = (("ngh", "ng"), ("nh", "n"), ("gi", "z"), ("tr", "ch"), ("kh", "k"), ("x", "s"),
               ("qu", "k"))


def vietnamese_skeleton(text: str) -> str | None:
    """The skeleton of a name respelled in Vietnamese (``Anhxtanh``, ``Niu-tơn``,
    ``Ê-đi-xơn``) as written: Vietnamese letters read as Vietnamese (``x`` is s, ``nh``
    n, ``d`` z and ``đ`` d); ``None`` when the text is no such respelling."""
    if not _VI_RESPELLING.search(text):
        return None
    low = text.lower().replace("đ", "\x00")
    low = "".join(ch for ch in unicodedata.normalize("NFD", low)
                  if not unicodedata.combining(ch)).replace("d", "z").replace("\x00", "d")
    for a, b in _VI_LETTERS:
        low = low.replace(a, b)
    sk = _skeleton_of_latin(low)
    return sk if len(sk.lstrip("_")) >= MIN_CONSONANTS else None



def heard_as(cand: str, accept: tuple[Alt, ...], text: str = "") -> Alt | None:
    """The acceptable answer that the short answer ``cand`` (normalized; ``text`` as
    written) writes by its sound in another script (one side in Latin letters, the
    other in Hangul, kana, Chinese characters or Thai), or ``None``. The whole answer
    against the whole name, or against a person's last word (``아인슈타인`` for ``Albert
    Einstein``; ``Picasso`` for ``파블로 피카소``, a capitalized word against a name in
    a script without case); a name of two capitalized words against one word (``Albert Einstein``
    for ``아인슈타인``; not ``red panda`` for ``판다``)."""
    latin = cand.isascii()
    whole: str | None = None
    tried = False  # (whole read once, when first needed)
    words = cand.split()
    last = skeleton(words[-1]) if len(words) == 2 and latin and all(
        w[:1].isupper() for w in text.split()) else None
    for a in accept:
        if a.norm.isascii() == latin:
            if latin and _vietnamese_pair(cand, text, a):
                return a
            continue
        if not tried:
            tried = True
            whole = skeleton(cand)
            if whole is None and last is None:
                return None
        theirs = name_skeletons(a.norm)
        if whole is not None and (sounds_alike(whole, theirs[0]) if theirs else False):
            return a
        if whole is not None and len(theirs) > 1 and (a.person or (
                latin and len(text.split()) == 1 and text[:1].isupper())) and sounds_alike(
                whole, theirs[1]):
            return a  # (a name in a script without case: the answer written as one)
        if last is not None and theirs and len(a.norm.split()) == 1 and sounds_alike(
                last, theirs[0]):
            return a
    return None
