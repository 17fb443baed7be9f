"""Time the three segmentations of python-docs (BPE's own, fewest tokens, longest match) against
the tokenizer's own ``encode`` in the same run, with the token counts each gives.

``segment`` cuts every chunk (each distinct chunk once); its time is printed beside ``encode``'s
(the fast path, its chunk cache warm after the first run) and as a ratio: all three ways at once,
and each way alone (the same split into chunks, then only that way's cut), so the fewest-token
dynamic programme's own cost shows against BPE's merge loop run the same way. The vocabulary as
runs of symbols (``TokenPieces``) is built once per tokenizer and timed apart.

    .venv/bin/python benchmarks/segmentation_benchmark.py --runs 3
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--tokenizers", nargs="+", default=["gpt2", "cl100k_base", "o200k_base"])
    args = parser.parse_args()

    from bpe.training.presets import python_docs_text
    from bpe.pretrained.registry import load_pretrained
    from bpe.encoding.segmentation import SEGMENTATIONS, TokenPieces, segment, token_counts

    text = python_docs_text()
    print(f"python-docs: {len(text):,} characters, {args.runs} runs, medians")
    for name in args.tokenizers:
        tokenizer = load_pretrained(name)
        started = time.perf_counter()
        TokenPieces.of(tokenizer)
        pieces_s = time.perf_counter() - started
        timings: dict[str, list[float]] = {"encode": [], "all three": [], **{way: [] for way in SEGMENTATIONS}}
        for _ in range(args.runs):
            started = time.perf_counter()
            ids = tokenizer.encode(text)
            timings["encode"].append(time.perf_counter() - started)
            for ways in [tuple(SEGMENTATIONS), *((way,) for way in SEGMENTATIONS)]:
                started = time.perf_counter()
                chunks = segment(tokenizer, text, ways=ways)
                timings["all three" if len(ways) > 1 else ways[0]].append(time.perf_counter() - started)
                if len(ways) > 1:
                    counts = token_counts(chunks)
        assert counts["bpe"] == len(ids), "BPE's own segmentation must be encode's"
        encode = statistics.median(timings["encode"])
        times = ", ".join(f"{SEGMENTATIONS[way].title if way in SEGMENTATIONS else way} {statistics.median(spent):.3f} s "
                          f"({statistics.median(spent) / encode:.1f}x)" for way, spent in timings.items() if way != "encode")
        shown = ", ".join(f"{SEGMENTATIONS[way].title} {count:,} ({100 * (count - counts['bpe']) / counts['bpe']:+.2f} %)"
                          for way, count in counts.items())
        print(f"{name}: encode {encode:.3f} s; segment: {times}; vocabulary as runs built once in {pieces_s:.2f} s")
        print(f"  tokens: {shown}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
