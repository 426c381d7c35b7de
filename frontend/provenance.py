"""Where a dashboard θ (or item difficulty) comes from: one stored IRT fit, or none (no Django).

A θ printed beside an accuracy is only comparable to it when the fit saw the same
responses: the same mode (free-answer θ from a fit over free responses, MCQ θ from
an MCQ fit) and the same question filters (category, source). The dashboard and
the report bundle therefore look one fit up per mode for the filters of the view
(:func:`irt.selectors.fit_matching`) and carry a :class:`ThetaFit` naming it, or
saying that none matches, instead of taking the project's newest fit.

Model condition is not a fit filter: every fit includes every condition, and a
condition filter only chooses which model rows a view shows (each row's own
accuracy and θ are the same with or without it).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

#: Provenance columns added to a table for each mode's θ (``free_theta_fit_id`` ...).
FIT_COLUMNS = ("theta_fit_id", "theta_fit_mode", "theta_fit_model", "theta_fit_filters")

MODE_NAMES = {"free": "free answer", "mcq": "multiple choice"}


def filters_text(category: str, source: str) -> str:
    """Question filters as one readable, parseable string: ``category=all; source=test-src``."""
    return f"category={category or 'all'}; source={source or 'all'}"


@dataclass(frozen=True)
class ThetaFit:
    """The fit behind one mode's θ column in one view, or ``fit_id=None`` when none matches.

    ``category``/``source`` are the view's filters the fit had to match (``""`` =
    all); ``condition`` is the view's model-condition filter (not a fit filter, see
    the module docstring). ``abilities`` maps responder id → θ in that fit.
    """

    mode: str
    category: str = ""
    source: str = ""
    condition: str = ""
    fit_id: int | None = None
    model: str = ""
    method: str = ""
    n_responses: int = 0
    finished_at: str = ""
    abilities: Mapping[int, float] = field(default_factory=dict, compare=False, repr=False)

    @property
    def found(self) -> bool:
        return self.fit_id is not None

    @property
    def filters(self) -> str:
        return filters_text(self.category, self.source)

    @property
    def label(self) -> str:
        """One sentence naming the fit (or its absence), for pages and report notes."""
        mode = MODE_NAMES.get(self.mode, self.mode)
        if not self.found:
            return (f"θ {mode}: no fit for this view — no succeeded {self.mode} fit with {self.filters}; "
                    "start one on the IRT page.")
        model = self.model.upper()
        method = f", {self.method}" if self.method else ""
        text = (f"θ {mode}: IRT fit #{self.fit_id} ({self.mode}, {model}{method}; {self.filters}; "
                f"{self.n_responses} responses")
        text += f", finished {self.finished_at})" if self.finished_at else ")"
        if self.condition:
            text += f"; that fit covers every model condition (this view shows {self.condition} only)"
        return text + "."

    def columns(self) -> dict[str, object]:
        """The provenance columns (without the mode prefix): id, mode, model, filters; empty when none."""
        if not self.found:
            return dict.fromkeys(FIT_COLUMNS)
        return {"theta_fit_id": self.fit_id, "theta_fit_mode": self.mode, "theta_fit_model": self.model,
                "theta_fit_filters": self.filters}

    def as_dict(self) -> dict[str, object]:
        """JSON-ready provenance (no abilities): for the dashboard JSON and the bundle's manifest."""
        return {"mode": self.mode, "fit_id": self.fit_id, "model": self.model or None,
                "method": self.method or None, "filters": {"category": self.category, "source": self.source},
                "filters_text": self.filters, "condition_shown": self.condition or None,
                "n_responses": self.n_responses if self.found else None,
                "finished_at": self.finished_at or None, "label": self.label}
