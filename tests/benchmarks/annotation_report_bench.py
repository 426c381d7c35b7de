"""Benchmark: full campaign report over 1,000,000 synthetic ratings (target < 5 s).

Run on demand (not collected by pytest)::

    .venv/bin/python tests/benchmarks/annotation_report_bench.py [--items 50000] [--repeats 3]

Prints the median wall time of ``campaign_report`` over ``--repeats`` runs, the time of
our Krippendorff alpha against the PyPI ``krippendorff.alpha`` on the same data (as a
(slots x units) reliability matrix, one criterion at a time), and a few result rows.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from annotation.agreement import krippendorff_alpha
from annotation.report import campaign_report

RATERS_PER_ITEM = 20


def synthetic_ratings(n_items: int = 50_000, seed: int = 0) -> pd.DataFrame:
    """``n_items`` x 20 ratings: 60 % MOS items (1-5), 20 % naturalness labels,
    20 % quality 0-5 with ~10 % missing answers (so alpha, not kappa, applies);
    1 % gold and 0.5 % trapping items; 2,500 raters of whom 40 are flat and 20 ignore traps.
    """
    rng = np.random.default_rng(seed)
    n_raters = 2_500
    item = np.repeat(np.arange(n_items), RATERS_PER_ITEM)
    slot = np.tile(np.arange(RATERS_PER_ITEM), n_items)
    start = rng.integers(0, n_raters, size=n_items)
    rater = (start[item] + slot) % n_raters  # distinct raters within an item
    kind = rng.choice(3, size=n_items, p=[0.6, 0.2, 0.2])
    system = rng.integers(0, 10, size=n_items)
    condition = rng.integers(0, 4, size=n_items)
    task = rng.integers(0, 5, size=n_items)
    quality = np.clip(2.0 + 0.25 * system + rng.normal(0, 0.8, size=n_items), 1, 5)
    bias = rng.normal(0, 0.4, size=n_raters)
    raw = quality[item] + bias[rater] + rng.normal(0, 0.7, size=item.size)
    mos = np.clip(np.rint(raw), 1, 5)
    flat = rater < 40
    mos[flat] = 4
    crit_names = np.array(["mos", "naturalness", "quality"])
    criterion = crit_names[kind[item]]
    values = mos.astype(object)
    nat = kind[item] == 1
    values[nat] = np.where(raw[nat] > 2.8, "natural", "unnatural")
    q = kind[item] == 2
    values[q] = np.clip(np.rint(raw[q]), 0, 5)
    values[q & (rng.random(item.size) < 0.1)] = np.nan
    # controls: gold (score = item's rounded quality) and traps ("select 2"), MOS items only
    gold_items = rng.random(n_items) < 0.01
    trap_items = ~gold_items & (rng.random(n_items) < 0.005)
    mos_row = kind[item] == 0
    gold_value = np.where(gold_items[item] & mos_row, np.rint(quality[item]), np.nan)
    trap_value = np.where(trap_items[item] & mos_row, 2.0, np.nan)
    gold_rows = ~np.isnan(gold_value)
    values[gold_rows] = gold_value[gold_rows]  # honest raters get gold right; flat ones say 4
    values[gold_rows & flat] = 4.0
    trap_rows = ~np.isnan(trap_value)
    values[trap_rows] = np.where((rater[trap_rows] >= 40) & (rater[trap_rows] < 60), 5.0, 2.0)
    return pd.DataFrame({
        "item_id": item,
        "rater_id": rater,
        "criterion": criterion,
        "value": values,
        "system": np.array([f"sys{s}" for s in range(10)])[system[item]],
        "condition": np.array(["clean", "noisy", "reverb", "codec"])[condition[item]],
        "task": np.array(["tts", "vc", "se", "sep", "asr"])[task[item]],
        "gold_value": gold_value,
        "trap_value": trap_value,
    })


def reliability_matrix(df: pd.DataFrame) -> np.ndarray:
    """(slots x units) matrix for krippendorff.alpha: slot = order of the rating in its item."""
    items, _ = pd.factorize(df["item_id"])
    slot = df.groupby(items).cumcount().to_numpy()
    data = np.full((slot.max() + 1, items.max() + 1), np.nan)
    data[slot, items] = pd.to_numeric(df["value"]).to_numpy(dtype=float)
    return data


def _median_time(fn, repeats: int = 5) -> float:
    """Median wall time of ``fn()`` over ``repeats`` calls (interleave-free, same process)."""
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main() -> None:
    import krippendorff

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=50_000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()

    t0 = time.perf_counter()
    df = synthetic_ratings(args.items)
    print(f"generated {len(df):,} ratings, {df['rater_id'].nunique():,} raters "
          f"in {time.perf_counter() - t0:.1f} s")

    times, report = [], None
    for _ in range(args.repeats):
        t0 = time.perf_counter()
        report = campaign_report(df)
        times.append(time.perf_counter() - t0)
    assert report is not None
    med = statistics.median(times)
    print(f"campaign_report: median {med:.2f} s over {args.repeats} runs "
          f"({', '.join(f'{t:.2f}' for t in times)}); target < 5 s: {'OK' if med < 5 else 'MISSED'}")
    print(report.exclusions.summary(), dict(report.counts))
    pd.set_option("display.width", 200)
    print(report.agreement[["criterion", "n_items", "statistic", "value", "label",
                            "percent_agreement", "alpha", "alpha_level"]].to_string(index=False))
    print(report.koala.to_string(index=False))
    print(report.decisions["decision"].value_counts().to_string())

    # Krippendorff alpha side by side with the PyPI package, same data, same level
    # (median of 5 calls each).
    scored = df[df["gold_value"].isna() & df["trap_value"].isna()]
    for crit, level in (("mos", "interval"), ("quality", "interval"), ("mos", "ordinal")):
        sub = scored[(scored["criterion"] == crit) & scored["value"].notna()]
        data = reliability_matrix(sub)
        ours = krippendorff_alpha(data, level).alpha
        ref = float(krippendorff.alpha(reliability_data=data, level_of_measurement=level))
        t_ours = _median_time(lambda d=data, lv=level: krippendorff_alpha(d, lv))
        t_ref = _median_time(
            lambda d=data, lv=level: krippendorff.alpha(reliability_data=d, level_of_measurement=lv))
        print(f"alpha {crit}/{level} on {data.shape[0]}x{data.shape[1]} "
              f"({int(np.isfinite(data).sum()):,} ratings): ours {ours:.6f} in {t_ours:.3f} s, "
              f"krippendorff.alpha {ref:.6f} in {t_ref:.3f} s, ratio {t_ref / t_ours:.1f}x")


if __name__ == "__main__":
    main()
