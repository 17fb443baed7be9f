"""Training time against corpus size: ours beside Hugging Face tokenizers, from 0.1 to 8 MB of CPython's source.

A script, not a test: ``.venv/bin/python benchmarks/train_sweep.py [--merges 5000] [--sizes 0.1,0.5,2,8] [--repeats 3]``.

The corpus is the standard library's own ``.py`` files (every machine with Python has them), in
path order, cut at each size (MB of UTF-8). At each size, measured in this run, turn about:

* **ours**: ``Corpus.from_text`` (GPT-2's split) and ``train`` with the ``hf`` tie-break rule, the
  full trace recorded (the defaults: the top pairs and ties of every step, as the Train page shows);
* **Hugging Face** ``BpeTrainer``, one thread (``RAYON_NUM_THREADS=1``), byte-level with GPT-2's
  split and all 256 bytes: ``train_from_iterator`` alone (reading its merges back is not timed).

Printed: the best CPU seconds of each (``--repeats``; both run on one thread, so CPU time is a fair
clock on a busy machine, and wall seconds beside it), the ratio, and whether the merges are the
same pairs in the same order. Beside them, each side with no merge asked (the corpus and the set-up
alone) and what one merge costs, the rest shared out over the merges made: where the time goes, read
apart. Target (issue 52): ours at most 1.0x Hugging Face's at every size.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import sysconfig
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bpe.text.corpus import Corpus  # noqa: E402
from bpe.tokens.byte_level import to_byte_text  # noqa: E402
from bpe.training.settings import TrainSettings  # noqa: E402
from bpe.training.trace import Trace  # noqa: E402
from bpe.training.trainer import train  # noqa: E402
from tests.peers import hf_byte_level_tokenizer, hf_merges  # noqa: E402  (one thread, set before tokenizers starts)

SIZES_MB = (0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0)


def cpython_source(megabytes: float) -> str:
    """The first ``megabytes`` of the standard library's ``.py`` files, one after another in path order."""
    limit, parts, size = int(megabytes * 1_000_000), [], 0
    for path in sorted(Path(sysconfig.get_paths()["stdlib"]).rglob("*.py")):
        if "site-packages" in path.parts:
            continue
        data = path.read_bytes()
        parts.append(data[: limit - size])
        size += len(parts[-1])
        if size >= limit:
            break
    return b"".join(parts).decode("utf-8", errors="replace")


def timed(run) -> tuple[float, float, object]:
    gc.collect()
    wall, cpu = time.perf_counter(), time.process_time()
    result = run()
    return time.process_time() - cpu, time.perf_counter() - wall, result


def ours(text: str, merges: int) -> Trace:
    settings = TrainSettings(tie_break="hf", merges=merges, min_frequency=1)
    return train(Corpus.from_text(text, pretokenizer=settings.pretokenizer), settings)


def ours_merges(trace: Trace) -> list[tuple[str, str]]:
    tokens = trace.tokens
    return [(to_byte_text(tokens[step.left].data), to_byte_text(tokens[step.right].data)) for step in trace.steps]


def best_of(repeats: int, runs: dict[str, Callable[[], object]]) -> tuple[dict[str, tuple[float, float]], dict[str, object]]:
    """Each run's best ``(cpu, wall)`` over ``repeats`` rounds, taken in turn, and its last result."""
    best: dict[str, tuple[float, float]] = {}
    results: dict[str, object] = {}
    for _ in range(repeats):
        for who, run in runs.items():
            cpu, wall, results[who] = timed(run)
            best[who] = min(best.get(who, (cpu, wall)), (cpu, wall))
    return best, results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--merges", type=int, default=5000)
    parser.add_argument("--sizes", default=",".join(map(str, SIZES_MB)), help="MB, comma-separated")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    print(f"{args.merges:,} merges, hf rule; CPU seconds, best of {args.repeats} (wall beside); load average "
          f"{os.getloadavg()[0]:.1f} at the start")
    print(f"{'MB':>5} {'words':>8} {'merges':>7} {'ours cpu':>9} {'wall':>6} {'HF cpu':>7} {'wall':>6} {'ours/HF':>8}  "
          f"{'no merge: ours':>14} {'HF':>6}  {'µs a merge: ours':>16} {'HF':>5}  same merges")
    worst = 0.0
    for megabytes in map(float, args.sizes.split(",")):
        text = cpython_source(megabytes)
        best, results = best_of(args.repeats, {
            "ours": lambda: ours(text, args.merges), "hf": lambda: hf_byte_level_tokenizer(text, args.merges),
            # the corpus and the set-up alone: what a merge costs is the rest, shared out
            "ours 0": lambda: ours(text, 0), "hf 0": lambda: hf_byte_level_tokenizer(text, 0),
        })
        same = ours_merges(results["ours"]) == hf_merges(results["hf"])
        (cpu, wall), (hf_cpu, hf_wall) = best["ours"], best["hf"]
        ratio = cpu / hf_cpu
        worst = max(worst, ratio)
        made = len(results["ours"].steps)
        per_merge = [(best[who][0] - best[f"{who} 0"][0]) / max(made, 1) * 1e6 for who in ("ours", "hf")]
        print(f"{megabytes:5.2f} {results['ours'].word_count:8,} {made:7,} {cpu:9.3f} {wall:6.2f} {hf_cpu:7.3f} {hf_wall:6.2f} "
              f"{ratio:7.2f}x  {best['ours 0'][0]:14.3f} {best['hf 0'][0]:6.3f}  {per_merge[0]:16.1f} {per_merge[1]:5.1f}  "
              f"{same}", flush=True)
    print(f"worst ours/HF {worst:.2f}x (target <= 1.0x at every size); load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
