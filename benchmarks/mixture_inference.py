"""The data-mixture inference on random mixes trained here: its mean absolute error, and its time beside training's.

A script, not a test: ``.venv/bin/python benchmarks/mixture_inference.py [--mixes 20] [--merges 3000] [--seed 0]``.
Each mix draws 3 to 6 of the 18 built-in categories (the Declaration's 16 languages, code, python-docs)
and their shares from a flat Dirichlet (so a share can be small), trains a byte-level run of ``--merges``
merges on it (:func:`bpe.analysis.known_mix.train_on_mix`), and infers the mix from the merges alone,
weighing the mix's categories, two ways:

* **same text**: the samples are the texts trained on (the program's own check: the answer must be exact);
* **held out**: trained on alternate lines of each text, inferred from the other lines, so the samples
  are other text of the same kind, as for a real tokenizer (the paper's controlled setting).

For each it prints the mean absolute error of the shares (over the mix's categories) and the CPU seconds
of the inference beside the training's (the peer measured in the same run: their ratio holds on a
loaded machine); with ``--curve``, the error after 300 and 1,000 merges of the held-out runs.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bpe import Tokenizer, infer_mix  # noqa: E402
from bpe.analysis.known_mix import train_on_mix  # noqa: E402
from bpe.analysis.mixture import mix_error  # noqa: E402
from bpe.analysis.samples import CATEGORIES, halves, sample_text  # noqa: E402

EARLIER = (300, 1_000)
"""The held-out runs are also inferred from these first merges: how the error shrinks."""


def random_mix(rng: random.Random) -> dict[str, float]:
    keys = rng.sample(list(CATEGORIES), rng.randint(3, 6))
    weights = [rng.expovariate(1.0) for _ in keys]  # normalised: a flat Dirichlet
    return {key: weight / sum(weights) for key, weight in zip(keys, weights)}


def cpu() -> float:
    return time.process_time()


def run(truth: dict[str, float], *, merges: int, held_out: bool, curve: bool) -> dict:
    texts = {key: sample_text(key) for key in truth}
    trained, judged = ({key: halves(text)[0] for key, text in texts.items()},
                       {key: halves(text)[1] for key, text in texts.items()}) if held_out else (texts, texts)
    start = cpu()
    tokenizer = Tokenizer.from_trace(train_on_mix(trained, truth, merges=merges))
    trained_s = cpu() - start
    start = cpu()
    estimate = infer_mix(tokenizer, judged, merges=merges)
    inferred_s = cpu() - start
    earlier = {k: mix_error(infer_mix(tokenizer, judged, merges=k).proportions, truth) for k in EARLIER if curve and held_out and k < merges}
    return {"error": mix_error(estimate.proportions, truth), "train_s": trained_s, "infer_s": inferred_s, "earlier": earlier,
            "estimate": estimate}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mixes", type=int, default=20)
    parser.add_argument("--merges", type=int, default=3_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--curve", action="store_true", help="also infer the held-out runs from their first 300 and 1,000 merges")
    parser.add_argument("--ways", default="same,held", help="same (samples are the training texts), held (held-out lines), or both")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    mixes = [random_mix(rng) for _ in range(args.mixes)]
    print(f"load average at start: {os.getloadavg()[0]:.2f}; {args.mixes} mixes of 3-6 categories, {args.merges:,} merges, seed {args.seed}")
    ways = [(way, held_out) for key, way, held_out in (("same", "same text", False), ("held", "held out", True))
            if key in args.ways.split(",")]
    results = {way: [] for way, _ in ways}
    for number, truth in enumerate(mixes, 1):
        for way, held_out in ways:
            results[way].append(result := run(truth, merges=args.merges, held_out=held_out, curve=args.curve))
            worst = max(truth, key=lambda key: abs(result["estimate"].proportions[key] - truth[key]))
            print(f"mix {number:2d} {way:9s} MAE {result['error']:.4f}  train {result['train_s']:5.1f} s  infer {result['infer_s']:5.1f} s"
                  f"  ({len(truth)} categories; worst {worst} {truth[worst]:.3f} -> {result['estimate'].proportions[worst]:.3f})")
    print()
    for way, found in results.items():
        errors = [result["error"] for result in found]
        train_s = sum(result["train_s"] for result in found)
        infer_s = sum(result["infer_s"] for result in found)
        print(f"{way:9s}: mean absolute error {statistics.mean(errors):.4f} (median {statistics.median(errors):.4f}, "
              f"worst {max(errors):.4f}); inference {infer_s / len(found):.1f} CPU-s a mix, "
              f"{infer_s / train_s:.2f} x training's {train_s / len(found):.1f}")
    for k in EARLIER:
        if k < args.merges and args.curve and "held out" in results:
            print(f"held out after {k:,} merges: mean absolute error {statistics.mean(r['earlier'][k] for r in results['held out']):.4f}")
    print(f"load average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
