"""The demo's listening tests: AB preference, CCR, MUSHRA and a screened MOS test (issue 15).

Every clip is generated (:func:`annotation.testsignals.rich_melody`, numpy only) and
every "system" is a real, audible degradation of it (:mod:`annotation.degradations`),
so a newcomer hears that the test works and the report's ranking follows the
degradation order of :data:`annotation.degradations.DEMO_SYSTEMS` (least to most
degraded by signal-to-distortion ratio; ``tests/annotation/test_demo_listening.py``
measures it on the stored audio):

================  ========  =================================================================
slug              template  items
================  ========  =================================================================
demo-ab           ab        the clean reference, then A/B = two systems of the same melody
                            (every pair of clean, noise-15db, clip-20); "which sounds better?";
                            one trapping item whose sample A ends with beeps
demo-ccr          ccr       reference = the clean melody, system = each demo system (clean
                            included: CMOS 0 expected); −3…+3
demo-mushra       mushra    open reference, hidden reference, the BS.1534 anchors (3.5 kHz and
                            7 kHz low-pass) and three systems (noise-30db, bits-6, noise-15db)
demo-headphones   mos       a MOS test behind the screening steps: volume calibration, the
                            anti-phase headphone check and digits in noise
================  ========  =================================================================

``quiz_demo`` (the README's run command) calls :func:`demo_listening_seed`; running it
twice changes nothing.

Simulated ratings: each of demo-ab, demo-ccr and demo-mushra is also taken by
:data:`SIM_LISTENERS` simulated listeners (Platform "other", external id
``demo-sim-N``) through the real services (enrol, consent, serve, submit with
listening evidence for every stimulus), scoring by the degradation order with seeded
noise, so each report already shows a ranking. The campaigns stay open and their
overlap ``k`` (:data:`DEMO_K`) leaves room for real visitors. The screened MOS test
(demo-headphones) carries no simulated ratings.
"""

from __future__ import annotations

import itertools
import json
import tempfile
from datetime import timedelta
from pathlib import Path

import numpy as np

from accounts.models import Project
from accounts.services import guest_create

from . import degradations as deg
from . import selectors, services
from . import testsignals as ts
from .models import Annotator, Campaign, CampaignStatus, Platform, Stimulus

SR = 32000  # content to 16 kHz: the 7 kHz anchor is plainly band-limited
SECONDS = 2.5
TONICS = {"melody-a": 220.0, "melody-b": 262.0, "melody-c": 196.0}
AB_SYSTEMS = ("clean", "noise-15db", "clip-20")
MUSHRA_SYSTEMS = ("noise-30db", "bits-6", "noise-15db")
MOS_SYSTEMS = ("clean", "noise-15db", "noise-5db")
#: simulated listeners per listening campaign, and the overlap k that leaves room for visitors
SIM_LISTENERS = 8
DEMO_K = SIM_LISTENERS + 40
SIM_PREFIX = "demo-sim-"
CODES = {"completion_code": "DEMO-DONE", "no_work_code": "DEMO-FULL", "screened_out_code": "DEMO-SCREENED"}


class _Audio:
    """Writes each (melody, system) clip once into ``folder`` and names its file."""

    def __init__(self, folder: Path, seed: int):
        self.folder = folder
        self.rng = np.random.default_rng(seed)
        self.sources = {name: ts.rich_melody(np.random.default_rng([seed, i]), sr=SR, seconds=SECONDS,
                                             tonic_hz=tonic)
                        for i, (name, tonic) in enumerate(TONICS.items())}
        self.files: dict[tuple[str, str], str] = {}

    def __call__(self, melody: str, system: str) -> str:
        key = (melody, system)
        if key not in self.files:
            signal = deg.degrade(self.sources[melody], system, SR, self.rng)
            name = f"{melody}-{system}.wav"
            (self.folder / name).write_bytes(ts.wav_bytes(np.clip(signal, -1, 1), SR))
            self.files[key] = name
        return self.files[key]


def _ab_rows(audio: _Audio, rng: np.random.Generator) -> list[dict]:
    rows = []
    for melody in TONICS:
        for first, second in itertools.combinations(AB_SYSTEMS, 2):
            a, b = (first, second) if rng.random() < 0.5 else (second, first)
            rows.append({"id": f"{melody}-{first}-vs-{second}", "task": melody, "stimuli": [
                {"role": "reference", "audio": audio(melody, "clean")},
                {"role": "A", "audio": audio(melody, a), "system": a, "condition": a},
                {"role": "B", "audio": audio(melody, b), "system": b, "condition": b}]})
    # a trapping item: A carries its answer in the audio (three beeps at its end)
    source = audio.sources["melody-b"]
    (audio.folder / "ab-trap.wav").write_bytes(ts.wav_bytes(ts.trap_clip(source, 3, sr=SR), SR))
    rows.append({"id": "trap-beeps", "kind": "trap", "expected": {"preference": "A"},
                 "context": "Attention check: one of the two samples ends with beeps. Choose that one.",
                 "stimuli": [{"role": "reference", "audio": audio("melody-b", "clean")},
                             {"role": "A", "audio": "ab-trap.wav", "system": "attention-check-beeps"},
                             {"role": "B", "audio": audio("melody-b", "noise-15db"),
                              "system": "attention-check-plain"}]})
    return rows


def _ccr_rows(audio: _Audio) -> list[dict]:
    return [{"id": f"{melody}-{system}", "task": melody, "stimuli": [
        {"role": "reference", "audio": audio(melody, "clean")},
        {"role": "system", "audio": audio(melody, system), "system": system, "condition": system}]}
        for melody in list(TONICS)[:2] for system in deg.DEMO_SYSTEMS]


def _mushra_rows(audio: _Audio) -> list[dict]:
    rows = []
    for melody in TONICS:
        stimuli = [{"role": "reference", "audio": audio(melody, "clean")},
                   {"role": "hidden_reference", "audio": audio(melody, "clean"), "condition": "reference"},
                   {"role": "anchor", "audio": audio(melody, "lp3500"), "condition": "lp3500"},
                   {"role": "anchor", "audio": audio(melody, "lp7000"), "condition": "lp7000"}]
        stimuli += [{"role": "system", "audio": audio(melody, s), "system": s, "condition": s}
                    for s in MUSHRA_SYSTEMS]
        rows.append({"id": melody, "task": melody, "stimuli": stimuli})
    return rows


def _mos_rows(audio: _Audio) -> list[dict]:
    rows = [{"id": f"{melody}-{system}", "audio": audio(melody, system), "system": system, "condition": system,
             "task": melody} for melody in TONICS for system in MOS_SYSTEMS]
    trap = ts.trap_clip(audio.sources["melody-a"], 2, sr=SR)
    (audio.folder / "trap-2.wav").write_bytes(ts.wav_bytes(trap, SR))
    rows.append({"id": "trap-count-2", "kind": "trap", "audio": "trap-2.wav", "expected": {"mos": "2"},
                 "context": "Attention check: after the melody you will hear a few beeps. Answer with the "
                            "number of beeps you heard as your score."})
    return rows


#: slug -> (name, template, instructions, campaign fields, rows(audio, rng))
CAMPAIGNS = {
    "demo-ab": ("Demo listening test (AB preference)", "ab",
                "Listen to the reference, then to A and B. Which of A and B sounds better (closer to the "
                "reference)? Choose 'no preference' only if you really cannot tell.",
                {"policy_k": DEMO_K}, lambda audio, rng: _ab_rows(audio, rng)),
    "demo-ccr": ("Demo listening test (CCR)", "ccr",
                 "Listen to both samples and rate the quality of the second compared with the first, from "
                 "much worse (-3) to much better (+3).",
                 {"policy_k": DEMO_K}, lambda audio, rng: _ccr_rows(audio)),
    "demo-mushra": ("Demo listening test (MUSHRA)", "mushra",
                    "Compare every sample with the open reference and rate each from 0 (bad) to 100 "
                    "(excellent). One of the samples is the reference itself: rate it 100.",
                    {"policy_k": DEMO_K}, lambda audio, rng: _mushra_rows(audio)),
    "demo-headphones": ("Demo listening test with a headphone check (MOS)", "mos",
                        "Before rating, three short checks: a volume check, a headphone check and counting "
                        "beeps in noise. Please use headphones in a quiet room. Then rate each melody's "
                        "quality from 1 (Bad) to 5 (Excellent).",
                        {"policy_n": 4, "control_every": 2, "qc": {"gold_tolerance": 1},
                         "screening": [{"step": "calibration"}, {"step": "headphones"},
                                       {"step": "digits"}]},
                        lambda audio, rng: _mos_rows(audio)),
}


#: the campaigns seeded by default: all of them
READY = tuple(CAMPAIGNS)


def demo_listening_seed(project: Project, *, seed: int = 7, slugs: tuple[str, ...] | None = READY
                        ) -> list[Campaign]:
    """Create (once) and open the demo's listening-test campaigns in ``project``
    (``slugs``: which of :data:`CAMPAIGNS`; ``None``: all)."""
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        audio = _Audio(Path(tmp), seed)
        for slug, (name, template, instructions, fields, rows) in CAMPAIGNS.items():
            if slugs is not None and slug not in slugs:
                continue
            found = project.campaigns.filter(slug=slug).first()
            if found is not None:
                out.append(found)
                continue
            campaign = services.campaign_create(project=project, name=name, slug=slug, template=template,
                                                instructions=instructions, **CODES, **fields)
            path = Path(tmp) / f"{slug}.jsonl"
            items = rows(audio, np.random.default_rng([seed, len(out)]))
            path.write_text("\n".join(json.dumps(r) for r in items) + "\n", encoding="utf-8")
            services.items_import(campaign=campaign, path=path, audio_dir=Path(tmp))
            services.campaign_set_status(campaign=campaign, status=CampaignStatus.OPEN)
            if template in _SCORERS:
                simulate_listeners(campaign, seed=seed)
            out.append(campaign)
    return out


_RANK = {name: i for i, name in enumerate(deg.DEMO_SYSTEMS)}
_MUSHRA_MEANS = {"reference": 96.0, "lp3500": 20.0, "lp7000": 40.0}


def _mushra(payload: dict, by_id: dict, rng: np.random.Generator) -> dict:
    values = {}
    for shown in payload["test"]["stimuli"]:
        s = by_id[shown["id"]]
        if s.role == "hidden_reference":
            score = min(100.0, rng.normal(97.0, 2.0))
        elif s.condition in _MUSHRA_MEANS:
            score = rng.normal(_MUSHRA_MEANS[s.condition], 6.0)
        else:  # systems: 85 for the least degraded, 15 points less per SDR rank
            score = rng.normal(85.0 - 15.0 * (_RANK[s.system] - 1), 6.0)
        values[shown["id"]] = str(round(float(np.clip(score, 0, 100))))
    return {"mushra": values}


def _ab(payload: dict, by_id: dict, rng: np.random.Generator) -> dict:
    a, b = payload["test"]["stimuli"][:2]
    sa, sb = by_id[a["id"]].system, by_id[b["id"]].system
    if sa.startswith("attention-check"):  # the trap: the beeps are in A
        return {"preference": a["id"] if sa == "attention-check-beeps" else b["id"]}
    better, worse = (a, b) if _RANK[sa] < _RANK[sb] else (b, a)
    return {"preference": (better if rng.random() < 0.85 else worse)["id"]}


def _ccr(payload: dict, by_id: dict, rng: np.random.Generator) -> dict:
    shown = [by_id[s["id"]] for s in payload["test"]["stimuli"]]
    system = next(s.system for s in shown if s.system)
    # "the second compared with the first": worse when the degraded one plays second
    sign = -1.0 if shown[-1].system else 1.0
    score = sign * 0.6 * _RANK[system] + rng.normal(0.0, 0.4)  # clean vs clean ~0, noise-5db ~∓3
    return {"cmos": str(int(np.clip(round(score), -3, 3)))}


_SCORERS = {"mushra": _mushra, "ab": _ab, "ccr": _ccr}


def simulate_listeners(campaign: Campaign, *, seed: int = 7, n: int = SIM_LISTENERS) -> int:
    """Let ``n`` simulated listeners (external id ``demo-sim-N``) take ``campaign``
    through the real services, scoring by the degradation order with seeded noise.
    Listeners already present are skipped (idempotent); returns the submissions made."""
    scorer = _SCORERS[campaign.template]
    made = 0
    for i in range(1, n + 1):
        external = f"{SIM_PREFIX}{i}"
        if Annotator.objects.filter(campaign=campaign, external_id=external).exists():
            continue
        rng = np.random.default_rng([seed, i, len(campaign.slug)])
        me = services.annotator_enrol(campaign=campaign, user=guest_create(), platform=Platform.OTHER,
                                      external_id=external, consent=True)
        while (a := services.assignment_next_for_annotator(me, campaign)) is not None:
            payload = selectors.item_payload(a)
            by_id = {s.public_id: s for s in Stimulus.objects.filter(item=a.item)}
            test = payload["test"]
            shown = [*test["stimuli"], *(s for s in (test.get("reference"), test.get("x")) if s)]
            played = {s["id"]: [[0.0, float(s["duration_s"])]] for s in shown}
            services.rating_submit(annotator=me, assignment_id=a.public_id, values=scorer(payload, by_id, rng),
                                   client_token=f"{external}-{a.public_id}", played=played,
                                   now=a.served_at + timedelta(seconds=30))
            made += 1
    return made
