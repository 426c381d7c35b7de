"""Peak memory of importing one long WAV through ``bank_import`` (run on demand).

    .venv/bin/python tests/benchmarks/import_memory_bench.py [--hours 10] [--rate 8000]

Writes a mono 16-bit WAV of the given length to a temporary folder, sets up a fresh
SQLite database there, and imports a one-question bank naming it, with the clip
limits raised so the file is accepted. The peak is the process's high-water RSS
(``VmHWM``, reset just before the import through ``/proc/self/clear_refs``), so the
figure is the import's own, not Django's start-up. Linux only. Prints one JSON line.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _status(key: str) -> float:
    with open("/proc/self/status") as handle:
        for line in handle:
            if line.startswith(key):
                return int(line.split()[1]) / 1024
    raise KeyError(key)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hours", type=float, default=10.0)
    parser.add_argument("--rate", type=int, default=8000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="earshot-import-mem-") as name:
        tmp = Path(name)
        import numpy as np
        import soundfile as sf

        with sf.SoundFile(tmp / "long.wav", "w", samplerate=args.rate, channels=1, subtype="PCM_16") as out:
            minute = (0.1 * np.sin(np.arange(args.rate * 60) / 3)).astype(np.float32)
            for _ in range(round(args.hours * 60)):
                out.write(minute)
        os.environ.update(DJANGO_SETTINGS_MODULE="config.settings", DATABASE_URL=f"sqlite:///{tmp}/db.sqlite3",
                          EARSHOT_MEDIA_ROOT=str(tmp / "media"), EARSHOT_CLIP_MAX_SECONDS=str(args.hours * 3600 + 60),
                          EARSHOT_CLIP_MAX_BYTES=str(2**40))
        sys.path.insert(0, str(ROOT))
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        from accounts.services import project_create
        from quiz.services import bank_import

        project = project_create(slug="mem", name="mem", is_public=True)
        bank = tmp / "bank.jsonl"
        bank.write_text(json.dumps({"id": "long", "prompt": "p", "answerline": "a", "category": "c",
                                    "audio": "long.wav"}) + "\n")
        base = _status("VmRSS")
        Path("/proc/self/clear_refs").write_text("5")
        started = time.perf_counter()
        bank_import(project=project, path=bank)
        print(json.dumps({"file_mb": round((tmp / "long.wav").stat().st_size / 2**20, 1),
                          "rss_before_mb": round(base, 1), "peak_rss_mb": round(_status("VmHWM"), 1),
                          "peak_over_before_mb": round(_status("VmHWM") - base, 1),
                          "seconds": round(time.perf_counter() - started, 1)}))


if __name__ == "__main__":
    main()
