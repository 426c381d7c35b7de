"""Reading and checking audio files with soundfile and PyAV (no Django).

Every clip that enters Earshot passes through :func:`inspect_audio`, which decodes
the whole file once, block by block from disk (never the whole file in memory): a
truncated or corrupt file, an absurd sample rate, a clip too short or too long to
listen to, or a file over the size limit fails here, at import, with a plain message
that names the file, instead of failing later in a player's browser.

WAV, FLAC, Ogg Vorbis and MP3 are decoded by libsndfile (``soundfile``); MPEG-4
audio (``.m4a``: AAC), raw AAC (``.aac``) and Ogg Opus (``.opus``) by FFmpeg through
PyAV. The limits come from :class:`AudioLimits`; inside Django they are the
``EARSHOT_CLIP_*`` / ``EARSHOT_AUDIO_*`` settings (``quiz.apps`` installs the
provider), elsewhere the defaults below.
"""

from __future__ import annotations

import hashlib
import io
import os
import re
import struct
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import numpy as np
import soundfile as sf

#: Container formats Earshot accepts, with the content type browsers expect.
CONTENT_TYPES: dict[str, str] = {
    "WAV": "audio/wav",
    "FLAC": "audio/flac",
    "OGG": "audio/ogg",
    "MP3": "audio/mpeg",
    "MP4": "audio/mp4",
    "AAC": "audio/aac",
    "OPUS": "audio/ogg; codecs=opus",
}
EXTENSIONS = {".wav": "WAV", ".flac": "FLAC", ".ogg": "OGG", ".oga": "OGG", ".mp3": "MP3",
              ".m4a": "MP4", ".aac": "AAC", ".opus": "OPUS"}
#: Formats decoded by PyAV, with the codecs browsers play in them.
AV_CODECS = {"MP4": {"aac"}, "AAC": {"aac"}, "OPUS": {"opus"}}

BLOCK_FRAMES = 65_536
HASH_CHUNK = 1 << 20

Source = bytes | str | os.PathLike | IO[bytes]


class AudioError(ValueError):
    """An audio file that cannot be used: unsupported, unreadable, corrupt, empty or out of range."""


@dataclass(frozen=True)
class AudioLimits:
    """What a usable clip is. Defaults fit speech and music clips for listening tests.

    ``min_seconds``: a 1-sample file is not a clip. ``max_seconds``: with
    ``require_full_listen`` an annotator must sit through all of it. Sample rates
    outside ``[min_sample_rate, max_sample_rate]`` are broken headers (1 Hz, 4 GHz),
    not audio. ``max_bytes`` bounds what one import may copy into media storage.
    """

    min_seconds: float = 0.1
    max_seconds: float = 1800.0
    min_sample_rate: int = 8_000
    max_sample_rate: int = 192_000
    max_bytes: int = 200 * 1024 * 1024


_provider: Callable[[], AudioLimits] = AudioLimits


def set_limits_provider(provider: Callable[[], AudioLimits]) -> None:
    """Where :func:`current_limits` reads the limits (Django settings, inside Earshot)."""
    global _provider
    _provider = provider


def current_limits() -> AudioLimits:
    """The limits in force now (read at each call, so changed settings apply)."""
    return _provider()


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


def inspect_audio(source: Source, *, name: str = "audio", limits: AudioLimits | None = None) -> AudioInfo:
    """Decode ``source`` fully and return its properties, or raise :class:`AudioError`.

    ``source`` is a path, a seekable binary file or bytes; a path or file is read in
    blocks, so a long recording costs a few megabytes of memory, not its size.
    ``name`` is used in messages and for its extension (formats are chosen by it).
    """
    limits = limits or current_limits()
    suffix = Path(name).suffix.lower()
    if suffix and suffix not in EXTENSIONS:
        raise AudioError(f"{name}: unsupported audio format {suffix!r} "
                         f"(supported: {', '.join(sorted(EXTENSIONS))})")
    with _opened(source) as handle:
        size = handle.seek(0, io.SEEK_END)
        if size == 0:
            raise AudioError(f"{name}: file is empty")
        if size > limits.max_bytes:
            raise AudioError(f"{name}: file is {_mb(size)}; the limit is {_mb(limits.max_bytes)} "
                             "(EARSHOT_CLIP_MAX_BYTES)")
        handle.seek(0)
        digest = hashlib.sha256()
        while chunk := handle.read(HASH_CHUNK):
            digest.update(chunk)
        handle.seek(0)
        expected = EXTENSIONS.get(suffix)
        if expected in AV_CODECS:
            fmt, subtype, rate, channels, frames = _decode_av(handle, name, size, expected, limits)
        else:
            fmt, subtype, rate, channels, frames = _decode_sndfile(handle, name, size, limits)
    duration = frames / rate
    if not limits.min_seconds <= duration <= limits.max_seconds:
        raise AudioError(f"{name}: clip lasts {duration:.3g} s; clips must last between "
                         f"{limits.min_seconds:g} and {limits.max_seconds:g} s "
                         "(EARSHOT_CLIP_MIN_SECONDS, EARSHOT_CLIP_MAX_SECONDS)")
    return AudioInfo(format=fmt, subtype=subtype, content_type=CONTENT_TYPES[fmt], duration_s=duration,
                     sample_rate=rate, channels=channels, frames=frames, size_bytes=size,
                     sha256=digest.hexdigest())


class _opened:
    """A seekable binary handle on ``source``; closes it only if it opened it."""

    def __init__(self, source: Source):
        self.source = source
        self.owned = False

    def __enter__(self) -> IO[bytes]:
        if isinstance(self.source, bytes | bytearray | memoryview):
            self.handle: IO[bytes] = io.BytesIO(self.source)
        elif isinstance(self.source, str | os.PathLike):
            self.handle = open(self.source, "rb")
            self.owned = True
        else:
            self.handle = self.source
        return self.handle

    def __exit__(self, *exc: object) -> None:
        if self.owned:
            self.handle.close()
        else:
            self.handle.seek(0)


def _check_rate(name: str, rate: int, limits: AudioLimits) -> None:
    if not limits.min_sample_rate <= rate <= limits.max_sample_rate:
        raise AudioError(f"{name}: sample rate {rate} Hz is outside {limits.min_sample_rate}-"
                         f"{limits.max_sample_rate} Hz (EARSHOT_AUDIO_MIN_SAMPLE_RATE, "
                         "EARSHOT_AUDIO_MAX_SAMPLE_RATE)")


def _check_declared_length(name: str, frames: int, rate: int, limits: AudioLimits) -> None:
    """Refuse a file whose header already says it is too long, before decoding it."""
    if frames > 0 and frames / rate > limits.max_seconds * 1.01:
        raise AudioError(f"{name}: clip lasts {frames / rate:.4g} s; clips must last at most "
                         f"{limits.max_seconds:g} s (EARSHOT_CLIP_MAX_SECONDS)")


# ------------------------------------------------------------------------ libsndfile


def _wav_header(handle: IO[bytes], name: str, size: int, limits: AudioLimits) -> None:
    """Check a RIFF/WAVE header against the file: the data chunk must be all there.

    libsndfile quietly clamps a data chunk that claims more bytes than the file holds,
    so a cut-off download would import as a shorter clip; this reads the chunk list
    itself. Streaming writers' "unknown size" markers (0 or 0xFFFFFFFF) and RF64 are
    left to libsndfile.
    """
    head = handle.read(12)
    handle.seek(0)
    if len(head) < 12 or head[:4] != b"RIFF" or head[8:12] != b"WAVE":
        return
    position, block = 12, 1
    handle.seek(position)
    for _ in range(10_000):  # a real header has a handful of chunks before "data"
        if position + 8 > size:
            break
        chunk = handle.read(8)
        if len(chunk) < 8:
            break
        kind, length = chunk[:4], struct.unpack("<I", chunk[4:])[0]
        if kind == b"fmt ":
            body = handle.read(min(length, 16))
            if len(body) >= 8:
                _check_rate(name, struct.unpack("<I", body[4:8])[0], limits)
            if len(body) >= 14:
                block = max(1, struct.unpack("<H", body[12:14])[0])
        elif kind == b"data":
            if length in (0, 0xFFFFFFFF):
                break
            present = size - (position + 8)
            if length - present >= block:  # less than one frame short: a writer's rounding
                raise AudioError(f"{name}: file is truncated: its header announces {length} bytes of "
                                 f"audio, the file holds {present}")
            break
        position += 8 + length + (length & 1)
        handle.seek(position)
    handle.seek(0)


def _ogg_tail(handle: IO[bytes], name: str, size: int) -> None:
    """An Ogg stream must end with a whole page that carries the end-of-stream flag.

    Ogg has no total length in its header: a cut-off Ogg file decodes as a shorter,
    valid-looking stream. Its last page tells: cut mid-page, or a last page without
    the end-of-stream flag, means the file was truncated.
    """
    tail_start = max(0, size - 70_000)
    handle.seek(tail_start)
    tail = handle.read()
    handle.seek(0)
    at = tail.rfind(b"OggS")
    while at >= 0:
        header = tail[at:at + 27]
        if len(header) == 27 and header[4] == 0:
            segments = header[26]
            table = tail[at + 27:at + 27 + segments]
            if len(table) < segments:
                break
            end = at + 27 + segments + sum(table)
            if end > len(tail):
                raise AudioError(f"{name}: file is truncated: its last Ogg page is cut off")
            if not header[5] & 0x04:
                raise AudioError(f"{name}: file is truncated: the Ogg stream has no end-of-stream page")
            return
        at = tail.rfind(b"OggS", 0, at)
    if at < 0 and tail_start == 0:
        return  # not an Ogg stream at all: the decoder will say so


_REPR = re.compile(r"<[^<>]*\bobject at 0x[0-9a-fA-F]+>")


def _plain(exc: BaseException) -> str:
    """An error's text without Python object reprs or libsndfile's internals."""
    text = getattr(exc, "error_string", None) or str(exc)
    text = _REPR.sub("the file", text).strip()
    text = re.sub(r"^Error opening the file:\s*", "", text)
    if "SF_INFO" in text or "Internal error" in text:
        return "the header's sample rate, channel count or length is not valid"
    return text or type(exc).__name__


def _decode_sndfile(handle: IO[bytes], name: str, size: int,
                    limits: AudioLimits) -> tuple[str, str, int, int, int]:
    _wav_header(handle, name, size, limits)
    if handle.read(4) == b"OggS":
        _ogg_tail(handle, name, size)
    handle.seek(0)
    try:
        with sf.SoundFile(handle) as audio:
            fmt = audio.format
            subtype = audio.subtype or ""
            rate = int(audio.samplerate)
            channels = int(audio.channels)
            declared = int(audio.frames)
            if fmt not in CONTENT_TYPES:
                raise AudioError(f"{name}: unsupported audio format {fmt}")
            _check_rate(name, rate, limits)
            _check_declared_length(name, declared, rate, limits)
            decoded = 0
            while True:
                block = audio.read(BLOCK_FRAMES, dtype="float32", always_2d=True)
                if block.shape[0] == 0:
                    break
                if not np.isfinite(block).all():
                    raise AudioError(f"{name}: audio contains non-finite samples")
                decoded += block.shape[0]
    except AudioError:
        raise
    except (sf.LibsndfileError, RuntimeError, TypeError, ValueError, OverflowError) as exc:
        raise AudioError(f"{name}: unreadable or corrupt audio ({_plain(exc)})") from exc
    if decoded == 0:
        raise AudioError(f"{name}: audio has no samples")
    # FLAC and Ogg headers give the exact length; an MP3's comes from its Xing/LAME
    # header or the bitrate, so only a clear shortfall (10 %) counts there.
    short = decoded < declared if fmt in ("FLAC", "OGG") else fmt == "MP3" and decoded < 0.9 * declared
    if short:
        raise AudioError(f"{name}: file is truncated: its header announces {declared} frames, "
                         f"{decoded} could be decoded")
    return fmt, subtype, rate, channels, decoded


# ------------------------------------------------------------------------------ PyAV


def _decode_av(handle: IO[bytes], name: str, size: int, fmt: str,
               limits: AudioLimits) -> tuple[str, str, int, int, int]:
    """Decode MPEG-4/AAC or Opus with FFmpeg (PyAV), counting samples frame by frame."""
    import av

    if fmt == "OPUS":
        _ogg_tail(handle, name, size)
    try:
        with av.open(handle, mode="r", metadata_errors="ignore") as container:
            if not container.streams.audio:
                raise AudioError(f"{name}: the file has no audio stream")
            stream = container.streams.audio[0]
            codec = stream.codec_context.name
            if codec not in AV_CODECS[fmt]:
                raise AudioError(f"{name}: {fmt.lower()} files must hold "
                                 f"{' or '.join(sorted(AV_CODECS[fmt]))} audio, not {codec}")
            rate = int(stream.codec_context.sample_rate or stream.rate or 0)
            _check_rate(name, rate, limits)
            channels = int(stream.codec_context.layout.nb_channels or 0)
            # Raw AAC (ADTS) has no length field: FFmpeg estimates one from the bitrate,
            # too rough to call a file truncated by (or too long, before decoding).
            declared = None if fmt == "AAC" else _declared_seconds(stream, container)
            if declared is not None:
                _check_declared_length(name, round(declared * rate), rate, limits)
            decoded = 0
            for frame in container.decode(stream):
                samples = frame.to_ndarray()
                if samples.dtype.kind == "f" and not np.isfinite(samples).all():
                    raise AudioError(f"{name}: audio contains non-finite samples")
                decoded += frame.samples
                if decoded > limits.max_seconds * 1.01 * rate:
                    break
    except AudioError:
        raise
    except (av.FFmpegError, OSError, ValueError, RuntimeError, IndexError) as exc:
        raise AudioError(f"{name}: unreadable or corrupt audio ({_plain_av(exc)})") from exc
    if decoded == 0:
        raise AudioError(f"{name}: audio has no samples")
    if declared is not None and decoded / rate < declared * 0.98 - 0.05:
        raise AudioError(f"{name}: file is truncated: its header announces {declared:.3g} s, "
                         f"{decoded / rate:.3g} s could be decoded")
    return fmt, codec.upper(), rate, channels, decoded


def _declared_seconds(stream: Any, container: Any) -> float | None:
    if stream.duration is not None and stream.time_base is not None:
        return float(stream.duration * stream.time_base)
    if container.duration is not None:
        return container.duration / 1_000_000
    return None


def _plain_av(exc: BaseException) -> str:
    text = getattr(exc, "strerror", None) or str(exc)
    return _REPR.sub("the file", str(text)).strip() or type(exc).__name__


def _mb(size: int) -> str:
    return f"{size / (1024 * 1024):.1f} MB"
