import pytest

from quiz import synth
from quiz.audio import AudioError, inspect_audio


def test_inspect_audio_measures_wav():
    data = synth.wav_bytes(synth.tone(440, 1.5))
    info = inspect_audio(data, name="x.wav")
    assert info.format == "WAV"
    assert info.sample_rate == synth.SR
    assert info.channels == 1
    assert info.duration_s == pytest.approx(1.5, abs=1e-3)
    assert info.content_type == "audio/wav"
    assert len(info.sha256) == 64


@pytest.mark.parametrize(
    "data,name,message",
    [
        pytest.param(b"", "a.wav", "empty", id="empty"),
        pytest.param(b"RIFF\x00\x00\x00\x00WAVEfmt garbage", "b.wav", "unreadable or corrupt", id="corrupt"),
        pytest.param(b"not audio at all" * 50, "c.wav", "unreadable or corrupt", id="text"),
        pytest.param(b"\x00" * 100, "d.aiffx", "unsupported audio format", id="extension"),
    ],
)
def test_inspect_audio_rejects_bad_files(data, name, message):
    with pytest.raises(AudioError, match=message) as err:
        inspect_audio(data, name=name)
    assert name in str(err.value)


def test_inspect_audio_rejects_truncated_file():
    data = synth.wav_bytes(synth.tone(440, 1.0))
    info = inspect_audio(data[: len(data) // 2], name="half.wav")
    # A WAV cut in half still decodes (libsndfile reads what is there) but must be shorter.
    assert info.duration_s < 0.6
