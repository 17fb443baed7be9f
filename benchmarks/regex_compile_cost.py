"""What ``regex.compile`` costs for counted repeats: the measurements behind MAX_PATTERN_PROGRAM.

A script, not a test: ``.venv/bin/python benchmarks/regex_compile_cost.py [--cap-gb 2]``.

Each pattern is compiled *without* BPE Lab's guard, so every compile runs in a fresh child process
whose address space is capped (``resource.RLIMIT_AS``, 2 GB by default) and whose wall time is
capped (60 s): a bomb ends in MemoryError or a timeout there, never in this process. The child
prints the compile time and how much its peak resident memory grew (``ru_maxrss``).

Next to each figure is the guard's estimate (:func:`bpe.text.pattern_guard.program_size`) and its
verdict, so one table shows both that the estimate tracks the cost and where the limit falls.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bpe.errors import PatternError  # noqa: E402
from bpe.limits import MAX_PATTERN_PROGRAM  # noqa: E402
from bpe.text.pattern_guard import check_pattern_cost, program_size  # noqa: E402

CHILD = r"""
import resource, sys, time
cap = int(sys.argv[2])
resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
import regex
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
start = time.perf_counter()
try:
    regex.compile(sys.argv[1], cache_pattern=False)
    status = "ok"
except MemoryError:
    status = "MemoryError"
seconds = time.perf_counter() - start
grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
print(f"{status}\t{seconds:.3f}\t{grown_mb:.0f}")
"""

PATTERNS = [
    "a{10000}", "a{100000}", "a{0,10000}", "a{10000,}",
    "(?:a+){10000}", "(?:(?:a+){100}){100}", r"(?:\p{L}+?\p{N}++){5000}",
    r"(?:[^\s\p{L}\p{N}]++[\r\n]*+){3333}",
    "(?:a{1000}){0,1000}", "(?:a{1000}){500,1000}", "(?:a{1000}){1000}", "(?:(?:a{100}){100}){100}",
    "(?:a{2}){500000}", "(?:a{65535}){65535}",
]


def measure(pattern: str, *, cap_bytes: int, timeout_s: float = 60.0) -> str:
    """``status, seconds, MB grown`` of one compile of ``pattern`` in a capped child process."""
    try:
        done = subprocess.run(
            [sys.executable, "-c", CHILD, pattern, str(cap_bytes)], capture_output=True, text=True, timeout=timeout_s
        )
    except subprocess.TimeoutExpired:
        return f"timeout\t>{timeout_s:g}\t?"
    return done.stdout.strip() or f"exit {done.returncode}\t?\t?"


def verdict(pattern: str) -> str:
    try:
        check_pattern_cost(pattern)
    except PatternError:
        return "refused"
    return "allowed"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cap-gb", type=float, default=2.0, help="address-space cap of each child (GB)")
    args = parser.parse_args()
    print(f"limit MAX_PATTERN_PROGRAM = {MAX_PATTERN_PROGRAM:,}; child address space capped at {args.cap_gb:g} GB")
    print("pattern\testimate\tguard\tcompile\tseconds\tMB grown")
    for pattern in PATTERNS:
        cost = measure(pattern, cap_bytes=int(args.cap_gb * (1 << 30)))
        print(f"{pattern}\t{program_size(pattern):,}\t{verdict(pattern)}\t{cost}", flush=True)


if __name__ == "__main__":
    main()
