"""A live class room for "Predict the next merge": its code, its state, and who may do what.

The teacher opens a room on a question (an example, its settings and a step); students join with
the room's code and answer; the teacher reveals the answers and moves everyone on. This module is
the rules alone, as plain immutable records: a store (in one process or in Redis, ``ui/``) keeps
them and applies each change atomically; the page draws them.

    >>> lesson = (("preset", "wikipedia"),)
    >>> room = Room.open("K7QX3M", teacher_token="s3cret", lesson=lesson, step=1,
    ...                  choices=((97, 98), (256, 97)), now=0.0)
    >>> room.round, room.phase
    (1, 'asking')
    >>> room.check_answer(round=1, choice=(97, 98))          # accepted: no exception
    >>> room.revealed_by("guess")
    Traceback (most recent call last):
    ...
    bpe.teaching.room.RoomRefused: only the teacher can reveal the answers: this page does not hold the room's teacher key (open the teacher link)
    >>> revealed = room.revealed_by("s3cret")
    >>> revealed.check_answer(round=1, choice=(256, 97))
    Traceback (most recent call last):
    ...
    bpe.teaching.room.RoomRefused: the answers are revealed: this question takes no more answers
    >>> tally(revealed, [(97, 98), (97, 98), (256, 97)])
    (((97, 98), 2), ((256, 97), 1))
    >>> revealed.next_question("s3cret", step=2, choices=((97, 99),)).round
    2

A student is a *seat*: a random id the student's page keeps (in its link, so a reload finds it),
with an optional nickname. Nothing else about a student is kept. The teacher holds a random
*teacher key*; the room keeps only its SHA-256, so reading the store does not hand out control.

Scope: codes, keys, nicknames, the room's transitions and the tally. Out of scope: storing
(``ui/room_store.py``), drawing, and the question itself (:mod:`bpe.teaching.quiz`).
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import json
import re
import secrets
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from types import MappingProxyType

from ..errors import BpeError
from ..limits import MAX_NICKNAME_CHARS

Pair = tuple[int, int]

CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
"""Digits and capitals without the look-alikes 0/O, 1/I/L: read off a projector, typed on a phone."""
CODE_LENGTH = 6
"""31 ** 6 is about 887 million codes: guessing one at the join rate limit would take centuries."""
SEAT_LENGTH = 16
"""A seat id: 16 URL-safe characters (96 random bits)."""

ASKING, REVEALED, CLOSED = "asking", "revealed", "closed"
PHASES = (ASKING, REVEALED, CLOSED)

_SEAT = re.compile(rf"[A-Za-z0-9_-]{{{SEAT_LENGTH}}}")
_LOOK_ALIKES = MappingProxyType({"0": "O", "O": "0", "1": "I or L", "I": "1", "L": "1"})


class RoomRefused(BpeError):
    """A room operation that the room's state or the caller's role does not allow; the message says why."""


class AlreadyAnswered(RoomRefused):
    """The seat has answered this question; its first answer stands."""


def new_code() -> str:
    """A fresh random room code (``secrets``: codes must not be predictable)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def parse_code(text: str) -> str:
    """A typed code as the room knows it: capitals, without spaces or dashes.

    >>> parse_code(" k7q-x3m ")
    'K7QX3M'
    >>> parse_code("K7QX0M")
    Traceback (most recent call last):
    ...
    bpe.teaching.room.RoomRefused: room codes never use 0 (it looks like O): check the code on the projector
    >>> parse_code("<b>")
    Traceback (most recent call last):
    ...
    bpe.teaching.room.RoomRefused: a room code is 6 letters and digits, like K7QX3M; got 3 characters
    """
    # subtle: the length is checked before anything is echoed back, so a 10,000-character "code"
    # costs nothing and never reaches the page
    # NFKC: a phone's full-width keyboard (Ｋ７) types the same code
    code = re.sub(r"[\s-]", "", unicodedata.normalize("NFKC", text[: CODE_LENGTH * 4])).upper()
    if len(code) != CODE_LENGTH or len(text) > CODE_LENGTH * 4:
        raise RoomRefused(
            f"a room code is {CODE_LENGTH} letters and digits, like K7QX3M; got {len(text.strip()):,} characters"
        )
    for char in code:
        if char in _LOOK_ALIKES:
            raise RoomRefused(
                f"room codes never use {char} (it looks like {_LOOK_ALIKES[char]}): check the code on the projector"
            )
        if char not in CODE_ALPHABET:
            raise RoomRefused("a room code has only letters and digits, like K7QX3M; check the code on the projector")
    return code


def new_teacher_token() -> str:
    """The teacher's secret key: 144 random bits, URL-safe (it travels in the teacher link only)."""
    return secrets.token_urlsafe(18)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def new_seat() -> str:
    return secrets.token_urlsafe(12)


def is_seat(text: str) -> bool:
    """True for a well-formed seat id (what a link carries is checked before it reaches a store)."""
    return bool(_SEAT.fullmatch(text))


def clean_nickname(text: str) -> str:
    """The name as shown and stored: at most :data:`~bpe.limits.MAX_NICKNAME_CHARS` characters.

    Invisible and control characters (including right-to-left overrides that could disguise a
    name) are dropped and runs of spaces become one; HTML is kept as text and escaped where drawn.

    >>> clean_nickname("  Ana\\u202e  Lu \\n")
    'Ana Lu'
    >>> clean_nickname("x" * 10_000) == "x" * 24
    True
    """
    kept = "".join(
        " " if char.isspace() else char
        for char in unicodedata.normalize("NFC", text[: MAX_NICKNAME_CHARS * 8])
        if char.isspace() or unicodedata.category(char) not in ("Cc", "Cf", "Cs", "Co", "Cn")
    )
    return " ".join(kept.split())[:MAX_NICKNAME_CHARS].rstrip()


def client_key(address: str) -> str:
    """What the join rate limit counts a client by: a hash of its address, never the address."""
    return hashlib.sha256(address.encode("utf-8", "surrogatepass")).hexdigest()[:16]


@dataclass(frozen=True)
class Room:
    code: str
    teacher_hash: str
    lesson: tuple[tuple[str, str | tuple[str, ...]], ...]
    """The example and its settings as link parameters (``(("preset", "wikipedia"),)``), without the step."""
    step: int
    """Merges done: the question is about merge ``step + 1``."""
    round: int
    """Which question of the class this is, from 1 (answers are kept per round)."""
    phase: str
    choices: tuple[Pair, ...]
    """The candidate pairs the students were offered, in their order."""
    opened: float
    """When the room opened (seconds, the store's clock)."""

    @classmethod
    def open(
        cls, code: str, *, teacher_token: str, lesson: tuple, step: int, choices: tuple[Pair, ...], now: float,
    ) -> "Room":
        return cls(code, token_hash(teacher_token), lesson, step, 1, ASKING, tuple(choices), now)

    def is_teacher(self, token: str | None) -> bool:
        return token is not None and hmac.compare_digest(token_hash(token), self.teacher_hash)

    def check_answer(self, *, round: int, choice: Pair) -> None:
        """Raise :class:`RoomRefused` unless ``choice`` may be recorded as an answer to ``round``."""
        if self.phase == CLOSED:
            raise RoomRefused("the teacher closed this room")
        if round != self.round:
            raise RoomRefused(f"the class has moved on to question {self.round}: answer that one")
        if self.phase == REVEALED:
            raise RoomRefused("the answers are revealed: this question takes no more answers")
        if tuple(choice) not in self.choices:
            raise RoomRefused(f"{tuple(choice)} is not one of this question's choices")

    def check_open(self) -> None:
        """Raise :class:`RoomRefused` if the room takes no one new (it is closed)."""
        if self.phase == CLOSED:
            raise RoomRefused("the teacher closed this room: ask for the new code")

    def _by_teacher(self, token: str | None, doing: str) -> None:
        if not self.is_teacher(token):
            raise RoomRefused(f"only the teacher can {doing}: this page does not hold the room's teacher key (open the teacher link)")
        self.check_open()

    def _on_round(self, round: int | None) -> None:
        # subtle: a teacher's click names the question it was drawn for; a second click (or a second
        # teacher screen) that arrives after the class moved on must not reveal or skip the new one
        if round is not None and round != self.round:
            raise RoomRefused(f"the class is already on question {self.round}")

    def revealed_by(self, token: str | None, *, round: int | None = None) -> "Room":
        """The answers shown to everyone; no more answers to this question. Revealing twice is harmless."""
        self._by_teacher(token, "reveal the answers")
        self._on_round(round)
        return dataclasses.replace(self, phase=REVEALED)

    def next_question(
        self, token: str | None, *, step: int, choices: tuple[Pair, ...], round: int | None = None,
    ) -> "Room":
        """Everyone moves on to the question about merge ``step + 1`` (revealed or not)."""
        self._by_teacher(token, "move the class on")
        self._on_round(round)
        return dataclasses.replace(self, step=step, round=self.round + 1, phase=ASKING, choices=tuple(choices))

    def closed_by(self, token: str | None) -> "Room":
        self._by_teacher(token, "close the room")
        return dataclasses.replace(self, phase=CLOSED)

    def to_json(self) -> str:
        return json.dumps({"version": 1, **dataclasses.asdict(self)}, ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> "Room":
        data = json.loads(text)
        if data.pop("version", None) != 1:
            raise RoomRefused("this room was stored by another version of BPE Lab: open a new room")
        data["lesson"] = tuple((key, tuple(value) if isinstance(value, list) else value) for key, value in data["lesson"])
        data["choices"] = tuple((left, right) for left, right in data["choices"])
        return cls(**data)


@dataclass(frozen=True)
class RoomView:
    """A room as one read of its store saw it: the room, who sits in it, and this round's answers."""

    room: Room
    seats: tuple[tuple[str, str], ...]
    """``(seat, nickname)`` of everyone who joined (nickname ``""`` when none was given)."""
    answers: tuple[tuple[str, Pair], ...]
    """``(seat, choice)`` for the current round."""

    @property
    def joined(self) -> int:
        return len(self.seats)

    @property
    def answered(self) -> int:
        return len(self.answers)

    def has_seat(self, seat: str | None) -> bool:
        return any(taken == seat for taken, _ in self.seats)

    def nickname(self, seat: str | None) -> str:
        return next((name for taken, name in self.seats if taken == seat), "")

    def answer_of(self, seat: str | None) -> Pair | None:
        return next((choice for taken, choice in self.answers if taken == seat), None)

    def nicknames(self) -> list[str]:
        """The names given, sorted as people look for their own."""
        return sorted((name for _, name in self.seats if name), key=str.casefold)

    def tally(self) -> tuple[tuple[Pair, int], ...]:
        return tally(self.room, (choice for _, choice in self.answers))


def tally(room: Room, answers: Iterable[Pair]) -> tuple[tuple[Pair, int], ...]:
    """How many chose each of the room's choices, in the order they were offered (zeros kept)."""
    counts = dict.fromkeys(room.choices, 0)
    for choice in answers:
        if tuple(choice) in counts:
            counts[tuple(choice)] += 1
    return tuple(counts.items())


def encode_choice(choice: Pair) -> str:
    """A pair as a store keeps it: ``(256, 97) -> "256,97"``."""
    return f"{choice[0]},{choice[1]}"


def decode_choice(text: str) -> Pair:
    left, right = text.split(",")
    return int(left), int(right)
