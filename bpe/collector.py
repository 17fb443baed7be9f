"""Python's cyclic garbage collector paused while a big table is built.

Why: the collector runs every 700 new container objects (tuples, lists, dicts), and its full
passes walk every object alive. Building a 200,000-token table makes a million of them, so the
collector kept walking the half-built table: half of GPT-4o's load time, measured with
``benchmarks/pretrained_load.py``. Training makes some 200,000 short-lived tuples and lists: the
young collections were 5% of training python-docs at best, 15% typically on a loaded machine.
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
