"""Listening evidence for quiz answers: what the player heard of each clip served.

The play page's player (``frontend/static/frontend/js/player.js``) reports the
played intervals per clue as ``{"<clue index>": [[start, end], ...]}``. Each clip's
report is checked by :func:`frontend.listening.check_evidence` against the clip's
duration and the server's own timeline (when the clue was revealed, when its audio
was first fetched, when the answer arrived). A quiz answer is never refused for
hearing little (a player may buzz early); it is stored with the evidence and the
listened fraction, which researchers see and filter on. A report that cannot be
true (outside the clip, more heard than time passed) counts as nothing heard.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from frontend.listening import check_evidence

from .models import Presentation, PresentationEvent


def evidence_for(presentation: Presentation, raw: Any) -> tuple[dict, float | None]:
    """The stored evidence and listened fraction for an answer to ``presentation``.

    ``raw`` absent (a script, an old page) gives ``({}, None)``: unknown, not zero.
    """
    if raw is None:
        return {}, None
    now = timezone.now()
    clips = [qc.clip for qc in presentation.question.question_clips.select_related("clip")]
    if presentation.question.pyramidal:
        clips = clips[: presentation.clues_revealed]
    starts = {0: presentation.served_at}
    fetched: dict[int, Any] = {}
    for kind, index, at in presentation.events.filter(
        kind__in=[PresentationEvent.Kind.REVEAL, PresentationEvent.Kind.AUDIO]
    ).values_list("kind", "clue_index", "at"):
        if kind == PresentationEvent.Kind.REVEAL:
            starts[index] = at
        else:
            fetched.setdefault(index, at)
    report = raw if isinstance(raw, dict) else {}
    rows, heard, total = [], 0.0, 0.0
    for index, clip in enumerate(clips):
        served = fetched.get(index) or starts.get(index) or presentation.served_at
        check = check_evidence(report.get(str(index), []), clip.duration_s, served_at=served,
                               submitted_at=now, min_fraction=0)
        if not isinstance(raw, dict):
            check = check_evidence("not an object", clip.duration_s)
        valid = check.heard_fraction is not None and check.ok
        rows.append({
            "clue": index,
            "played": [list(p) for p in check.intervals] if valid else [],
            "heard_s": round(check.heard_s, 3) if valid else 0.0,
            "fraction": round(check.heard_fraction, 4) if valid else 0.0,
            "ok": valid,
            "reason": check.reason,
        })
        heard += check.heard_s if valid else 0.0
        total += clip.duration_s
    fraction = round(min(1.0, heard / total), 4) if total > 0 else None
    return {"clips": rows, "ok": all(r["ok"] for r in rows)}, fraction
