"""Demo campaigns for the seed-paper tables, rated by simulated annotators.

* ``demo-koala-check`` (KoALa): counterfactual sentences checked on three yes/no
  criteria (grammatical, natural read aloud, plausible) by three raters, for the
  pooled κ and the keep-only-if-every-criterion-passes funnel;
* ``demo-qa-audit`` (SEA-SpeechBench App. B.3): question–answer pairs in three
  batches audited on three axes; one batch falls below 90 %, its failing items are
  fixed and re-audited (``metadata.audit_round`` 2).

The ratings go through the real services (enrol, assignment, rating_submit), as a
person's would; then the campaigns are closed (the audit is done and takes no more
work). :func:`seed_demo_campaigns` creates each campaign once.
"""

from __future__ import annotations

import json
import random
import tempfile
from pathlib import Path

from accounts.models import Project
from accounts.services import guest_create

from . import services
from .models import Campaign, CampaignStatus

RATERS = 3


def _rows_koala(rng: random.Random) -> list[dict]:
    rows = []
    for n in range(12):
        rows.append({"id": f"cf-{n + 1:02d}", "context": f"Counterfactual sentence {n + 1}.",
                     "response": f"Replacement {n + 1}", "system": "rewrite", "source": "koala-demo"})
    return rows


def _rows_audit() -> list[dict]:
    rows = []
    for batch in ("b1", "b2", "b3"):
        for n in range(10):
            rows.append({"id": f"{batch}-q{n + 1:02d}", "question": f"Question {n + 1} of {batch}?",
                         "response": f"Answer {n + 1}", "batch": batch, "source": "sea-demo",
                         "metadata": {"audit_round": 1}})
    for n in (1, 4, 7):  # the failing items of b2, fixed and sent back for a second audit
        rows.append({"id": f"b2-q{n + 1:02d}-fixed", "question": f"Question {n + 1} of b2 (fixed)?",
                     "response": f"Answer {n + 1}", "batch": "b2", "source": "sea-demo",
                     "metadata": {"audit_round": 2, "reaudit_of": f"b2-q{n + 1:02d}"}})
    return rows


def _vote_koala(item: str, criterion: str, rng: random.Random) -> str:
    n = int(item.split("-")[1])
    p_yes = {"grammatical": 0.9, "natural_aloud": 0.75, "plausible": 0.6}[criterion]
    if n % 4 == 0 and criterion == "plausible":
        p_yes = 0.15
    return "yes" if rng.random() < p_yes else "no"


def _vote_audit(item: str, criterion: str, rng: random.Random) -> str:
    failing = item.startswith("b2-") and not item.endswith("fixed") and int(item[4:6]) in (2, 5, 8)
    if failing and criterion == "grounded":
        return "no" if rng.random() < 0.9 else "yes"
    return "yes" if rng.random() < 0.97 else "no"


def _create(project: Project, slug: str, name: str, template: str, rows: list[dict]) -> Campaign | None:
    if project.campaigns.filter(slug=slug).exists():
        return None
    campaign = services.campaign_create(project=project, name=name, slug=slug, template=template,
                                        policy_k=RATERS, require_full_listen=False)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "items.jsonl"
        path.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
        services.items_import(campaign=campaign, path=path)
    services.campaign_set_status(campaign=campaign, status=CampaignStatus.OPEN)
    return campaign


def _rate(campaign: Campaign, vote, rng: random.Random) -> int:
    """Every simulated rater rates every item it is given; returns the ratings stored."""
    keys = [c["key"] for c in campaign.criteria]
    stored = 0
    for r in range(RATERS):
        user = guest_create(handle=f"{campaign.slug}-rater-{r + 1}")
        annotator = services.annotator_enrol(campaign=campaign, user=user, consent=True)
        for _ in range(campaign.items.count() + 1):
            assignment = services.assignment_next_for_annotator(annotator, campaign)
            if assignment is None:
                break
            values = {k: vote(assignment.item.external_id, k, rng) for k in keys}
            services.rating_submit(annotator=annotator, assignment_id=assignment.public_id, values=values,
                                   client_token=f"seed-{assignment.public_id}")
            stored += len(values)
    return stored


def seed_demo_campaigns(project: Project, *, seed: int = 7) -> list[Campaign]:
    """Create and rate the two demo campaigns (once); the campaigns created now."""
    rng = random.Random(seed)
    made = []
    koala = _create(project, "demo-koala-check", "KoALa-style counterfactual check", "multi_criteria",
                    _rows_koala(rng))
    if koala is not None:
        _rate(koala, _vote_koala, rng)
        services.campaign_set_status(campaign=koala, status=CampaignStatus.CLOSED)  # done: takes no more work
        made.append(koala)
    audit = _create(project, "demo-qa-audit", "SEA-style QA audit", "qa_audit", _rows_audit())
    if audit is not None:
        _rate(audit, _vote_audit, rng)
        services.campaign_set_status(campaign=audit, status=CampaignStatus.CLOSED)
        made.append(audit)
    return made
