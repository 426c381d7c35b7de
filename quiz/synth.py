"""Synthesised audio for the demo bank and for tests (numpy + soundfile, no downloads).

Every function returns a float32 mono signal at :data:`SR` Hz; :func:`wav_bytes`
encodes it as 16-bit PCM WAV. The sounds are real, answerable stimuli: counted
beeps, DTMF digits, musical intervals, Morse code, a click track at a tempo and
public-domain melodies.
"""

from __future__ import annotations

import io

import numpy as np
import soundfile as sf

SR = 22050

DTMF = {
    "1": (697, 1209), "2": (697, 1336), "3": (697, 1477),
    "4": (770, 1209), "5": (770, 1336), "6": (770, 1477),
    "7": (852, 1209), "8": (852, 1336), "9": (852, 1477),
    "*": (941, 1209), "0": (941, 1336), "#": (941, 1477),
}
MORSE = {
    "A": ".-", "B": "-...", "C": "-.-.", "D": "-..", "E": ".", "F": "..-.", "G": "--.",
    "H": "....", "I": "..", "J": ".---", "K": "-.-", "L": ".-..", "M": "--", "N": "-.",
    "O": "---", "P": ".--.", "Q": "--.-", "R": ".-.", "S": "...", "T": "-", "U": "..-",
    "V": "...-", "W": ".--", "X": "-..-", "Y": "-.--", "Z": "--..",
}
# (MIDI note, beats) — public-domain melodies.
MELODIES = {
    "ode_to_joy": [
        (64, 1), (64, 1), (65, 1), (67, 1), (67, 1), (65, 1), (64, 1), (62, 1),
        (60, 1), (60, 1), (62, 1), (64, 1), (64, 1.5), (62, 0.5), (62, 2),
    ],
    "twinkle": [
        (60, 1), (60, 1), (67, 1), (67, 1), (69, 1), (69, 1), (67, 2),
        (65, 1), (65, 1), (64, 1), (64, 1), (62, 1), (62, 1), (60, 2),
    ],
    "frere_jacques": [
        (60, 1), (62, 1), (64, 1), (60, 1), (60, 1), (62, 1), (64, 1), (60, 1),
        (64, 1), (65, 1), (67, 2), (64, 1), (65, 1), (67, 2),
    ],
}


def _t(seconds: float) -> np.ndarray:
    return np.arange(round(seconds * SR)) / SR


def _envelope(n: int, attack: float = 0.01, release: float = 0.03) -> np.ndarray:
    env = np.ones(n)
    a, r = min(int(attack * SR), n // 2), min(int(release * SR), n // 2)
    if a:
        env[:a] = np.linspace(0, 1, a)
    if r:
        env[-r:] = np.linspace(1, 0, r)
    return env


def tone(freq: float, seconds: float, *, amp: float = 0.4, harmonics: int = 1) -> np.ndarray:
    """A tone with an attack/release envelope; ``harmonics`` > 1 makes it organ-like."""
    t = _t(seconds)
    wave = sum(np.sin(2 * np.pi * freq * k * t) / k for k in range(1, harmonics + 1))
    wave = wave / max(np.max(np.abs(wave)), 1e-9)
    return (amp * wave * _envelope(len(t))).astype(np.float32)


def silence(seconds: float) -> np.ndarray:
    return np.zeros(round(seconds * SR), dtype=np.float32)


def midi_hz(note: float) -> float:
    return 440.0 * 2 ** ((note - 69) / 12)


def beeps(n: int, *, freq: float = 880.0) -> np.ndarray:
    """``n`` short beeps with irregular gaps (so counting needs attention)."""
    gaps = [0.35, 0.5, 0.3, 0.45, 0.4, 0.55, 0.3]
    parts = [silence(0.3)]
    for i in range(n):
        parts += [tone(freq, 0.15), silence(gaps[i % len(gaps)])]
    return np.concatenate(parts)


def dtmf(digits: str) -> np.ndarray:
    """Telephone keypad tones for ``digits``."""
    parts = [silence(0.25)]
    for digit in digits:
        low, high = DTMF[digit]
        t = _t(0.22)
        wave = 0.25 * (np.sin(2 * np.pi * low * t) + np.sin(2 * np.pi * high * t))
        parts += [(wave * _envelope(len(t), 0.005, 0.01)).astype(np.float32), silence(0.12)]
    return np.concatenate(parts)


def interval(semitones: int, *, root: int = 60) -> np.ndarray:
    """Two notes played one after the other, then together."""
    low, high = midi_hz(root), midi_hz(root + semitones)
    together = tone(low, 1.2, amp=0.3, harmonics=3) + tone(high, 1.2, amp=0.3, harmonics=3)
    return np.concatenate(
        [silence(0.2), tone(low, 0.8, harmonics=3), silence(0.15), tone(high, 0.8, harmonics=3),
         silence(0.3), together]
    )


def two_tones(first_hz: float, second_hz: float) -> np.ndarray:
    return np.concatenate([silence(0.2), tone(first_hz, 0.7), silence(0.4), tone(second_hz, 0.7)])


def morse(text: str, *, wpm: int = 12, freq: float = 650.0) -> np.ndarray:
    """Morse code for ``text`` (letters and spaces) at ``wpm`` words per minute."""
    unit = 1.2 / wpm
    parts = [silence(0.3)]
    for word in text.upper().split():
        for letter in word:
            for symbol in MORSE[letter]:
                parts += [tone(freq, unit if symbol == "." else 3 * unit, amp=0.35), silence(unit)]
            parts.append(silence(2 * unit))
        parts.append(silence(4 * unit))
    return np.concatenate(parts)


def click_track(bpm: float, *, seconds: float = 6.0) -> np.ndarray:
    """A metronome at ``bpm`` (accent on every fourth beat)."""
    out = np.zeros(int(seconds * SR), dtype=np.float32)
    period = 60.0 / bpm
    beat = 0
    while beat * period < seconds - 0.05:
        click = tone(1600 if beat % 4 == 0 else 1000, 0.03, amp=0.6)
        start = int(beat * period * SR)
        out[start : start + len(click)] += click[: len(out) - start]
        beat += 1
    return out


def melody(name: str, *, bpm: float = 110, notes: int | None = None, rhythm_only: bool = False,
           harmonics: int = 4) -> np.ndarray:
    """A public-domain melody; ``notes`` truncates it, ``rhythm_only`` plays clicks on one pitch."""
    beat = 60.0 / bpm
    parts = [silence(0.2)]
    for note, beats in MELODIES[name][: notes or None]:
        if rhythm_only:
            parts += [tone(300, 0.06, amp=0.5), silence(beats * beat - 0.06)]
        else:
            parts.append(tone(midi_hz(note), beats * beat * 0.92, harmonics=harmonics))
            parts.append(silence(beats * beat * 0.08))
    return np.concatenate(parts)


def wav_bytes(signal: np.ndarray, *, sr: int = SR) -> bytes:
    """Encode a mono float signal as 16-bit PCM WAV bytes."""
    buf = io.BytesIO()
    clipped = np.clip(signal, -1.0, 1.0)
    sf.write(buf, clipped, sr, format="WAV", subtype="PCM_16")
    return buf.getvalue()


#: Container and encoder PyAV uses for each compressed format (:func:`encoded_bytes`).
AV_ENCODERS = {".m4a": ("ipod", "aac"), ".aac": ("adts", "aac"), ".opus": ("ogg", "libopus")}


def encoded_bytes(signal: np.ndarray, suffix: str, *, sr: int = SR) -> bytes:
    """``signal`` encoded as AAC in MPEG-4 (``.m4a``), raw AAC (``.aac``) or Ogg Opus (``.opus``).

    Uses PyAV (FFmpeg), the same library that decodes these formats at import; Opus
    needs ``sr`` to be 8, 12, 16, 24 or 48 kHz.
    """
    import av

    container_format, codec = AV_ENCODERS[suffix]
    samples = np.asarray(signal, dtype=np.float32)
    out_buffer = io.BytesIO()
    with av.open(out_buffer, mode="w", format=container_format) as out:
        stream = out.add_stream(codec, rate=sr, layout="mono")
        sample_format = stream.codec_context.format
        step = stream.codec_context.frame_size or 1024
        for start in range(0, len(samples), step):
            chunk = samples[start:start + step].reshape(1, -1)
            if not sample_format.name.startswith("flt"):
                chunk = (np.clip(chunk, -1, 1) * 32767).astype(np.int16)
            frame = av.AudioFrame.from_ndarray(chunk, format=sample_format.name, layout="mono")
            frame.sample_rate = sr
            frame.pts = start
            for packet in stream.encode(frame):
                out.mux(packet)
        for packet in stream.encode(None):
            out.mux(packet)
    return out_buffer.getvalue()
