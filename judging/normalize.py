"""Text normalization for answer judging (pure Python, no Django).

Two answers that a quizmaster would read as "the same words" must normalize to the
same string: ``normalize("Pathétique") == normalize("pathetique")``,
``normalize("Rocky II") == normalize("Rocky 2")``, ``normalize("the fifth") ==
normalize("5th")``, ``normalize("A$AP Rocky") == normalize("ASAP Rocky")``.

The pipeline (each step is a plain function so that tests can pin it down):

1. :func:`fold` -- Unicode folding: compatibility decomposition, combining marks
   dropped, a few letters that do not decompose (``ø``, ``æ``, ``ß``, ``ł``, ...)
   spelled out, typographic quotes and dashes mapped to ASCII.
2. stylized names -- ``$`` and ``!`` inside a word read as letters (``A$AP`` ->
   ``asap``, ``P!nk`` -> ``pink``); a slash between short letter groups is dropped
   (``AC/DC`` -> ``acdc``); dotted initialisms are closed up (``D.C.`` -> ``dc``).
3. case folding, ``&`` -> ``and``, punctuation -> space, thousands separators removed.
4. Roman numerals after a word (``Rocky II``, ``Final Fantasy VII``) -> digits.
5. number words and ordinals -> digits (``twenty-one`` -> ``21``, ``fifth`` / ``5th``
   -> ``5``).

Everything is cached with :func:`functools.lru_cache`; answerlines and questions
repeat, so most calls are dictionary look-ups.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

__all__ = [
    "ARTICLES",
    "STOPWORDS",
    "content_tokens",
    "fold",
    "normalize",
    "numbers_in",
    "stem",
    "strip_articles",
    "tokens",
]

# Letters that NFKD does not decompose into ASCII + combining marks.
_SPECIAL = str.maketrans(
    {
        "ø": "o", "Ø": "O", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE", "ß": "ss",
        "ł": "l", "Ł": "L", "đ": "d", "Đ": "D", "ð": "d", "Ð": "D", "þ": "th",
        "Þ": "Th", "ı": "i", "ħ": "h", "ŋ": "ng",
        "‘": "'", "’": "'", "‚": "'", "‛": "'", "ʼ": "'", "ʻ": "'", "`": "'", "´": "'",
        "“": '"', "”": '"', "„": '"', "«": '"', "»": '"',
        "‐": "-", "‑": "-", "‒": "-", "–": "-", "—": "-", "―": "-", "−": "-",
        "\u00a0": " ", "\u2009": " ", "\u202f": " ", "…": "...",
    }
)

ARTICLES = frozenset({"the", "a", "an"})

# Function words that carry no evidence about which answer was meant.
STOPWORDS = frozenset(
    ["a", "an", "the", "of", "in", "on", "at", "to", "for", "by", "with", "from", "and", "or", "as", "is", "are", "was", "were", "be", "been", "being", "it", "its", "this", "that", "these", "those", "which", "who", "whom", "whose", "what", "when", "where", "why", "how", "there", "their", "they", "them", "he", "she", "his", "her", "him", "i", "me", "my", "we", "our", "you", "your", "do", "does", "did", "has", "have", "had", "not", "no", "but", "if", "than", "then", "so", "also", "into", "over", "under", "about", "after", "before", "during", "between", "up", "down", "out", "off", "only", "very", "s", "t", "can", "could", "would", "should", "will", "shall", "may", "might", "must", "just", "some", "any", "all", "each", "other", "such", "own", "same", "too", "more", "most", "both", "few", "nor", "'s"]
)

_NUMBER_WORDS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
    "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17,
    "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40,
    "fourty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
}
_ORDINAL_WORDS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6,
    "seventh": 7, "eighth": 8, "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12,
    "thirteenth": 13, "fourteenth": 14, "fifteenth": 15, "sixteenth": 16,
    "seventeenth": 17, "eighteenth": 18, "nineteenth": 19, "twentieth": 20,
    "thirtieth": 30, "fortieth": 40, "fiftieth": 50, "sixtieth": 60, "seventieth": 70,
    "eightieth": 80, "ninetieth": 90, "hundredth": 100, "thousandth": 1000,
}
_SCALES = {"hundred": 100, "thousand": 1000}
_TENS = {20, 30, 40, 50, 60, 70, 80, 90}

_ROMAN = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100}
# Strict Roman numerals up to 89 (titles and regnal numbers live well below that).
_ROMAN_RE = re.compile(r"^(?:l?x{0,3}|xl|xc)(?:ix|iv|v?i{0,3})$")
# Two-letter words that are also valid numerals but far more often words.
_ROMAN_STOP = frozenset({"xl", "lx", "li", "lv", "cl", "ci", "cv", "cx", "il"})

_COMBINING = re.compile("[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]+")
_STYLIZED_DOLLAR = re.compile(r"(?<=[A-Za-z])\$(?=[A-Za-z])")
_STYLIZED_BANG = re.compile(r"(?<=[A-Za-z])!(?=[A-Za-z])")
_SHORT_SLASH = re.compile(r"\b([A-Za-z]{1,3})/([A-Za-z]{1,3})\b")
_INITIALISM = re.compile(r"\b[A-Za-z]\.(?:\s?[A-Za-z]\b\.?)+")
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}\b)")
_ORDINAL_SUFFIX = re.compile(r"\b(\d+)(?:st|nd|rd|th)\b")
_HAS_ORDINAL = re.compile(r"\d(?:st|nd|rd|th)\b", re.IGNORECASE)
# "13. 5 million", "3. 97 degrees": a decimal point followed by a stray space
_SPACED_DECIMAL = re.compile(r"(?<=\b\d)\. (?=\d{1,2}\b)|(?<=\b\d\d)\. (?=\d{1,2}\b)")
_DECIMAL = re.compile(r"(?<=\d)\.(?=\d)")
_GLUED_YEAR = re.compile(r"(?<=[A-Za-z]{2})(?=\d{4})|(?<=\d{4})(?=[A-Za-z]{2})")
_APOS_S = re.compile(r"'s\b")


@lru_cache(maxsize=65536)
def fold(text: str) -> str:
    """Fold Unicode to ASCII where a reader would: ``Dvořák`` -> ``Dvorak``.

    Case is kept (later steps need it to spot Roman numerals in titles); scripts with
    no ASCII reading (Cyrillic, CJK) pass through unchanged.
    """
    if text.isascii():
        return text
    if "Ã" in text or "â€" in text or "Â" in text:
        text = _fix_mojibake(text)
    text = text.translate(_SPECIAL)
    decomposed = unicodedata.normalize("NFKD", text)
    if decomposed.isascii():
        return decomposed
    stripped = _COMBINING.sub("", decomposed)
    if stripped.isascii():
        return stripped
    return "".join(ch for ch in stripped if not unicodedata.combining(ch))


def _fix_mojibake(text: str) -> str:
    """Undo UTF-8 read as Windows-1252 ("â€“" -> "–", "Ã©" -> "é", "Â " -> " ")."""
    try:
        return text.encode("cp1252").decode("utf-8")
    except (UnicodeEncodeError, UnicodeDecodeError):
        return text.replace("Â", " ")


def _roman_value(token: str) -> int | None:
    if not token or not _ROMAN_RE.match(token):
        return None
    total = 0
    prev = 0
    for ch in reversed(token):
        value = _ROMAN[ch]
        if value < prev:
            total -= value
        else:
            total += value
            prev = value
    return total


def _convert_numbers(words: list[str], original: list[str]) -> list[str]:
    """Number words, ordinals and Roman numerals in titles -> digit strings."""
    # Nothing changes before the first number word or numeral (or the digits just
    # before a scale word: "5 hundred"), so copy that stretch instead of walking it.
    present = _TRIGGERS.intersection(words)
    if not present:
        return list(words)
    i = min(map(words.index, present))
    if i > 0 and words[i - 1].isdigit():
        i -= 1
    out: list[str] = list(words[:i])
    # ... nor after the last one (a number word only takes the words after it).
    stop = len(words) - min(map(words[::-1].index, present))
    n = len(words)
    while i < stop:
        word = words[i]
        if word in _ORDINAL_WORDS:
            out.append(str(_ORDINAL_WORDS[word]))
            i += 1
            continue
        if word in _NUMBER_WORDS:
            value = _NUMBER_WORDS[word]
            j = i + 1
            # twenty one / twenty-one (the hyphen became a space) -> 21
            if value in _TENS and j < n:
                nxt = words[j]
                if nxt in _NUMBER_WORDS and _NUMBER_WORDS[nxt] < 10 and _NUMBER_WORDS[nxt] > 0:
                    value += _NUMBER_WORDS[nxt]
                    j += 1
                elif nxt in _ORDINAL_WORDS and _ORDINAL_WORDS[nxt] < 10:
                    value += _ORDINAL_WORDS[nxt]
                    j += 1
            # three hundred / two thousand
            while j < n and words[j] in _SCALES:
                value *= _SCALES[words[j]]
                j += 1
            out.append(str(value))
            i = j
            continue
        if word.isdigit() and i + 1 < n and words[i + 1] in _SCALES:
            out.append(str(int(word) * _SCALES[words[i + 1]]))
            i += 2
            continue
        if word.isalpha() and len(word) <= 7 and word[0] in "ivxlc":
            orig = original[i]
            roman = None
            if len(word) >= 2 and word not in _ROMAN_STOP and orig.isupper():
                roman = _roman_value(word)
            elif len(word) == 1 and word in "vx" and orig.isupper() and i > 0:
                # a lone V / X after a capitalised word: "Henry V", "Final Fantasy X"
                prev = original[i - 1]
                if prev[:1].isupper():
                    roman = _roman_value(word)
            elif len(word) >= 2 and i > 0 and word in ("ii", "iii", "iv", "vii", "viii", "ix"):
                roman = _roman_value(word)
            if roman is not None:
                out.append(str(roman))
                i += 1
                continue
        out.append(word)
        i += 1
    out += words[i:]
    return out


@lru_cache(maxsize=131072)
def tokens(text: str) -> tuple[str, ...]:
    """Normalized tokens of ``text`` (see the module docstring for the steps).

    Fast path: every step but two is local to a whitespace-separated chunk, so each
    chunk is normalized once and memoized (words such as ``"the"``, ``"1901."`` or
    ``"awarded"`` recur across thousands of answers) and the tokens are assembled from
    the chunks with C-level ``map``/``join``/``split``. Number words and Roman numerals
    look at their neighbours, so texts with one go through :func:`_convert_numbers`
    over the assembled words. A chunk that could take part in one of the two steps
    that cross whitespace (an initialism ``J. K.``, a spaced decimal ``13. 5``), or a
    text with stylized characters or non-ASCII letters left after folding, goes
    through :func:`_tokens_reference`, the step-by-step pipeline over the whole text;
    both paths give the same tokens (``tests/judging/test_judge_speed_paths.py``).
    """
    raw = text
    if not text.isascii():
        text = fold(text)
        if not text.isascii():
            return _tokens_reference(raw)
    if _SLOW_CHARS_RE.search(text):
        return _tokens_reference(raw)
    chunks = text.split()
    # one consistent memo for the whole call: clear_chunk_cache() swaps in a new one
    memo = _MEMO
    low_of, orig_of, flags_of, flagged_set = memo
    low = list(map(low_of.get, chunks))
    if None in low:
        missing = set(chunks).difference(low_of)
        if len(low_of) + len(missing) > _CHUNK_CACHE_MAX:
            return _tokens_reference(raw)  # memo full: it is never emptied mid-run
        for ch in missing:
            _add_chunk(ch, memo)
        low = list(map(low_of.get, chunks))
    if flagged_set.isdisjoint(chunks):
        return tuple(low)  # one word per chunk, nothing else to do
    flags = 0
    flagged = flagged_set.intersection(chunks)
    for ch in flagged:
        flags |= flags_of[ch]
    if flags & _ENDS_OPEN and _crosses(chunks, flagged, flags_of):
        return _tokens_reference(raw)
    words = " ".join(low).split()
    if flags & _NEEDS_CONVERT == _NEEDS_CONVERT:
        words = _convert_numbers(words, " ".join(map(orig_of.__getitem__, chunks)).split())
    if flags & _HAS_UNDERSCORE:
        return tuple(_decimal(w) if "_" in w else w for w in words)
    return tuple(words)


def _crosses(chunks: list[str], flagged: set[str], flags_of: dict[str, int]) -> bool:
    """Could a step that spans whitespace apply: a chunk ending in a dotted single
    letter followed by a one-letter word (``J. K.``, ``U.S. A``), or ending in one or
    two digits and a full stop followed by one or two digits (``13. 5``)?"""
    last = len(chunks) - 1
    for ch in flagged:
        f = flags_of[ch]
        if not f & _ENDS_OPEN:
            continue
        i = -1
        while True:
            try:
                i = chunks.index(ch, i + 1)
            except ValueError:
                break
            if i == last:
                break
            nxt = chunks[i + 1]
            if f & _INIT_END and _ONE_LETTER_START.match(nxt):
                return True
            if f & _DEC_END and _TWO_DIGIT_START.match(nxt):
                return True
    return False


# Characters whose steps are not chunk-local or are rare enough to leave to the
# reference pipeline: stylized names ($, !, /) and a literal underscore (the decimal
# marker).
_SLOW_CHARS_RE = re.compile(r"[$!/_]")
# The reference pipeline converts numbers when a number word or something that looks
# like a Roman numeral is present (the gate: "I" opens it); the conversion changes
# something only if a word it can convert is present too ("Iv" is one, once open).
_NUMBER_GATE = 2
_MAY_CONVERT = 32
_NEEDS_CONVERT = _NUMBER_GATE | _MAY_CONVERT
_HAS_UNDERSCORE = 4
_INIT_END = 8
_DEC_END = 16
_ENDS_OPEN = _INIT_END | _DEC_END
_NOT_ONE_WORD = 64  # "X-rays", "(1901)-" or "-": the chunk is not exactly one word
_ONE_LETTER_START = re.compile(r"[A-Za-z]\b")
_TWO_DIGIT_START = re.compile(r"\d{1,2}\b")
_CHUNK_CACHE_MAX = 262144
# Per-chunk memo, built while judging: the chunk's lower-case words and original-case
# words (each joined by spaces), its flags (kept only when not 0), and the flagged
# chunks as a set for a C-level test. One tuple, replaced whole by clear_chunk_cache(),
# so a call of tokens() that started before a clear keeps one consistent memo.
_Memo = tuple[dict[str, str], dict[str, str], dict[str, int], set[str]]
_MEMO: _Memo = ({}, {}, {}, set())


def _add_chunk(chunk: str, memo: _Memo) -> str:
    """Normalize a chunk, memoize it in ``memo`` and return its lower-case words.

    The lower-case words are stored last: a chunk present in the first dict has its
    flags in place, so another thread never reads a half-memoized chunk.
    """
    low_of, orig_of, flags_of, flagged_set = memo
    core = chunk.strip(_PLAIN_PUNCT) if not chunk.isalnum() else chunk
    if core.isalpha() and (len(core) > 1 or core == chunk):
        # A plain word, perhaps with punctuation around it: "awarded", "(Germany),".
        # Two letters at least when a full stop may follow (a lone "J." may start
        # an initialism); the punctuation only separates words.
        low = core.lower()
        orig_of[chunk] = core
        # Only number words, capitalised words that start like a Roman numeral and
        # lower-case "ii"/"iv"/... can open the number gate or be converted.
        if low in _CONVERTIBLE or core[0] in "IVXLC" or low in _ROMAN_LOWER:
            flags = _alpha_number_flags(low, core)
            if flags:
                flags_of[chunk] = flags
                flagged_set.add(chunk)
        low_of[chunk] = low
        return low
    original, lowered, flags = _chunk(chunk)
    if len(lowered) != 1:
        flags |= _NOT_ONE_WORD
    low = " ".join(lowered)
    orig_of[chunk] = " ".join(original)
    if flags:
        flags_of[chunk] = flags
        flagged_set.add(chunk)
    low_of[chunk] = low
    return low


def clear_chunk_cache() -> None:
    """Start an empty per-chunk memo for :func:`tokens` (calls already running keep
    the one they started with)."""
    global _MEMO
    _MEMO = ({}, {}, {}, set())


# Punctuation that only separates words (no step of the pipeline reads it around a
# plain word or number).
_PLAIN_PUNCT = ".,;:?()[]{}\"<>*#+=|~^`@"
_ROMAN_LOWER = frozenset({"ii", "iii", "iv", "vii", "viii", "ix"})
# A dotted single letter that reaches the end of a chunk may continue an initialism
# into the next chunk ("J. K. Rowling"); one or two digits and a full stop at the end
# may start a spaced decimal ("13. 5 million").
_INITIALISM_END = re.compile(r"\b[A-Za-z]\.(?:[A-Za-z]\b\.?)*\Z")
_SPACED_DECIMAL_START = re.compile(r"(?<!\w)\d{1,2}\.\Z")


def _chunk(chunk: str) -> tuple[tuple[str, ...], tuple[str, ...], int]:
    """Steps 2-5 of the pipeline on one whitespace-free ASCII chunk (number words
    and Roman numerals are only flagged: they look at neighbouring words)."""
    core = chunk.strip(_PLAIN_PUNCT) if not chunk.isalnum() else chunk
    if core.isalpha() and (len(core) > 1 or core == chunk):
        low = core.lower()
        return (core,), (low,), _alpha_number_flags(low, core)
    if core.isdigit() and (core == chunk or len(core) > 2):
        # "1901", "1901.", "(1901)": digits alone (three at least before a full stop,
        # which could otherwise start a spaced decimal "13. 5").
        return (core,), (core,), 0
    text = chunk
    flags = 0
    if "." in text:
        if _INITIALISM_END.search(text):
            flags |= _INIT_END
        text = _INITIALISM.sub(lambda m: m.group(0).replace(".", "").replace(" ", ""), text)
        if _SPACED_DECIMAL_START.search(text):
            flags |= _DEC_END
        text = _DECIMAL.sub("_", text)
    if "," in text:
        text = _THOUSANDS.sub("", text)
    if "&" in text:
        text = text.replace("&", " and ")
    if "%" in text:
        text = text.replace("%", " percent ")
    text = _GLUED_YEAR.sub(" ", text)
    if "'" in text:
        text = _APOS_S.sub("", text).replace("'", "")
    spaced = _NON_WORD_CASED.sub(" ", text)
    original = spaced.split()
    lowered = spaced.lower().split()
    if _HAS_ORDINAL.search(spaced):
        lowered = [_ORDINAL_SUFFIX.sub(r"\1", w) if w[:1].isdigit() else w for w in lowered]
    if not _CONVERTIBLE.isdisjoint(lowered) or _ROMAN_HINT.search(text):
        flags |= _NUMBER_GATE
    if any(map(_may_convert, lowered, original)):
        flags |= _MAY_CONVERT
    if "_" in spaced:
        flags |= _HAS_UNDERSCORE
    return tuple(original), tuple(lowered), flags


def _alpha_number_flags(low: str, core: str) -> int:
    """Number flags of a one-word chunk (``core`` as written, ``low`` lower case)."""
    gate = low in _CONVERTIBLE or core in _ROMAN_LOWER or not core.strip("IVXLC")
    return (_NUMBER_GATE if gate else 0) | (_MAY_CONVERT if _may_convert(low, core) else 0)


def _may_convert(word: str, orig: str) -> bool:
    """Could :func:`_convert_numbers` change ``word`` (lower case; ``orig`` as
    written)? A number word, or a Roman numeral it would read as one. Texts with no
    such word skip the conversion, which then would change nothing."""
    if word in _CONVERTIBLE:
        return True
    if not (word.isalpha() and len(word) <= 7 and word[0] in "ivxlc"):
        return False
    if len(word) == 1:
        return word in "vx" and orig.isupper()
    return word in _ROMAN_LOWER or (orig.isupper() and word not in _ROMAN_STOP
                                    and _roman_value(word) is not None)


def _tokens_reference(text: str) -> tuple[str, ...]:
    """The step-by-step pipeline over the whole text (the specification of
    :func:`tokens`, and its path for the rare texts the chunked fast path declines)."""
    text = fold(text)
    if "$" in text:
        text = _STYLIZED_DOLLAR.sub("s", text)
    if "!" in text:
        text = _STYLIZED_BANG.sub("i", text)
    if "/" in text:
        text = _SHORT_SLASH.sub(r"\1\2", text)
    if "." in text:
        text = _INITIALISM.sub(lambda m: m.group(0).replace(".", "").replace(" ", ""), text)
        text = _SPACED_DECIMAL.sub("_", text)
        text = _DECIMAL.sub("_", text)
    if "," in text:
        text = _THOUSANDS.sub("", text)
    if "&" in text:
        text = text.replace("&", " and ")
    if "%" in text:
        text = text.replace("%", " percent ")
    # "in2013after", "on February 27, 199612" (citation marks glued on by chat engines)
    text = _GLUED_YEAR.sub(" ", text)
    if "'" in text:
        text = _APOS_S.sub("", text).replace("'", "")
    # Keep original-case words to recognise Roman numerals in titles.
    spaced = _NON_WORD_CASED.sub(" ", text)
    original = spaced.split()
    lowered = spaced.lower().split()
    if _HAS_ORDINAL.search(spaced):
        lowered = [_ORDINAL_SUFFIX.sub(r"\1", w) if w[:1].isdigit() else w for w in lowered]
    if _CONVERTIBLE.isdisjoint(lowered) and not _ROMAN_HINT.search(text):
        words = lowered
    else:
        words = _convert_numbers(lowered, original)
    if "_" in spaced:
        return tuple(_decimal(w) if "_" in w else w for w in words)
    return tuple(words)


def _decimal(word: str) -> str:
    """``"36_0"`` -> ``"36"``, ``"3_50"`` -> ``"3.5"`` (the decimal point was kept as ``_``)."""
    word = word.replace("_", ".")
    if _NUMBER_TOKEN.match(word):
        word = word.rstrip("0").rstrip(".")
    return word


_CONVERTIBLE = frozenset(_NUMBER_WORDS) | frozenset(_ORDINAL_WORDS) | frozenset(_SCALES)
# Every word _convert_numbers can change: number words and the Roman numerals it reads.
_TRIGGERS = _CONVERTIBLE | frozenset(
    w for w in (f"{a}{b}" for a in ("", "l", "lx", "lxx", "lxxx", "x", "xx", "xxx", "xl", "xc")
                for b in ("", "i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix"))
    if w and w not in ("i", "l") and _ROMAN_RE.match(w)
)
_ROMAN_HINT = re.compile(r"\b[IVXLC]+\b|\b(?:ii|iii|iv|vii|viii|ix)\b")
# Letters and digits of any script stay; symbols (°, ©, ™, ...) and punctuation split.
_NON_WORD_CASED = re.compile(r"[^\w]+")


@lru_cache(maxsize=131072)
def normalize(text: str) -> str:
    """The normalized form of ``text``: folded, lower-case tokens joined by spaces.

    Leading articles are removed (``The Beatles`` == ``Beatles``).
    """
    return " ".join(strip_articles(tokens(text)))


def strip_articles(toks: tuple[str, ...]) -> tuple[str, ...]:
    """Drop one leading article (``the``, ``a``, ``an``) if more words follow."""
    if len(toks) > 1 and toks[0] in ARTICLES:
        return toks[1:]
    return toks


@lru_cache(maxsize=131072)
def content_tokens(text: str) -> frozenset[str]:
    """The set of normalized tokens of ``text`` that are not stopwords."""
    return frozenset(t for t in tokens(text) if t not in STOPWORDS)


_NUMBER_TOKEN = re.compile(r"^\d+(?:\.\d+)?$")


@lru_cache(maxsize=131072)
def numbers_in(toks: tuple[str, ...]) -> frozenset[str]:
    """The numeric tokens among ``toks`` (``"15"``, ``"3.5"``), as canonical strings.

    A year with a citation mark glued on (``"19831"`` in "won in 19831.") also
    yields the year (``"1983"``) as a second reading.
    """
    out = set()
    for t in toks:
        if t[:1].isdigit() and _NUMBER_TOKEN.match(t):
            if "." in t:
                t = t.rstrip("0").rstrip(".") or "0"
            else:
                t = t.lstrip("0") or "0"
                if 5 <= len(t) <= 6 and _YEAR_PREFIX.match(t):
                    out.add(t[:4])
            out.add(t)
    return frozenset(out)


_YEAR_PREFIX = re.compile(r"^(?:1[5-9]\d\d|20[0-4]\d)")


# Nationality adjectives -> country names, so that "French" and "France" share a stem.
_DEMONYMS = {
    "american": "america", "arab": "arabia", "arabic": "arabia", "argentine": "argentina",
    "argentinian": "argentina", "australian": "australia", "austrian": "austria",
    "belgian": "belgium", "brazilian": "brazil", "british": "britain", "canadian": "canada",
    "chilean": "chile", "chinese": "china", "cuban": "cuba", "czech": "czechia",
    "danish": "denmark", "dane": "denmark", "dutch": "netherlands", "egyptian": "egypt",
    "english": "england", "filipino": "philippines", "finnish": "finland", "french": "france",
    "german": "germany", "greek": "greece", "hungarian": "hungary", "indian": "india",
    "indonesian": "indonesia", "iranian": "iran", "iraqi": "iraq", "irish": "ireland",
    "israeli": "israel", "italian": "italy", "jamaican": "jamaica", "japanese": "japan",
    "korean": "korea", "mexican": "mexico", "moroccan": "morocco", "nigerian": "nigeria",
    "norwegian": "norway", "pakistani": "pakistan", "persian": "persia", "peruvian": "peru",
    "polish": "poland", "portuguese": "portugal", "roman": "rome", "romanian": "romania",
    "russian": "russia", "scottish": "scotland", "scots": "scotland", "spanish": "spain",
    "swedish": "sweden", "swiss": "switzerland", "thai": "thailand", "turkish": "turkey",
    "ukrainian": "ukraine", "vietnamese": "vietnam", "welsh": "wales",
}


@lru_cache(maxsize=131072)
def stem(token: str) -> str:
    """A crude, predictable stem: plural endings off, nationality adjectives to the
    country (``cells`` -> ``cell``, ``cities`` -> ``city``, ``French`` -> ``france``)."""
    if token in _DEMONYMS:
        return _DEMONYMS[token]
    if len(token) > 4 and token.endswith("ies"):
        return token[:-3] + "y"
    if len(token) > 4 and token.endswith(("sses", "shes", "ches", "xes")):
        return token[:-2]
    if len(token) > 3 and token.endswith("s") and not token.endswith(("ss", "us", "is")):
        return token[:-1]
    return token
