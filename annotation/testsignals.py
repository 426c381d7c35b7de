"""Generated listening-check stimuli (pure: numpy + soundfile, nothing downloaded).

Every stimulus a campaign's screening steps and the demo need is synthesised here, so
that the answer of each check is known to the server and nothing comes from a file a
participant could look up:

* :func:`antiphase_trial` — the headphone check of Woods et al. (2017, *Attention,
  Perception, & Psychophysics* 79: 2064–2072): three 200 Hz tones, one 6 dB quieter,
  one in anti-phase between the ears. Over headphones the quiet one is the softest;
  over loudspeakers the two channels of the anti-phase tone cancel in the air, so it
  sounds the softest instead and a loudspeaker listener picks the wrong one.
* :func:`huggins_trial` — the Huggins-pitch check (Milne et al. 2021, *Behavior
  Research Methods* 53: 1551–1562): three noise bursts; in one, a narrow band of the
  noise is phase-inverted in one ear, which is heard as a faint tone over headphones
  only (the magnitude spectra of both ears are identical; a loudspeaker mix has a
  notch, not a tone).
* :func:`calibration_clip` — the volume step: a reference noise to set a comfortable
  level, followed by a few soft tone pips (30 dB below it) to count; a listener whose
  volume is too low to hear them cannot rate fine degradations either.
* :func:`digits_in_noise_trial` — an environment/hearing check in the manner of the
  digits-in-noise test (Smits et al. 2004), without speech synthesis: each digit 1–6
  is *counted* (that many short tone pips), three digits per trial, in steady noise
  at a given signal-to-noise ratio. This is an analogue of the clinical test, not the
  test itself: it checks that the room is quiet enough and the listener can follow
  soft sounds in noise, with a server-known answer and no TTS download.
* :func:`trap_clip` — a trapping clip: a stimulus followed by ``answer`` pips; the
  item's text asks for the number of pips as the rating, so only a listener who
  heard the clip's end can answer.
* :func:`rich_melody` — a harmonic-rich melody with noise-like hits (content up to
  the Nyquist frequency), the clean source of the demo's "systems", so low-pass and
  noise degradations (:mod:`annotation.degradations`) are clearly audible.

Signals are float64 arrays, mono ``(n,)`` or stereo ``(n, 2)``, peak below 1;
:func:`wav_bytes` writes 16-bit PCM WAV at any sample rate.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

import numpy as np
import soundfile as sf

SR = 44100

__all__ = [
    "SR",
    "Trial",
    "antiphase_trial",
    "calibration_clip",
    "digits_in_noise_trial",
    "huggins_trial",
    "pips",
    "rich_melody",
    "rms_db",
    "trap_clip",
    "wav_bytes",
]


@dataclass(frozen=True, eq=False)
class Trial:
    """One generated check trial: the audio and the answer only the server knows.

    ``answer`` is a 1-based interval number for the 3-AFC checks, the pip count for
    the calibration clip, and a digit string for digits in noise.
    """

    signal: np.ndarray
    answer: str
    sr: int = SR
    clean: np.ndarray | None = None  # digits in noise: the pips alone (to measure the SNR)


def rms_db(signal: np.ndarray) -> float:
    """RMS level in dB re full scale (over all samples and channels)."""
    x = np.asarray(signal, dtype=float)
    return float(10 * np.log10(np.mean(x ** 2) + 1e-300))


def _ramp(n: int, sr: int, seconds: float = 0.01) -> np.ndarray:
    """Raised-cosine on/off ramps, so onsets do not click."""
    k = min(n // 2, max(1, int(seconds * sr)))
    env = np.ones(n)
    edge = 0.5 - 0.5 * np.cos(np.linspace(0, np.pi, k))
    env[:k] = edge
    env[n - k:] = edge[::-1]
    return env


def _tone(freq: float, seconds: float, sr: int, amp: float = 1.0) -> np.ndarray:
    t = np.arange(round(seconds * sr)) / sr
    return amp * np.sin(2 * np.pi * freq * t) * _ramp(len(t), sr)


def pips(count: int, *, sr: int = SR, freq: float = 1000.0, amp: float = 0.3, on: float = 0.08,
         off: float = 0.1) -> np.ndarray:
    """``count`` short tone pips (mono), the counted unit of several checks."""
    one = np.concatenate([_tone(freq, on, sr, amp), np.zeros(round(off * sr))])
    return np.tile(one, count) if count > 0 else np.zeros(0)


def _silence(seconds: float, sr: int, channels: int = 1) -> np.ndarray:
    n = round(seconds * sr)
    return np.zeros(n) if channels == 1 else np.zeros((n, channels))


# ----------------------------------------------------------------- headphone checks


def antiphase_trial(rng: np.random.Generator, *, sr: int = SR, freq: float = 200.0,
                    tone_s: float = 1.0, gap_s: float = 0.5, level: float = 0.3,
                    quiet_db: float = -6.0) -> Trial:
    """One trial of the Woods et al. (2017) anti-phase headphone check (stereo).

    Three tones in random order: ``normal`` (both ears in phase), ``quiet``
    (``quiet_db`` lower, in phase) and ``antiphase`` (same level as normal, the right
    channel inverted). The answer to "which tone is the softest?" is the quiet one's
    position (1–3).
    """
    order = rng.permutation(["normal", "quiet", "antiphase"])
    parts = []
    for i, role in enumerate(order):
        mono = _tone(freq, tone_s, sr, level * (10 ** (quiet_db / 20) if role == "quiet" else 1.0))
        right = -mono if role == "antiphase" else mono
        parts.append(np.column_stack([mono, right]))
        if i < 2:
            parts.append(_silence(gap_s, sr, 2))
    answer = int(np.flatnonzero(order == "quiet")[0]) + 1
    return Trial(np.concatenate(parts), str(answer), sr)


def _huggins_noise(rng: np.random.Generator, n: int, sr: int, centre: float | None,
                   bandwidth: float) -> np.ndarray:
    """Stereo white noise, identical in both ears, except the band ``centre`` ± half
    ``bandwidth`` (a fraction of ``centre``) which is phase-inverted in the right ear."""
    spectrum = np.fft.rfft(rng.standard_normal(n))
    right = spectrum.copy()
    if centre is not None:
        f = np.fft.rfftfreq(n, 1 / sr)
        band = np.abs(f - centre) <= centre * bandwidth / 2
        right[band] *= -1
    left_t, right_t = np.fft.irfft(spectrum, n), np.fft.irfft(right, n)
    scale = 0.15 / np.sqrt(np.mean(left_t ** 2))
    return np.column_stack([left_t, right_t]) * scale


def huggins_trial(rng: np.random.Generator, *, sr: int = SR, burst_s: float = 1.0, gap_s: float = 0.5,
                  centre: float = 600.0, bandwidth: float = 0.12) -> Trial:
    """One trial of the Huggins-pitch headphone check (stereo, 3 noise bursts).

    One burst (answer, 1–3) carries the Huggins pitch at ``centre`` Hz; "which burst
    contains a faint tone?" Only dichotic listening (headphones) makes it audible.
    """
    target = int(rng.integers(3))
    n = round(burst_s * sr)
    env = _ramp(n, sr, 0.02)[:, None]
    parts = []
    for i in range(3):
        parts.append(_huggins_noise(rng, n, sr, centre if i == target else None, bandwidth) * env)
        if i < 2:
            parts.append(_silence(gap_s, sr, 2))
    return Trial(np.concatenate(parts), str(target + 1), sr)


# ------------------------------------------------------------- calibration, hearing


def _noise_at(rng: np.random.Generator, n: int, level_db: float) -> np.ndarray:
    """Gaussian white noise of exactly ``level_db`` dBFS RMS."""
    noise = rng.standard_normal(n)
    return noise * (10 ** (level_db / 20) / np.sqrt(np.mean(noise ** 2)))


def calibration_clip(rng: np.random.Generator, *, sr: int = SR, noise_s: float = 3.0,
                     reference_db: float = -20.0, pip_db: float = -30.0, low: int = 2,
                     high: int = 5) -> Trial:
    """The volume step: reference noise at ``reference_db`` dBFS, a pause, then N soft
    pips whose RMS (over each pip) is ``pip_db`` relative to the noise. Answer: N."""
    count = int(rng.integers(low, high + 1))
    noise = _noise_at(rng, int(noise_s * sr), reference_db) * _ramp(int(noise_s * sr), sr, 0.05)
    pip_amp = np.sqrt(2) * 10 ** ((reference_db + pip_db) / 20)  # sine RMS = amp / sqrt(2)
    tail = pips(count, sr=sr, amp=pip_amp, on=0.15, off=0.35)
    return Trial(np.concatenate([noise, _silence(0.8, sr), tail]), str(count), sr)


def digits_in_noise_trial(rng: np.random.Generator, snr_db: float, *, sr: int = SR, digits: int = 3,
                          highest: int = 6, signal_db: float = -20.0) -> Trial:
    """Three counted digits (1–``highest`` pips each) in steady white noise.

    ``snr_db`` is the ratio of the pips' RMS over each group (from its first pip's
    onset to its last pip's end; the pauses between groups excluded) to the noise's RMS. Answer: the digits as a string, e.g. "314".
    """
    values = [int(v) for v in rng.integers(1, highest + 1, size=digits)]
    gap = _silence(0.7, sr)
    parts = [_silence(0.4, sr)]
    spans = []
    for v in values:
        start = sum(len(p) for p in parts)
        parts.append(pips(v, sr=sr, amp=1.0, freq=1000.0, on=0.08, off=0.12))
        spans.append((start, start + len(parts[-1]) - round(0.12 * sr)))  # first to last pip
        parts.append(gap)
    clean = np.concatenate(parts)
    voiced = np.concatenate([clean[a:b] for a, b in spans])
    clean *= 10 ** (signal_db / 20) / np.sqrt(np.mean(voiced ** 2))
    noise = _noise_at(rng, len(clean), signal_db - snr_db)
    return Trial(clean + noise, "".join(str(v) for v in values), sr, clean=clean)


# --------------------------------------------------------------- traps, demo source


def trap_clip(source: np.ndarray, answer: int, *, sr: int = SR) -> np.ndarray:
    """``source`` (mono) followed by ``answer`` clearly audible pips: the item text asks
    for the number of pips as the rating, so the answer is in the audio, not the page."""
    return np.concatenate([np.asarray(source, dtype=float), _silence(0.5, sr),
                           pips(answer, sr=sr, amp=0.3, on=0.12, off=0.25)])


#: (frequency ratio to the tonic, beats): a short public-domain phrase (Ode to Joy)
_PHRASE = ((5, 1), (5, 1), (6, 1), (7, 1), (7, 1), (6, 1), (5, 1), (4, 1), (3, 1), (3, 1), (4, 1), (5, 1.5))
_SCALE = (0, 2, 4, 5, 7, 9, 11, 12)


def rich_melody(rng: np.random.Generator, *, sr: int = SR, seconds: float = 3.0, tonic_hz: float = 220.0,
                bpm: float = 200.0) -> np.ndarray:
    """A clean, wide-band demo source (mono, peak 0.5): sawtooth-like notes with
    harmonics up to the Nyquist frequency and a short noise "hat" on each beat, so
    that band limits and added noise are plain to hear."""
    n = round(seconds * sr)
    out = np.zeros(n)
    beat = 60.0 / bpm
    pos = 0
    for degree, beats in _PHRASE:
        length = int(beats * beat * sr)
        if pos >= n:
            break
        length = min(length, n - pos)
        freq = tonic_hz * 2 ** (_SCALE[degree % len(_SCALE)] / 12)
        t = np.arange(length) / sr
        k = np.arange(1, int((sr / 2) // freq) + 1)
        note = (np.sin(2 * np.pi * freq * np.outer(t, k)) / k).sum(axis=1)
        note *= np.exp(-2.5 * t) * _ramp(length, sr, 0.005)
        hat_len = min(length, int(0.04 * sr))
        hat = rng.standard_normal(hat_len) * np.exp(-np.arange(hat_len) / (0.008 * sr)) * 0.6
        note[:hat_len] += hat
        out[pos:pos + length] += note
        pos += length
    return 0.5 * out / np.max(np.abs(out))


def wav_bytes(signal: np.ndarray, sr: int = SR) -> bytes:
    """16-bit PCM WAV of a mono ``(n,)`` or stereo ``(n, 2)`` float signal (clipped to ±1)."""
    buf = io.BytesIO()
    sf.write(buf, np.clip(np.asarray(signal, dtype=float), -1.0, 1.0), sr, format="WAV", subtype="PCM_16")
    return buf.getvalue()
