"""Serving stored audio: Range (206), conditional requests, optional nginx X-Accel.

Conditional requests follow RFC 9110 (section 13): ``If-None-Match`` takes a list of
entity tags or ``*`` and compares weakly (``W/"x"`` matches ``"x"``), answering 304;
``If-Range`` compares strongly and, when it does not match (or is a date: clips
carry no ``Last-Modified``), the ``Range`` is ignored and the whole clip is sent.

With ``EARSHOT_X_ACCEL`` on (behind deploy/nginx.conf), Django still checks access
and answers 304/416 itself, but the bytes come from nginx: the response is an empty
``X-Accel-Redirect`` to the clip's file under the internal ``EARSHOT_X_ACCEL_PREFIX``
location, so no gunicorn thread is tied up streaming audio. nginx then answers the
``Range`` and ``If-Range`` against the ``ETag`` passed on (deploy/nginx.conf hides
the file's own ETag and Last-Modified), with the same semantics as here.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from urllib.parse import quote

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


def clip_etag(clip: Clip, variant: str = "") -> str:
    """The clip's quoted ETag: an HMAC of its content hash under the secret key, so it
    changes with the bytes but cannot be looked up in a dataset's published SHA-256
    list to name the original file (M-14). ``variant`` (a listening test's stimulus id)
    gives the same bytes a different tag under each address, so equal tags cannot tell
    a listener which stimulus is the hidden reference or which one X repeats."""
    key = f"earshot-clip-etag:{clip.sha256}" + (f":{variant}" if variant else "")
    digest = hmac.new(settings.SECRET_KEY.encode(), key.encode(), hashlib.sha256)
    return f'"{digest.hexdigest()[:32]}"'


_ETAG = re.compile(r'\s*(W/)?("[^"]*")\s*(?:,|$)')


def _entity_tags(header: str) -> list[tuple[bool, str]] | None:
    """``If-None-Match`` / ``If-Range`` entity tags as (weak, "opaque") pairs; ``None``
    for ``*``; unparseable members are skipped."""
    if header.strip() == "*":
        return None
    return [(bool(m.group(1)), m.group(2)) for m in _ETAG.finditer(header)]


def none_match(header: str, etag: str) -> bool:
    """True when ``If-None-Match: header`` matches ``etag`` (weak comparison): answer 304."""
    if not header:
        return False
    tags = _entity_tags(header)
    return tags is None or any(opaque == etag for _, opaque in tags)


def if_range_allows(header: str, etag: str) -> bool:
    """True when a ``Range`` may be honoured under ``If-Range: header``: absent, or the
    same strong entity tag. A weak tag or a date (clips send no Last-Modified) fails."""
    if not header:
        return True
    header = header.strip()
    return not header.startswith("W/") and header == etag


def _x_accel(clip: Clip, headers: dict[str, str]) -> HttpResponse:
    """An empty response that has nginx send the clip's file (it adds Accept-Ranges)."""
    prefix = settings.EARSHOT_X_ACCEL_PREFIX.rstrip("/") + "/"
    response = HttpResponse(content_type=clip.content_type)
    response["X-Accel-Redirect"] = prefix + quote(clip.file.name)
    for key, value in headers.items():
        if key != "Accept-Ranges":
            response[key] = value
    return response


def serve_clip(request: HttpRequest, clip: Clip, *, variant: str = "") -> HttpResponse:
    """Send a clip's bytes, honouring Range, If-Range and If-None-Match; never its file
    name. ``variant``: see :func:`clip_etag`."""
    etag = clip_etag(clip, variant)
    headers = {
        "Accept-Ranges": "bytes",
        "ETag": etag,
        "Cache-Control": "private, max-age=86400, immutable",
        "Content-Disposition": "inline",
        "X-Content-Type-Options": "nosniff",
    }
    if none_match(request.headers.get("If-None-Match", ""), etag):
        response = HttpResponse(status=304)
        for key, value in headers.items():
            response[key] = value
        return response
    if getattr(settings, "EARSHOT_X_ACCEL", False):
        return _x_accel(clip, headers)
    size = clip.file.size
    range_ok = if_range_allows(request.headers.get("If-Range", ""), etag)
    wanted = parse_range(request.headers.get("Range", ""), size) if range_ok else None
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
