"""One read of a class room for all of its phones on this process: what the phones' polls are given.

Why: every phone polls its room each :data:`~ui.room_polling.STUDENT_POLL_S`, and a read of a room
of 60 (its seats, when each was last seen, this round's answers) cost 0.7-0.9 ms of CPU in the app
process and one Redis round trip, 30 times a second per replica for one class. The phones of a
room only ask "has the room moved on, and how many have answered?", which one read answers for
all of them: a poll takes the last read of its room on this process when it is younger than
:data:`SHARED_READ_S`, and a seat's "I am here" waits for the next read, which sends them all at once
(a seat is away only after two minutes unseen, :data:`~bpe.limits.SEAT_LAPSE_S`).

A whole-page run reads the store itself, as before (a tap must come back with its own answer), and
leaves its read here: so no poll is given a room older than a page it drew, and a page never
flips back to a state it has left.

    >>> from bpe.teaching.room import MergeAsk, Room
    >>> class Store:
    ...     reads = []
    ...     def view(self, code, *, seen=()):
    ...         self.reads.append(sorted(seen))
    ...         return Room.open(code, teacher_token="k", lesson=(), step=0, question=MergeAsk(()), now=0.0)
    >>> now = [0.0]
    >>> reads, store = SharedReads(clock=lambda: now[0]), Store()
    >>> for seat, at in (("a", 0.0), ("b", 0.1), ("c", 0.2)):   # 0.0 reads; 0.1 and 0.2 are given that read
    ...     now[0] = at
    ...     _ = reads.view(store, "K7QX3M", seen=seat)
    >>> now[0] = 0.3                                           # past the quarter second: one read, three seats seen
    >>> reads.view(store, "K7QX3M", seen="d").code, store.reads
    ('K7QX3M', [['a'], ['b', 'c', 'd']])
    >>> _ = reads.view(store, "K7QX3M", max_age=0)             # a whole-page run reads now, and leaves its read
    >>> len(store.reads)
    3

Scope: sharing reads within one process (each replica has its own; every replica reads the same
Redis). Out of scope: the store itself (:mod:`ui.room_store`), what the polls do with the room
(:mod:`ui.room_polling`).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from .room_store import RoomStore, RoomStoreUnavailable

SHARED_READ_S = 0.25
"""The oldest read of its room a phone's poll is given: a change reaches a phone at most this much
later than a read of its own would have shown it (on a 1 s poll, the reveal within 1.25 s and a run)."""
FORGET_S = 60.0
"""A room no page of this process has read for this long is forgotten here (its phones have gone)."""


@dataclass
class _Room:
    lock: threading.Lock = field(default_factory=threading.Lock)
    read_at: float = float("-inf")
    view: object = None
    seen: set[str] = field(default_factory=set)
    """Seats whose polls took the shared read since the last one: sent with the next."""


class SharedReads:
    """The last read of each room on this process, handed to its phones' polls (thread-safe: each
    session's script runs in a thread of its own)."""

    def __init__(self, *, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._rooms: dict[str, _Room] = {}
        self._lock = threading.Lock()

    def _room(self, code: str, now: float) -> _Room:
        with self._lock:
            if len(self._rooms) > 16:  # rooms whose phones have gone are dropped, so memory holds the live ones
                self._rooms = {key: held for key, held in self._rooms.items() if now - held.read_at < FORGET_S}
            return self._rooms.setdefault(code, _Room())

    def view(self, store: RoomStore, code: str, *, seen: str | None = None, max_age: float = SHARED_READ_S):
        """Room ``code`` as the store shows it at most ``max_age`` seconds ago (``0``: read it now),
        ``seen`` being the seat whose page looks. Raises what the store raises (its seats seen are
        then sent with the next read)."""
        held = self._room(code, self._clock())
        with held.lock:  # one read at a time per room: the others of the moment are given it
            if seen is not None:
                held.seen.add(seen)
            now = self._clock()
            if now - held.read_at < max_age:
                return held.view
            seats, held.seen = held.seen, set()
            try:
                held.view = store.view(code, seen=seats)
            except RoomStoreUnavailable:
                held.seen |= seats  # sent with the next read that gets through
                raise
            held.read_at = now
            return held.view
