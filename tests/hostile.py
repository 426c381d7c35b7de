"""A project whose every user-supplied text is hostile: for the XSS crawl and the CSV check.

:func:`build_hostile_project` writes ``text(field)`` into each field a user, a bank
file or an upload controls (project name, question prompt, answerline, options,
category, source, guest handle and answer, model system name and condition and
answer, campaign name / question / instructions / consent / scale labels, item
system and condition, rating comment), plays and rates through the services, and
runs a tiny IRT fit, so every page and every export has those strings to show.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path


@dataclass
class Hostile:
    project: object
    owner: object
    guest: object
    campaign: object
    annotator: object
    fit: object
    question_ids: list[str] = field(default_factory=list)
    texts: dict[str, str] = field(default_factory=dict)


def build_hostile_project(*, slug: str, text: Callable[[str], str], folder: Path, wav, fit: bool = True,
                          password: str = "pw-hostile-123!") -> Hostile:
    """Create project ``slug`` with ``text(field)`` in every user-supplied field (see module doc)."""
    from accounts.models import Role
    from accounts.services import guest_create, membership_set, project_create, user_create
    from annotation import services as annotation
    from quiz import services as quiz
    from quiz.models import Presentation, Question

    texts: dict[str, str] = {}

    def t(name: str, limit: int | None = None) -> str:
        value = text(name)
        value = value[:limit] if limit else value
        texts[name] = value
        return value

    owner = user_create(username=f"owner-{slug}", password=password, handle=t("owner handle", 32))
    project = project_create(slug=slug, name=t("project name"), owner=owner, is_public=True,
                             description=t("project description"))
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "a.wav").write_bytes(wav(440, 0.3))
    (folder / "b.wav").write_bytes(wav(550, 0.3))
    rows = [
        {"id": "xq1", "prompt": t("prompt"), "answerline": t("answerline") + " [accept foo]",
         "category": t("category", 100), "source": t("source", 100), "audio": "a.wav",
         "choices": [t("option"), "plain b", "plain c", "plain d"], "correct": 0},
        {"id": "xq2", "prompt": "plain prompt", "answerline": "Plain [accept bar]",
         "category": t("category", 100), "audio": "b.wav"},
    ]
    (folder / "bank.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    quiz.bank_import(project=project, path=folder / "bank.jsonl")
    questions = {q.external_id: q for q in Question.objects.filter(project=project)}

    guest = guest_create(handle=t("guest handle", 32))
    membership_set(project=project, user=guest, role=Role.PARTICIPANT)
    human = quiz.responder_for_user(project=project, user=guest)
    quiz.response_submit(responder=human, question=questions["xq1"], mode="free", client_token="h-free-1",
                         answer_text=t("guest answer"), latency_ms=1200)
    quiz.response_submit(responder=human, question=questions["xq2"], mode="free", client_token="h-free-2",
                         answer_text="plain", latency_ms=1300)
    presentation = quiz.presentation_get_or_create(responder=human, question=questions["xq1"], mode="mcq")
    quiz.response_submit(responder=human, question=questions["xq1"], mode="mcq", client_token="h-mcq-1",
                         choice=0, option_order=Presentation.objects.get(pk=presentation.pk).option_order,
                         latency_ms=900)
    for k, (system, condition) in enumerate([(t("model system", 100), t("condition", 50)),
                                             ("plain-model", "audio+text")]):
        model = quiz.responder_for_model(project=project, system_name=system, condition=condition)
        for qid in questions:
            quiz.response_submit(responder=model, question=questions[qid], mode="free",
                                 client_token=f"m{k}-{qid}", answer_text=t("model answer") if k == 0 else "plain",
                                 latency_ms=10)

    criteria = [{"key": "mos", "label": t("criterion label"), "scale": "acr5", "comment": True,
                 "labels": [t("scale label"), "Poor", "Fair", "Good", "Excellent"]}]
    campaign = annotation.campaign_create(
        project=project, name=t("campaign name"), slug="xc", template="custom", criteria=criteria,
        instructions=t("campaign instructions"), question_text=t("campaign question"),
        consent_text=t("consent text"), policy="overlap", policy_k=3, require_full_listen=False,
    )
    items = [{"id": f"i{i}", "audio": "a.wav" if i % 2 else "b.wav", "system": t("item system", 100),
              "condition": t("item condition", 100), "task": "plain"} for i in range(3)]
    (folder / "items.jsonl").write_text("\n".join(json.dumps(r) for r in items) + "\n", encoding="utf-8")
    annotation.items_import(campaign=campaign, path=folder / "items.jsonl", audio_dir=folder)
    annotation.campaign_set_status(campaign=campaign, status="open")
    annotator = None
    for r in range(2):
        a = annotation.annotator_step(
            annotator=annotation.annotator_enrol(campaign=campaign, user=guest_create(handle=t("rater handle", 32))),
            step="consent")
        annotator = annotator or a
        while (asg := annotation.assignment_next_for_annotator(a, campaign)) is not None:
            annotation.rating_submit(annotator=a, assignment_id=asg.public_id, values={"mos": 2 + r},
                                     client_token=asg.public_id, comments={"mos": t("rating comment")},
                                     now=asg.served_at + timedelta(seconds=5))

    stored_fit = None
    if fit:
        from irt.services import irt_fit_create, irt_fit_run

        stored_fit = irt_fit_run(irt_fit_create(project=project, options={"mode": "free"}, dispatch=False).pk)
    return Hostile(project=project, owner=owner, guest=guest, campaign=campaign, annotator=annotator,
                   fit=stored_fit, question_ids=sorted(questions), texts=texts)
