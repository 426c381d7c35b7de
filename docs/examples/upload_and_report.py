#!/usr/bin/env python3
"""Upload a benchmark run's model outputs to Earshot, fit IRT, and download the reports.

Standard library only (urllib). Usage::

    EARSHOT_URL=http://127.0.0.1:8000 EARSHOT_TOKEN=<your token> \\
        python docs/examples/upload_and_report.py demo outputs.jsonl --out report/

Get a token on your project's workspace page (``/p/<slug>/`` → "API token"), with
``python manage.py drf_create_token <username>``, or with ``--username/--password``
(this script then calls ``POST /api/v1/auth/token/``).

Steps: (1) upload the outputs (JSON lines; every line is checked first and nothing
is stored if any line is wrong: the per-line errors are printed); (2) queue an IRT
fit of the chosen mode and poll it until it finishes; (3) save the IRT report
(JSON), the model-vs-human dashboard numbers (JSON) and the report bundle (ZIP).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path


class Api:
    """A tiny client for Earshot's REST API (token authentication)."""

    def __init__(self, base: str, token: str | None = None):
        self.base = base.rstrip("/")
        self.token = token

    def request(self, method: str, path: str, body: bytes | None = None,
                content_type: str = "application/json") -> tuple[int, bytes]:
        req = urllib.request.Request(self.base + path, data=body, method=method)
        if body is not None:
            req.add_header("Content-Type", content_type)
        if self.token:
            req.add_header("Authorization", f"Token {self.token}")
        try:
            with urllib.request.urlopen(req, timeout=120) as resp:
                return resp.status, resp.read()
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read()

    def json(self, method: str, path: str, payload=None) -> tuple[int, dict]:
        body = None if payload is None else json.dumps(payload).encode()
        status, data = self.request(method, path, body)
        return status, (json.loads(data) if data else {})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("project", help="project slug")
    parser.add_argument("outputs", type=Path, help="model outputs, JSON lines (docs/import-format.md)")
    parser.add_argument("--url", default=os.environ.get("EARSHOT_URL", "http://127.0.0.1:8000"))
    parser.add_argument("--token", default=os.environ.get("EARSHOT_TOKEN"))
    parser.add_argument("--username")
    parser.add_argument("--password")
    parser.add_argument("--mode", default="free", choices=["free", "mcq"], help="mode of the IRT fit")
    parser.add_argument("--out", type=Path, default=Path("earshot-report"))
    parser.add_argument("--no-fit", action="store_true", help="skip the IRT fit (dashboard and bundle only)")
    args = parser.parse_args(argv)

    api = Api(args.url, args.token)
    if not api.token:
        if not (args.username and args.password):
            parser.error("give --token (or EARSHOT_TOKEN), or --username and --password")
        status, data = api.json("POST", "/api/v1/auth/token/", {"username": args.username, "password": args.password})
        if status != 200:
            print(f"login failed ({status}): {data}", file=sys.stderr)
            return 1
        api.token = data["token"]
    project = f"/api/v1/projects/{args.project}"

    # 1. Upload the model outputs (all-or-nothing; judged with the same code as human answers).
    status, body = api.request("POST", f"{project}/model-responses/", args.outputs.read_bytes(),
                               content_type="application/x-ndjson")
    result = json.loads(body or b"{}")
    if status == 400 and "errors" in result:
        for error in result["errors"]:
            print(f"{args.outputs}:{error['line']}: {error['field']}: {error['message']}", file=sys.stderr)
        return 1
    if status != 201:
        print(f"upload failed ({status}): {result}", file=sys.stderr)
        return 1
    print(f"uploaded: {result['created']} new, {result['updated']} updated, {result['unchanged']} unchanged")

    args.out.mkdir(parents=True, exist_ok=True)
    # 2. Fit IRT over humans and models together, and wait for it.
    if not args.no_fit:
        status, fit = api.json("POST", f"{project}/irt/fits/", {"mode": args.mode, "model": "2pl"})
        if status not in (200, 201, 202):
            print(f"could not start an IRT fit ({status}): {fit}", file=sys.stderr)
            return 1
        print(f"IRT fit #{fit['id']} queued")
        while fit.get("status") not in ("succeeded", "failed"):
            time.sleep(2)
            _, fit = api.json("GET", f"{project}/irt/fits/{fit['id']}/")
            print(f"  {fit.get('status')} {100 * float(fit.get('progress') or 0):.0f}%")
        if fit["status"] != "succeeded":
            print(f"IRT fit failed: {fit.get('error')}", file=sys.stderr)
            return 1
        status, report = api.json("GET", f"{project}/irt/fits/{fit['id']}/report/")
        (args.out / "irt-report.json").write_text(json.dumps(report, indent=1))
        print(f"saved {args.out / 'irt-report.json'} (tables: {', '.join(report.get('tables', {}))})")

    # 3. The dashboard's numbers and the report bundle.
    _, dashboard = api.json("GET", f"{project}/dashboard/")
    (args.out / "dashboard.json").write_text(json.dumps(dashboard, indent=1))
    for row in dashboard["tables"]["headline"]:
        print(f"{row['mode']}: humans {row['human_accuracy']}, models {row['model_accuracy']}, gap {row['gap']}")
    status, bundle = api.request("GET", f"{project}/export/bundle/")
    if status == 200:
        (args.out / "bundle.zip").write_bytes(bundle)
        print(f"saved {args.out / 'bundle.zip'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
