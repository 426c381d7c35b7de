"""A local OpenAI-compatible chat-completions server for the demo (standard library only).

``manage.py judging_demo_agreement`` starts one on 127.0.0.1 (a free port) when no
``--base-url`` is given, so the demo's two LLM judges run through the real
``openai`` client, cache and budget without a network or an API key. Replies come
from :func:`judging.demo_agreement.simulated_judge_reply`. Not for production use.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from .demo_agreement import simulated_judge_reply

__all__ = ["serve"]


def _handler(reply: Callable[[dict], str], counter: list[int]):
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args) -> None:  # quiet
            pass

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            try:
                body = json.loads(self.rfile.read(length) or b"{}")
            except json.JSONDecodeError:
                body = {}
            if not self.path.endswith("/chat/completions"):
                code, payload = 404, {"error": {"message": "not found", "type": "invalid_request_error"}}
            else:
                counter[0] += 1
                code, payload = 200, {
                    "id": f"chatcmpl-demo-{counter[0]}", "object": "chat.completion", "created": 0,
                    "model": body.get("model", "demo"),
                    "choices": [{"index": 0, "finish_reason": "stop",
                                 "message": {"role": "assistant", "content": reply(body)}}],
                    "usage": {"prompt_tokens": 60, "completion_tokens": 12, "total_tokens": 72},
                }
            data = json.dumps(payload).encode("utf-8")
            self.send_response(code)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    return Handler


@contextmanager
def serve(reply: Callable[[dict], str] = simulated_judge_reply) -> Iterator[tuple[str, list[int]]]:
    """Run the server while the block runs; yields (base URL ending in /v1, [request count])."""
    counter = [0]
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(reply, counter))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1", counter
    finally:
        server.shutdown()
        server.server_close()
