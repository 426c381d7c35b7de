"""Reading and checking audio files with soundfile (no Django).

Every clip that enters Earshot passes through :func:`inspect_audio`, which decodes
the whole file once: a truncated or corrupt file fails here, at import, with a
message that names the file, instead of failing later in a player's browser.
"""

from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import soundfile as sf

#: Container formats Earshot accepts, with the content type browsers expect.
CONTENT_TYPES: dict[str, str] = {
    "WAV": "audio/wav",
    "FLAC": "audio/flac",
    "OGG": "audio/ogg",
    "MP3": "audio/mpeg",
}
EXTENSIONS = {".wav": "WAV", ".flac": "FLAC", ".ogg": "OGG", ".oga": "OGG", ".mp3": "MP3"}


class AudioError(ValueError):
    """An audio file that cannot be used: unsupported, unreadable, corrupt or empty."""


@dataclass(frozen=True)
class AudioInfo:
    """Measured properties of an audio file."""

    format: str
    subtype: str
    content_type: str
    duration_s: float
    sample_rate: int
    channels: int
    frames: int
    size_bytes: int
    sha256: str


def inspect_audio(data: bytes, *, name: str = "audio") -> AudioInfo:
    """Decode ``data`` fully and return its properties, or raise :class:`AudioError`.

    ``name`` is used in error messages only (and its extension to reject formats
    that soundfile cannot identify before trying).
    """
    if not data:
        raise AudioError(f"{name}: file is empty")
    suffix = Path(name).suffix.lower()
    if suffix and suffix not in EXTENSIONS:
        raise AudioError(
            f"{name}: unsupported audio format {suffix!r} "
            f"(supported: {', '.join(sorted(EXTENSIONS))})"
        )
    try:
        with sf.SoundFile(io.BytesIO(data)) as handle:
            fmt = handle.format
            subtype = handle.subtype or ""
            sample_rate = int(handle.samplerate)
            channels = int(handle.channels)
            decoded = 0
            while True:
                block = handle.read(65536, dtype="float32", always_2d=True)
                if block.shape[0] == 0:
                    break
                if not np.isfinite(block).all():
                    raise AudioError(f"{name}: audio contains non-finite samples")
                decoded += block.shape[0]
    except AudioError:
        raise
    except (sf.LibsndfileError, RuntimeError, TypeError) as exc:
        raise AudioError(f"{name}: unreadable or corrupt audio ({exc})") from exc
    if fmt not in CONTENT_TYPES:
        raise AudioError(f"{name}: unsupported audio format {fmt}")
    if decoded == 0 or sample_rate <= 0:
        raise AudioError(f"{name}: audio has no samples")
    return AudioInfo(
        format=fmt,
        subtype=subtype,
        content_type=CONTENT_TYPES[fmt],
        duration_s=decoded / sample_rate,
        sample_rate=sample_rate,
        channels=channels,
        frames=decoded,
        size_bytes=len(data),
        sha256=hashlib.sha256(data).hexdigest(),
    )
