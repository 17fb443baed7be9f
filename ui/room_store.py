"""Where class rooms live: one interface, two stores, chosen by one setting.

``BPE_LAB_REDIS_URL`` unset (``streamlit run app.py``): :class:`MemoryRoomStore`, the rooms in this
process's memory, which serves **one process only**: behind a load balancer, a student on another
replica would find no room. Set (``scripts/serve.sh`` sets it for its replicas):
:class:`ui.redis_room_store.RedisRoomStore`, the rooms in Redis, shared by every replica and kept
when a replica (or Redis, with its persistence on) restarts.

Both apply :mod:`bpe.teaching.room`'s rules, each change atomic (two students answering at once,
or an answer racing the reveal, are both decided by the room's state at that instant), expire a
room after :data:`~bpe.limits.ROOM_IDLE_S` without a write, seat a student only where the room
has a place (:func:`~bpe.teaching.room_seats.seats_to_free`), keep when each seat's page last
looked, count only seated seats' answers (a class's chart never holds more answers than seated
students), let the teacher remove seats, and count join attempts per key for the rate limits.
``tests/test_room_stores.py`` runs the same contract over both.
"""

from __future__ import annotations

import dataclasses
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Protocol

from bpe.limits import CLOSED_ROOM_S, ROOM_IDLE_S
from bpe.teaching.room import CLOSED, AlreadyAnswered, Room, RoomRefused, RoomView
from bpe.teaching.room_seats import Seat, seats_to_free
from bpe.teaching.room_questions import Answer

REDIS_URL_SETTING = "BPE_LAB_REDIS_URL"
"""The one setting: a ``redis://`` URL (with its password) puts every room in that Redis."""
MAX_ROOMS_IN_PROCESS = 1_000
"""Rooms one process holds at once (each a few kB; the idle ones expire)."""


class RoomStoreUnavailable(Exception):
    """The shared store cannot be reached (Redis stopped, or too slow): the page carries on solo."""


def no_such_room(code: str) -> RoomRefused:
    return RoomRefused(
        f"there is no open room {code}: check the code on the projector (a room closes after two hours "
        "without an answer, or when its teacher closes it)"
    )


def not_seated() -> RoomRefused:
    return RoomRefused("join the room before answering (open the room's link again)")


def already_answered() -> AlreadyAnswered:
    return AlreadyAnswered("you have answered this question already: your first answer counts")


def expiry_s(room: Room, idle_s: float) -> float:
    """How long ``room`` lives after its last write: a closed one only long enough to say so."""
    return min(CLOSED_ROOM_S, idle_s) if room.phase == CLOSED else idle_s


class RoomStore(Protocol):
    where: str
    """Where the rooms are, for people (``"Redis at 127.0.0.1:6390"``, ``"this app process"``)."""

    def create(self, room: Room) -> bool:
        """Store a new room; ``False`` if its code is taken (draw another)."""

    def view(self, code: str, *, seen: str | Iterable[str] | None = None) -> RoomView | None:
        """The room with its seats and this round's answers of seated seats; ``None`` if there is
        none (or it expired). ``seen``: the seat (or seats) whose page is looking (here, not away)."""

    def join(self, code: str, seat: str, nickname: str, client: str) -> None:
        """Seat a student (again: the nickname is replaced), from the address hashed as ``client``.
        Raises :class:`RoomRefused` (a full room, a closed one)."""

    def answer(self, code: str, seat: str, *, round: int, answer: Answer) -> None:
        """Record the seat's answer to ``round``. Raises :class:`RoomRefused` (:class:`AlreadyAnswered`
        when it has one: the first stands)."""

    def change(self, code: str, transition: Callable[[Room], Room]) -> Room:
        """Apply a teacher's transition (``lambda room: room.revealed_by(token)``) atomically."""

    def remove(self, code: str, seats: Iterable[str], *, credential: str | None) -> None:
        """The teacher takes ``seats`` out of the room, with their answers to this question."""

    def allow(self, key: str, *, limit: int, per_s: float) -> bool:
        """Count one attempt for ``key`` and say whether it is allowed: at most ``limit`` are, in any
        ``per_s`` seconds (a sliding window; refused attempts are not counted, so a client that keeps
        trying gets in again as its oldest attempts age out)."""


@dataclass
class _Held:
    room: Room
    touched: float
    seats: dict[str, Seat] = field(default_factory=dict)
    answers: dict[int, dict[str, Answer]] = field(default_factory=dict)


def seats_seen(seen: str | Iterable[str] | None) -> tuple[str, ...]:
    """What a read's ``seen`` names: one seat, several, or none.

    >>> seats_seen("a" * 16), seats_seen(None), seats_seen({"b" * 16})
    (('aaaaaaaaaaaaaaaa',), (), ('bbbbbbbbbbbbbbbb',))
    """
    return (seen,) if isinstance(seen, str) else tuple(seen or ())


def view_of(room: Room, seats: Iterable[Seat], answers: dict) -> RoomView:
    """What a store read: only seated seats' answers count."""
    seats = tuple(seats)
    seated = {seat.id for seat in seats}
    return RoomView(room, seats, tuple((seat, answer) for seat, answer in answers.items() if seat in seated))


class MemoryRoomStore:
    """The rooms in this process (one lock makes each change atomic). One process only."""

    where = "this app process"

    def __init__(self, *, idle_s: float = ROOM_IDLE_S, clock: Callable[[], float] = time.time) -> None:
        self.idle_s, self._clock = idle_s, clock
        self._rooms: dict[str, _Held] = {}
        self._attempts: dict[str, deque[float]] = {}  # key -> times of its allowed attempts, oldest first
        self._lock = threading.Lock()

    def _live(self, code: str) -> _Held | None:
        held = self._rooms.get(code)
        if held is not None and self._clock() - held.touched > expiry_s(held.room, self.idle_s):
            del self._rooms[code]
            return None
        return held

    def _held(self, code: str) -> _Held:
        held = self._live(code)
        if held is None:
            raise no_such_room(code)
        return held

    def _touch(self, held: _Held) -> None:
        held.touched = self._clock()

    def create(self, room: Room) -> bool:
        with self._lock:
            for code in list(self._rooms):
                self._live(code)  # sweep the expired, so memory holds only live rooms
            if self._live(room.code) is not None:
                return False
            if len(self._rooms) >= MAX_ROOMS_IN_PROCESS:
                raise RoomRefused(f"this app process holds {MAX_ROOMS_IN_PROCESS:,} rooms already: close one, or try later")
            self._rooms[room.code] = _Held(room, self._clock())
            return True

    def view(self, code: str, *, seen: str | Iterable[str] | None = None) -> RoomView | None:
        with self._lock:
            held = self._live(code)
            if held is None:
                return None
            for seat in seats_seen(seen):
                if seat in held.seats:
                    held.seats[seat] = dataclasses.replace(held.seats[seat], seen=self._clock())
            return view_of(held.room, held.seats.values(), held.answers.get(held.room.round, {}))

    def join(self, code: str, seat: str, nickname: str, client: str) -> None:
        with self._lock:
            held = self._held(code)
            for freed in seats_to_free(held.room, held.seats.values(), seat, now=self._clock()):
                self._drop(held, freed)
            held.seats[seat] = Seat(seat, nickname, client, self._clock())
            self._touch(held)

    @staticmethod
    def _drop(held: _Held, seat: str) -> None:
        held.seats.pop(seat, None)
        held.answers.get(held.room.round, {}).pop(seat, None)

    def answer(self, code: str, seat: str, *, round: int, answer: Answer) -> None:
        with self._lock:
            held = self._held(code)
            if seat not in held.seats:
                raise not_seated()
            held.room.check_answer(round=round, answer=answer)
            answers = held.answers.setdefault(round, {})
            if seat in answers:
                raise already_answered()
            answers[seat] = answer
            self._touch(held)

    def change(self, code: str, transition: Callable[[Room], Room]) -> Room:
        with self._lock:
            held = self._held(code)
            held.room = transition(held.room)
            self._touch(held)
            return held.room

    def remove(self, code: str, seats: Iterable[str], *, credential: str | None) -> None:
        with self._lock:
            held = self._held(code)
            held.room.check_teacher(credential, "remove a seat")
            for seat in seats:
                self._drop(held, seat)
            self._touch(held)

    def allow(self, key: str, *, limit: int, per_s: float) -> bool:
        now = self._clock()
        with self._lock:
            if len(self._attempts) > 10_000:  # a bound on memory: clients with no recent attempt are dropped
                self._attempts = {k: times for k, times in self._attempts.items() if times and times[-1] > now - per_s}
            times = self._attempts.setdefault(key, deque())
            while times and times[0] <= now - per_s:
                times.popleft()
            if len(times) >= limit:
                return False
            times.append(now)
            return True
