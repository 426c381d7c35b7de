"""Generated check stimuli and degradations measure what they claim (numpy/scipy.signal).

Every property is measured on the output with an independent method (RMS per segment,
FFT phase, Welch spectra, envelope pip counting), not read back from the generator.
"""

from __future__ import annotations

import io
import itertools
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf
from scipy import signal as sps

from annotation import degradations as deg
from annotation import testsignals as ts

SR = ts.SR


@pytest.fixture(autouse=True)
def _test_settings():
    """Pure tests: no database, no Django settings needed."""


def _db(ratio: float) -> float:
    return float(10 * np.log10(ratio))


def _segments(x: np.ndarray, *, thresh: float = 1e-4, min_gap_s: float = 0.05) -> list[tuple[int, int]]:
    """(start, end) of the non-silent runs of a signal (mono or stereo), by a smoothed envelope."""
    mono = np.abs(x).max(axis=1) if x.ndim == 2 else np.abs(x)
    win = int(0.005 * SR)
    env = np.convolve(mono, np.ones(win) / win, mode="same") > thresh
    runs, start, gap = [], None, 0
    for i, on in enumerate(env):
        if on:
            if start is None:
                start = i
            gap = 0
        elif start is not None:
            gap += 1
            if gap > min_gap_s * SR:
                runs.append((start, i - gap))
                start = None
    if start is not None:
        runs.append((start, len(env)))
    return runs


def _count_pips(x: np.ndarray, *, freq: float = 1000.0, sr: int = SR) -> int:
    """Count tone pips by band-pass filtering around ``freq`` and an envelope threshold."""
    sos = sps.butter(4, [freq * 0.8, freq * 1.25], btype="band", fs=sr, output="sos")
    band = np.abs(sps.sosfiltfilt(sos, x))
    win = int(0.01 * sr)
    env = np.convolve(band, np.ones(win) / win, mode="same")
    on = env > 0.5 * env.max()
    return int(np.sum(on[1:] & ~on[:-1]) + on[0])


# --------------------------------------------------------------------------- checks


@pytest.mark.parametrize("seed", range(6))
def test_antiphase_trial_quiet_tone_softest_on_headphones_antiphase_softest_on_speakers(seed):
    trial = ts.antiphase_trial(np.random.default_rng(seed))
    x = trial.signal
    assert x.ndim == 2 and x.shape[1] == 2
    tones = _segments(x)
    assert len(tones) == 3
    per_ear = [ts.rms_db(x[a:b]) for a, b in tones]       # what each ear gets over headphones
    speakers = [ts.rms_db(x[a:b].sum(axis=1)) for a, b in tones]  # both channels mixed in the air
    quiet = int(trial.answer) - 1
    loud = [i for i in range(3) if i != quiet]
    assert int(np.argmin(per_ear)) == quiet
    for i in loud:
        assert per_ear[i] - per_ear[quiet] == pytest.approx(6.0, abs=0.05)
    antiphase = next(i for i in loud if np.allclose(x[tones[i][0]:tones[i][1], 0],
                                                    -x[tones[i][0]:tones[i][1], 1]))
    assert int(np.argmin(speakers)) == antiphase != quiet
    assert speakers[antiphase] < -200  # the channels cancel exactly


def test_antiphase_trials_spread_the_answer_over_the_three_positions():
    rng = np.random.default_rng(0)
    answers = {ts.antiphase_trial(rng, tone_s=0.05, gap_s=0.01).answer for _ in range(40)}
    assert answers == {"1", "2", "3"}


@pytest.mark.parametrize("seed", range(4))
def test_huggins_trial_band_is_inverted_in_one_ear_only_in_the_target_burst(seed):
    trial = ts.huggins_trial(np.random.default_rng(seed))
    x = trial.signal
    bursts = _segments(x)
    assert len(bursts) == 3
    target = int(trial.answer) - 1
    for i, (a, b) in enumerate(bursts):
        left, right = np.fft.rfft(x[a:b, 0]), np.fft.rfft(x[a:b, 1])
        f = np.fft.rfftfreq(b - a, 1 / SR)
        # identical magnitude spectra: nothing a single ear could tell apart
        fw, p_left = sps.welch(x[a:b, 0], fs=SR, nperseg=1024)
        _, p_right = sps.welch(x[a:b, 1], fs=SR, nperseg=1024)
        assert np.max(np.abs(10 * np.log10(p_left / p_right))[fw > 100]) < 1.0  # window leakage at the band edges
        if i != target:
            assert np.allclose(x[a:b, 0], x[a:b, 1])
            continue
        strong = np.abs(left) > np.abs(left).mean()
        ipd = np.abs(np.angle(right / np.where(left == 0, 1, left)))
        band = (f > 600 * 0.95) & (f < 600 * 1.05) & strong
        outside = ((f < 450) | (f > 800)) & strong
        assert band.any() and np.median(ipd[band]) > 3.05 and np.all(ipd[band] > 2.5)  # pi: inverted
        assert np.all(ipd[outside] < 0.1)
        # over loudspeakers the band cancels: a notch, not a tone
        mix = np.abs(np.fft.rfft(x[a:b].sum(axis=1))) ** 2
        assert _db(mix[(f > 590) & (f < 610)].mean() / mix[outside].mean()) < -20


@pytest.mark.parametrize("seed", range(3))
def test_calibration_clip_pips_are_30_db_below_the_reference_noise(seed):
    trial = ts.calibration_clip(np.random.default_rng(seed))
    x = trial.signal
    noise_end = int(3.0 * SR)
    assert ts.rms_db(x[int(0.1 * SR):noise_end - int(0.1 * SR)]) == pytest.approx(-20.0, abs=0.2)
    tail = x[noise_end:]
    pips = _segments(tail, thresh=1e-5)
    assert len(pips) == int(trial.answer) == _count_pips(tail)
    steady = [ts.rms_db(tail[a + int(0.02 * SR):b - int(0.02 * SR)]) for a, b in pips]
    assert np.allclose(steady, -50.0, atol=0.2)


@pytest.mark.parametrize("snr", [10.0, 0.0, -6.0])
def test_digits_in_noise_holds_its_snr_and_counts_the_digits(snr):
    trial = ts.digits_in_noise_trial(np.random.default_rng(3), snr)
    assert len(trial.answer) == 3 and set(trial.answer) <= set("123456")
    clean = trial.clean
    noise = trial.signal - clean
    groups = _segments(clean, min_gap_s=0.3)
    voiced = np.concatenate([clean[a:b] for a, b in groups])
    # measured over the pip groups, as the docstring says (the envelope cuts ramps: ±0.1 dB)
    assert ts.rms_db(voiced) - ts.rms_db(noise) == pytest.approx(snr, abs=0.1)
    assert [_count_pips(clean[a:b]) for a, b in groups] == [int(d) for d in trial.answer]


def test_trap_clip_ends_with_the_answer_in_pips():
    source = ts.rich_melody(np.random.default_rng(0), seconds=1.0)
    for answer in (1, 3, 5):
        clip = ts.trap_clip(source, answer)
        assert _count_pips(clip[len(source):]) == answer
        assert np.array_equal(clip[:len(source)], source)


def test_wav_bytes_round_trips_stereo_and_sample_rate():
    trial = ts.antiphase_trial(np.random.default_rng(1), tone_s=0.1, gap_s=0.05)
    data, sr = sf.read(io.BytesIO(ts.wav_bytes(trial.signal)))
    assert sr == SR and data.shape == trial.signal.shape
    assert np.max(np.abs(data - trial.signal)) < 2 / 32768


# ----------------------------------------------------------------------- degradations


@pytest.fixture
def source():
    return ts.rich_melody(np.random.default_rng(11))


@pytest.mark.parametrize("snr", [30.0, 15.0, 5.0, 0.0])
def test_add_noise_hits_the_snr_with_white_noise(source, snr):
    y = deg.add_noise(source, snr, np.random.default_rng(2))
    noise = y - source
    assert _db(np.sum(source ** 2) / np.sum(noise ** 2)) == pytest.approx(snr, abs=1e-9)
    f, psd = sps.welch(noise, fs=SR, nperseg=2048)
    inner = psd[(f > 200) & (f < SR / 2 - 1000)]
    assert 10 * np.log10(inner.max() / inner.min()) < 3  # flat (white) within 3 dB


def test_hard_clip_cuts_at_the_ratio_of_the_peak(source):
    y = deg.hard_clip(source, 0.2)
    limit = 0.2 * np.max(np.abs(source))
    assert np.max(np.abs(y)) == pytest.approx(limit)
    below = np.abs(source) <= limit
    assert np.array_equal(y[below], source[below]) and (~below).mean() > 0.01
    with pytest.raises(ValueError):
        deg.hard_clip(source, 1.5)


@pytest.mark.parametrize("bits", [4, 6, 8, 12])
def test_reduce_bits_quantises_to_that_many_levels(bits):
    t = np.arange(SR) / SR
    step = 2.0 ** (1 - bits)
    amp = 1 - step  # the largest level the quantiser holds without clipping
    sine = amp * np.sin(2 * np.pi * 997 * t)  # incommensurate with SR
    y = deg.reduce_bits(sine, bits)
    assert len(np.unique(y)) <= 2 ** bits
    assert np.allclose(y / step, np.round(y / step))
    # the textbook quantisation SNR of a full-scale sine, 6.02·bits + 1.76 dB, less its headroom
    sqnr = _db(np.sum(sine ** 2) / np.sum((y - sine) ** 2))
    assert sqnr == pytest.approx(6.02 * bits + 1.76 + 20 * np.log10(amp), abs=0.5)


@pytest.mark.parametrize("cutoff", [deg.ANCHOR_LOW_HZ, deg.ANCHOR_MID_HZ])
def test_lowpass_anchor_cutoff_holds(cutoff):
    white = np.random.default_rng(5).standard_normal(SR * 4)
    y = deg.lowpass(white, cutoff, SR)
    f, p_in = sps.welch(white, fs=SR, nperseg=8192)
    _, p_out = sps.welch(y, fs=SR, nperseg=8192)
    gain = 10 * np.log10(p_out / p_in)
    at = lambda hz: float(np.interp(hz, f, gain))  # noqa: E731
    assert abs(at(0.5 * cutoff)) < 0.5                  # passband flat
    assert at(cutoff) == pytest.approx(-6.0, abs=1.0)   # -3 dB per pass, filtered twice
    assert at(1.5 * cutoff) < -45                       # stopband
    crossing = f[np.argmax(gain < -6.0)]
    assert crossing == pytest.approx(cutoff, rel=0.03)


def test_lowpass_anchors_remove_the_sources_high_band(source):
    f, ref = sps.welch(source, fs=SR, nperseg=4096)
    for cutoff in (deg.ANCHOR_LOW_HZ, deg.ANCHOR_MID_HZ):
        _, out = sps.welch(deg.lowpass(source, cutoff, SR), fs=SR, nperseg=4096)
        high = f > 1.5 * cutoff
        assert _db(ref[high].sum() / out[high].sum()) > 40
        assert ref[high].sum() / ref.sum() > 1e-3  # the source had content there to remove


def _sdr(clean: np.ndarray, degraded: np.ndarray) -> float:
    return _db(np.sum(clean ** 2) / max(np.sum((degraded - clean) ** 2), 1e-300))


@pytest.mark.parametrize("tonic", [196.0, 220.0, 262.0])
def test_demo_systems_are_ordered_by_measured_distortion(tonic):
    """The demo's systems, least to most degraded, by signal-to-distortion ratio."""
    rng = np.random.default_rng(int(tonic))
    x = ts.rich_melody(rng, tonic_hz=tonic)
    sdr = [_sdr(x, deg.degrade(x, name, SR, rng)) for name in deg.DEMO_SYSTEMS]
    assert sdr[0] > 200 and all(a > b + 1 for a, b in itertools.pairwise(sdr)), sdr
    # and the MUSHRA anchors: the 3.5 kHz one is more degraded than the 7 kHz one
    assert _sdr(x, deg.degrade(x, "lp7000", SR, rng)) > _sdr(x, deg.degrade(x, "lp3500", SR, rng)) + 1


def test_degrade_names_the_known_degradations_when_asked_for_another():
    with pytest.raises(ValueError, match="known: clean"):
        deg.degrade(np.ones(10), "reverb", SR, np.random.default_rng(0))


def test_signal_modules_import_without_django():
    code = ("import sys, importlib\n"
            "for n in ('annotation.testsignals', 'annotation.degradations', 'annotation.post_screening',"
            " 'annotation.screening', 'annotation.prolific',"
            " 'annotation.crowd'):\n"
            "    importlib.import_module(n)\n"
            "assert not [m for m in sys.modules if m == 'django' or m.startswith('django.')]\n"
            "print('ok')\n")
    root = Path(__file__).resolve().parents[2]
    proc = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", proc.stderr
