"""A minimal Prolific API client for the approval/bonus report (pure: standard library only).

Three calls of Prolific's documented API (``Authorization: Token <token>``):

* ``POST submissions/bulk-approve/`` ``{"study_id", "participant_ids"}`` — approve;
* ``POST submissions/bonus-payments/`` ``{"study_id", "csv_bonuses": "<pid>,<amount>\\n…"}``
  — set up a bulk bonus (nothing is paid yet), answered with its ``id``;
* ``POST bulk-bonus-payments/<id>/pay/`` — pay it (NOT idempotent on Prolific's side:
  :func:`send_plan` pays a set-up bonus once, and only when told to).

Rejections and screen-outs are left to the researcher on Prolific's site (a rejection
needs a message and a category a person should write). :func:`payment_plan` turns the
report rows of :func:`annotation.crowd.payment_rows` into what to send. Tests use a fake
server on localhost only; nothing here is ever called by the test suite against the
real API.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

__all__ = ["DEFAULT_BASE_URL", "PaymentPlan", "ProlificClient", "ProlificError", "payment_plan", "send_plan"]

DEFAULT_BASE_URL = "https://api.prolific.com/api/v1/"


class ProlificError(RuntimeError):
    """A refused or failed API call: the HTTP status and Prolific's answer."""

    def __init__(self, status: int, body: str):
        self.status = status
        self.body = body
        super().__init__(f"Prolific API answered {status}: {body[:300]}")


@dataclass(frozen=True)
class PaymentPlan:
    """Participants to approve and bonuses to pay for one study."""

    study_id: str
    approve: tuple[str, ...]
    bonuses: tuple[tuple[str, Decimal], ...] = field(default=())

    def bonus_csv(self) -> str:
        """Prolific's ``csv_bonuses``: one ``participant_id,amount`` line each."""
        return "".join(f"{pid},{amount:.2f}\n" for pid, amount in self.bonuses)


def payment_plan(rows: Iterable[Mapping[str, str]], *, study_id: str, platform_ids: set[str]) -> PaymentPlan:
    """What to send for ``study_id``: approvals and positive bonuses of the report rows
    whose ``participant_id`` is a Prolific id (``platform_ids``; direct-link raters are
    not Prolific participants and are left out)."""
    approve, bonuses = [], []
    for row in rows:
        pid = row["participant_id"]
        if pid not in platform_ids or row["decision"] != "approve":
            continue
        approve.append(pid)
        amount = Decimal(row["bonus"])
        if amount > 0:
            bonuses.append((pid, amount))
    return PaymentPlan(study_id=study_id, approve=tuple(sorted(approve)), bonuses=tuple(sorted(bonuses)))


class ProlificClient:
    """Prolific's REST API with a token; ``base_url`` points elsewhere in tests."""

    def __init__(self, token: str, *, base_url: str = DEFAULT_BASE_URL, timeout: float = 30.0):
        if not token:
            raise ValueError("a Prolific API token is required")
        parts = urllib.parse.urlsplit(base_url)
        if not (parts.scheme == "https" or (parts.scheme == "http" and parts.hostname in ("127.0.0.1", "localhost"))):
            raise ValueError("base_url must be https (plain http only to localhost, for a fake server in tests)")
        self.token = token
        self.base_url = base_url if base_url.endswith("/") else base_url + "/"
        self.timeout = timeout

    def _post(self, path: str, payload: Mapping[str, Any] | None = None) -> dict[str, Any]:
        request = urllib.request.Request(
            self.base_url + path, data=json.dumps(payload or {}).encode(), method="POST",
            headers={"Authorization": f"Token {self.token}", "Content-Type": "application/json",
                     "Accept": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                body = response.read().decode() or "{}"
        except urllib.error.HTTPError as exc:
            raise ProlificError(exc.code, exc.read().decode(errors="replace")) from None
        return json.loads(body)

    def bulk_approve(self, study_id: str, participant_ids: Iterable[str]) -> dict[str, Any]:
        """Approve these participants' submissions in the study."""
        return self._post("submissions/bulk-approve/", {"study_id": study_id,
                                                         "participant_ids": list(participant_ids)})

    def bonus_setup(self, study_id: str, csv_bonuses: str) -> str:
        """Set up a bulk bonus (pays nothing); its id."""
        return str(self._post("submissions/bonus-payments/", {"study_id": study_id,
                                                               "csv_bonuses": csv_bonuses})["id"])

    def bonus_pay(self, bonus_id: str) -> dict[str, Any]:
        """Pay a set-up bulk bonus (send once: Prolific pays again on a repeat)."""
        return self._post(f"bulk-bonus-payments/{bonus_id}/pay/")


def send_plan(client: ProlificClient, plan: PaymentPlan, *, pay: bool = False) -> dict[str, Any]:
    """Approve, set up the bonuses and, when ``pay``, pay them once; what was done."""
    done: dict[str, Any] = {"approved": 0, "bonus_id": None, "paid": False}
    if plan.approve:
        client.bulk_approve(plan.study_id, plan.approve)
        done["approved"] = len(plan.approve)
    if plan.bonuses:
        done["bonus_id"] = client.bonus_setup(plan.study_id, plan.bonus_csv())
        if pay:
            client.bonus_pay(done["bonus_id"])
            done["paid"] = True
    return done
