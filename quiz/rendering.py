"""Safe HTML for showing an answerline after the player has answered."""

from __future__ import annotations

import re

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

_REQUIRED = re.compile(r"&lt;(u|b|strong)&gt;(.*?)&lt;/\1&gt;", re.IGNORECASE | re.DOTALL)
_BRACES = re.compile(r"\{([^{}]+)\}")


def answerline_html(answerline: str) -> SafeString:
    """Escape an answerline and show its required parts (<u>, <b>, {…}) in bold."""
    text = escape(answerline)
    text = _REQUIRED.sub(r"<strong>\2</strong>", text)
    text = _BRACES.sub(r"<strong>\1</strong>", text)
    return mark_safe(text)


def answer_for_player_html(answerline: str) -> SafeString:
    """The answer as a player reads it: the main answer in bold, other accepted answers after.

    No judge syntax (``[accept …; prompt on …]``), no prompt or reject clauses (D12).
    """
    from django.utils.translation import gettext as _

    from judging.answerline import parse_answerline

    try:
        parsed = parse_answerline(answerline)
    except ValueError:
        return answerline_html(answerline)
    main = [a.text for a in parsed.answers if a.text]
    if not main:
        return answerline_html(answerline)
    text = " / ".join(f"<strong>{escape(m)}</strong>" for m in main)
    also = [a.text for a in parsed.accepts if a.text]
    if also:
        text += " " + escape(_("(also accepted: %(answers)s)") % {"answers": ", ".join(also)})
    return mark_safe(text)
