"""Screening steps a campaign runs before rating: configuration, trials, scoring (pure).

``Campaign.screening`` is a list of steps, run in order after the instructions (and
training) and before the first item. Each step's trials are generated from a seed the
server derives from a secret (:mod:`annotation.testsignals`), so the answer never
reaches the browser and reloading the page shows the same trials.

============  ============================================  ================  ==========
``step``      what the annotator does                       trials (default)  pass
============  ============================================  ================  ==========
calibration   sets a comfortable level on a reference       2                 1 correct
              noise, counts the soft pips after it
headphones    "which tone is the softest?" (``method``       6                 5 correct
              ``antiphase``, Woods et al. 2017) or "which
              noise has a faint tone?" (``huggins``)
digits        types the counted digits heard in noise at     4                 3 correct
              ``snr_db`` (default +6, 0, −6, −9 dB)
============  ============================================  ================  ==========

``trials`` and ``pass_min`` can be set per step; e.g.
``[{"step": "calibration"}, {"step": "headphones", "method": "huggins", "pass_min": 4}]``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from . import testsignals as ts

__all__ = ["STEPS", "StepConfig", "StepOutcome", "parse_screening", "score_step", "step_trials"]

STEPS = ("calibration", "headphones", "digits")
_DEFAULTS: dict[str, dict[str, Any]] = {
    "calibration": {"trials": 2, "pass_min": 1},
    "headphones": {"trials": 6, "pass_min": 5, "method": "antiphase"},
    "digits": {"trials": 4, "pass_min": 3, "snr_db": (6.0, 0.0, -6.0, -9.0)},
}
_KEYS = {"step", "trials", "pass_min", "method", "snr_db"}


@dataclass(frozen=True)
class StepConfig:
    """One validated screening step."""

    step: str
    trials: int
    pass_min: int
    method: str = ""
    snr_db: tuple[float, ...] = ()

    @property
    def choices(self) -> tuple[str, ...]:
        """The answer buttons of a 3-alternative step (empty: typed answer)."""
        return ("1", "2", "3") if self.step == "headphones" else ()


@dataclass(frozen=True)
class StepOutcome:
    """The scored step: ``reason`` is the sentence stored and reported."""

    passed: bool
    n_correct: int
    n_trials: int
    reason: str


def parse_screening(raw: Any) -> list[StepConfig]:
    """Validate ``Campaign.screening``; ``ValueError`` names the step index and field."""
    if raw in (None, ""):
        return []
    if not isinstance(raw, list):
        raise ValueError("screening: must be a list of steps")
    steps: list[StepConfig] = []
    for i, entry in enumerate(raw):
        where = f"screening[{i}]"
        if isinstance(entry, str):
            entry = {"step": entry}
        if not isinstance(entry, dict):
            raise ValueError(f"{where}: must be an object such as {{\"step\": \"headphones\"}}")
        step = entry.get("step")
        if step not in STEPS:
            raise ValueError(f"{where}.step: must be one of {', '.join(STEPS)}")
        if unknown := sorted(set(entry) - _KEYS):
            raise ValueError(f"{where}.{unknown[0]}: unknown setting")
        if any(s.step == step for s in steps):
            raise ValueError(f"{where}.step: {step} appears twice")
        values = {**_DEFAULTS[step], **{k: v for k, v in entry.items() if k != "step"}}
        if step == "digits":
            snrs = values["snr_db"]
            if not isinstance(snrs, list | tuple) or not snrs or not all(
                    isinstance(v, int | float) and not isinstance(v, bool) and -30 <= v <= 30 for v in snrs):
                raise ValueError(f"{where}.snr_db: a list of SNRs in dB between -30 and 30")
            values["snr_db"] = tuple(float(v) for v in snrs)
            if "trials" not in entry:
                values["trials"] = len(values["snr_db"])
        trials, pass_min = values["trials"], values["pass_min"]
        if "pass_min" not in entry and isinstance(trials, int):  # fewer trials: the default scales down
            pass_min = max(1, min(pass_min, trials - (_DEFAULTS[step]["trials"] - _DEFAULTS[step]["pass_min"])))
        if not isinstance(trials, int) or isinstance(trials, bool) or not 1 <= trials <= 20:
            raise ValueError(f"{where}.trials: a whole number from 1 to 20")
        if not isinstance(pass_min, int) or isinstance(pass_min, bool) or not 1 <= pass_min <= trials:
            raise ValueError(f"{where}.pass_min: a whole number from 1 to trials ({trials})")
        method = values.get("method", "")
        if step == "headphones" and method not in ("antiphase", "huggins"):
            raise ValueError(f"{where}.method: antiphase or huggins")
        if step != "headphones" and "method" in entry:
            raise ValueError(f"{where}.method: only the headphones step has a method")
        steps.append(StepConfig(step=step, trials=trials, pass_min=pass_min, method=method or "",
                                snr_db=values.get("snr_db", ())))
    return steps


def step_trials(config: StepConfig, seed: int) -> list[ts.Trial]:
    """The step's trials, the same for the same ``seed`` (the server's secret per annotator)."""
    rng = np.random.default_rng(seed)
    if config.step == "calibration":
        return [ts.calibration_clip(rng) for _ in range(config.trials)]
    if config.step == "headphones":
        make = ts.antiphase_trial if config.method == "antiphase" else ts.huggins_trial
        return [make(rng) for _ in range(config.trials)]
    snrs = config.snr_db
    return [ts.digits_in_noise_trial(rng, snrs[i % len(snrs)]) for i in range(config.trials)]


def _clean(answer: Any) -> str:
    return "".join(ch for ch in str(answer or "") if ch.isdigit())


_NAMES = {"calibration": "volume check", "headphones": "headphone check", "digits": "listening-in-noise check"}


def score_step(config: StepConfig, expected: Sequence[str], given: Sequence[Any]) -> StepOutcome:
    """Score the annotator's answers (``given``, one per trial; non-digits ignored)."""
    if len(given) != len(expected):
        raise ValueError(f"answers: {len(expected)} expected, {len(given)} given")
    n_correct = sum(_clean(g) == e for g, e in zip(given, expected, strict=True))
    passed = n_correct >= config.pass_min
    reason = (f"{_NAMES[config.step]}: {n_correct} of {len(expected)} correct "
              f"({'passed' if passed else 'failed'}; {config.pass_min} needed)")
    return StepOutcome(passed=passed, n_correct=n_correct, n_trials=len(expected), reason=reason)
