"""Python's cyclic garbage collector paused while a big table is built.

Why: the collector runs every 700 new container objects (tuples, lists, dicts), and its full
passes walk every object alive. Building a 200,000-token table makes a million of them, so the
collector kept walking the half-built table, again and again. Training makes hundreds of
thousands of short-lived tuples and lists, and the young collections they set off find nothing to
free. (``benchmarks/pretrained_load.py`` and ``benchmarks/train_benchmark.py`` measure both;
the figures are in docs/measurements.md.)
Neither makes a reference cycle (everything is freed by reference counting), so pausing the
collector meanwhile leaves nothing uncollected, as the standard ``timeit`` does while timing.

    >>> import gc
    >>> with collector_paused():
    ...     gc.isenabled()
    False
    >>> gc.isenabled()
    True
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """The collector off inside the block (or the decorated function), then as it was, on an error
    too: one paused already (by the caller, or by a block in another thread) is left paused."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
