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
