"""The Prolific client and command against a fake Prolific on localhost (never the real API)."""

from __future__ import annotations

import json
import threading
from decimal import Decimal
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.core.management import CommandError, call_command

from annotation import prolific


class _Fake(BaseHTTPRequestHandler):
    calls: list = []

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = json.loads(self.rfile.read(length) or b"{}")
        type(self).calls.append((self.path, self.headers.get("Authorization"), body))
        if self.headers.get("Authorization") != "Token secret-token":
            self._answer(401, {"error": "bad token"})
        elif self.path.endswith("/submissions/bonus-payments/"):
            self._answer(201, {"id": "bonus-1", "total_amount": 100})
        else:
            self._answer(200, {})

    def _answer(self, status, payload):
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


@pytest.fixture
def fake_prolific():
    _Fake.calls = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Fake)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/api/v1/", _Fake.calls
    server.shutdown()
    server.server_close()


ROWS = [
    {"participant_id": "p1", "decision": "approve", "bonus": "0.50"},
    {"participant_id": "p2", "decision": "approve", "bonus": "0.00"},
    {"participant_id": "p3", "decision": "reject", "bonus": "0.00"},
    {"participant_id": "p4", "decision": "screen_out", "bonus": "0.00"},
    {"participant_id": "direct-rater", "decision": "approve", "bonus": "0.50"},
]


def test_plan_approves_and_bonuses_only_approved_prolific_participants():
    plan = prolific.payment_plan(ROWS, study_id="s1", platform_ids={"p1", "p2", "p3", "p4"})
    assert plan.approve == ("p1", "p2") and plan.bonuses == (("p1", Decimal("0.50")),)
    assert plan.bonus_csv() == "p1,0.50\n"


def test_client_sends_the_documented_calls_and_pays_only_when_told(fake_prolific):
    base, calls = fake_prolific
    client = prolific.ProlificClient("secret-token", base_url=base)
    plan = prolific.payment_plan(ROWS, study_id="s1", platform_ids={"p1", "p2"})
    done = prolific.send_plan(client, plan)
    assert done == {"approved": 2, "bonus_id": "bonus-1", "paid": False}
    assert calls == [
        ("/api/v1/submissions/bulk-approve/", "Token secret-token", {"study_id": "s1", "participant_ids": ["p1", "p2"]}),
        ("/api/v1/submissions/bonus-payments/", "Token secret-token", {"study_id": "s1", "csv_bonuses": "p1,0.50\n"}),
    ]
    assert prolific.send_plan(client, plan, pay=True)["paid"] is True
    assert calls[-1][0] == "/api/v1/bulk-bonus-payments/bonus-1/pay/"


@pytest.mark.parametrize("url", ["file:///etc/passwd", "http://api.prolific.com/api/v1/", "ftp://x/"])
def test_client_talks_https_only_except_to_localhost(url):
    with pytest.raises(ValueError, match="https"):
        prolific.ProlificClient("t", base_url=url)


def test_client_reports_a_refusal(fake_prolific):
    base, _calls = fake_prolific
    with pytest.raises(prolific.ProlificError) as caught:
        prolific.ProlificClient("wrong", base_url=base).bulk_approve("s1", ["p1"])
    assert caught.value.status == 401 and "bad token" in caught.value.body


@pytest.mark.django_db
def test_command_dry_run_then_sends_to_the_fake_server(fake_prolific, make_campaign, monkeypatch, capsys):
    from datetime import timedelta

    from django.test import Client
    from django.utils import timezone

    from annotation import services
    from annotation.models import Annotator

    base, calls = fake_prolific
    campaign = make_campaign(n=1, conditions=("x",), policy_n=1, crowd={"bonus": "0.25"}, require_full_listen=False)
    browser = Client()
    browser.post(f"/p/{campaign.project.slug}/c/{campaign.slug}/?PROLIFIC_PID=pp1&STUDY_ID=s9&SESSION_ID=z",
                 {"agree": "yes"})
    annotator = Annotator.objects.get()
    services.annotator_step(annotator=annotator, step="instructions")
    assignment = services.assignment_next_for_annotator(annotator)
    services.rating_submit(annotator=annotator, assignment_id=assignment.public_id, values={"mos": "4"},
                           client_token="t1", now=timezone.now() + timedelta(seconds=30))
    services.annotator_complete(annotator=annotator)
    args = [campaign.slug, "--project", campaign.project.slug, "--study", "s9", "--base-url", base]
    call_command("annotation_prolific_pay", *args)
    assert "approve 1, bonuses 1 (total 0.25" in capsys.readouterr().out and calls == []
    monkeypatch.delenv("PROLIFIC_TOKEN", raising=False)
    with pytest.raises(CommandError, match="PROLIFIC_TOKEN"):
        call_command("annotation_prolific_pay", *args, "--send")
    monkeypatch.setenv("PROLIFIC_TOKEN", "secret-token")
    call_command("annotation_prolific_pay", *args, "--send")
    assert [c[0] for c in calls] == ["/api/v1/submissions/bulk-approve/", "/api/v1/submissions/bonus-payments/"]
    assert calls[0][2] == {"study_id": "s9", "participant_ids": ["pp1"]}
