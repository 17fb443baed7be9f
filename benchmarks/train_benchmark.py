"""How fast is BPE Lab's pure-Python trainer next to Hugging Face tokenizers and rustbpe?

Trains 5,000 merges on the python-docs corpus (CPython's pydoc topics) with the ``hf`` tie-break
rule and the full trace (default ``top_k``/``max_ties``), and prints, all measured in this run:

* ours: corpus building + training, and training alone (best of 3);
* Hugging Face ``BpeTrainer``, single-threaded, same split and rule (best of 3);
* rustbpe with GPT-2's pattern (its own tie rule, ``smallest-ids``; best of 3);
* the readable reference (``bpe/reference.py``, a full recount per merge) on the first merges, extrapolated;
* our peak memory (tracemalloc peak of one training run, and the process's max RSS).

Run from the repository root:  .venv/bin/python benchmarks/train_benchmark.py [--merges 5000] [--clock cpu]
"""

from __future__ import annotations

import argparse
import gc
import resource
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bpe import reference  # noqa: E402
from bpe.text.corpus import Corpus  # noqa: E402
from bpe.tokens.byte_level import to_byte_text  # noqa: E402
from bpe.training.presets import python_docs_text  # noqa: E402
from bpe.training.settings import TrainSettings  # noqa: E402
from bpe.training.trainer import train  # noqa: E402
from tests.peers import hf_byte_level_merges, rustbpe_tokens  # noqa: E402


CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}
"""``cpu`` counts only the time this process ran: steadier than ``wall`` on a shared machine
(every peer here runs on one thread, so the ratios stay like for like)."""
clock = CLOCKS["wall"]


def best_of(repeats: int, run):
    """``(best seconds, result of the last run)``; garbage from earlier runs is collected first."""
    best, result = float("inf"), None
    for _ in range(repeats):
        gc.collect()
        started = clock()
        result = run()
        best = min(best, clock() - started)
    return best, result


def ours(text: str, settings: TrainSettings):
    corpus = Corpus.from_text(text, pretokenizer=settings.pretokenizer)
    return corpus, train(corpus, settings)




def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--merges", type=int, default=5000)
    parser.add_argument("--reference-merges", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--clock", choices=list(CLOCKS), default="wall")
    args = parser.parse_args()
    global clock
    clock = CLOCKS[args.clock]

    text = python_docs_text()
    settings = TrainSettings(tie_break="hf", merges=args.merges, min_frequency=1)

    total_s, (corpus, trace) = best_of(args.repeats, lambda: ours(text, settings))
    train_s, _ = best_of(args.repeats, lambda: train(corpus, settings))
    hf_s, hf_merges = best_of(args.repeats, lambda: hf_byte_level_merges(text, args.merges))
    rust_s, rust_tokens = best_of(args.repeats, lambda: rustbpe_tokens(text, args.merges))
    reference_s, _ = best_of(1, lambda: reference.train(dict(corpus.words), args.reference_merges, tie_break="hf"))

    tracemalloc.start()
    train(corpus, settings)
    _, peak_bytes = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    max_rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux

    tokens = trace.tokens
    our_pairs = [
        (to_byte_text(tokens[s.left].data), to_byte_text(tokens[s.right].data)) for s in trace.steps
    ]
    smallest_ids = train(corpus, TrainSettings(tie_break="smallest-ids", merges=args.merges, min_frequency=1))
    same_as_hf = our_pairs == hf_merges
    same_as_rust = [smallest_ids.tokens[s.new_id].data for s in smallest_ids.steps] == rust_tokens
    ties = sum(step.tie_count > 1 for step in trace.steps)
    reference_per_merge = reference_s / args.reference_merges

    print(f"python-docs: {len(text):,} chars, {len(corpus.words):,} distinct words, "
          f"{len(trace.steps):,} merges ({ties:,} of them ties), Python {sys.version.split()[0]}")
    rows = [
        ("ours: corpus + train", total_s, "best of %d" % args.repeats),
        ("ours: train only", train_s, f"{train_s / len(trace.steps) * 1e6:.0f} us/merge"),
        ("HF tokenizers (1 thread)", hf_s, f"merges identical to ours (hf rule): {same_as_hf}"),
        ("rustbpe", rust_s, f"merges identical to ours (smallest-ids rule): {same_as_rust}"),
        (f"reference (recount) x{args.reference_merges}", reference_s,
         f"{reference_per_merge * 1e3:.1f} ms/merge -> ~{reference_per_merge * args.merges:.0f} s for {args.merges:,}"),
    ]
    width = max(len(name) for name, _, _ in rows)
    print(f"{'trainer':<{width}}  {'seconds':>8}  note")
    for name, seconds, note in rows:
        print(f"{name:<{width}}  {seconds:>8.3f}  {note}")
    print(f"ratio ours/HF: corpus + train {total_s / hf_s:.1f}x, train only {train_s / hf_s:.1f}x; "
          f"ours/rustbpe {total_s / rust_s:.1f}x; reference/ours per merge "
          f"{reference_per_merge / (train_s / len(trace.steps)):.0f}x")
    print(f"our memory: tracemalloc peak {peak_bytes / 2**20:.1f} MB during training; "
          f"process max RSS {max_rss_mb:.0f} MB (all libraries loaded)")


if __name__ == "__main__":
    main()
