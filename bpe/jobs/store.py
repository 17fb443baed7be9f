"""A least-recently-used dict, bounded in entries and in total weight, safe to share between threads.

Streamlit runs each session's script in its own thread, and what the server shares between
sessions (``st.cache_resource``) is reached from all of them at once: so every read and write
holds one lock, and the bounds hold however many sessions write together. The app keeps two:
trained runs (:mod:`ui.training`) and the views built from them (:mod:`ui.shared_views`); the job board
keeps finished jobs in one (:mod:`bpe.jobs.board`).

    >>> views = BoundedStore(2, max_weight=10, weigh=len)
    >>> views.put("a", "aaaa"); views.put("b", "bbbb"); views.get("a")   # "a" is now the most recent
    'aaaa'
    >>> views.put("c", "cccc"); views.get("b") is None, len(views)       # over 2 entries: "b" goes
    (True, 2)
    >>> views.put("big", "x" * 20); len(views), views.weight             # over the weight: all older go
    (1, 20.0)

Scope: the store. Out of scope: what is kept, and its keys (the callers').
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any


class BoundedStore:
    """At most ``max_entries`` entries and, when ``weigh`` is given, at most ``max_weight`` of total
    weight (e.g. characters of HTML); the least recently used entry goes first."""

    def __init__(
        self, max_entries: int, *, max_weight: float = float("inf"), weigh: Callable[[Any], float] = lambda value: 0,
    ) -> None:
        self.max_entries, self.max_weight, self._weigh = max_entries, max_weight, weigh
        self.weight = 0.0
        self._items: OrderedDict[Hashable, tuple[Any, float]] = OrderedDict()  # key -> (value, its weight)
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> Any:
        """The value stored under ``key`` (now the most recent), or ``None``."""
        with self._lock:
            if key not in self._items:
                return None
            self._items.move_to_end(key)
            return self._items[key][0]

    def put(self, key: Hashable, value: Any) -> None:
        weight = self._weigh(value)  # outside the lock: weighing a big view must not hold up the readers
        with self._lock:
            if key in self._items:
                self.weight -= self._items[key][1]
            self._items[key] = (value, weight)
            self._items.move_to_end(key)
            self.weight += weight
            # subtle: the newest entry stays even if it alone outweighs the limit (it is about to be drawn)
            while len(self._items) > self.max_entries or (self.weight > self.max_weight and len(self._items) > 1):
                self.weight -= self._items.popitem(last=False)[1][1]

    def __len__(self) -> int:
        with self._lock:
            return len(self._items)
