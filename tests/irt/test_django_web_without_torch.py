"""The web app never imports torch or Pyro (they are the `irt` extra, for workers).

A subprocess makes ``torch`` and ``pyro`` unimportable (a web-only host installed with
``scripts/install.sh --web``), stores a small bank on a scratch SQLite database, imports
``config.wsgi`` and serves every page a researcher and a player open, the API
included; a 2PL MAP fit started there runs (numpy/scipy), a VI fit is recorded and
fails with a message that names the missing extra. Then it checks that neither module was loaded.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

_CODE = r'''
import importlib.abc, json, os, sys

class _NoTorch(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("torch", "pyro"):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

sys.meta_path.insert(0, _NoTorch())
os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
import config.wsgi  # noqa: F401  (what gunicorn loads)
from django.core.management import call_command
call_command("migrate", verbosity=0)
import pathlib, tempfile
from accounts.models import Role
from accounts.services import membership_set, project_create, user_create
from quiz import synth
from quiz.services import bank_import
bank = pathlib.Path(tempfile.mkdtemp())
for name, freq in (("a.wav", 440), ("b.wav", 660)):
    (bank / name).write_bytes(synth.wav_bytes(synth.tone(freq, 0.3)))
(bank / "bank.jsonl").write_text(
    json.dumps({"id": "q1", "prompt": "Which?", "answerline": "Canberra", "audio": "a.wav", "category": "Geography",
                "choices": ["Sydney", "Canberra", "Perth", "Hobart"], "correct": 1}) + "\n"
    + json.dumps({"id": "q2", "prompt": "Who?", "answerline": "Batman", "audio": "b.wav", "category": "People"}) + "\n")
project = project_create(slug="demo", name="Demo", is_public=True)
bank_import(project=project, path=bank / "bank.jsonl")
researcher = user_create(username="researcher", password="pw-123456!")
membership_set(project=project, user=researcher, role=Role.RESEARCHER)
from django.utils import timezone
from quiz.models import Question, Response
from quiz.services import responder_for_user
for k in range(3):
    who = responder_for_user(project=project, user=user_create(username=f"p{k}", handle=f"p{k}"))
    for q in Question.objects.filter(project=project):
        Response.objects.create(project=project, question=q, responder=who, mode="free", answer_text="x",
                                client_token=f"t{k}-{q.pk}", correct=(k + q.pk) % 2 == 0,
                                score=1.0, rule="test", rule_version="v", judged_at=timezone.now())
from django.conf import settings
settings.ALLOWED_HOSTS = ["*"]
settings.EARSHOT_IRT_INLINE_THREAD = False  # run the fits inline (no broker)
from django.test import Client
from accounts.models import User
from irt.models import Fit

status = {}
player = Client()
for url in ["/", "/p/demo/", "/p/demo/play/", "/p/demo/leaderboard/", "/api/v1/schema/"]:
    status[url] = player.get(url).status_code
res = Client()
res.force_login(User.objects.get(username="researcher"))
for url in ["/p/demo/", "/p/demo/dashboard/", "/p/demo/irt/", "/p/demo/questions/",
            "/api/v1/projects/", "/api/v1/projects/demo/irt/fits/", "/p/demo/export/responses.csv", "/p/demo/export/responses.parquet"]:
    status[url] = res.get(url).status_code
status["start fit"] = res.post("/p/demo/irt/start/", {"mode": "free", "method": "map"}).status_code
numpy_fit = Fit.objects.order_by("-id").first()
status["start vi fit"] = res.post("/p/demo/irt/start/", {"mode": "free", "method": "vi"}).status_code
fit = Fit.objects.order_by("-id").first()
print(json.dumps({
    "status": status, "fit": [fit.status, fit.error], "numpy_fit": [numpy_fit.status, numpy_fit.error],
    "loaded": sorted({m.split(".")[0] for m in sys.modules} & {"torch", "pyro"}),
}))
'''


def test_web_app_serves_pages_without_torch(tmp_path):
    env = {**os.environ, "EARSHOT_VAR_DIR": str(tmp_path), "DJANGO_DEBUG": "1"}
    env.pop("DATABASE_URL", None)
    env.pop("CELERY_BROKER_URL", None)
    res = subprocess.run([sys.executable, "-c", _CODE], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=600)
    assert res.returncode == 0, res.stderr[-4000:]
    out = json.loads(res.stdout.strip().splitlines()[-1])
    assert out["loaded"] == []
    bad = {url: code for url, code in out["status"].items() if code >= 400}
    assert not bad, bad
    # the 2PL MAP runs in numpy/scipy (no torch needed); VI needs Pyro and says so
    assert out["numpy_fit"] == ["succeeded", ""], out["numpy_fit"]
    status, error = out["fit"]
    assert status == "failed" and "install the `irt` extra" in error, error
