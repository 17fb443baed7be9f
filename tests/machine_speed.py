"""How much slower the machine is now than the one the tests' time limits were set on, measured once
per run: every wall-clock limit in the tests is multiplied by it, so a loaded machine is slower, not red.

The limits (an AppTest run's 60 s, a browser's first page load, a subprocess's minute) were set on a
quiet 2-core machine running the suite with ``-n 2``. A machine shared with other work, or a slower
one, needs more of each: :func:`slowdown` runs a fixed pure-Python workload (counting the pairs of
a text, the suite's kind of work; standard library only, so a change to the engine never moves the
measure) a few times and divides its median wall time by :data:`REFERENCE_CPU_S`, the CPU time it
takes on that machine. On that machine, quiet, the ratio is about 1; with both cores shared by four
busy processes, about 2; on a machine half as fast, 2. It is never below 1: a fast machine keeps the
limits as they are, since a limit only guards against a hang.

Measured once per run: the first process to ask (pytest's controller, when ``tests/conftest.py`` is
imported, before any worker starts) measures and puts the factor in :data:`ENV`, which the
pytest-xdist workers and every subprocess inherit, so all of them use one factor. Setting
:data:`ENV` by hand (``BPE_LAB_TEST_SLOWDOWN=3``) skips the measurement. ``pytest``'s header says
the factor (``tests/conftest.py``).

    >>> scaled(60.0, factor=2.5), scaled_ms(20_000, factor=2.5)
    (150.0, 50000)
"""

from __future__ import annotations

import functools
import os
import statistics
import time

ENV = "BPE_LAB_TEST_SLOWDOWN"
"""The environment variable holding the run's factor (set by the first measurement, or by hand)."""
REFERENCE_CPU_S = 0.040
"""CPU seconds :func:`_workload` takes on the machine the limits were set on (Debian 12, 2 cores,
Python 3.11; its median of ``time.process_time()`` over 15 runs was 0.040 s)."""
RUNS = 5
"""Workload runs whose median wall time is taken (about 0.2 s on a quiet machine; a loaded one takes longer)."""
MAX_FACTOR = 30.0
"""A measurement beyond this is a stalled process, not a slow machine: limits stop growing here."""


def _workload() -> int:
    """Fixed CPU work, about 40 ms: count a text's neighbouring pairs, merge one pair, again."""
    counts: dict[tuple[str, str], int] = {}
    text = "the quick brown fox jumps over the lazy dog; " * 400
    for _ in range(24):
        for pair in zip(text, text[1:]):
            counts[pair] = counts.get(pair, 0) + 1
        text = text.replace("th", "T")
    return len(counts)


def measure(runs: int = RUNS) -> float:
    """This machine's factor now: the workload's median wall time over :data:`REFERENCE_CPU_S`, at least 1."""
    walls = []
    for _ in range(runs):
        started = time.perf_counter()
        _workload()
        walls.append(time.perf_counter() - started)
    return min(MAX_FACTOR, max(1.0, statistics.median(walls) / REFERENCE_CPU_S))


@functools.cache
def slowdown() -> float:
    """The run's factor: :data:`ENV` when set (by the run's first measurement, or by hand), else measured now and set there."""
    given = os.environ.get(ENV)
    if given is not None:
        try:
            factor = float(given)
        except ValueError:
            raise ValueError(f"{ENV}={given!r} is not a number: unset it, or give a factor such as 2") from None
        return max(1.0, factor)
    factor = measure()
    os.environ[ENV] = f"{factor:.3f}"  # the workers and subprocesses started after this inherit it
    return factor


def scaled(seconds: float, *, factor: float | None = None) -> float:
    """A wall-clock limit of ``seconds`` on the limits' machine, here and now."""
    return seconds * (slowdown() if factor is None else factor)


def scaled_ms(milliseconds: int, *, factor: float | None = None) -> int:
    """:func:`scaled`, in Playwright's milliseconds."""
    return round(milliseconds * (slowdown() if factor is None else factor))
