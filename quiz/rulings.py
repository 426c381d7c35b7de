"""Plain ruling sentences for players (D12): no rule names, no calibrated scores.

The judge's technical explanation (rule, similarity, calibrated p) stays for
researchers; a player reads one sentence that says what was decided.
"""

from __future__ import annotations

from django.utils.translation import gettext as _


def player_ruling(*, outcome: str, correct: bool, mode: str, prompted: bool = False,
                  overruled: bool = False, challenge_status: str = "") -> str:
    """One translated sentence a player reads about a ruling."""
    if challenge_status == "upheld" or (overruled and correct):
        return _("Your challenge was upheld: this answer now counts as correct.") \
            if challenge_status == "upheld" else _("A researcher reviewed this answer: it now counts as correct.")
    if overruled and not correct:
        return _("A researcher reviewed this answer: it does not count.")
    if outcome == "skip":
        return _("You passed on this one. A pass costs no points.")
    if outcome == "timeout":
        return _("Time ran out before an answer arrived.")
    if correct:
        return _("Correct, after a prompt.") if prompted else _("Correct!")
    if mode == "mcq":
        return _("Not quite: that option is not the right one.")
    if challenge_status == "rejected":
        return _("Not accepted. A researcher looked at your challenge and kept the ruling.")
    return _("Not quite: that answer is not accepted.")
