"""The demo's annotation campaign: an open MOS listening test of generated audio (D9).

Three short melodies rendered by three simulated "systems" — clean, with noise, and
clipped — so a MOS test has something to tell apart, plus a gold item (heavily
degraded, known to deserve 1–2) and a trap item whose text says which answer to give.
Everything is synthesised with :mod:`quiz.synth` (numpy + soundfile); nothing is
downloaded. ``quiz_demo`` calls :func:`demo_campaign_seed`; running it twice changes
nothing.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import numpy as np

from accounts.models import Project
from quiz import synth

from . import services
from .models import Campaign, CampaignStatus

SLUG = "demo-mos"
MELODIES = ("twinkle", "ode_to_joy", "frere_jacques")
SYSTEMS = {"clean": 0.0, "noisy": 0.08, "clipped": None}


def _render(name: str, system: str, rng: np.random.Generator) -> np.ndarray:
    signal = synth.melody(name, bpm=150, notes=6).astype(np.float32)
    if system == "noisy":
        signal = signal + rng.normal(0.0, SYSTEMS["noisy"], signal.shape).astype(np.float32)
    elif system == "clipped":
        signal = np.clip(signal * 4.0, -0.35, 0.35)
    return np.clip(signal, -1.0, 1.0).astype(np.float32)


def demo_items(folder: Path, *, seed: int = 7) -> Path:
    """Write the campaign's WAVs and items.jsonl into ``folder``; the items file's path."""
    rng = np.random.default_rng(seed)
    available = [m for m in MELODIES if m in synth.MELODIES] or list(synth.MELODIES)[:3]
    rows = []
    for name in available:
        for system in SYSTEMS:
            audio = f"{name}-{system}.wav"
            (folder / audio).write_bytes(synth.wav_bytes(_render(name, system, rng)))
            rows.append({"id": f"{name}-{system}", "audio": audio, "system": system, "condition": "demo",
                         "task": name})
    base = _render(available[0], "noisy", rng)
    gold = base + rng.normal(0.0, 0.3, base.shape).astype(np.float32)
    (folder / "gold.wav").write_bytes(synth.wav_bytes(np.clip(gold, -1, 1).astype(np.float32)))
    rows.append({"id": "gold-very-noisy", "kind": "gold", "audio": "gold.wav", "expected": {"mos": "1"}})
    (folder / "trap.wav").write_bytes(synth.wav_bytes(_render(available[-1], "clean", rng)))
    rows.append({"id": "trap-answer-2", "kind": "trap", "audio": "trap.wav", "expected": {"mos": "2"},
                 "context": "Attention check: whatever you hear, please answer 2 (Poor) for this clip."})
    path = folder / "items.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    return path


def demo_campaign_seed(project: Project, *, seed: int = 7) -> Campaign:
    """Create (once) and open the demo's MOS campaign in ``project``; return it."""
    found = project.campaigns.filter(slug=SLUG).first()
    if found is not None:
        return found
    campaign = services.campaign_create(
        project=project, name="Demo listening test (MOS)", slug=SLUG, template="mos", policy_n=4,
        control_every=2, qc={"gold_tolerance": 1},
        instructions="Rate the overall quality of each short melody from 1 (Bad) to 5 (Excellent). "
                     "Listen to the whole clip with the Play button; the answers unlock when it ends.",
        completion_code="DEMO-DONE", no_work_code="DEMO-FULL", screened_out_code="DEMO-SCREENED")
    with tempfile.TemporaryDirectory() as tmp:
        services.items_import(campaign=campaign, path=demo_items(Path(tmp), seed=seed))
    services.campaign_set_status(campaign=campaign, status=CampaignStatus.OPEN)
    return campaign
