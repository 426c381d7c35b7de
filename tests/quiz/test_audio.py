"""quiz.audio: what a usable clip is, plain refusals, streaming decode, PyAV formats (M-7)."""

import io
import struct
import tracemalloc

import numpy as np
import pytest
import soundfile as sf

from quiz import synth
from quiz.audio import AudioError, AudioLimits, inspect_audio


def test_inspect_audio_measures_wav():
    data = synth.wav_bytes(synth.tone(440, 1.5))
    info = inspect_audio(data, name="x.wav")
    assert info.format == "WAV"
    assert info.sample_rate == synth.SR
    assert info.channels == 1
    assert info.duration_s == pytest.approx(1.5, abs=1e-3)
    assert info.content_type == "audio/wav"
    assert len(info.sha256) == 64


def test_path_file_and_bytes_measure_the_same(tmp_path):
    data = synth.wav_bytes(synth.tone(440, 1.0))
    (tmp_path / "a.wav").write_bytes(data)
    from_bytes = inspect_audio(data, name="a.wav")
    assert inspect_audio(tmp_path / "a.wav", name="a.wav") == from_bytes
    handle = io.BytesIO(data)
    assert inspect_audio(handle, name="a.wav") == from_bytes
    assert handle.tell() == 0  # a caller's file is left rewound, ready to store


def _wav_header(rate: int, *, data_bytes: int, channels: int = 1, bits: int = 16) -> bytes:
    block = channels * bits // 8
    fmt = struct.pack("<HHIIHH", 1, channels, rate, (rate * block) % 2**32, block, bits)
    return (b"RIFF" + struct.pack("<I", 36 + data_bytes) + b"WAVE" + b"fmt " + struct.pack("<I", 16) + fmt
            + b"data" + struct.pack("<I", data_bytes))


def _wav(rate: int, frames: int) -> bytes:
    buf = io.BytesIO()
    sf.write(buf, np.zeros(frames, dtype=np.float32), rate, format="WAV", subtype="PCM_16")
    return buf.getvalue()


def _sine(rate: int, seconds: float) -> np.ndarray:
    return (0.3 * np.sin(2 * np.pi * 440 * np.arange(round(rate * seconds)) / rate)).astype(np.float32)


BAD_FILES = [
    pytest.param(b"", "a.wav", "empty", id="empty"),
    pytest.param(b"RIFF\x00\x00\x00\x00WAVEfmt garbage", "b.wav", "unreadable or corrupt", id="corrupt"),
    pytest.param(b"not audio at all" * 50, "c.wav", "unreadable or corrupt", id="text"),
    pytest.param(b"\x00" * 100, "d.aiffx", "unsupported audio format", id="extension"),
    # The audit's truncated file: the header claims 100,000 data bytes, 500 are there.
    pytest.param(_wav_header(16000, data_bytes=100_000) + b"\x00" * 500, "t.wav", "truncated", id="truncated-wav"),
    pytest.param(_wav(16000, 1), "one.wav", "clip lasts", id="one-sample"),
    pytest.param(_wav(1, 1000), "slow.wav", "sample rate 1 Hz", id="1-hz"),
    pytest.param(_wav_header(2_147_483_647, data_bytes=1000) + b"\x00" * 1000, "fast.wav", "sample rate 2147483647",
                 id="2-ghz"),
    pytest.param(_wav_header(4_000_000_000, data_bytes=1000) + b"\x00" * 1000, "faster.wav", "sample rate 4000000000",
                 id="4-ghz"),
    pytest.param(synth.wav_bytes(synth.tone(440, 1.0))[: 20_000], "half.wav", "truncated", id="cut-wav"),
]


@pytest.mark.parametrize("data,name,message", BAD_FILES)
def test_inspect_audio_refuses_bad_files_plainly(data, name, message):
    with pytest.raises(AudioError, match=message) as err:
        inspect_audio(data, name=name)
    text = str(err.value)
    assert text.startswith(name + ":")
    assert "object at 0x" not in text and "SF_INFO" not in text and "Internal error" not in text


def test_truncated_flac_is_refused():
    buf = io.BytesIO()
    sf.write(buf, synth.tone(440, 2.0), synth.SR, format="FLAC")
    data = buf.getvalue()
    with pytest.raises(AudioError, match=r"truncated|corrupt") as err:
        inspect_audio(data[: len(data) // 2], name="cut.flac")
    assert "object at 0x" not in str(err.value)


def test_duration_size_and_rate_limits_are_configurable():
    data = synth.wav_bytes(synth.tone(440, 3.0))
    with pytest.raises(AudioError, match="at most 2 s"):
        inspect_audio(data, name="long.wav", limits=AudioLimits(max_seconds=2))
    with pytest.raises(AudioError, match="between 4 and"):
        inspect_audio(data, name="short.wav", limits=AudioLimits(min_seconds=4))
    with pytest.raises(AudioError, match=r"the limit is 0\.0 MB"):
        inspect_audio(data, name="big.wav", limits=AudioLimits(max_bytes=1000))
    with pytest.raises(AudioError, match="outside 44100-48000 Hz"):
        inspect_audio(data, name="sr.wav", limits=AudioLimits(min_sample_rate=44100, max_sample_rate=48000))
    assert inspect_audio(data, name="ok.wav", limits=AudioLimits(max_seconds=3.5)).duration_s == pytest.approx(3.0)


def test_limits_come_from_settings(settings):
    data = synth.wav_bytes(synth.tone(440, 3.0))
    settings.EARSHOT_CLIP_MAX_SECONDS = 2
    with pytest.raises(AudioError, match="EARSHOT_CLIP_MAX_SECONDS"):
        inspect_audio(data, name="long.wav")
    settings.EARSHOT_CLIP_MAX_SECONDS = 10
    settings.EARSHOT_AUDIO_MIN_SAMPLE_RATE = 32000
    with pytest.raises(AudioError, match="EARSHOT_AUDIO_MIN_SAMPLE_RATE"):
        inspect_audio(data, name="low.wav")


def test_long_file_is_decoded_in_blocks(tmp_path):
    """Memory for a file on disk stays a few blocks, not the file's size (M-7: was 2.1x)."""
    path = tmp_path / "long.wav"
    with sf.SoundFile(path, "w", samplerate=16000, channels=1, subtype="PCM_16") as out:
        block = (0.1 * np.sin(np.arange(16000 * 60) / 5)).astype(np.float32)
        for _ in range(10):  # 10 minutes, 19 MB
            out.write(block)
    size = path.stat().st_size
    tracemalloc.start()
    try:
        info = inspect_audio(path, name="long.wav")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert info.duration_s == pytest.approx(600.0)
    assert peak < size / 4, f"peak {peak} bytes for a {size}-byte file"


@pytest.mark.parametrize(
    "suffix,rate,fmt,content_type",
    [
        pytest.param(".m4a", 44100, "MP4", "audio/mp4", id="m4a-aac-44k"),
        pytest.param(".m4a", 16000, "MP4", "audio/mp4", id="m4a-aac-16k"),
        pytest.param(".aac", 22050, "AAC", "audio/aac", id="adts-aac"),
        pytest.param(".opus", 48000, "OPUS", "audio/ogg; codecs=opus", id="ogg-opus-48k"),
        pytest.param(".opus", 16000, "OPUS", "audio/ogg; codecs=opus", id="ogg-opus-16k"),
    ],
)
def test_pyav_formats_are_measured(suffix, rate, fmt, content_type):
    data = synth.encoded_bytes(_sine(rate, 2.0), suffix, sr=rate)
    info = inspect_audio(data, name="clip" + suffix)
    assert (info.format, info.subtype, info.content_type) == (fmt, fmt if fmt != "MP4" else "AAC", content_type)
    assert info.sample_rate == (rate if suffix != ".opus" else 48000)  # Opus always decodes at 48 kHz
    assert info.channels == 1
    assert info.duration_s == pytest.approx(2.0, abs=0.1)
    assert info.frames == pytest.approx(2.0 * info.sample_rate, rel=0.05)


@pytest.mark.parametrize("suffix", [".m4a", ".opus", ".aac"])
def test_pyav_formats_refuse_truncated_and_garbage(suffix):
    data = synth.encoded_bytes(_sine(48000, 2.0), suffix, sr=48000)
    for bad in (data[: len(data) // 2], b"\x00\x01garbage" * 100):
        with pytest.raises(AudioError) as err:
            inspect_audio(bad, name="bad" + suffix)
        assert "object at 0x" not in str(err.value)


def test_pyav_formats_honour_limits():
    data = synth.encoded_bytes(_sine(44100, 3.0), ".m4a", sr=44100)
    with pytest.raises(AudioError, match="at most 2 s"):
        inspect_audio(data, name="long.m4a", limits=AudioLimits(max_seconds=2))
    with pytest.raises(AudioError, match="sample rate 44100 Hz"):
        inspect_audio(data, name="hi.m4a", limits=AudioLimits(max_sample_rate=22050))


def test_m4a_holding_another_codec_is_refused():
    """An MPEG-4 file must hold AAC: other codecs in .m4a do not play in every browser."""
    import av

    buf = io.BytesIO()
    with av.open(buf, mode="w", format="ipod") as out:
        stream = out.add_stream("alac", rate=16000, layout="mono")
        n = 16000
        fs = stream.codec_context.frame_size or 4096
        samples = (np.sin(np.arange(n) / 5) * 8000).astype(np.int16)
        fmt = stream.codec_context.format.name
        for start in range(0, n, fs):
            chunk = samples[start:start + fs].reshape(1, -1)
            chunk = chunk.astype(np.int32) << 16 if fmt.startswith("s32") else chunk
            frame = av.AudioFrame.from_ndarray(chunk, format=fmt, layout="mono")
            frame.sample_rate, frame.pts = 16000, start
            for packet in stream.encode(frame):
                out.mux(packet)
        for packet in stream.encode(None):
            out.mux(packet)
    with pytest.raises(AudioError, match="must hold aac audio, not alac"):
        inspect_audio(buf.getvalue(), name="lossless.m4a")
