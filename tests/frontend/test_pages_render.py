"""Every page of every role renders: no status >= 500 and no template source in the HTML.

The demo (``quiz_demo``) is seeded once, plus what it lacks for some pages (two IRT
fits through the stand-in estimator, a failed fit, and -- while the demo has no
listening-test campaign -- two small campaigns). Then each role walks its pages the
way a person would:

* guest players: home, play start, question pages in free and MCQ mode until a
  pyramidal question has been served too, an answer, a challenge, their history,
  the leaderboard and the "done" page of each mode;
* the researcher: every workspace, dashboard, question, response, adjudication,
  judge-agreement, IRT (list, every fit, tables, plots), campaign (list, detail,
  report, exports) page and every API list endpoint;
* an annotator of every campaign: start, consent, instructions, training, work
  (rating every item), the clip URLs, done;
* a participant requesting the researcher pages (refused, but never a 500);
* staff: the admin index and every registered model's list, add and change pages;
* anyone: login, API docs (Swagger UI, ReDoc) and the schema.

Every response is checked as it comes: status < 500, and an HTML body contains no
``{#``, ``#}``, ``{%`` or ``{{`` (a ``{# #}`` comment spanning lines, an unclosed
tag or a typo prints template source to the page, as D2 did on every question
page). The URL names requested are collected with ``resolve()``; the test then
walks the URLconf (``get_resolver()``) and fails listing every URL name that was
neither requested nor skipped in :data:`SKIPPED` with a reason, so a new page is
covered the day it is added.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import pytest
from django.contrib import admin
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, resolve, reverse
from django.urls.exceptions import Resolver404

from tests.irt.django_helpers import fast_result

pytestmark = pytest.mark.django_db

#: Template source that must never reach a page.
MARKERS = ("{#", "#}", "{%", "{{")
#: Text that looks like template source but is meant: Prolific's study-URL placeholders
#: (``?PROLIFIC_PID={{%PROLIFIC_PID%}}``), shown on a campaign page to paste into Prolific.
ALLOWED = re.compile(r"\{\{%(PROLIFIC_PID|STUDY_ID|SESSION_ID)%\}\}")

#: URL names not requested, each with the reason (anything else unrequested fails the test).
SKIPPED: dict[str, str] = {
    "irt_bank_score": "POST only (scores answers); tests/irt/test_django_bank.py",
    "irt_bank_cat_eval": "JSON API over a frozen bank, which the walk's demo has none of; "
                         "tests/irt/test_django_cat_eval.py",
    "healthz": "JSON for load balancers, no template (tests/frontend/test_security_pages.py)",
    "favicon": "a redirect to the static icon (tests/frontend/test_security_pages.py)",
    "api-redoc-js": "ReDoc's JavaScript bundle, no template (tests/frontend/test_security_pages.py)",
    "admin:axes_accessattempt_add": "django-axes' admin forbids adding lockout records",
    "admin:axes_accessfailurelog_add": "django-axes' admin forbids adding lockout records",
    "admin:axes_accesslog_add": "django-axes' admin forbids adding lockout records",
    "accounts:logout": "POST-only sign-out; requested last would end the sessions the walk needs (Django's view)",
    "frontend:api_token": "POST-only; replaces the researcher's API token (tests/frontend/test_dashboard.py)",
    "irt:fit_start": "POST-only form target that queues a fit (tests/irt/test_django_views.py)",
    "api-token": "POST-only credential exchange (tests/accounts)",
    "annotation_items_import": "POST-only upload (tests/annotation/test_import.py)",
    "annotation_rating_submit": "POST-only JSON (tests/annotation); the page flow rates through annotation:rate",
    "annotation_next": "POST-only: serves an assignment to the API caller (tests/annotation)",
    "admin:judging_rubric_add": "read-only admin: rubrics get new versions through judging:rubrics",
    "annotation:training_audio": "the demo campaign has no training examples (tests/annotation/test_flow.py)",
    "quiz:study_link_rotate": "POST-only; replaces the study link's token (tests/quiz/test_study.py)",
}
#: Admin URL names other than index/changelist/add/change (delete, history, password, autocomplete...):
#: Django's own views and templates, nothing Earshot renders.
ADMIN_SKIP = re.compile(r"^admin:(?!index$|.*_changelist$|.*_add$|.*_change$)|^admin:(.*_)?password_change$")


@dataclass
class Walk:
    """Requests made so far, the URL names they resolved to, and every problem found.

    Problems are grouped by URL name and kind (one line for a leak on all 30 question
    pages), each with its count and the first request that showed it.
    """

    problems: dict[tuple[str, str], list] = field(default_factory=dict)
    seen: set[str] = field(default_factory=set)
    pages: int = 0
    notes: list[str] = field(default_factory=list)

    def mark(self, path: str) -> str:
        try:
            match = resolve(urlsplit(path).path)
        except Resolver404:
            return "?"
        self.seen.add(match.view_name)
        return match.view_name

    def go(self, client: Client, role: str, url: str, *, method: str = "get", data=None, json_body=None,
           follow: bool = True, **extra):
        """Request ``url`` as ``role``, follow redirects, check the final response; return it."""
        if json_body is not None:
            response = client.post(url, data=json.dumps(json_body), content_type="application/json", **extra)
        else:
            response = getattr(client, method)(url, data or {}, follow=follow, **extra)
        name = self.mark(url)
        for hop, _status in getattr(response, "redirect_chain", []):
            name = self.mark(hop)
        self.pages += 1
        self.check(name, f"{role} {method.upper() if json_body is None else 'POST'} {url}", response)
        return response

    def problem(self, name: str, kind: str, example: str) -> None:
        entry = self.problems.setdefault((name, kind), [0, example])
        entry[0] += 1

    def check(self, name: str, where: str, response) -> None:
        where = f"{where} -> {response.status_code}"
        if response.status_code >= 500:
            error = getattr(response, "exc_info", None)
            self.problem(name, f"status {response.status_code}: "
                         + (f"{error[0].__name__}: {error[1]}" if error else "server error"), where)
        if "text/html" not in response.get("Content-Type", ""):
            if getattr(response, "streaming", False):
                for _chunk in response.streaming_content:  # drain (closes files)
                    pass
            return
        body = (b"".join(response.streaming_content) if response.streaming else response.content).decode(
            "utf-8", "replace")
        for marker, snippet in leaks(body):
            self.problem(name, f"template source {marker!r} in the page", f"{where}: …{snippet}…")

    def report(self) -> str:
        return "\n".join(f"- {name}: {kind} ({count}×; first: {example})"
                         for (name, kind), (count, example) in sorted(self.problems.items()))


def _client(**defaults) -> Client:
    """A test client whose view exceptions come back as 500 responses (reported with
    the others) instead of stopping the walk at the first one."""
    return Client(raise_request_exception=False, **defaults)


def leaks(html: str) -> Iterator[tuple[str, str]]:
    """Each template marker in ``html`` with the text around it (one report per marker)."""
    html = ALLOWED.sub("", html)
    for marker in MARKERS:
        at = html.find(marker)
        if at >= 0:
            yield marker, " ".join(html[max(0, at - 80): at + 120].split())


def url_names() -> dict[str, str]:
    """Every named URL of the URLconf (``namespace:name``) → its pattern, by walking ``get_resolver()``."""
    out: dict[str, str] = {}

    def walk(resolver: URLResolver, prefix: str, namespace: str | None) -> None:
        for entry in resolver.url_patterns:
            if isinstance(entry, URLResolver):
                ns = namespace
                if entry.namespace:
                    ns = f"{namespace}:{entry.namespace}" if namespace else entry.namespace
                walk(entry, prefix + str(entry.pattern), ns)
            elif isinstance(entry, URLPattern) and entry.name:
                out[f"{namespace}:{entry.name}" if namespace else entry.name] = prefix + str(entry.pattern)

    walk(get_resolver(), "", None)
    return out


# --------------------------------------------------------------------------- seeding


def _seed_fits(project) -> list:
    """A free and an MCQ fit (stand-in estimator: the pages need stored fits, not statistics)
    and a failed one, whose page differs."""
    import irt.services
    from irt.services import irt_fit_create, irt_fit_run

    real, irt.services.irt_fit = irt.services.irt_fit, fast_result
    try:
        fits = [irt_fit_run(irt_fit_create(project=project, options=options, dispatch=False).pk)
                for options in ({"mode": "free"}, {"mode": "mcq", "model": "3pl"}, {"mode": "free", "source": "none"})]
    finally:
        irt.services.irt_fit = real
    assert [f.status for f in fits] == ["succeeded", "succeeded", "failed"], [f.error for f in fits]
    return fits


def _campaign(project, folder, slug: str, template: str, rows: list[dict], status: str = "open") -> None:
    from annotation import services

    campaign = services.campaign_create(project=project, name=slug.replace("-", " ").title(), slug=slug,
                                        template=template, require_full_listen=False)
    path = folder / f"{slug}.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    services.items_import(campaign=campaign, path=path, audio_dir=folder)
    services.campaign_set_status(campaign=campaign, status=status)


def _seed_campaigns(project, folder, *, open_ones: bool) -> None:
    """A closed campaign nobody rated (its report and the annotator's "closed" page),
    and, when the demo has no campaign, two open ones: MOS over generated clips (with
    a training item) and a text QA audit (yes/no criteria)."""
    from quiz import synth

    for n in range(4):
        (folder / f"clip{n}.wav").write_bytes(synth.wav_bytes(synth.tone(300 + 60 * n, 0.3)))
    clips = [{"id": f"m{n}", "audio": f"clip{n}.wav", "system": f"sys{n % 2}"} for n in range(3)]
    _campaign(project, folder, "render-closed", "mos", clips, status="closed")
    # listening tests with several stimuli (their pages, stimulus audio and preview)
    stimuli = {"mushra": [("reference", 0), ("hidden_reference", 0), ("anchor", 1), ("system", 2)],
               "ab": [("A", 1), ("B", 2)]}
    for template, roles in stimuli.items():
        _campaign(project, folder, f"render-{template}", template, [{"id": f"{template}-1", "stimuli": [
            {"role": role, "audio": f"clip{n}.wav", "system": f"sys{n}", "condition": f"c{n}"}
            for role, n in roles]}])
    if open_ones:
        _campaign(project, folder, "render-mos", "mos",
                  [*clips, {"id": "m-train", "audio": "clip3.wav", "kind": "training", "expected": {"mos": "5"}}])
        _campaign(project, folder, "render-qa", "qa_audit",
                  [{"id": f"a{n}", "response": f"answer {n}", "question": f"question {n}?", "system": f"sys{n % 2}"}
                   for n in range(3)])


@pytest.fixture
def demo(tmp_path, settings):
    from django.core.cache import cache
    from django.core.management import call_command

    from accounts.models import Project
    from annotation.models import Campaign

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    cache.clear()
    call_command("quiz_demo", verbosity=0)
    project = Project.objects.get(slug="demo")
    _seed_fits(project)
    _seed_campaigns(project, tmp_path, open_ones=not Campaign.objects.filter(project=project).exists())
    return project


# ------------------------------------------------------------------------- the roles


def _answer(walk: Walk, client: Client, slug: str, presentation, n: int):
    """Submit an answer to the served question (a wrong guess, the first option, clue 1)
    as play.js does; when the play protocol changes, this is the one place to follow it."""
    body = {"presentation": presentation.pk, "client_token": f"render-{presentation.pk}-{n}"}
    if presentation.mode == "mcq":
        body["choice_position"] = 0
    else:
        body["answer"] = "a wrong guess"
    if presentation.question.pyramidal:
        walk.go(client, "guest", reverse("quiz:play_reveal", args=[slug]),
                json_body={"presentation": presentation.pk})
        walk.go(client, "guest", reverse("quiz:play_buzz", args=[slug]),
                json_body={"presentation": presentation.pk})
    if n % 7 == 3:  # now and then "I don't know"
        return walk.go(client, "guest", reverse("quiz:play_skip", args=[slug]),
                       json_body={"presentation": presentation.pk, "client_token": body["client_token"]})
    return walk.go(client, "guest", reverse("quiz:play_answer", args=[slug]), json_body=body)


def _play(walk: Walk, project, guests: int = 2) -> set[str]:
    """Guests play every mode to the end; returns the kinds of question page served."""
    from quiz.models import Presentation

    slug = project.slug
    served: set[str] = set()
    counter = itertools.count()
    anon = _client()
    for name in ("frontend:home", "quiz:leaderboard", "quiz:play_start", "quiz:play_next", "quiz:daily"):
        walk.go(anon, "anonymous", reverse(name, args=[] if name == "frontend:home" else [slug]))
    for g in range(guests):
        client = _client(REMOTE_ADDR=f"10.0.0.{g + 1}")
        walk.go(client, "guest", reverse("frontend:home"))
        walk.go(client, "guest", reverse("quiz:play_start", args=[slug]))
        walk.go(client, "guest", reverse("quiz:play_start", args=[slug]), method="post",
                data={"handle": f"render-guest-{g}", "mode": "free"})
        walk.go(client, "guest", reverse("quiz:play_protocol", args=[slug]))
        answered = None
        for mode in ("free", "mcq"):
            for _ in range(40):
                page = walk.go(client, "guest", reverse("quiz:play_next", args=[slug]) + f"?mode={mode}")
                if any(t.name == "quiz/play_done.html" for t in page.templates):
                    served.add(f"done-{mode}")
                    break
                presentation = page.context.get("presentation") if page.context else None
                if page.status_code != 200 or presentation is None:
                    walk.notes.append(f"guest {g}: {mode} page without a question ({page.status_code})")
                    break
                presentation = Presentation.objects.select_related("question").get(pk=presentation.pk)
                served.add(presentation.mode)
                if presentation.question.pyramidal:
                    served.add("pyramidal")
                reply = _answer(walk, client, slug, presentation, next(counter))
                if reply.status_code >= 400:
                    walk.notes.append(f"guest {g}: answer refused ({reply.status_code}: {reply.content[:200]!r})")
                    break
                data = reply.json()
                if data.get("challengeable"):
                    answered = answered or data.get("response_id")
                if data.get("round", {}).get("done"):
                    walk.go(client, "guest", data["round"]["summary_url"])
        for _ in range(10):  # the daily challenge, to its result and share text
            page = walk.go(client, "guest", reverse("quiz:daily_play", args=[slug]))
            presentation = page.context.get("presentation") if page.context else None
            if presentation is None:
                break
            presentation = Presentation.objects.select_related("question").get(pk=presentation.pk)
            _answer(walk, client, slug, presentation, next(counter))
        walk.go(client, "guest", reverse("quiz:daily", args=[slug]))
        walk.go(client, "guest", reverse("quiz:versus", args=[slug]))
        # live rooms: host one (the lobby page), then its page by code (tests/rooms play it)
        walk.go(client, "guest", reverse("rooms:home", args=[slug]))
        hosted = walk.go(client, "guest", reverse("rooms:home", args=[slug]), method="post")
        if hosted.redirect_chain:
            walk.go(client, "guest", hosted.redirect_chain[-1][0])
        walk.go(client, "guest", reverse("quiz:leaderboard", args=[slug]) + "?mode=free")
        if answered:
            walk.go(client, "guest", reverse("judging:challenge_submit", args=[slug]),
                    json_body={"response_id": answered, "text": "I think my answer is right"})
        walk.go(client, "guest", reverse("quiz:play_history", args=[slug]))
        walk.go(client, "guest", reverse("quiz:leaderboard", args=[slug]))
    return served


def _researcher_urls(project) -> Iterator[str]:
    """Every researcher page and API GET of the project, with every id the data has."""
    from annotation.exports import TABLES as CAMPAIGN_TABLES
    from annotation.models import Campaign
    from frontend.selectors import TABLES
    from irt.models import Fit
    from irt.selectors import REPORT_TABLES
    from irt.views import PLOTS
    from quiz.models import Question, Response

    slug = project.slug

    def r(name: str, *args) -> str:
        return reverse(name, args=[slug, *args])

    yield from (r("frontend:workspace"), r("quiz:study_settings"), r("frontend:dashboard"), r("frontend:dashboard") + "?mode=mcq",
                r("frontend:dashboard") + "?category=nothing-matches", r("frontend:dashboard") + "?format=json",
                r("frontend:responses"), r("frontend:responses") + "?kind=human&correct=0",
                r("frontend:questions"), r("frontend:export_bundle"))
    for table in TABLES:
        yield r("frontend:dashboard_table", table, "csv")
    for chart in ("headline", "models"):
        yield r("frontend:dashboard_chart", chart, "svg")
    yield from (r("frontend:seed_tables"), r("frontend:seed_tables") + "?field=evidence_position",
                r("frontend:seed_tables") + "?format=json")
    for table in ("bank_source", "faithfulness", "qa_audit"):
        yield r("frontend:seed_table", table, "csv")
    yield r("frontend:seed_table", "joint_modes", "json")
    yield r("frontend:seed_variant_answers", "csv")
    for fmt in ("csv", "jsonl", "parquet"):
        yield r("frontend:export_responses", fmt)
    for external_id in Question.objects.filter(project=project).values_list("external_id", flat=True):
        yield r("frontend:question", external_id)
    yield from (r("judging:adjudicate"), r("judging:agreement"))
    for response_id in Response.objects.filter(project=project, responder__kind="human").order_by("id") \
            .values_list("id", flat=True)[:3]:
        yield r("judging:response_adjudicate", response_id)
    yield from (r("irt:fit_list"), r("irt:fit_status"), r("irt:table2"))
    for fit in Fit.objects.filter(project=project):
        yield r("irt:fit_detail", fit.pk)
        if fit.status == "succeeded":
            yield from (r("irt:fit_table", fit.pk, key) for key in REPORT_TABLES)
            yield r("irt:fit_plot", fit.pk, PLOTS[0], "svg")
        yield r("irt_fit_status", fit.pk)
        yield r("irt_fit_report", fit.pk)
        if fit.status == "succeeded":
            yield r("irt_fit_cat_eval", fit.pk)
    yield r("annotation:campaign_list")
    yield r("annotation:rater_blocklist")
    for campaign in Campaign.objects.filter(project=project):
        yield from (r("annotation:campaign_detail", campaign.slug), r("annotation:campaign_report", campaign.slug),
                    r("annotation:campaign_preview", campaign.slug), r("annotation:campaign_crowd", campaign.slug),
                    r("annotation:campaign_payments", campaign.slug))
        for item in campaign.items.exclude(clip=None)[:1]:
            yield r("annotation:campaign_preview_audio", campaign.slug, item.public_id)
        for item in campaign.items.filter(clip=None).exclude(stimuli=None)[:1]:
            yield r("annotation:campaign_preview_stimulus_audio", campaign.slug, item.public_id,
                    item.stimuli.first().public_id)
        yield from (r("annotation:campaign_export", campaign.slug, table, "csv") for table in CAMPAIGN_TABLES)
        yield from (r(name, campaign.slug) for name in ("annotation_campaign", "annotation_ratings",
                                                          "annotation_report"))
    yield from (reverse(name, args=[slug]) for name in (
        "api-project", "api-questions", "api-clips", "api-model-systems", "api-model-responses", "api-responses",
        "api-dashboard", "api-export-responses", "api-export-bundle", "judging-verdicts", "judging-overrides",
        "judging-challenges", "judging-agreement", "annotation_campaigns", "irt_fits", "irt_banks"))
    first = Question.objects.filter(project=project).order_by("external_id").first()
    yield reverse("api-question", args=[slug, first.external_id])
    yield reverse("api-projects")
    yield r("judging:rubrics")
    yield reverse("judging-judges", args=[slug])
    yield reverse("judging-rubrics", args=[slug])
    yield reverse("judging-rubric-versions", args=[slug, "verdict"])


def _annotate(walk: Walk, campaign, role: str = "annotator", address: str = "10.1.0.1") -> None:
    """An annotator (a new guest, from its own address: guest creation may be rate-limited
    per client) goes through the whole flow of ``campaign``, rating every item served."""
    from annotation.models import Item

    slug, c = campaign.project.slug, campaign.slug
    client = _client(REMOTE_ADDR=address)
    walk.go(client, role, reverse("annotation:start", args=[slug, c]))
    # Consent is given on the start page: its POST creates the annotator (a GET never does).
    walk.go(client, role, reverse("annotation:start", args=[slug, c]), method="post", data={"agree": "yes"})
    for step, data in (("consent", {"agree": "yes"}), ("instructions", {}), ("training", {})):
        url = reverse(f"annotation:{step}", args=[slug, c])
        walk.go(client, role, url)
        if step == "training":
            for item in Item.objects.filter(campaign=campaign, kind="training"):
                walk.go(client, role, reverse("annotation:training_audio", args=[slug, c, item.public_id]))
        walk.go(client, role, url, method="post", data=data)
    _screen(walk, client, role, campaign)
    for n in range(30):
        page = walk.go(client, role, reverse("annotation:work", args=[slug, c]))
        item = (page.context or {}).get("item") if page.context else None
        if page.status_code != 200 or not item:
            break
        if item.get("audio_url"):
            walk.go(client, role, item["audio_url"])
        values = {crit["key"]: crit["choices"][0]["value"] for crit in item["criteria"] if crit["choices"]}
        if test := item.get("test"):  # a listening test: every stimulus' audio, a value per stimulus
            for stimulus in filter(None, [test["reference"], test["x"], *test["stimuli"]]):
                walk.go(client, role, stimulus["audio_url"])
            for crit in item["criteria"]:
                if not crit["choices"]:
                    values[crit["key"]] = {s["id"]: (50 if crit["scale"] == "mushra100" else rank)
                                           for rank, s in enumerate(test["stimuli"], 1)}
        reply = walk.go(client, role, reverse("annotation:rate", args=[slug, c]),
                        json_body={"assignment": item["assignment"], "values": values,
                                   "client_token": f"{role}-{c}-{n}"})
        if reply.status_code >= 400:
            walk.notes.append(f"{role} {c}: rating refused ({reply.status_code}: {reply.content[:200]!r})")
            break
    walk.go(client, role, reverse("annotation:done", args=[slug, c]))


def _screen(walk: Walk, client: Client, role: str, campaign) -> None:
    """Take the campaign's screening steps (headphone check etc.) as a listener who hears
    right: the page, one trial's audio, the answers the server generated."""
    from annotation import services_crowd
    from annotation.models import Annotator

    slug, c = campaign.project.slug, campaign.slug
    if not campaign.screening or "_auth_user_id" not in client.session:
        return
    annotator = Annotator.objects.select_related("campaign").filter(
        campaign=campaign, user_id=int(client.session["_auth_user_id"])).first()
    while annotator is not None and (step := services_crowd.screening_pending(annotator)) is not None:
        walk.go(client, role, reverse("annotation:screening", args=[slug, c]))
        walk.go(client, role, reverse("annotation:screening_audio", args=[slug, c, step.step, 0]))
        truth = [t.answer for t in services_crowd.screening_trials(annotator, step)]
        walk.go(client, role, reverse("annotation:screening", args=[slug, c]), method="post",
                data={f"trial-{i}": a for i, a in enumerate(truth)})


def _admin(walk: Walk, staff) -> set[str]:
    """Staff open the admin index and every model's list, add and change page; returns the
    change pages not opened because the demo has no row of that model."""
    empty = set()
    client = _client()
    client.force_login(staff)
    walk.go(client, "staff", reverse("admin:index"))
    for model, model_admin in admin.site._registry.items():
        info = (model._meta.app_label, model._meta.model_name)
        walk.go(client, "staff", reverse("admin:{}_{}_changelist".format(*info)))
        if model_admin.has_add_permission(_Request(staff)):
            walk.go(client, "staff", reverse("admin:{}_{}_add".format(*info)))
        first = model._default_manager.order_by("pk").first()
        if first is not None:
            walk.go(client, "staff", reverse("admin:{}_{}_change".format(*info), args=[first.pk]))
        else:
            empty.add("admin:{}_{}_change".format(*info))
    return empty


@dataclass
class _Request:
    """Just enough of a request for ``ModelAdmin.has_add_permission``."""

    user: object


# ---------------------------------------------------------------------------- tests


def test_leak_check_finds_template_source():
    page = "<p>{# one\n line #}</p><div>{{ name }}</div><span>{% url 'x' %}</span>"
    assert {m for m, _ in leaks(page)} == {"{#", "#}", "{{", "{%"}
    assert list(leaks("<p>{ a } # } {} <code>f(x){ return {a: 1}; }</code></p>")) == []
    assert list(leaks("<code>?PROLIFIC_PID={{%PROLIFIC_PID%}}&amp;STUDY_ID={{%STUDY_ID%}}</code>")) == []
    assert [m for m, _ in leaks("<code>{{%OTHER%}}</code>")] == ["{%", "{{"]


def test_every_page_of_every_role_renders_without_template_source(demo):
    from accounts.models import Membership, User
    from annotation.models import Campaign

    walk = Walk()
    served = _play(walk, demo)
    # annotators first, so the researcher's campaign reports have ratings (two raters: agreement)
    campaigns = list(Campaign.objects.filter(project=demo).exclude(status="draft"))
    # The walk renders pages; it does not sit through every clip (listening evidence is
    # tested in tests/annotation/test_integrity.py and tests/frontend/test_listening.py).
    Campaign.objects.filter(pk__in=[c.pk for c in campaigns]).update(require_full_listen=False,
                                                                     min_listen_fraction=0)
    for i, campaign in enumerate(campaigns):
        for n in range(2):
            _annotate(walk, campaign, f"annotator-{n + 1}", f"10.1.{i}.{n + 1}")

    researcher = User.objects.get(username="researcher")
    client = _client()
    client.force_login(researcher)
    urls = list(_researcher_urls(demo))
    for url in urls:
        walk.go(client, "researcher", url)

    participant = Membership.objects.filter(project=demo, role="participant").select_related("user").first().user
    outsider = _client()
    outsider.force_login(participant)
    for url in urls:
        response = walk.go(outsider, "participant", url, follow=False)
        if response.status_code == 200 and "/api/" not in url and "/export/" not in url:
            walk.notes.append(f"participant sees researcher page {url}")


    anyone = _client()
    for name in ("accounts:login", "api-docs", "api-redoc", "api-schema"):
        walk.go(anyone, "anonymous", reverse(name))
    walk.go(anyone, "anonymous", reverse("set_language"), method="post", data={"language": "en", "next": "/"})
    walk.go(anyone, "anonymous", reverse("quiz:clip_audio", args=[_a_clip(demo)]))
    # quiz_demo creates its published admin account only with DEBUG on (M-6)
    staff = User.objects.filter(username="admin").first() or User.objects.create_superuser(
        "walk-admin", password=None, handle="walk-admin")
    no_rows = _admin(walk, staff)  # skipped: nothing to open

    missing_kinds = {"free", "mcq", "pyramidal", "done-free", "done-mcq"} - served
    names = url_names()
    unexercised = sorted(
        name for name in names
        if name not in walk.seen and name not in SKIPPED and name not in no_rows and not ADMIN_SKIP.match(name)
    )
    failures = []
    if walk.problems:
        failures.append(f"{len(walk.problems)} problem(s) in {walk.pages} requests:\n{walk.report()}")
    if missing_kinds:
        failures.append(f"question pages never served: {sorted(missing_kinds)}")
    if not any(c.status == "open" for c in campaigns):
        failures.append("no open campaign to walk")
    if unexercised:
        failures.append("URL names neither requested nor skipped with a reason in SKIPPED "
                        f"(add them to a walk above): {unexercised}")
    if any(n.startswith("participant sees") for n in walk.notes):
        failures.append("a participant was shown a researcher page")
    if failures:
        pytest.fail("\n".join(failures) + (f"\nnotes: {walk.notes}" if walk.notes else ""), pytrace=False)


def _a_clip(project) -> str:
    from quiz.models import Clip

    return Clip.objects.filter(project=project).values_list("public_id", flat=True).first()


def test_url_walk_lists_every_page_name():
    names = url_names()
    assert {"quiz:play_next", "frontend:dashboard", "annotation:work", "irt:fit_detail", "api-docs"} <= set(names)
    assert names["quiz:play_next"] == "p/<slug:slug>/play/next/"
    stale = sorted(set(SKIPPED) - set(names))
    assert not stale, f"SKIPPED names no URL any more: {stale}"

