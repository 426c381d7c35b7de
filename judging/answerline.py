"""Parse a quiz answerline into structured parts (pure Python, no Django).

An answerline is what a question writer puts after ``ANSWER:``. Examples it reads::

    <b><u>Ludwig van Beethoven</u></b> [accept <u>Beethoven</u>; prompt on <u>Ludwig</u>;
        do not accept <u>Johann</u> van Beethoven]
    Canberra
    the Moonlight Sonata (or Piano Sonata No. 14) [prompt on sonata; reject "Pathétique"]
    {Hamlet}, Prince of Denmark
    ["Beethoven", "Ludwig van Beethoven"]            # a plain list of acceptable answers

It yields an :class:`Answerline` with

* ``answers`` -- the main answer and its ``or`` alternatives,
* ``accepts`` -- ``[accept X]`` / ``[or X]`` / ``(accept X)`` alternatives,
* ``prompts`` -- ``[prompt on X]``: the responder is asked for more,
* ``rejects`` -- ``[do not accept X]`` / ``[reject X]`` / ``[anti-prompt ...]`` are not,
* ``notes`` -- parenthetical remarks that are not directives.

Each answer keeps its ``required`` parts: spans marked ``<u>..</u>``, ``{..}`` or
``<b>..</b>``; by quizbowl convention any required part alone is acceptable
("accept any underlined part").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

__all__ = ["Alternative", "Answerline", "parse_answerline"]


@dataclass(frozen=True)
class Alternative:
    """One acceptable (or prompted, or rejected) answer of an answerline.

    ``text`` has markup and surrounding quotes removed; ``required`` holds the marked
    required parts (empty when the writer marked none); ``kind`` is where it came
    from: ``"main"``, ``"or"``, ``"accept"``, ``"list"``, ``"prompt"`` or ``"reject"``.
    """

    text: str
    required: tuple[str, ...] = ()
    kind: str = "main"


@dataclass(frozen=True)
class Answerline:
    """A parsed answerline: what is accepted, prompted and rejected."""

    raw: str
    answers: tuple[Alternative, ...]
    accepts: tuple[Alternative, ...] = ()
    prompts: tuple[Alternative, ...] = ()
    rejects: tuple[Alternative, ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def acceptable(self) -> tuple[Alternative, ...]:
        """Main answers first, then ``accept``/``or`` directives."""
        return self.answers + self.accepts


_TAG: Final = re.compile(r"</?\s*(?:u|b|strong|em|i|span|br)\b[^>]*>", re.IGNORECASE)
_REQ_U: Final = re.compile(r"<\s*u\b[^>]*>(.*?)<\s*/\s*u\s*>", re.IGNORECASE | re.DOTALL)
_REQ_B: Final = re.compile(r"<\s*(?:b|strong)\b[^>]*>(.*?)<\s*/\s*(?:b|strong)\s*>", re.IGNORECASE | re.DOTALL)
_REQ_BRACE: Final = re.compile(r"\{([^{}]*)\}")
_QUOTES: Final = "\"'“”‘’«»„`"
_WS: Final = re.compile(r"\s+")

# Directive keywords at the start of a bracketed (or parenthesised) clause.
_DIRECTIVE: Final = re.compile(
    r"^\s*(?P<kw>"
    r"do\s+not\s+(?:accept|prompt(?:\s+on)?)|don'?t\s+(?:accept|prompt(?:\s+on)?)|"
    r"anti-?\s?prompt(?:\s+on)?|reject|not|"
    r"prompt(?:\s+on)?|"
    r"(?:also\s+)?accept(?:\s+either)?|or|alternate\s+answer"
    r")\b[:\s]*",
    re.IGNORECASE,
)
# Split a directive block on ';' always, and on ',' only before another keyword.
_DIRECTIVE_SPLIT: Final = re.compile(
    r";|,\s*(?=(?:do\s+not|don'?t|reject|prompt|accept|anti-?\s?prompt|or)\b)",
    re.IGNORECASE,
)
# Trailing conditions that qualify a directive but are not part of the answer.
_TRAILING_CONDITION: Final = re.compile(
    r"\s+(?:before|until|after|by\s+asking|with\s+the\s+question|if\b|since\b|"
    r"because\b|when\b|alone\b|on\s+its\s+own\b|in\s+place\s+of\b)"
    r".*$",
    re.IGNORECASE | re.DOTALL,
)
_OR: Final = re.compile(r"\s+or\s+|\s*/\s*(?=\S)", re.IGNORECASE)
_OR_WORD: Final = re.compile(r"\s+or\s+", re.IGNORECASE)
# a list item with markup, a group or an "or" is parsed as an answerline
_NEEDS_PARSE: Final = re.compile(r"[\[<{(]|\s+or\s+", re.IGNORECASE)
_ACRONYM: Final = re.compile(r"^[A-Z][A-Z0-9&.]{1,7}$")
_OTHER_EQUIV: Final = re.compile(r"\b(?:or\s+)?(?:word\s+forms|equivalents?|synonyms?|etc\.?)\s*$", re.IGNORECASE)


def _clean(text: str) -> str:
    if "<" in text:
        text = _TAG.sub("", text)
    if "{" in text or "}" in text:
        text = text.replace("{", "").replace("}", "")
    # same as _WS.sub(" ", text).strip(): str.split() and re's \s agree on whitespace
    text = " ".join(text.split())
    text = text.strip(" ,;:.")
    if len(text) >= 2 and text[0] in _QUOTES and text[-1] in _QUOTES:
        text = text[1:-1].strip()
    return text.strip(_QUOTES + " ").strip()


def _required(text: str) -> tuple[str, ...]:
    if "<" not in text and "{" not in text:
        return ()  # no markup, no required part
    for pattern in (_REQ_U, _REQ_BRACE, _REQ_B):
        parts = [_clean(m) for m in pattern.findall(text)]
        parts = [p for p in parts if p]
        if parts:
            return tuple(parts)
    return ()


def _alternative(text: str, kind: str) -> Alternative | None:
    required = _required(text)
    clean = _clean(text)
    if not clean:
        return None
    # Whole answer marked required is no restriction at all.
    if required == (clean,):
        required = ()
    return Alternative(clean, required, kind)


def _split_or(text: str, *, slash: bool) -> list[str]:
    """Split ``"X or Y"`` (and ``X / Y`` when ``slash``) outside markup and quotes."""
    pattern = _OR if slash else _OR_WORD
    parts = pattern.split(text)
    return [p for p in parts if _clean(p)]


def _find_groups(text: str) -> tuple[str, list[tuple[str, str]]]:
    """Remove top-level ``[..]`` and ``(..)`` groups; return the rest and the groups."""
    rest: list[str] = []
    groups: list[tuple[str, str]] = []
    depth = 0
    opener = ""
    buf: list[str] = []
    closers = {"[": "]", "(": ")"}
    for ch in text:
        if depth == 0 and ch in closers:
            depth = 1
            opener = ch
            buf = []
        elif depth > 0:
            if ch == opener:
                depth += 1
                buf.append(ch)
            elif ch == closers[opener]:
                depth -= 1
                if depth == 0:
                    groups.append((opener, "".join(buf)))
                    rest.append(" ")
                else:
                    buf.append(ch)
            else:
                buf.append(ch)
        else:
            rest.append(ch)
    if depth > 0:  # unbalanced: keep the tail as text
        rest.append(opener + "".join(buf))
    return "".join(rest), groups


def _directives(block: str) -> list[tuple[str, str]]:
    """``"accept X; prompt on Y"`` -> ``[("accept", "X"), ("prompt", "Y")]``."""
    out: list[tuple[str, str]] = []
    current = "accept"
    for clause in _DIRECTIVE_SPLIT.split(block):
        clause = clause.strip()
        if not clause:
            continue
        m = _DIRECTIVE.match(clause)
        if m:
            kw = m.group("kw").lower()
            clause = clause[m.end():]
            if kw.startswith(("do", "don", "reject", "not", "anti")):
                current = "reject"
            elif kw.startswith("prompt"):
                current = "prompt"
            else:
                current = "accept"
        clause = _TRAILING_CONDITION.sub("", clause)
        clause = _OTHER_EQUIV.sub("", clause)
        out.append((current, clause))
    return out


def _is_directive_block(text: str) -> bool:
    return bool(_DIRECTIVE.match(_TAG.sub("", text)))


@lru_cache(maxsize=16384)
def _parse_string(raw: str) -> Answerline:
    main, groups = _find_groups(raw)
    answers: list[Alternative] = []
    accepts: list[Alternative] = []
    prompts: list[Alternative] = []
    rejects: list[Alternative] = []
    notes: list[str] = []
    # "ANSWER:" prefix some packets keep.
    main = re.sub(r"^\s*answer\s*:\s*", "", main, flags=re.IGNORECASE)
    for i, part in enumerate(_split_or(main, slash=False)):
        alt = _alternative(part, "main" if i == 0 else "or")
        if alt:
            answers.append(alt)
    for opener, body in groups:
        if opener == "(" and not _is_directive_block(body):
            notes.append(_clean(body))
            continue
        for kind, clause in _directives(body):
            target = {"accept": accepts, "prompt": prompts, "reject": rejects}[kind]
            for piece in _split_or(clause, slash=False):
                alt = _alternative(piece, "accept" if kind == "accept" else kind)
                if alt:
                    target.append(alt)
    if not answers and accepts:
        answers.append(accepts.pop(0))
    return Answerline(
        raw=raw,
        answers=tuple(answers),
        accepts=tuple(accepts),
        prompts=tuple(prompts),
        rejects=tuple(rejects),
        notes=tuple(n for n in notes if n),
    )


@lru_cache(maxsize=16384)
def _parse_list(items: tuple[str, ...]) -> Answerline:
    answers: list[Alternative] = []
    accepts: list[Alternative] = []
    prompts: list[Alternative] = []
    rejects: list[Alternative] = []
    notes: list[str] = []
    for item in items:
        if _NEEDS_PARSE.search(item):
            sub = _parse_string(item)
            for alt in sub.answers:
                answers.append(Alternative(alt.text, alt.required, "list"))
            accepts.extend(sub.accepts)
            prompts.extend(sub.prompts)
            rejects.extend(sub.rejects)
            for note in sub.notes:
                if _ACRONYM.match(note):  # "Windows Playlist (WPL)"
                    accepts.append(Alternative(note, (), "accept"))
                else:
                    notes.append(note)
            if len(sub.answers) > 1:  # "hit points or health points" may be one name
                whole = _clean(item)
                if whole:
                    accepts.append(Alternative(whole, (), "accept"))
            # A parenthetical in a plain reference ("Jerry Lee Lewis (singer)") may also
            # be part of the name: keep the unsplit text as an alternative too.
            if sub.notes and "[" not in item:
                whole = _clean(item.replace("(", " ").replace(")", " "))
                if whole:
                    accepts.append(Alternative(whole, (), "accept"))
        else:
            listed = _alternative(item, "list")
            if listed:
                answers.append(listed)
    return Answerline(
        raw=" | ".join(items),
        answers=tuple(answers),
        accepts=tuple(accepts),
        prompts=tuple(prompts),
        rejects=tuple(rejects),
        notes=tuple(notes),
    )


def parse_answerline(answerline: str | Sequence[str]) -> Answerline:
    """Parse an answerline string, or a plain list of acceptable answers.

    Parsing is cached (``functools.lru_cache``), so judging many candidates against
    the same answerline parses it once.
    """
    if isinstance(answerline, str):
        return _parse_string(answerline)
    return _parse_list(tuple(answerline))
