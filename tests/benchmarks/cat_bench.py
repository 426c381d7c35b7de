"""Adaptive testing (CAT) against random item selection, by simulation.

Not collected by pytest (name ``*_bench.py``). Run from the repository root::

    .venv/bin/python tests/benchmarks/cat_bench.py                   # defaults below
    .venv/bin/python tests/benchmarks/cat_bench.py --simulees 500 --json /tmp/cat.json

What it does:

* A bank of ``--items`` 2PL items with the simulation defaults of :mod:`irt.simulate`
  (log a ~ N(0, 0.3), b ~ N(0, 1)); ``--bank estimated`` (the default) calibrates the
  bank first with :func:`irt.fit.fit` on a simulated response matrix (``--calib``
  responders answering 20 % of the items), so the CAT selects and scores with fitted,
  imperfect parameters while the simulees answer by the true ones; ``--bank true``
  uses the true parameters.
* ``--simulees`` responders, theta ~ N(0, 1), each answers a fixed-length 40-item test
  under every selection rule, with the same pre-drawn answer to every item (common
  random numbers). theta is the EAP under the N(0, 1) prior after 10, 20 and 40 items;
  RMSE is against the true theta.
* "items to match" = the fewest items after which the rule's RMSE is at or below
  random selection's RMSE after 40 items (goal: <= 20).
* Efficient model evaluation (tinyBenchmarks): ``--systems`` model systems, theta ~
  N(1, 0.7), answer the whole bank; mean |theta_k - theta_full| for k adaptive items
  and for k random items (prior N(1, 0.7), the model population of an Audita-shaped fit).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from irt import adaptive as cat  # noqa: E402
from irt.simulate import simulate  # noqa: E402

KS = (10, 20, 40)


def make_bank(n_items: int, n_calib: int, estimated: bool, seed: int) -> tuple[cat.ItemBank, cat.ItemBank, dict]:
    """(true bank, bank the CAT uses, calibration facts)."""
    d = simulate(n_calib, n_items, density=0.2, seed=seed)
    categories = np.random.default_rng(seed + 7).integers(0, 4, n_items)
    truth = cat.ItemBank.from_arrays(d.a, d.b, category=categories)
    if not estimated:
        return truth, truth, {"bank": "true parameters"}
    from irt.fit import fit

    t0 = time.perf_counter()
    res = fit(d.subjects, d.items, d.correct, model="2pl", seed=seed)
    info = {
        "bank": f"fitted ({res.method}) on {n_calib} x {n_items} at 20 % ({d.correct.size} responses)",
        "fit_s": round(time.perf_counter() - t0, 2),
        "r_b": round(float(np.corrcoef(res.b, d.b)[0, 1]), 3),
        "r_log_a": round(float(np.corrcoef(np.log(res.a), np.log(d.a))[0, 1]), 3),
    }
    return truth, cat.ItemBank.from_arrays(res.a, res.b, category=categories), info


def run_rule(bank: cat.ItemBank, config: cat.CatConfig, thetas: np.ndarray, answers: np.ndarray,
             seed: int) -> tuple[np.ndarray, np.ndarray, float]:
    """theta after each of 40 items per simulee (n, 40), exposure rates, seconds per test."""
    rng = np.random.default_rng(seed)
    path = np.empty((thetas.size, 40))
    runs = []
    t0 = time.perf_counter()
    for i, ans in enumerate(answers):
        run = cat.run_cat(bank, lambda j, ans=ans: ans[j], config, rng)
        path[i] = run.theta
        runs.append(run)
    per_test = (time.perf_counter() - t0) / thetas.size
    return path, cat.exposure_rates(runs, bank.n_items), per_test


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--items", type=int, default=500)
    ap.add_argument("--calib", type=int, default=1000, help="responders in the calibration sample")
    ap.add_argument("--bank", choices=["estimated", "true"], default="estimated")
    ap.add_argument("--simulees", type=int, default=1000)
    ap.add_argument("--systems", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--r-max", type=float, default=0.25, help="Sympson-Hetter exposure bound")
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args()

    truth, bank, bank_info = make_bank(args.items, args.calib, args.bank == "estimated", args.seed)
    rng = np.random.default_rng(args.seed + 100)
    thetas = rng.normal(0, 1, args.simulees)
    answers = rng.random((thetas.size, truth.n_items)) < truth.p(thetas)

    base = cat.CatConfig(max_items=40)
    t0 = time.perf_counter()
    k_sh = cat.sympson_hetter(bank, base, r_max=args.r_max, n_simulees=200, seed=args.seed)
    sh_s = time.perf_counter() - t0
    shares = {int(c): float(np.mean(bank.category == c)) for c in np.unique(bank.category)}
    rules = {
        "random": replace(base, criterion="random"),
        "fisher": base,
        "posterior-weighted": replace(base, criterion="posterior"),
        "kl (posterior-weighted)": replace(base, criterion="kl"),
        "fisher + randomesque top-5": replace(base, top_k=5),
        f"fisher + Sympson-Hetter r={args.r_max}": replace(base, exposure=k_sh),
        "fisher + top-5 + category balance": replace(base, top_k=5, content_targets=shares),
    }
    results = {}
    for name, config in rules.items():
        path, exposure, per_test = run_rule(bank, config, thetas, answers, args.seed)
        rmse = np.sqrt(np.mean((path - thetas[:, None]) ** 2, axis=0))
        results[name] = {"rmse": rmse, "max_exposure": float(exposure.max()),
                         "ms_per_test": per_test * 1000}
    target = results["random"]["rmse"][39]
    for r in results.values():
        below = np.flatnonzero(r["rmse"] <= target)
        r["items_to_match"] = int(below[0] + 1) if below.size else None

    # efficient model evaluation
    sys_theta = rng.normal(1.0, 0.7, args.systems)
    sys_answers = (rng.random((args.systems, truth.n_items)) < truth.p(sys_theta)).astype(float)
    evals = {k: {"adaptive": [], "random": [], "sd_k": []} for k in KS}
    t0 = time.perf_counter()
    for y in sys_answers:
        for row in cat.efficient_evaluation(bank, y, KS, prior_mean=1.0, prior_sd=0.7, seed=args.seed):
            evals[row.k]["adaptive"].append(row.abs_diff)
            evals[row.k]["random"].append(row.random_abs_diff)
            evals[row.k]["sd_k"].append(row.sd_k)
    eval_s = (time.perf_counter() - t0) / args.systems

    print(f"# CAT benchmark: bank of {args.items} items, {bank_info['bank']}; {args.simulees} simulees, "
          f"seed {args.seed}")
    print(f"# machine: {platform.machine()} {os.cpu_count()} cpus, load average "
          f"{', '.join(f'{x:.2f}' for x in os.getloadavg())}; Sympson-Hetter calibration {sh_s:.1f} s")
    print(json.dumps(bank_info))
    print()
    print("| selection | RMSE after 10 | after 20 | after 40 | items to match random@40 | max exposure | ms per 40-item test |")
    print("|---|---|---|---|---|---|---|")
    for name, r in results.items():
        print(f"| {name} | {r['rmse'][9]:.3f} | {r['rmse'][19]:.3f} | {r['rmse'][39]:.3f} | "
              f"{r['items_to_match'] if r['items_to_match'] else '> 40'} | {r['max_exposure']:.2f} | "
              f"{r['ms_per_test']:.1f} |")
    print()
    print(f"Efficient evaluation ({args.systems} systems, theta ~ N(1, 0.7), {eval_s * 1000:.0f} ms per system "
          "incl. 20 random draws per k):")
    print("| k | mean abs(theta_k - theta_full), adaptive | random k items | mean SD_k (adaptive) |")
    print("|---|---|---|---|")
    for k in KS:
        e = evals[k]
        print(f"| {k} | {np.mean(e['adaptive']):.3f} | {np.mean(e['random']):.3f} | {np.mean(e['sd_k']):.3f} |")
    if args.json:
        out = {
            "args": {k: str(v) for k, v in vars(args).items()}, "bank": bank_info,
            "rules": {n: {**r, "rmse": [round(float(x), 4) for x in r["rmse"]]} for n, r in results.items()},
            "evaluation": {k: {n: float(np.mean(v)) for n, v in e.items()} for k, e in evals.items()},
            "loadavg": os.getloadavg(),
        }
        args.json.write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
