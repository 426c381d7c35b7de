"""The translation catalogs are complete, compiled and faithful to their placeholders.

Every language of ``settings.LANGUAGES`` except English has a catalog under
``locale/<lang>/LC_MESSAGES``; these tests read the ``.po`` source with a small
standard-library parser (no polib) and the compiled ``.mo`` with :mod:`gettext`.
"""

from __future__ import annotations

import ast
import gettext
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from django.conf import settings

LANGUAGES = [code for code, _name in settings.LANGUAGES if code != "en"]


@dataclass
class Entry:
    """One message of a ``.po`` file (obsolete ``#~`` entries are skipped)."""

    msgctxt: str | None = None
    msgid: str = ""
    msgid_plural: str | None = None
    msgstr: dict[int, str] = field(default_factory=dict)
    flags: set[str] = field(default_factory=set)
    line: int = 0


def _unquote(line: str) -> str:
    """The text of one quoted PO string (C escapes, which Python's literal rules cover)."""
    return ast.literal_eval(line.strip())


def parse_po(path: Path) -> list[Entry]:
    """The entries of a ``.po`` file, the header (empty msgid) first."""
    entries: list[Entry] = []
    entry = Entry()
    target: tuple[str, int] | None = None
    started = False

    def finish() -> None:
        nonlocal entry, started, target
        if started:
            entries.append(entry)
            entry, started = Entry(), False
        target = None

    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.strip()
        if not line:
            finish()
            continue
        if line.startswith("#~"):
            continue
        if line.startswith("#,"):
            if started:
                finish()
            entry.flags.update(flag.strip() for flag in line[2:].split(","))
            continue
        if line.startswith("#"):
            if started:
                finish()
            continue
        keyword, _, rest = line.partition(" ")
        if line.startswith('"'):
            if target is None:
                raise ValueError(f"{path}:{number}: continuation without a keyword")
            kind, index = target
        else:
            if keyword == "msgctxt" or (keyword == "msgid" and started and entry.msgstr):
                finish()
            match = re.fullmatch(r"msgstr\[(\d+)\]", keyword)
            kind, index = ("msgstr", int(match.group(1))) if match else (keyword, 0)
            if kind not in ("msgctxt", "msgid", "msgid_plural", "msgstr"):
                raise ValueError(f"{path}:{number}: unknown keyword {keyword!r}")
            if not started:
                entry.line, started = number, True
            target = (kind, index)
            line = rest
            if kind == "msgctxt":
                entry.msgctxt = ""
            elif kind == "msgid_plural":
                entry.msgid_plural = ""
            elif kind == "msgstr":
                entry.msgstr[index] = ""
        text = _unquote(line)
        if kind == "msgctxt":
            entry.msgctxt = (entry.msgctxt or "") + text
        elif kind == "msgid":
            entry.msgid += text
        elif kind == "msgid_plural":
            entry.msgid_plural = (entry.msgid_plural or "") + text
        else:
            entry.msgstr[index] += text
    finish()
    return entries


def _po(language: str) -> Path:
    return Path(settings.LOCALE_PATHS[0]) / language / "LC_MESSAGES" / "django.po"


def _messages(language: str) -> list[Entry]:
    return [e for e in parse_po(_po(language)) if e.msgid]


#: printf-style placeholders (``%(name)s``, ``%s``), brace fields and HTML tag names
_PRINTF = re.compile(r"%(?:\(\w+\))?[-#0 +]*\d*(?:\.\d+)?[sdifr]")
_BRACE = re.compile(r"\{\w*\}")
_TAG = re.compile(r"</?([a-zA-Z][a-zA-Z0-9]*)")


def placeholders(text: str, *, printf: bool) -> set[str]:
    """What a translation must keep of ``text``: its placeholders and HTML tags."""
    found = {f"<{name.lower()}>" for name in _TAG.findall(text)} | set(_BRACE.findall(text))
    if printf:
        found |= set(_PRINTF.findall(text.replace("%%", "")))
    return found


def test_parser_reads_contexts_plurals_flags_and_escapes(tmp_path):
    po = tmp_path / "django.po"
    po.write_text(
        'msgid ""\nmsgstr ""\n"Language: xx\\n"\n\n'
        '#: a.py:1\n#, fuzzy, python-format\nmsgctxt "verb"\nmsgid "Answer %(n)s"\nmsgstr "A \\"%(n)s\\""\n\n'
        'msgid "one"\nmsgid_plural "many"\nmsgstr[0] "x"\n"y"\nmsgstr[1] ""\n\n'
        '#~ msgid "gone"\n#~ msgstr "weg"\n',
        encoding="utf-8",
    )
    header, verb, plural = parse_po(po)
    assert header.msgid == "" and header.msgstr == {0: "Language: xx\n"}
    assert (verb.msgctxt, verb.msgid, verb.msgstr[0]) == ("verb", "Answer %(n)s", 'A "%(n)s"')
    assert verb.flags == {"fuzzy", "python-format"}
    assert (plural.msgid_plural, plural.msgstr) == ("many", {0: "xy", 1: ""})


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_is_translated_and_none_is_fuzzy(language):
    messages = _messages(language)
    assert len(messages) > 500, f"{language}: the catalog looks truncated"
    untranslated = [e.msgid for e in messages if not all(e.msgstr.values()) or not e.msgstr]
    fuzzy = [e.msgid for e in messages if "fuzzy" in e.flags]
    assert not untranslated, f"{language}: {len(untranslated)} untranslated, e.g. {untranslated[:5]}"
    assert not fuzzy, f"{language}: {len(fuzzy)} fuzzy, e.g. {fuzzy[:5]}"


def test_every_catalog_holds_the_same_messages():
    """One extraction feeds all languages: no catalog lags behind the source."""
    keys = {lang: {(e.msgctxt, e.msgid) for e in _messages(lang)} for lang in LANGUAGES}
    first = LANGUAGES[0]
    for language in LANGUAGES[1:]:
        assert keys[language] == keys[first], (language, sorted(keys[language] ^ keys[first])[:5])


@pytest.mark.parametrize("language", LANGUAGES)
def test_compiled_catalog_matches_its_source(language):
    """The committed ``.mo`` is compiled from the committed ``.po`` (the app reads only the ``.mo``)."""
    with open(_po(language).with_suffix(".mo"), "rb") as handle:
        compiled = gettext.GNUTranslations(handle)._catalog
    stale = []
    for entry in _messages(language):
        key = entry.msgid if entry.msgctxt is None else f"{entry.msgctxt}\x04{entry.msgid}"
        if entry.msgid_plural is None:
            if compiled.get(key) != entry.msgstr[0]:
                stale.append(entry.msgid)
        elif any(compiled.get((key, n)) != text for n, text in entry.msgstr.items()):
            stale.append(entry.msgid)
    assert not stale, f"{language}: recompile the .mo ({len(stale)} differ, e.g. {stale[:3]})"


@pytest.mark.parametrize("language", LANGUAGES)
def test_translations_keep_every_placeholder_and_tag(language):
    broken = []
    for entry in _messages(language):
        printf = "python-format" in entry.flags
        for index, text in entry.msgstr.items():
            # the singular form answers the msgid, the others (and a language's only
            # form, as in ko / th / vi / id) the msgid_plural
            singular = entry.msgid_plural is None or (index == 0 and len(entry.msgstr) > 1)
            wanted = placeholders(entry.msgid if singular else entry.msgid_plural, printf=printf)
            missing = wanted - placeholders(text, printf=printf)
            if missing:
                broken.append((entry.msgid, sorted(missing)))
    assert not broken, f"{language}: {broken[:5]}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_msgid_holds_an_escape_sequence_xgettext_did_not_decode(language):
    r"""xgettext keeps ``\u201c`` in a source string as six characters: such a msgid never
    matches the decoded string Python looks up, so it would never translate."""
    leaked = [e.msgid for e in _messages(language) if re.search(r"\\[uUN]", e.msgid)]
    assert not leaked, leaked


def test_labels_marked_in_pure_modules_reach_the_catalogs():
    """Pure modules mark labels with a local ``gettext_noop``; makemessages must find them."""
    from annotation.scales import SCALES, TEMPLATES
    from frontend.columns import EXACT, PREFIXES, SUFFIXES
    from frontend.seed_columns import AXIS_SUFFIXES, LABELS, MODE_WORDS
    from frontend.seed_selectors import NOTES, SEED_TABLES

    marked = {*EXACT.values(), *PREFIXES.values(), *SUFFIXES.values(), *LABELS.values(),
              *MODE_WORDS.values(), *AXIS_SUFFIXES.values(), *NOTES.values(),
              *(title for _paper, _ref, title in SEED_TABLES.values()),
              *(c["label"] for criteria in TEMPLATES.values() for c in criteria),
              *(label for _values, labels, _keys in SCALES.values() for label in labels)}
    marked = {m for m in marked if re.search(r"[A-Za-z]{2}", m)}  # not "n", "θ", "A", "0"
    catalog = {e.msgid for e in _messages(LANGUAGES[0]) if e.msgctxt is None}
    assert not sorted(marked - catalog)


@pytest.mark.parametrize("language", LANGUAGES)
def test_seed_and_dashboard_headers_translate_when_the_page_asks(language):
    from django.utils import translation

    from frontend.columns import column_label
    from frontend.seed_columns import seed_label

    assert seed_label("ci_low") == "95% CI low"  # CSV, JSON and the report bundle stay English
    with translation.override(language):
        for key in ("ci_low", "free_accuracy", "sf_ci_low", "grounded_rate"):
            assert seed_label(key, translation.gettext) != seed_label(key), (language, key)
        for key in ("human_accuracy", "best_model", "chose_B"):
            assert column_label(key, translation.gettext) != column_label(key), (language, key)
