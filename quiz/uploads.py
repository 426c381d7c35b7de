"""Uploaded import files onto disk, for the importers that read a folder (Django layer).

The REST item import and the campaign page both receive an items file plus the audio
files it names. They are copied here chunk by chunk (Django keeps large uploads in
temporary files; reading them whole would hold each in memory) under sanitised
names, so a name such as ``..`` or one made only of odd characters is renamed
instead of raising ``SuspiciousFileOperation`` (an HTML 400, or a 500 in the API).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from django.core.exceptions import SuspiciousFileOperation
from django.core.files.uploadedfile import UploadedFile
from django.utils.text import get_valid_filename


def safe_name(name: str | None, fallback: str) -> str:
    """``name``'s last part with only letters, digits, ``-``, ``_`` and ``.``; ``fallback`` if none remain."""
    base = Path(str(name or "").replace("\x00", "")).name
    try:
        return get_valid_filename(base)[:200]
    except SuspiciousFileOperation:
        return fallback


def _copy(upload: UploadedFile, target: Path) -> None:
    with open(target, "wb") as out:
        for chunk in upload.chunks():
            out.write(chunk)


def save_import_uploads(folder: Path, items: UploadedFile, audio: Iterable[UploadedFile]) -> Path:
    """Write the items file and audio files into ``folder``; return the items file's path."""
    suffix = Path(safe_name(items.name, "items.jsonl")).suffix or ".jsonl"
    items_path = folder / safe_name(items.name, "items" + suffix)
    _copy(items, items_path)
    for number, upload in enumerate(audio, start=1):
        target = folder / safe_name(upload.name, f"audio-{number}")
        if target != items_path:
            _copy(upload, target)
    return items_path
