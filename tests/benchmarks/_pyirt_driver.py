"""Run py-irt's 2PL on a jsonlines file and dump its posterior (benchmark peer only).

Runs inside the separate benchmark venv (``.venv-bench-irt``, Python 3.11 with
``py-irt==0.7.1``); never imported by Earshot.  Usage::

    python _pyirt_driver.py data.jsonlines out.json [--epochs 2000] [--seed 0]

Uses py-irt's own trainer with the defaults of ``py-irt train 2pl`` (2,000 epochs,
lr 0.1, "vague" priors, mean-field guide) and writes the variational posterior of
every parameter (loc and scale) with py-irt's index -> id maps and the training time.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("data")
    ap.add_argument("out")
    ap.add_argument("--epochs", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    t0 = time.perf_counter()
    import pyro
    from py_irt.config import IrtConfig
    from py_irt.training import IrtModelTrainer

    t_import = time.perf_counter() - t0
    t1 = time.perf_counter()
    config = IrtConfig(model_type="2pl", epochs=args.epochs, seed=args.seed, log_every=10**9)
    trainer = IrtModelTrainer(data_path=Path(args.data), config=config, verbose=False)
    t_load = time.perf_counter() - t1
    t2 = time.perf_counter()
    trainer.train(device="cpu")
    t_train = time.perf_counter() - t2
    ds = trainer._dataset
    ps = pyro.get_param_store()
    out = {
        "subject_ids": [ds.ix_to_subject_id[i] for i in range(len(ds.ix_to_subject_id))],
        "item_ids": [ds.ix_to_item_id[i] for i in range(len(ds.ix_to_item_id))],
        "seconds": {"import": t_import, "load": t_load, "train": t_train},
    }
    for name in ("loc_ability", "scale_ability", "loc_diff", "scale_diff", "loc_slope", "scale_slope"):
        out[name] = ps[name].detach().cpu().numpy().tolist()
    Path(args.out).write_text(json.dumps(out))


if __name__ == "__main__":
    main()
