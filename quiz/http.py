"""Serving stored audio with HTTP Range support (206 Partial Content)."""

from __future__ import annotations

import hashlib
import hmac
import re

from django.conf import settings
from django.http import FileResponse, HttpRequest, HttpResponse, StreamingHttpResponse

from .models import Clip

_RANGE = re.compile(r"^bytes=(\d*)-(\d*)$")
CHUNK = 64 * 1024


def parse_range(header: str, size: int) -> tuple[int, int] | str | None:
    """Parse a single ``bytes=`` range into an inclusive (start, end) pair.

    Returns ``None`` when the header should be ignored (absent, several ranges or
    another unit: the whole file is sent) and ``"unsatisfiable"`` for a range
    outside the file (answered with 416).
    """
    if not header or "," in header:
        return None
    match = _RANGE.match(header.strip())
    if not match:
        return None
    first, last = match.groups()
    if first == "" and last == "":
        return None
    if first == "":
        length = int(last)
        if length == 0:
            return "unsatisfiable"
        return max(size - length, 0), size - 1
    start = int(first)
    end = int(last) if last else size - 1
    if start >= size or end < start:
        return "unsatisfiable"
    return start, min(end, size - 1)


def _iter_file(handle, start: int, length: int):
    try:
        handle.seek(start)
        remaining = length
        while remaining > 0:
            chunk = handle.read(min(CHUNK, remaining))
            if not chunk:
                break
            remaining -= len(chunk)
            yield chunk
    finally:
        handle.close()


def clip_etag(clip: Clip) -> str:
    """The clip's quoted ETag: an HMAC of its content hash under the secret key, so it
    changes with the bytes but cannot be looked up in a dataset's published SHA-256
    list to name the original file (M-14)."""
    digest = hmac.new(settings.SECRET_KEY.encode(), f"earshot-clip-etag:{clip.sha256}".encode(), hashlib.sha256)
    return f'"{digest.hexdigest()[:32]}"'


def serve_clip(request: HttpRequest, clip: Clip) -> HttpResponse:
    """Send a clip's bytes, honouring Range and If-None-Match; never its file name."""
    etag = clip_etag(clip)
    headers = {
        "Accept-Ranges": "bytes",
        "ETag": etag,
        "Cache-Control": "private, max-age=86400, immutable",
        "Content-Disposition": "inline",
        "X-Content-Type-Options": "nosniff",
    }
    if request.headers.get("If-None-Match") == etag:
        response = HttpResponse(status=304)
        for key, value in headers.items():
            response[key] = value
        return response
    size = clip.file.size
    wanted = parse_range(request.headers.get("Range", ""), size)
    if wanted == "unsatisfiable":
        response = HttpResponse(status=416)
        response["Content-Range"] = f"bytes */{size}"
        response["Accept-Ranges"] = "bytes"
        return response
    handle = clip.file.open("rb")
    if wanted is None or request.method == "HEAD":
        response = FileResponse(handle, content_type=clip.content_type)
        response["Content-Length"] = str(size)
    else:
        start, end = wanted
        response = StreamingHttpResponse(
            _iter_file(handle, start, end - start + 1), status=206, content_type=clip.content_type
        )
        response["Content-Range"] = f"bytes {start}-{end}/{size}"
        response["Content-Length"] = str(end - start + 1)
    for key, value in headers.items():
        response[key] = value
    return response
