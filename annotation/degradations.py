"""Audible degradations of a clean signal: the demo's "systems" and BS.1534 anchors (pure).

Each function takes a mono float signal and returns a new one; none changes its input.
The parameters are the quantity a test can measure on the output, so the demo's
degradation order is a fact about the audio, not a label:

=====================  ================================================================
:func:`add_noise`       white Gaussian noise scaled so that the signal-to-noise ratio
                        ``10·log10(Σs² / Σn²)`` is exactly ``snr_db``
:func:`hard_clip`       the signal's peaks cut at ``ratio`` × its peak (``ratio`` < 1)
:func:`reduce_bits`     uniform mid-tread quantisation to ``bits`` bits over [-1, 1)
                        (at most 2^bits levels, steps of 2^(1-bits))
:func:`lowpass`         zero-phase 8th-order Butterworth low-pass (``sosfiltfilt``) at
                        ``cutoff_hz``: ITU-R BS.1534-3 uses 3.5 kHz (the low anchor) and
                        7 kHz (the mid-range anchor)
=====================  ================================================================

:data:`DEMO_SYSTEMS` lists the degradations the demo's campaigns compare, from the
least to the most degraded; :func:`degrade` applies one by name.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from scipy import signal as sps

__all__ = [
    "ANCHOR_LOW_HZ",
    "ANCHOR_MID_HZ",
    "DEMO_SYSTEMS",
    "add_noise",
    "degrade",
    "hard_clip",
    "lowpass",
    "reduce_bits",
]

ANCHOR_LOW_HZ = 3500.0
ANCHOR_MID_HZ = 7000.0
LOWPASS_ORDER = 8


def add_noise(x: np.ndarray, snr_db: float, rng: np.random.Generator) -> np.ndarray:
    """``x`` plus white Gaussian noise at exactly ``snr_db`` dB SNR (over the whole clip)."""
    x = np.asarray(x, dtype=float)
    noise = rng.standard_normal(x.shape)
    power = np.mean(x ** 2)
    if power == 0:
        raise ValueError("cannot set an SNR on a silent signal")
    noise *= np.sqrt(power / (10 ** (snr_db / 10)) / np.mean(noise ** 2))
    return x + noise


def hard_clip(x: np.ndarray, ratio: float) -> np.ndarray:
    """Cut every sample beyond ``ratio`` × the peak magnitude (0 < ratio <= 1)."""
    if not 0 < ratio <= 1:
        raise ValueError("ratio must be in (0, 1]")
    x = np.asarray(x, dtype=float)
    limit = ratio * np.max(np.abs(x))
    return np.clip(x, -limit, limit)


def reduce_bits(x: np.ndarray, bits: int) -> np.ndarray:
    """Quantise to ``bits`` bits (mid-tread, step 2^(1-bits), range [-1, 1 - step])."""
    if not 1 <= bits <= 24:
        raise ValueError("bits must be between 1 and 24")
    step = 2.0 ** (1 - bits)
    q = np.round(np.asarray(x, dtype=float) / step) * step
    return np.clip(q, -1.0, 1.0 - step)


def lowpass(x: np.ndarray, cutoff_hz: float, sr: int, *, order: int = LOWPASS_ORDER) -> np.ndarray:
    """Zero-phase Butterworth low-pass at ``cutoff_hz`` (-6 dB there, as filtered twice).

    Zero phase keeps the anchor time-aligned with the reference, so switching between
    them in a MUSHRA trial does not jump.
    """
    if not 0 < cutoff_hz < sr / 2:
        raise ValueError("cutoff must be between 0 and the Nyquist frequency")
    sos = sps.butter(order, cutoff_hz, btype="low", fs=sr, output="sos")
    return sps.sosfiltfilt(sos, np.asarray(x, dtype=float))


def _noise(snr_db: float) -> Callable[[np.ndarray, int, np.random.Generator], np.ndarray]:
    return lambda x, sr, rng: add_noise(x, snr_db, rng)


#: name -> (what it does, function(signal, sr, rng)), least to most degraded by the
#: signal-to-distortion ratio 10·log10(Σs² / Σ(y-s)²) on the demo's sources (about
#: ∞, 30, 23, 15, 6.5 and 5 dB; measured in tests/annotation/test_testsignals.py), the
#: order a correct listening test reports
DEMO_SYSTEMS: dict[str, tuple[str, Callable[[np.ndarray, int, np.random.Generator], np.ndarray]]] = {
    "clean": ("the clean source", lambda x, sr, rng: np.asarray(x, dtype=float).copy()),
    "noise-30db": ("white noise at 30 dB SNR", _noise(30.0)),
    "bits-6": ("quantised to 6 bits", lambda x, sr, rng: reduce_bits(x, 6)),
    "noise-15db": ("white noise at 15 dB SNR", _noise(15.0)),
    "clip-20": ("hard-clipped at 20 % of the peak", lambda x, sr, rng: hard_clip(x, 0.2)),
    "noise-5db": ("white noise at 5 dB SNR", _noise(5.0)),
}


def degrade(x: np.ndarray, name: str, sr: int, rng: np.random.Generator) -> np.ndarray:
    """Apply the named degradation of :data:`DEMO_SYSTEMS` (or an anchor: ``lp3500``, ``lp7000``)."""
    if name == "lp3500":
        return lowpass(x, ANCHOR_LOW_HZ, sr)
    if name == "lp7000":
        return lowpass(x, ANCHOR_MID_HZ, sr)
    try:
        return DEMO_SYSTEMS[name][1](x, sr, rng)
    except KeyError:
        raise ValueError(f"unknown degradation {name!r}; known: {', '.join(DEMO_SYSTEMS)}, lp3500, lp7000") \
            from None
