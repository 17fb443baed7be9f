"""Python's cyclic garbage collector paused while a big table is built.

Why: the collector runs every few hundred new container objects (tuples, dicts), and its full
passes walk every object alive. Building a 200,000-token table makes a million of them, so the
collector kept walking the half-built table: half of GPT-4o's load time, measured with
``benchmarks/pretrained_load.py``. A token table makes no reference cycles, so pausing the
collector while it is built leaves nothing uncollected.

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
    """The collector off inside the block, then as it was (a block inside another leaves it off)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
