"""Accuracy of the judge on the probe rows of the short-answer table, by probe part,
family and language, and the wrong answers it accepts at p >= 0.9.

Run on demand (not collected by pytest)::

    .venv/bin/python tests/benchmarks/judging_probe.py
    # the judge of another checkout on the same rows (e.g. main before a branch):
    .venv/bin/python tests/benchmarks/judging_probe.py --root /path/to/other/checkout

The probe rows (source ``earshot_probe_2026_12_03`` in
``judging/data/short_answers.jsonl``) carry a field ``probe``: ``fix`` (read while
fixing the rules), ``heldback``, ``blind2``, ``blind3``, ``blind4``, ``blind5``,
``blind6``, ``blind7``, ``blind8``, ``blind9``, ``blind10``, ``blind11``, ``blind12``,
``blind13``, ``blind14``, ``blind15``, ``blind16``, ``blind17``, ``blind18``,
``blind19``, ``blind20``, ``blind21``, ``blind22``, ``blind23``, ``blind24``,
``blind25``, ``blind26``, ``blind27``, ``blind28`` and ``blind29`` (scored once before
being read, then fixed where the cause was general). The table itself is always read
from this checkout; ``--root`` only picks the judge.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

TABLE = Path(__file__).resolve().parents[2] / "judging" / "data" / "short_answers.jsonl"
SOURCE = "earshot_probe_2026_12_03"


def probe_rows(table: Path = TABLE) -> list[dict]:
    """The probe rows of the table (comments skipped)."""
    rows = [json.loads(line) for line in table.read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")]
    return [r for r in rows if r.get("source") == SOURCE]


def report(rows: list[dict]) -> str:
    """A markdown report: one section per probe part."""
    from judging.equivalence import judge  # (after --root has set sys.path)

    parts: dict[str, list[tuple[dict, object]]] = defaultdict(list)
    for r in rows:
        parts[r["probe"]].append((r, judge(r["candidate"], r["references"],
                                           question=r["question"])))
    out = []
    # fix, heldback, then the blind parts in the order they were written
    for part in sorted(parts, key=lambda p: (p != "fix", p != "heldback",
                                             int(p[5:]) if p[5:].isdigit() else 0)):
        judged = parts[part]
        by: dict[str, dict[str, list[bool]]] = {"family": defaultdict(list),
                                                "lang": defaultdict(list)}
        wrong90 = []
        for r, v in judged:
            ok = v.correct == r["human_correct"]
            by["family"][r["family"]].append(ok)
            by["lang"][r["lang"]].append(ok)
            if v.correct and not r["human_correct"] and v.score >= 0.9:
                wrong90.append(f"{r['candidate']!r} for {r['references'][0]!r} (p={v.score:.2f})")
        n_ok = sum(v.correct == r["human_correct"] for r, v in judged)
        out.append(f"## {part}: {n_ok}/{len(judged)} = {n_ok / len(judged):.3f}, "
                   f"wrong accepted at p >= 0.9: {len(wrong90)}")
        for key, groups in by.items():
            names = sorted(groups)
            out.append(f"| {key} | " + " | ".join(names) + " |")
            out.append("| --- |" + " ---: |" * len(names))
            out.append("| accuracy | " + " | ".join(
                f"{sum(groups[k]) / len(groups[k]):.2f} ({len(groups[k])})" for k in names) + " |")
        out.extend(f"- {w}" for w in wrong90)
        out.append("")
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=TABLE.parents[2],
                        help="the checkout whose judge to run (default: this one)")
    args = parser.parse_args()
    sys.path.insert(0, str(args.root.resolve()))
    print(report(probe_rows()))


if __name__ == "__main__":
    main()
