"""Benchmark of Earshot's answer judge on the human-labelled answer-equivalence sets.

Run on demand (not collected by pytest)::

    .venv/bin/python tests/benchmarks/judging_bench.py
    # and side by side with another version of the judge, e.g. the previous commit:
    git worktree add /tmp/earshot-prev HEAD~1
    .venv/bin/python tests/benchmarks/judging_bench.py --against /tmp/earshot-prev

For every ``../shared/data/answer_equivalence/*.jsonl`` it reports accuracy, F1
(positive = correct) and Cohen's kappa of

1. Earshot's judge with the calibrator cross-validated (grouped k-fold by question:
   the calibrator is retrained on the other folds and scores the held-out fold),
2. the judge as shipped (committed ``judging/calibrator.json``, trained on all rows,
   so optimistic on these files),
3. normalized exact match and normalized containment (SQuAD normalization:
   lower-case, punctuation and articles removed; containment = the reference is a
   substring of the candidate, the PEDANT trap),

and the throughput of ``judge_many`` over the whole file, cold (caches emptied), cold
with the answerlines and questions already prepared (as in a running quiz, where
questions are imported before their answers arrive) and warm (caches filled by an
earlier run), best of three runs each. It prints a
markdown table and writes it into ``docs/benchmarks.md`` under ``## Judging``
(other sections are left untouched).

``--against DIR`` also times the cold throughput of the judge in another checkout
(``DIR/judging``), alternating fresh processes of the two versions for
``--rounds`` rounds, and adds the ratios to the section: machines here are noisy, so
versions are compared in one run, not across runs. ``--speed-only`` (with
``--against``) runs only that comparison and prints it.
"""

from __future__ import annotations

import argparse
import datetime as dt
import gc
import json
import os
import re
import string
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from judging.equivalence import EQUIVALENCE_VERSION, clear_caches, judge_many  # noqa: E402
from judging.preparation import prepared, question_tokens  # noqa: E402
from judging.train_calibrator import (  # noqa: E402
    DATA_DIR,
    K_FOLDS,
    REPO_DATA_DIR,
    SEED,
    analyze_rows,
    calibration,
    load_rows,
    metrics,
    nested_cross_validated_predictions,
)

DOC = ROOT / "docs" / "benchmarks.md"
COMMAND = ".venv/bin/python tests/benchmarks/judging_bench.py"
REPEATS = 3
PEDANT = {  # ../shared/data/README.md: qa-metrics 0.2.42, one process
    "evouna_nq.jsonl": "PEDANT accuracy 0.895 (κ 0.73); containment EM 0.840",
    "openqa_eval_nq301.jsonl": "PEDANT accuracy 0.798; containment EM 0.750",
}
_PUNCT = set(string.punctuation)
_ARTICLES = re.compile(r"\b(a|an|the)\b")


def squad_normalize(text: str) -> str:
    """SQuAD answer normalization: lower, no punctuation, no articles, single spaces."""
    text = "".join(ch for ch in text.lower() if ch not in _PUNCT)
    return " ".join(_ARTICLES.sub(" ", text).split())


# Run in a fresh process per measurement, with ``sys.argv[1]`` first on the path: the
# cold throughput (pairs per CPU-second, best of 2) of that checkout's judge_many.
_CHILD = """
import gc, json, sys, time
sys.path.insert(0, sys.argv[1])
from judging.equivalence import clear_caches, judge_many
out = {}
for path in sys.argv[2:]:
    rows = [json.loads(line) for line in open(path, encoding="utf-8") if line.strip()]
    args = ([r["candidate"] for r in rows], [r["references"] for r in rows],
            [r["question"] for r in rows])
    best = 0.0
    for _ in range(2):
        clear_caches()
        gc.collect()
        t0 = time.process_time()
        judge_many(*args)
        best = max(best, len(rows) / (time.process_time() - t0))
    out[path.rsplit("/", 1)[-1]] = best
try:
    from judging.native import compiled
    out["compiled"] = compiled()
except ImportError:  # (a checkout from before the compiled build)
    out["compiled"] = False
print(json.dumps(out))
"""


def side_by_side(other: Path, rounds: int) -> list[str]:
    """Cold pairs/s of this checkout's judge and ``other``'s, alternating processes;
    this checkout's both as installed (the compiled build when it is in use, see
    ``judging/native.py``) and from its Python sources (``EARSHOT_PURE=1``)."""
    files = [str(p) for p in sorted(DATA_DIR.glob("*.jsonl"))]
    runs: dict[str, dict[str, list[float]]] = {"this": {}, "other": {}, "pure": {}}
    compiled = {}
    for _ in range(rounds):
        for label, root in (("other", other), ("this", ROOT), ("pure", ROOT)):
            env = {**os.environ, "EARSHOT_PURE": "1" if label == "pure" else ""}
            got = json.loads(subprocess.run(
                [sys.executable, "-c", _CHILD, str(root), *files],
                check=True, capture_output=True, text=True, env=env).stdout)
            compiled[label] = got.pop("compiled")
            for name, rate in got.items():
                runs[label].setdefault(name, []).append(rate)

    def commit(root: Path) -> str:
        return subprocess.run(["git", "-C", str(root), "rev-parse", "--short", "HEAD"],
                              capture_output=True, text=True).stdout.strip() or "?"

    lines = [
        "",
        f"Side by side (`--against {other}`, commit {commit(other)}; this checkout "
        f"{commit(ROOT)}): cold pairs/s per CPU-second of `judge_many`, best of 2 per "
        f"process, {rounds} rounds of alternating fresh processes. \"this\" is this "
        f"checkout as installed ({'the compiled build' if compiled['this'] else 'its Python sources: no compiled build in use'}), "
        f"\"pure\" the same from its Python sources (`EARSHOT_PURE=1`); the other "
        f"checkout runs {'compiled' if compiled['other'] else 'from its sources'}.",
        "",
        "| file | other (min–max) | this (min–max) | ratio of medians | pure (min–max) "
        "| ratio of medians, pure |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]

    def spread(label: str, name: str) -> tuple[str, float]:
        v = sorted(runs[label][name])
        return f"{v[0]:,.0f}–{v[-1]:,.0f}", v[len(v) // 2]

    for name in sorted(runs["this"]):
        (a, ma), (b, mb), (c, mc) = (spread(k, name) for k in ("other", "this", "pure"))
        lines.append(f"| `{name}` | {a} | {b} | {mb / ma:.2f}× | {c} | {mc / ma:.2f}× |")
    return lines


def throughput(rows: list) -> tuple[float, float, float, float, float, list]:
    """Pairs/s of ``judge_many`` over ``rows``: cold (wall, CPU), cold with the
    answerlines known (CPU), warm (wall, CPU), best of REPEATS each; and the verdicts."""
    cands = [r.candidate for r in rows]
    refs = [list(r.references) for r in rows]
    qs = [r.question for r in rows]
    cold = cold_cpu = known = warm = warm_cpu = 0.0
    for _ in range(REPEATS):  # best of REPEATS: the machine is shared
        clear_caches()
        gc.collect()
        t0, c0 = time.perf_counter(), time.process_time()
        judge_many(cands, refs, qs)
        cold = max(cold, len(rows) / (time.perf_counter() - t0))
        cold_cpu = max(cold_cpu, len(rows) / (time.process_time() - c0))
    for _ in range(REPEATS):
        # a running quiz or a re-score: the questions were imported (answerlines
        # and questions prepared) before the answers, which are all new
        clear_caches()
        for line in refs:
            prepared(tuple(line))
        for q in qs:
            question_tokens(q)
        gc.collect()
        c0 = time.process_time()
        judge_many(cands, refs, qs)
        known = max(known, len(rows) / (time.process_time() - c0))
    for _ in range(REPEATS):
        t0, c0 = time.perf_counter(), time.process_time()
        shipped = judge_many(cands, refs, qs)
        warm = max(warm, len(rows) / (time.perf_counter() - t0))
        warm_cpu = max(warm_cpu, len(rows) / (time.process_time() - c0))
    return cold, cold_cpu, known, warm, warm_cpu, shipped


def main(against: Path | None = None, rounds: int = 3) -> str:
    """Run the benchmark; return the markdown section."""
    data_rows = load_rows(DATA_DIR)
    # the hand-written short-answer table is trained on (and cross-validated) too
    rows_all = data_rows + load_rows(REPO_DATA_DIR, hand=True)
    names = sorted({r.file for r in rows_all})
    # Throughput first, while the process has done nothing else: after the
    # cross-validation's allocations the same runs are ~10 % slower.
    speed = {name: throughput([r for r in rows_all if r.file == name]) for name in names}
    analyses_all = analyze_rows(rows_all)
    # the hand-written table's weight in the scores chosen inside each fold, as the
    # calibrator is trained (judging.train_calibrator.nested_cross_validated_predictions)
    cv_correct, cv_score, per_fold = nested_cross_validated_predictions(
        rows_all, analyses_all, K_FOLDS, SEED)
    lines = [
        "## Judging",
        "",
        BEGIN,
        "",
        f"Command: `{COMMAND}{f' --against {against}' if against else ''}` — run {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC, "
        f"judge version {EQUIVALENCE_VERSION}, one process.",
        "",
        "Accuracy / F1 (positive = correct) / Cohen's κ against the human labels. "
        f"\"CV\" = calibrator retrained per fold, {K_FOLDS}-fold grouped by question "
        f"(seed {SEED}; the hand-written table's weight in the scores chosen inside each "
        f"fold: {', '.join(f'{w:g}' for w in per_fold)}); \"shipped\" = committed weights, trained on all rows of all "
        "files (optimistic). ECE = expected calibration error of the cross-validated "
        "scores (10 equal-width bins; hard rules scored with their held-out rule rate); "
        "grey catch = share of the judge's CV errors whose score is in the default grey "
        "zone 0.3–0.7 (sent to adjudication); p ≥ 0.9 wrong = wrong answers accepted "
        "with a CV score of 0.9 or more. Throughput = pairs/s of `judge_many` over the whole file, "
        "cold (all caches emptied first), cold with the answerlines known (caches "
        "emptied, then the answerlines and questions prepared, untimed: a running quiz "
        "or a re-score, where questions come before their answers) and warm (caches "
        f"filled by an earlier run), best of {REPEATS} runs each, per CPU-second of this "
        "process and, in parentheses, per wall-clock second (the wall figure suffers "
        "when other jobs share the machine's 2 cores).",
        "",
        "| file | n | judge (CV) acc / F1 / κ | ECE (CV) | grey catch | p ≥ 0.9 wrong "
        "| judge (shipped) acc / F1 / κ "
        "| normalized EM acc / F1 / κ | normalized containment acc / F1 / κ "
        "| pairs/s cold, CPU (wall) | pairs/s cold, answerlines known, CPU "
        "| pairs/s warm, CPU (wall) | reference |",
        "| --- | ---: | --- | ---: | ---: | ---: | --- | --- | --- | ---: | ---: | ---: | --- |",
    ]

    def cell(m: dict[str, float]) -> str:
        return f"{m['accuracy']:.3f} / {m['f1']:.3f} / {m['kappa']:.3f}"

    for name in names:
        idx = [i for i, r in enumerate(rows_all) if r.file == name]
        rows = [rows_all[i] for i in idx]
        gold = [r.human_correct for r in rows]
        cands = [r.candidate for r in rows]
        refs = [list(r.references) for r in rows]
        cold, cold_cpu, known, warm, warm_cpu, shipped = speed[name]
        em = [any(squad_normalize(c) == squad_normalize(x) for x in rr)
              for c, rr in zip(cands, refs, strict=True)]
        cont = [any(squad_normalize(x) and squad_normalize(x) in squad_normalize(c) for x in rr)
                for c, rr in zip(cands, refs, strict=True)]
        cal = calibration(cv_score[idx], cv_correct[idx], gold)
        lines.append(
            f"| `{name}` | {len(rows)} | {cell(metrics(cv_correct[idx], gold))} "
            f"| {cal['ece']:.3f} | {cal['errors_in_grey_zone']:.2f} | {cal['wrong_accepted_p90']} "
            f"| {cell(metrics([v.correct for v in shipped], gold))} "
            f"| {cell(metrics(em, gold))} | {cell(metrics(cont, gold))} "
            f"| {cold_cpu:,.0f} ({cold:,.0f}) | {known:,.0f} | {warm_cpu:,.0f} ({warm:,.0f}) "
            f"| {PEDANT.get(name, '')}; PEDANT ≈ 337 pairs/s |"
        )
    lines += [
        "",
        "Targets (issues 3 and 13): accuracy ≥ 0.92 on `evouna_nq.jsonl`, ≥ 0.82 on "
        "`openqa_eval_nq301.jsonl` (cross-validated), ECE ≤ 0.05 on each, cold "
        "throughput no lower than the previous version side by side (`--against`). "
        "`short_answers.jsonl` is the hand-written table in `judging/data/` (see its "
        "header). The machine is shared (2 cores), so throughput is noisy; compare "
        "numbers from one run.",
    ]
    if against is not None:
        lines += side_by_side(against, rounds)
    lines += ["", END, ""]
    section = "\n".join(lines)
    print(section)
    write_section(section)
    return section


# The bench's own output in docs/benchmarks.md lies between these two lines; the
# hand-written notes after END (each session's) are kept when the bench runs again.
BEGIN = "<!-- judging_bench.py output: rewritten by each run, down to the end marker -->"
END = "<!-- end of judging_bench.py output; notes below are hand-written and kept -->"


def write_section(section: str, doc: Path | None = None) -> None:
    """Replace the bench's output in the ``## Judging`` section of docs/benchmarks.md
    (from the heading to :data:`END`), keeping the notes after it; a section without
    the markers is replaced whole, and a missing one appended."""
    doc = doc or DOC
    doc.parent.mkdir(parents=True, exist_ok=True)
    text = doc.read_text(encoding="utf-8") if doc.exists() else "# Benchmarks\n\n"
    marked = re.compile(r"^## Judging\n.*?^" + re.escape(END) + r"\n", re.DOTALL | re.MULTILINE)
    whole = re.compile(r"^## Judging\n.*?(?=^## |\Z)", re.DOTALL | re.MULTILINE)
    if marked.search(text):
        text = marked.sub(lambda _: section.rstrip("\n") + "\n", text, count=1)
    elif whole.search(text):
        text = whole.sub(lambda _: section.rstrip("\n") + "\n\n", text, count=1)
    else:
        text = text.rstrip("\n") + "\n\n" + section.rstrip("\n") + "\n"
    doc.write_text(text.rstrip("\n") + "\n", encoding="utf-8")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", type=Path,
                        help="another checkout whose judge to time side by side")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--speed-only", action="store_true",
                        help="with --against: print only the side-by-side table (no "
                             "accuracy, no cross-validation; docs/benchmarks.md untouched)")
    opts = parser.parse_args()
    if opts.speed_only:
        if opts.against is None:
            parser.error("--speed-only needs --against")
        print("\n".join(side_by_side(opts.against, opts.rounds)))
    else:
        main(opts.against, opts.rounds)
