"""The demo's listening tests are seeded open, with generated audio whose degradation
order is measured on the stored clips (signal-to-distortion ratio against the clean
reference; the anchors' band limits by Welch spectra)."""

from __future__ import annotations

import numpy as np
import pytest
import soundfile as sf
from scipy import signal as sps

from annotation import degradations as deg
from annotation import demo_listening
from annotation.models import Campaign

pytestmark = pytest.mark.django_db

ORDER = list(deg.DEMO_SYSTEMS)


def _read(clip) -> tuple[np.ndarray, int]:
    with clip.file.open("rb") as handle:
        data, sr = sf.read(handle)
    return data, sr


def _sdr(clean: np.ndarray, degraded: np.ndarray) -> float:
    return float(10 * np.log10(np.sum(clean ** 2) / max(np.sum((degraded - clean) ** 2), 1e-12)))


def _ranked(sdr_by_system: dict[str, list[float]]) -> list[str]:
    """Systems from the least to the most degraded by mean measured SDR."""
    return sorted(sdr_by_system, key=lambda s: -np.mean(sdr_by_system[s]))


def test_screened_mos_demo_is_open_with_checks_a_trap_and_ordered_systems(project):
    (campaign,) = demo_listening.demo_listening_seed(project, slugs=("demo-headphones",))
    again = demo_listening.demo_listening_seed(project, slugs=("demo-headphones",))  # idempotent
    assert again == [campaign] and Campaign.objects.filter(slug="demo-headphones").count() == 1
    assert campaign.status == "open" and campaign.template == "mos"
    assert [s["step"] for s in campaign.screening] == ["calibration", "headphones", "digits"]
    items = list(campaign.items.select_related("clip"))
    trap = next(i for i in items if i.kind == "trap")
    assert trap.expected == {"mos": "2"} and "number of beeps" in trap.context
    clean = {i.task: _read(i.clip)[0] for i in items if i.kind == "regular" and i.system == "clean"}
    sdr: dict[str, list[float]] = {}
    for item in items:
        if item.kind == "regular":
            data, sr = _read(item.clip)
            assert sr == demo_listening.SR and len(data) == int(demo_listening.SECONDS * sr)
            sdr.setdefault(item.system, []).append(_sdr(clean[item.task], data))
    assert _ranked(sdr) == [s for s in ORDER if s in demo_listening.MOS_SYSTEMS]
    assert min(sdr["clean"]) > 80  # 16-bit storage only


def test_demo_system_order_is_the_degradation_order():
    assert set(demo_listening.MOS_SYSTEMS) | set(demo_listening.MUSHRA_SYSTEMS) | set(
        demo_listening.AB_SYSTEMS) <= set(ORDER)


def _welch_high(data: np.ndarray, sr: int, above: float) -> float:
    f, p = sps.welch(data, fs=sr, nperseg=2048)
    return float(p[f > above].sum())


def _stimuli(campaign):
    for item in campaign.items.filter(kind="regular").prefetch_related("stimuli__clip"):
        yield item, {s.role if s.role not in ("anchor", "system", "A", "B") else f"{s.role}:{s.condition}": s
                     for s in item.stimuli.all()}


def test_multi_stimulus_demos_are_open_and_their_systems_follow_the_degradation_order(project):
    campaigns = {c.slug: c for c in demo_listening.demo_listening_seed(project)}
    assert set(campaigns) == {"demo-ab", "demo-ccr", "demo-mushra", "demo-headphones"}
    assert all(c.status == "open" for c in campaigns.values())
    assert {c.slug: c.template for c in campaigns.values()} == {
        "demo-ab": "ab", "demo-ccr": "ccr", "demo-mushra": "mushra", "demo-headphones": "mos"}

    for slug, systems in (("demo-ab", demo_listening.AB_SYSTEMS), ("demo-ccr", ORDER),
                          ("demo-mushra", demo_listening.MUSHRA_SYSTEMS)):
        sdr: dict[str, list[float]] = {}
        for _item, by_role in _stimuli(campaigns[slug]):
            reference, sr = _read(by_role["reference"].clip)
            for stim in by_role.values():
                if stim.system:
                    sdr.setdefault(stim.system, []).append(_sdr(reference, _read(stim.clip)[0]))
        assert _ranked(sdr) == [s for s in ORDER if s in systems], (slug, sdr)

    # MUSHRA: a real hidden reference (the reference's own audio) and the BS.1534 anchors
    for _item, by_role in _stimuli(campaigns["demo-mushra"]):
        assert by_role["hidden_reference"].clip_id == by_role["reference"].clip_id
        reference, sr = _read(by_role["reference"].clip)
        low, mid = (_read(by_role[f"anchor:{c}"].clip)[0] for c in ("lp3500", "lp7000"))
        assert _sdr(reference, mid) > _sdr(reference, low) + 1
        for data, cutoff in ((low, deg.ANCHOR_LOW_HZ), (mid, deg.ANCHOR_MID_HZ)):
            above = 1.5 * cutoff
            assert 10 * np.log10(_welch_high(reference, sr, above) / _welch_high(data, sr, above)) > 40
            assert _welch_high(reference, sr, above) / _welch_high(reference, sr, 0) > 1e-3


def test_ab_demo_has_a_trap_whose_answer_is_in_the_audio(project):
    from tests.annotation.test_testsignals import _count_pips

    (campaign,) = demo_listening.demo_listening_seed(project, slugs=("demo-ab",))
    trap = campaign.items.get(kind="trap")
    assert trap.expected == {"preference": "A"} and "ends with beeps" in trap.context
    stimuli = {s.role: s for s in trap.stimuli.select_related("clip")}
    target, sr = _read(stimuli["A"].clip)
    plain, _ = _read(stimuli["B"].clip)
    assert sr == demo_listening.SR
    n = int(demo_listening.SECONDS * sr)
    assert _count_pips(target[n:], sr=sr) == 3 and len(plain) == n
