"""Who sits in a class room: a seat per browser, when a full room gives an away seat to a new
student, and the budgets every join attempt is counted against.

A seat is a browser, not a click: its id is derived from the room's code and the browser's random
id (kept in a cookie the page sets), so Leave and Join, a reload and a second tab all find the same
seat, and a seat link opened in another browser is not that browser's (:func:`owns_seat`). A seat
that has not looked at the room for :data:`~bpe.limits.SEAT_LAPSE_S` is *away*; it keeps its
answers and gives its place only when the room is full.

Scope: seat ids, browser ids, the full-room rule and the join budgets. Out of scope: counting
attempts (a store's sliding window) and the room itself (:mod:`bpe.teaching.room`).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

from ..limits import (
    DEFAULT_ROOM_SEATS, JOIN_ATTEMPTS_PER_BROWSER, JOIN_ATTEMPTS_PER_MINUTE, JOIN_ATTEMPTS_PER_SEAT_OF_ROOM,
    JOIN_ATTEMPTS_PER_SESSION, SEAT_LAPSE_S,
)
from .room_questions import RoomRefused


class SizedRoom(Protocol):
    """What the full-room rule reads of a room (:class:`bpe.teaching.room.Room` is one)."""

    size: int

    def check_open(self) -> None: ...


SEAT_LENGTH = 16
"""A seat id: 16 URL-safe characters (96 bits)."""
BROWSER_ID_LENGTH = 22
"""A browser's id: 22 URL-safe characters (132 random bits), kept in the browser's cookie."""

MIN_ROOM_BUDGET_SEATS = 15
"""A room's join budget counts at least this many seats (a room of 1 still takes 60 attempts a minute)."""

_SEAT = re.compile(rf"[A-Za-z0-9_-]{{{SEAT_LENGTH}}}")
_BROWSER = re.compile(rf"[A-Za-z0-9_-]{{{BROWSER_ID_LENGTH}}}")


def new_seat() -> str:
    """A random seat id (the stores' tests seat students without browsers)."""
    return secrets.token_urlsafe(12)


def is_seat(text: str) -> bool:
    """True for a well-formed seat id (what a link carries is checked before it reaches a store)."""
    return bool(_SEAT.fullmatch(text))


def new_browser_id() -> str:
    """A browser's random id (the page keeps it in a cookie)."""
    return secrets.token_urlsafe(16)[:BROWSER_ID_LENGTH]


def is_browser_id(text: object) -> bool:
    """True for a well-formed browser id (a cookie is the browser's to write: checked before use)."""
    return isinstance(text, str) and bool(_BROWSER.fullmatch(text))


def seat_for(code: str, browser: str) -> str:
    """The one seat ``browser`` has in room ``code``: the same after Leave and Join, a reload or in a
    second tab, another in every room (so a seat id says nothing about the browser's id).

    >>> seat_for("K7QX3M", "b" * 22) == seat_for("K7QX3M", "b" * 22) != seat_for("K7QX3N", "b" * 22)
    True
    >>> is_seat(seat_for("K7QX3M", "b" * 22))
    True
    """
    digest = hashlib.sha256(f"seat:{code}:{browser}".encode()).digest()
    return base64.urlsafe_b64encode(digest).decode()[:SEAT_LENGTH]


def owns_seat(code: str, browser: str, seat: str) -> bool:
    """Whether ``seat`` is ``browser``'s own seat in room ``code``: what a seat link (its id in the
    address bar) must pass before it answers for anyone. The link carries the seat, never the
    browser's id (a cookie, kept by the browser alone), and the seat is a one-way hash of it: a link
    shared in a class chat names a seat that no other browser owns.

    >>> owns_seat("K7QX3M", "b" * 22, seat_for("K7QX3M", "b" * 22)), owns_seat("K7QX3M", "c" * 22, seat_for("K7QX3M", "b" * 22))
    (True, False)
    """
    return hmac.compare_digest(seat, seat_for(code, browser))  # subtle: constant time, so timing tells no prefix


def client_key(address: str) -> str:
    """What the join rate limit counts a client by: a hash of its address, never the address."""
    return hashlib.sha256(address.encode("utf-8", "surrogatepass")).hexdigest()[:16]


@dataclass(frozen=True)
class Seat:
    """One student's place in a room."""

    id: str
    nickname: str
    """``""`` when none was given."""
    client: str
    """A hash of the network address it joined from (:func:`client_key`), for the teacher's count
    of seats per address; never the address."""
    seen: float
    """When its page last looked at the room (the store's clock)."""

    def away(self, now: float) -> bool:
        return now - self.seen > SEAT_LAPSE_S


def seats_to_free(room: SizedRoom, seats: Iterable[Seat], seat: str, *, now: float) -> tuple[str, ...]:
    """Whether ``seat`` may sit in ``room``: the away seats to drop to make room for it (``()``
    when it is seated already or there is room), or :class:`RoomRefused` when every seat is taken
    by a student who is here.

    Why away seats give way only when the room is full: a phone that slept through a question
    comes back to its seat and its answers; a flood of joins that left holds seats only until
    someone needs them.

    >>> from bpe.teaching.room import MergeAsk, Room
    >>> room = Room.open("K7QX3M", teacher_token="k", lesson=(), step=0, question=MergeAsk(()), now=0.0, size=2)
    >>> seats = [Seat("a" * 16, "", "c", seen=0.0), Seat("b" * 16, "", "c", seen=200.0)]
    >>> seats_to_free(room, seats, "c" * 16, now=201.0)     # "a" has been away for 201 s
    ('aaaaaaaaaaaaaaaa',)
    >>> seats_to_free(room, seats, "c" * 16, now=100.0)
    Traceback (most recent call last):
    ...
    bpe.teaching.room_questions.RoomRefused: this room is full (2 students): ask the teacher to make it larger or open a second room
    """
    room.check_open()
    seats = list(seats)
    if any(taken.id == seat for taken in seats) or len(seats) < room.size:
        return ()
    away = sorted((taken for taken in seats if taken.away(now)), key=lambda taken: taken.seen)
    needed = len(seats) - room.size + 1
    if len(away) < needed:
        raise RoomRefused(f"this room is full ({room.size:,} students): ask the teacher to make it larger or open a second room")
    return tuple(taken.id for taken in away[:needed])


@dataclass(frozen=True)
class Budget:
    """One join budget: at most ``limit`` attempts in any ``per_s`` seconds for ``key``."""

    key: str
    limit: int
    per_s: float
    refusal: str
    """What the refused student reads (Markdown, no user text)."""


def join_budgets(*, session: str, browser: str, client: str, code: str | None = None, size: int = DEFAULT_ROOM_SEATS) -> tuple[Budget, ...]:
    """The budgets one join attempt is counted against (``client``: the address's :func:`client_key`),
    in the order they are checked: the tab's,
    the browser's, the room's (when the attempt names a room that exists) and the network
    address's. An attempt refused by one is not counted by the next, so a client that floods
    spends its own budgets first, and a class behind the same address keeps its own.

    >>> [(b.key[:8], b.limit) for b in join_budgets(session="s", browser="b", client="c", code="K7QX3M", size=60)]
    [('session:', 12), ('browser:', 20), ('room:K7Q', 240), ('address:', 300)]
    """
    wait = "Wait a minute, then open the link again."
    budgets = [
        Budget(f"session:{session}", JOIN_ATTEMPTS_PER_SESSION, 60,
               f"**Too many attempts to join from this page** (more than {JOIN_ATTEMPTS_PER_SESSION} in a minute). {wait}"),
        Budget(f"browser:{client_key(browser)}", JOIN_ATTEMPTS_PER_BROWSER, 60,
               f"**Too many attempts to join from this browser** (more than {JOIN_ATTEMPTS_PER_BROWSER} in a minute). {wait}"),
    ]
    if code is not None:
        per_room = JOIN_ATTEMPTS_PER_SEAT_OF_ROOM * max(size, MIN_ROOM_BUDGET_SEATS)  # a small room still takes a few retries
        budgets.append(Budget(f"room:{code}", per_room, 60,
                              f"**Too many attempts to join room {code}** (more than {per_room:,} in a minute). {wait}"))
    budgets.append(Budget(f"address:{client}", JOIN_ATTEMPTS_PER_MINUTE, 60,
                          f"**Too many attempts to join a class room from your network** (more than "
                          f"{JOIN_ATTEMPTS_PER_MINUTE} in a minute). {wait}"))
    return tuple(budgets)
