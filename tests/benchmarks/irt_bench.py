"""Benchmark Earshot's IRT fit against py-irt's 2PL on the same simulated data.

Not collected by pytest (name ``*_bench.py``).  Run from the repository root::

    .venv/bin/python tests/benchmarks/irt_bench.py                # cases a, b, c
    .venv/bin/python tests/benchmarks/irt_bench.py --cases b      # one case
    .venv/bin/python tests/benchmarks/irt_bench.py --scale        # + 5M-response fit
    .venv/bin/python tests/benchmarks/irt_bench.py --no-pyirt     # Earshot only
    .venv/bin/python tests/benchmarks/irt_bench.py --fresh --cases ab   # first fit, fresh processes

``--fresh`` times a *first* fit the way a new Celery worker or the ``irt_fit``
command pays it: each system runs in a fresh Python process started by this script,
imports included on both sides (Earshot: ``python -c`` that imports ``irt.fit``,
loads the responses from ``.npz`` and fits; py-irt: its driver, which imports py-irt,
reads the jsonlines and trains), timed as the subprocess's wall clock.

py-irt (0.7.1) runs in its own venv (``.venv-bench-irt``; see docs/benchmarks.md) as
a subprocess on jsonlines files this script writes; its 95 % theta intervals are
``loc_ability +- 1.96 * scale_ability`` from its variational posterior.

Cases (2PL truth: theta ~ N(0, 1), log a ~ N(0, 0.3), b ~ N(0, 1)):
  (a) 300 responders x 1,000 items, 40 % observed
  (b) 1,000 x 5,000, 10 % observed
  (c) Audita-shaped: 20 model systems answer all 5,000 items (theta ~ N(1, 0.7)),
      300 humans answer 10-60 items each (theta ~ N(0, 1)); fitted with groups.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from irt.fit import fit  # noqa: E402
from irt.simulate import SimulatedData, audita_shaped, simulate  # noqa: E402

PYIRT_PY = ROOT / ".venv-bench-irt" / "bin" / "python"
DRIVER = Path(__file__).with_name("_pyirt_driver.py")
Z = 1.959963984540054


def make_case(name: str, seed: int) -> SimulatedData:
    if name == "a":
        return simulate(300, 1000, density=0.4, seed=seed)
    if name == "b":
        return simulate(1000, 5000, density=0.1, seed=seed)
    if name == "c":
        return audita_shaped(seed=seed)
    raise ValueError(name)


def write_jsonlines(d: SimulatedData, path: Path) -> None:
    order = np.argsort(d.subjects, kind="stable")
    s, i, y = d.subjects[order], d.items[order], d.correct[order]
    bounds = np.flatnonzero(np.diff(s)) + 1
    with path.open("w") as fh:
        for ss, ii, yy in zip(np.split(s, bounds), np.split(i, bounds), np.split(y, bounds), strict=True):
            resp = {f"q{int(k)}": int(v) for k, v in zip(ii, yy, strict=True)}
            fh.write(json.dumps({"subject_id": f"s{int(ss[0])}", "responses": resp}) + "\n")


def corr(x: np.ndarray, y: np.ndarray) -> float:
    return float(np.corrcoef(x, y)[0, 1])


def metrics(d: SimulatedData, theta, lo, hi, a, b) -> dict[str, float]:
    cov = (lo <= d.theta) & (d.theta <= hi)
    out = {
        "r_theta": corr(theta, d.theta), "r_b": corr(b, d.b), "r_a": corr(a, d.a),
        "r_log_a": corr(np.log(np.clip(a, 1e-12, None)), np.log(d.a)),
        "coverage": float(cov.mean()), "mean_ci_width": float(np.mean(hi - lo)),
    }
    if (d.groups == 1).any():
        out["coverage_humans"] = float(cov[d.groups == 0].mean())
        out["coverage_models"] = float(cov[d.groups == 1].mean())
    return out


_WARM = False


def warm_up() -> None:
    """One tiny fit so one-off costs (torch pulls in ``torch._dynamo`` and sympy on the
    first optimiser step, about 8 s here) are not billed to the first case; py-irt's
    time likewise excludes its imports and data loading."""
    global _WARM
    if not _WARM:
        w = simulate(60, 40, density=0.5, seed=0)
        fit(w.subjects, w.items, w.correct, model="2pl", method="map", seed=0)
        _WARM = True


def run_earshot(d: SimulatedData, grouped: bool, seed: int) -> dict:
    warm_up()
    t0 = time.perf_counter()
    r = fit(d.subjects, d.items, d.correct, model="2pl", method="auto", seed=seed,
            groups=d.groups if grouped else None)
    sec = time.perf_counter() - t0
    m = metrics(d, r.theta, r.theta_ci[:, 0], r.theta_ci[:, 1], r.a, r.b)
    m.update(seconds=sec, method=r.method, warnings=r.warnings)
    return m


def oracle(d: SimulatedData, log_a_sd: float = 0.3, b_sd: float = 1.0) -> dict[str, float]:
    """The information ceiling: item posterior means given the *true* abilities.

    Each item's (log a, b) posterior under the simulation's own priors (log a ~
    N(0, ``log_a_sd``), b ~ N(0, ``b_sd``)), with every responder's true theta known, is
    integrated on a 31 x 41 grid; its means are the best any estimator could rank the
    items by from these answers.  No fit reaches this; it says how much of r(log a)
    the data allow at all (about 0.72 on case (b), varying by seed).
    """
    la_g = np.linspace(-5 * log_a_sd, 5 * log_a_sd, 31)
    b_g = np.linspace(-5 * b_sd, 5 * b_sd, 41)
    LA, B = (m.ravel() for m in np.meshgrid(la_g, b_g, indexing="ij"))
    A = np.exp(LA)
    logp = np.tile(-0.5 * (LA / log_a_sd) ** 2 - 0.5 * (B / b_sd) ** 2, (d.n_items, 1))
    th = d.theta[d.subjects]
    y = d.correct.astype(float)
    for lo in range(0, th.size, 20_000):
        sl = slice(lo, lo + 20_000)
        z = A[None, :] * (th[sl, None] - B[None, :])
        np.add.at(logp, d.items[sl], y[sl, None] * z - np.logaddexp(0.0, z))
    w = np.exp(logp - logp.max(axis=1, keepdims=True))
    w /= w.sum(axis=1, keepdims=True)
    return {"r_log_a": corr(w @ LA, np.log(d.a)), "r_b": corr(w @ B, d.b)}


def run_pyirt(d: SimulatedData, tmp: Path, seed: int) -> dict:
    data = tmp / "data.jsonlines"
    out = tmp / "pyirt.json"
    write_jsonlines(d, data)
    t0 = time.perf_counter()
    subprocess.run([str(PYIRT_PY), str(DRIVER), str(data), str(out), "--seed", str(seed)], check=True)
    wall = time.perf_counter() - t0
    res = json.loads(out.read_text())
    s_idx = np.array([int(s[1:]) for s in res["subject_ids"]])
    i_idx = np.array([int(s[1:]) for s in res["item_ids"]])
    theta = np.empty(d.n_subjects)
    sd = np.empty(d.n_subjects)
    theta[s_idx] = res["loc_ability"]
    sd[s_idx] = res["scale_ability"]
    b = np.empty(d.n_items)
    a = np.empty(d.n_items)
    b[i_idx] = res["loc_diff"]
    a[i_idx] = np.exp(res["loc_slope"])  # py-irt exports disc = exp(loc_slope)
    m = metrics(d, theta, theta - Z * sd, theta + Z * sd, a, b)
    m.update(seconds=res["seconds"]["train"], wall_seconds=wall)
    return m


def fresh_child(npz: str, out: str, grouped: bool) -> None:
    """A first fit in this fresh process: import, load, fit; write the estimates."""
    t0 = time.perf_counter()
    from irt.fit import fit as first_fit

    z = np.load(npz)
    r = first_fit(z["subjects"], z["items"], z["correct"], model="2pl", method="auto", seed=0,
                  groups=z["groups"] if grouped else None)
    Path(out).write_text(json.dumps({
        "theta": r.theta.tolist(), "lo": r.theta_ci[:, 0].tolist(), "hi": r.theta_ci[:, 1].tolist(),
        "a": r.a.tolist(), "b": r.b.tolist(), "method": r.method, "in_process_s": time.perf_counter() - t0,
        "torch_loaded": "torch" in sys.modules,
    }))


def run_fresh(d: SimulatedData, grouped: bool, tmp: Path, threads: int) -> dict:
    npz, out = tmp / "data.npz", tmp / "earshot.json"
    np.savez(npz, subjects=d.subjects, items=d.items, correct=d.correct, groups=d.groups)
    env = {**os.environ, "OMP_NUM_THREADS": str(threads), "MKL_NUM_THREADS": str(threads),
           "OPENBLAS_NUM_THREADS": str(threads)}
    t0 = time.perf_counter()
    subprocess.run([sys.executable, __file__, "--fresh-child", str(npz), str(out)] + (["--grouped"] if grouped else []),
                   check=True, env=env)
    wall = time.perf_counter() - t0
    res = json.loads(out.read_text())
    m = metrics(d, np.asarray(res["theta"]), np.asarray(res["lo"]), np.asarray(res["hi"]),
                np.asarray(res["a"]), np.asarray(res["b"]))
    m.update(wall_seconds=wall, method=res["method"], in_process_s=res["in_process_s"],
             torch_loaded=res["torch_loaded"])
    return m


def scale_child(n_subjects: int, n_items: int, density: float, seed: int) -> None:
    """Simulate and fit ~5M responses in this (fresh) process; print JSON."""
    d = simulate(n_subjects, n_items, density=density, seed=seed)
    warm_up()
    rss_data = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    t0 = time.perf_counter()
    r = fit(d.subjects, d.items, d.correct, model="2pl", method="auto", seed=seed)
    sec = time.perf_counter() - t0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    m = metrics(d, r.theta, r.theta_ci[:, 0], r.theta_ci[:, 1], r.a, r.b)
    m.update(n_obs=int(d.subjects.size), seconds=sec, method=r.method,
             peak_rss_mb=peak, rss_after_simulation_mb=rss_data)
    print(json.dumps(m))


def fmt(v: object) -> str:
    if isinstance(v, float):
        return f"{v:.3f}"
    return str(v)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cases", default="abc")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-pyirt", action="store_true")
    ap.add_argument("--scale", action="store_true", help="also time a 5M-response fit (fresh process)")
    ap.add_argument("--threads", type=int, default=1,
                    help="torch threads for both systems (default 1: the shared box is oversubscribed)")
    ap.add_argument("--fresh", action="store_true",
                    help="first fit in fresh processes, imports included on both sides")
    ap.add_argument("--fresh-child", nargs=2, metavar=("NPZ", "OUT"), help=argparse.SUPPRESS)
    ap.add_argument("--grouped", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--scale-child", nargs=3, type=float, metavar=("N_SUBJ", "N_ITEMS", "DENSITY"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.fresh_child:
        fresh_child(*args.fresh_child, grouped=args.grouped)
        return
    os.environ["OMP_NUM_THREADS"] = str(args.threads)  # inherited by py-irt's subprocess
    if args.fresh:
        main_fresh(args)
        return
    import torch

    torch.set_num_threads(args.threads)
    if args.scale_child:
        ns, ni, dens = args.scale_child
        scale_child(int(ns), int(ni), dens, args.seed)
        return

    print(f"# IRT benchmark {_dt.datetime.now(_dt.UTC):%Y-%m-%d %H:%M} UTC; {platform.processor() or platform.machine()}, "
          f"{os.cpu_count()} CPUs, {args.threads} torch thread(s); load average {os.getloadavg()}; "
          f"command: {' '.join(sys.argv)}", flush=True)
    rows = []
    for case in args.cases:
        d = make_case(case, args.seed)
        print(f"\n## case ({case}): {d.n_subjects} responders x {d.n_items} items, {d.subjects.size} responses", flush=True)
        e = run_earshot(d, grouped=(case == "c"), seed=0)
        print("earshot", json.dumps({k: v for k, v in e.items() if k != "warnings"}), flush=True)
        print("earshot warnings:", e["warnings"])
        o = oracle(d)
        print("oracle (true theta, true item priors)", json.dumps(o), flush=True)
        p = None
        if not args.no_pyirt:
            with tempfile.TemporaryDirectory() as tmp:
                p = run_pyirt(d, Path(tmp), seed=0)
            print("py-irt ", json.dumps(p), f"load average {os.getloadavg()}", flush=True)
        rows.append((case, d, e, p, o))

    keys = ["seconds", "r_theta", "r_b", "r_a", "r_log_a", "coverage", "coverage_humans", "coverage_models", "mean_ci_width"]
    print("\n| case | system | " + " | ".join(keys) + " | py-irt time / Earshot time |")
    print("|" + "---|" * (len(keys) + 3))
    for case, _d, e, p, o in rows:
        print(f"| ({case}) | Earshot ({e['method']}) | " + " | ".join(fmt(e.get(k, "")) for k in keys) + " | |")
        print(f"| ({case}) | ceiling: item posterior given true θ | | | {fmt(o['r_b'])} | | {fmt(o['r_log_a'])} | | | | | |")
        if p is not None:
            print(f"| ({case}) | py-irt 2PL | " + " | ".join(fmt(p.get(k, "")) for k in keys)
                  + f" | {p['seconds'] / e['seconds']:.1f}x |")

    if args.scale:
        print("\n## scale: 10,000 responders x 5,000 items at 10 % (about 5M responses), fresh process", flush=True)
        out = subprocess.run(
            [sys.executable, __file__, "--seed", str(args.seed), "--threads", str(args.threads), "--scale-child", "10000", "5000", "0.1"],
            check=True, capture_output=True, text=True,
        )
        print(out.stdout.strip().splitlines()[-1])


def main_fresh(args: argparse.Namespace) -> None:
    print(f"# IRT first-fit benchmark, fresh processes, {_dt.datetime.now(_dt.UTC):%Y-%m-%d %H:%M} UTC; "
          f"{platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, {args.threads} thread(s); "
          f"load average {os.getloadavg()}; command: {' '.join(sys.argv)}", flush=True)
    keys = ["wall_seconds", "r_theta", "r_b", "r_log_a", "coverage", "coverage_humans", "coverage_models"]
    rows = []
    for case in args.cases:
        d = make_case(case, args.seed)
        with tempfile.TemporaryDirectory() as tmp:
            e = run_fresh(d, case == "c", Path(tmp), args.threads)
            print(f"case ({case}) earshot", json.dumps(e), f"load average {os.getloadavg()}", flush=True)
            p = None
            if not args.no_pyirt:
                p = run_pyirt(d, Path(tmp), seed=0)
                print(f"case ({case}) py-irt ", json.dumps(p), f"load average {os.getloadavg()}", flush=True)
        rows.append((case, e, p))
    print("\n| case | system | " + " | ".join(keys) + " | py-irt wall / Earshot wall |")
    print("|" + "---|" * (len(keys) + 3))
    for case, e, p in rows:
        print(f"| ({case}) | Earshot ({e['method']}, fresh process) | " + " | ".join(fmt(e.get(k, "")) for k in keys) + " | |")
        if p is not None:
            print(f"| ({case}) | py-irt 2PL (fresh process) | " + " | ".join(fmt(p.get(k, "")) for k in keys)
                  + f" | {p['wall_seconds'] / e['wall_seconds']:.1f}x |")


if __name__ == "__main__":
    main()
