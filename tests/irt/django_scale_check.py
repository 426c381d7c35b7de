"""Time the Django side of a fit on an Audita-shaped stored dataset (run on demand, never collected).

    rm -rf /tmp/irtscale && mkdir /tmp/irtscale && export EARSHOT_VAR_DIR=/tmp/irtscale
    .venv/bin/python manage.py migrate -v0
    DJANGO_DEBUG=1 .venv/bin/python manage.py shell < tests/irt/django_scale_check.py

20 model systems answer all 1,000 items, 300 humans answer 10-60 items each (~30k
responses, simulated 2PL); prints the time of response_matrix, the data hash, the whole
irt_fit_run, fit_report, the report page (first, uncached view) and the items CSV.
Results are in docs/irt-in-earshot.md.
"""

import itertools
import time

import numpy as np
from django.test import Client
from django.utils import timezone

from accounts.services import project_create, user_create
from irt import selectors, services
from quiz.models import Category, Question, Response
from quiz.services import responder_for_model, responder_for_user

N_ITEMS, N_MODELS, N_HUMANS = 1000, 20, 300
rng = np.random.default_rng(0)
project = project_create(slug="scale", name="scale")
category = Category.objects.filter(project=project).first()
questions = Question.objects.bulk_create([
    Question(project=project, external_id=f"s{i}", prompt="p", answerline="a", category=category, source=f"src{i % 3}")
    for i in range(N_ITEMS)
])
b = rng.normal(0, 1, N_ITEMS)
a = np.exp(rng.normal(0, 0.3, N_ITEMS))
rows: list[Response] = []
now = timezone.now()
tokens = itertools.count()


def add(responder, q: int, theta: float) -> None:
    ok = bool(rng.random() < 1 / (1 + np.exp(-a[q] * (theta - b[q]))))
    rows.append(Response(project=project, question=questions[q], responder=responder, mode="free",
                         client_token=f"k{next(tokens)}", correct=ok, score=float(ok), rule="x",
                         rule_version="v1", judged_at=now))


for m in range(N_MODELS):
    responder = responder_for_model(project=project, system_name=f"m{m}", condition="audio")
    theta = rng.normal(0.5, 1)
    for q in range(N_ITEMS):
        add(responder, q, theta)
for h in range(N_HUMANS):
    responder = responder_for_user(project=project, user=user_create(username=f"h{h}", handle=f"h{h}"))
    theta = rng.normal()
    for q in rng.choice(N_ITEMS, rng.integers(10, 61), replace=False):
        add(responder, int(q), theta)
Response.objects.bulk_create(rows, batch_size=5000)
print("responses", len(rows))

t = time.perf_counter()
matrix = selectors.response_matrix(project, "free")
print(f"response_matrix {time.perf_counter() - t:.2f}s n={matrix.n_obs}")
t = time.perf_counter()
_ = matrix.data_hash
print(f"data_hash {time.perf_counter() - t:.3f}s")
fit = services.irt_fit_create(project=project, options={"method": "map"}, dispatch=False)
t = time.perf_counter()
fit = services.irt_fit_run(fit.pk)
print(f"irt_fit_run total {time.perf_counter() - t:.1f}s status={fit.status} "
      f"core={fit.result['irt']['timings']['total']:.1f}s method={fit.method}")
t = time.perf_counter()
selectors.fit_report(fit)
print(f"fit_report {time.perf_counter() - t:.2f}s")
client = Client()
client.force_login(user_create(username="adm", handle="adm", is_staff=True))
client.get("/p/scale/irt/")  # URL conf and app imports
for url in (f"/p/scale/irt/{fit.pk}/", f"/p/scale/irt/{fit.pk}/", f"/p/scale/irt/{fit.pk}/tables/items/?format=csv",
            f"/api/v1/projects/scale/irt/fits/{fit.pk}/report/", "/p/scale/irt/status.json"):
    t = time.perf_counter()
    resp = client.get(url)
    print(f"{url} {time.perf_counter() - t:.2f}s {resp.status_code}")
