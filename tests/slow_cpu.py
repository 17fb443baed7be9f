"""A Chromium tab slow to draw, as a loaded laptop's or a projector's is: its CPU slowed down
through the DevTools protocol (``Emulation.setCPUThrottlingRate``).

    with slow_cpu(page):
        page.goto(...)   # every script and every frame of the page takes SLOWER times as long
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

SLOWER = 6
"""How many times slower: at 6x, this machine's Chromium drew Train's parts in the orders that a loaded
full run had (docs/measurements.md, issue 49: the flaky browser checks' causes)."""


@contextmanager
def slow_cpu(tab, rate: float = SLOWER) -> Iterator[None]:
    """``tab``'s CPU ``rate`` times slower inside the block, and at full speed again after it (the tab
    may go on to the next test: see ``page`` in tests/conftest.py)."""
    session = tab.context.new_cdp_session(tab)
    session.send("Emulation.setCPUThrottlingRate", {"rate": rate})
    try:
        yield
    finally:
        session.send("Emulation.setCPUThrottlingRate", {"rate": 1})
        session.detach()
