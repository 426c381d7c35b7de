"""The judge's verdict and the version of its rules, in a module of their own.

:mod:`judging.equivalence` makes and re-exports both. :class:`Verdict` stays an
ordinary Python class also in the judge's compiled build (:mod:`judging.native` does not
compile this module): the judge fills its instances' ``__dict__`` directly, which a
compiled (native) class has not.
"""

from __future__ import annotations

from dataclasses import dataclass

# Bump when a rule or the calibrator changes a verdict (docs/judging.md).
EQUIVALENCE_VERSION = "2026.12.13"


@dataclass(frozen=True)
class Verdict:
    """The judge's decision on one candidate answer.

    ``correct`` is the final decision; ``prompt`` is True when the answerline asks
    the responder for more (``[prompt on X]``) -- a prompted answer is not correct
    as a final answer. ``score`` is the calibrated probability that a human would
    mark the answer correct; ``rule`` names the rule that decided (see
    ``docs/judging.md``); ``matched`` is the answerline text it matched, if any.
    """

    correct: bool
    prompt: bool
    score: float
    rule: str
    matched: str | None
    explanation: str
    version: str = EQUIVALENCE_VERSION
