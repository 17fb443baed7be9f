"""A live class room for "Predict the next merge": its code, its state, and who may do what.

The teacher opens a room on a question (an example, its settings and a step); students join with
the room's code and answer; the teacher reveals the answers and moves everyone on. This module is
the rules alone, as plain immutable records: a store (in one process or in Redis, ``ui/``) keeps
them and applies each change atomically; the page draws them.

    >>> lesson = (("preset", "wikipedia"),)
    >>> room = Room.open("K7QX3M", teacher_token="s3cret", lesson=lesson, step=1,
    ...                  question=MergeAsk(((97, 98), (256, 97))), now=0.0)
    >>> room.round, room.phase, room.size
    (1, 'asking', 100)
    >>> room.check_answer(round=1, answer=(97, 98))          # accepted: no exception
    >>> room.revealed_by("guess")
    Traceback (most recent call last):
    ...
    bpe.teaching.room_questions.RoomRefused: only the teacher can reveal the answers: this page does not hold the room's teacher key (open the teacher's controls)
    >>> revealed = room.revealed_by("s3cret")
    >>> revealed.check_answer(round=1, answer=(256, 97))
    Traceback (most recent call last):
    ...
    bpe.teaching.room_questions.RoomRefused: the answers are revealed: this question takes no more answers
    >>> tally(revealed, [(97, 98), (97, 98), (256, 97)])
    (((97, 98), 2), ((256, 97), 1))
    >>> guessing = revealed.next_question("s3cret", step=1, question=CountAsk("Hello world", "gpt2", 2))
    >>> guessing.round, guessing.question.kind
    (2, 'count')

A student is a *seat*, and a seat is a browser, not a click: its id is derived from the room's code
and the browser's own random id (kept in a cookie), so Leave and Join, a reload and a second tab
all find the same seat, which answers each question once. A seat keeps an optional nickname, a hash
of its network address (the teacher sees how many seats share one) and when its page last looked
at the room; nothing else about a student is kept. The teacher holds a random *teacher key*, and
the teacher's own screens (the projector) a browser id; the room keeps only their SHA-256, so
reading the store does not hand out control.

Scope: codes, keys, seats, nicknames, the room's transitions, who gets a seat, the join budgets and
the tally. Out of scope: storing (``ui/room_store.py``), drawing, and the questions themselves
(:mod:`bpe.teaching.room_questions`, :mod:`bpe.teaching.quiz`).
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

from ..limits import DEFAULT_ROOM_SEATS, MAX_NICKNAME_CHARS, MAX_ROOM_SEATS
from ..tokens.vocab import Pair
from .room_questions import Answer, Asked, CountAsk, MergeAsk, RoomRefused, question_from_data
from .room_seats import Seat

MAX_SCREENS = 4
"""Teacher's screens (browsers) a room remembers: the projector's, the teacher's laptop, a spare."""

CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
"""Digits and capitals without the look-alikes 0/O, 1/I/L: read off a projector, typed on a phone."""
CODE_LENGTH = 6
"""31 ** 6 is about 887 million codes: guessing one at the join rate limit would take centuries."""

ASKING, REVEALED, CLOSED = "asking", "revealed", "closed"
PHASES = (ASKING, REVEALED, CLOSED)

_LOOK_ALIKES = MappingProxyType({"0": "O", "O": "0", "1": "I or L", "I": "1", "L": "1"})


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
    bpe.teaching.room_questions.RoomRefused: room codes never use 0 (it looks like O): check the code on the projector
    >>> parse_code("<b>")
    Traceback (most recent call last):
    ...
    bpe.teaching.room_questions.RoomRefused: a room code is 6 letters and digits, like K7QX3M; got 3 characters
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


@dataclass(frozen=True)
class Room:
    code: str
    teacher_hash: str
    lesson: tuple[tuple[str, str | tuple[str, ...]], ...]
    """The example and its settings as link parameters (``(("preset", "wikipedia"),)``), without the step."""
    step: int
    """Merges done in the lesson: a merge question is about merge ``step + 1``."""
    round: int
    """Which question of the class this is, from 1 (answers are kept per round)."""
    phase: str
    question: Asked
    """What this round asks (:data:`~bpe.teaching.room_questions.QUESTION_KINDS`)."""
    opened: float
    """When the room opened (seconds, the store's clock)."""
    size: int = DEFAULT_ROOM_SEATS
    """Seats the teacher allows (at most :data:`~bpe.limits.MAX_ROOM_SEATS`)."""
    screens: tuple[str, ...] = ()
    """SHA-256 of the browser ids of the teacher's own screens (the projector): they act as the
    teacher without the key ever being in their address bar or on their page."""

    @classmethod
    def open(
        cls, code: str, *, teacher_token: str, lesson: tuple, step: int, question: Asked, now: float,
        size: int = DEFAULT_ROOM_SEATS, screen: str | None = None,
    ) -> "Room":
        return cls(code, token_hash(teacher_token), lesson, step, 1, ASKING, question, now, size,
                   (token_hash(screen),) if screen else ())

    @property
    def choices(self) -> tuple[Pair, ...]:
        """The pairs a merge question offers (none for another kind)."""
        return self.question.choices if isinstance(self.question, MergeAsk) else ()

    def is_teacher(self, credential: str | None) -> bool:
        """True for the teacher key, or the browser id of one of the teacher's screens."""
        if not credential:
            return False
        digest = token_hash(credential)
        return any(hmac.compare_digest(digest, known) for known in (self.teacher_hash, *self.screens))

    def check_answer(self, *, round: int, answer: Answer) -> None:
        """Raise :class:`RoomRefused` unless ``answer`` may be recorded as an answer to ``round``."""
        if self.phase == CLOSED:
            raise RoomRefused("the teacher closed this room")
        if round != self.round:
            raise RoomRefused(f"the class has moved on to question {self.round}: answer that one")
        if self.phase == REVEALED:
            raise RoomRefused("the answers are revealed: this question takes no more answers")
        self.question.check(answer)

    def check_open(self) -> None:
        """Raise :class:`RoomRefused` if the room takes no one new (it is closed)."""
        if self.phase == CLOSED:
            raise RoomRefused("the teacher closed this room: ask for the new code")

    def check_teacher(self, credential: str | None, doing: str) -> None:
        """Raise :class:`RoomRefused` unless ``credential`` is the teacher's (and the room is open)."""
        if not self.is_teacher(credential):
            raise RoomRefused(f"only the teacher can {doing}: this page does not hold the room's teacher key (open the teacher's controls)")
        self.check_open()

    def _on_round(self, round: int | None) -> None:
        # subtle: a teacher's click names the question it was drawn for; a second click (or a second
        # teacher screen) that arrives after the class moved on must not reveal or skip the new one
        if round is not None and round != self.round:
            raise RoomRefused(f"the class is already on question {self.round}")

    def revealed_by(self, credential: str | None, *, round: int | None = None) -> "Room":
        """The answers shown to everyone; no more answers to this question. Revealing twice is harmless."""
        self.check_teacher(credential, "reveal the answers")
        self._on_round(round)
        return dataclasses.replace(self, phase=REVEALED)

    def next_question(self, credential: str | None, *, step: int, question: Asked, round: int | None = None) -> "Room":
        """Everyone moves on to ``question`` (revealed or not); ``step``: the lesson's merges done."""
        self.check_teacher(credential, "move the class on")
        self._on_round(round)
        return dataclasses.replace(self, step=step, round=self.round + 1, phase=ASKING, question=question)

    def closed_by(self, credential: str | None) -> "Room":
        self.check_teacher(credential, "close the room")
        return dataclasses.replace(self, phase=CLOSED)

    def resized_by(self, credential: str | None, size: int) -> "Room":
        """The room takes ``size`` seats (students already seated keep theirs)."""
        self.check_teacher(credential, "change the room's size")
        if not 1 <= size <= MAX_ROOM_SEATS:
            raise RoomRefused(f"a room has 1 to {MAX_ROOM_SEATS} seats; got {size:,}")
        return dataclasses.replace(self, size=size)

    def screen_added_by(self, credential: str | None, browser: str) -> "Room":
        """``browser`` becomes one of the teacher's screens (the newest :data:`MAX_SCREENS` are kept)."""
        self.check_teacher(credential, "add a screen")
        digest = token_hash(browser)
        kept = tuple(known for known in self.screens if known != digest)
        return dataclasses.replace(self, screens=(*kept, digest)[-MAX_SCREENS:])

    def to_json(self) -> str:
        data = {**dataclasses.asdict(self), "question": {"kind": self.question.kind, **self.question.to_data()}}
        return json.dumps({"version": 2, **data}, ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> "Room":
        data = json.loads(text)
        if data.pop("version", None) != 2:
            raise RoomRefused("this room was stored by another version of BPE Lab: open a new room")
        data["lesson"] = tuple((key, tuple(value) if isinstance(value, list) else value) for key, value in data["lesson"])
        data["question"] = question_from_data(data["question"])
        data["screens"] = tuple(data["screens"])
        return cls(**data)


@dataclass(frozen=True)
class RoomView:
    """A room as one read of its store saw it: the room, who sits in it, and this round's answers."""

    room: Room
    seats: tuple[Seat, ...]
    answers: tuple[tuple[str, Answer], ...]
    """``(seat, answer)`` for the current round, of seated seats only."""

    @property
    def joined(self) -> int:
        return len(self.seats)

    @property
    def answered(self) -> int:
        return len(self.answers)

    def has_seat(self, seat: str | None) -> bool:
        return any(taken.id == seat for taken in self.seats)

    def nickname(self, seat: str | None) -> str:
        return next((taken.nickname for taken in self.seats if taken.id == seat), "")

    def answer_of(self, seat: str | None) -> Answer | None:
        return next((answer for taken, answer in self.answers if taken == seat), None)

    def nicknames(self) -> list[str]:
        """The names given, sorted as people look for their own."""
        return sorted((seat.nickname for seat in self.seats if seat.nickname), key=str.casefold)

    def away(self, now: float) -> int:
        return sum(seat.away(now) for seat in self.seats)

    def per_client(self) -> list[tuple[str, int]]:
        """``(client hash, seats)`` for every address seats joined from, the most seats first: what
        the teacher looks at for a suspicious seat (a school's NAT holds a whole class)."""
        counts: dict[str, int] = {}
        for seat in self.seats:
            counts[seat.client] = counts.get(seat.client, 0) + 1
        return sorted(counts.items(), key=lambda item: (-item[1], item[0]))

    def tally(self) -> tuple[tuple[Pair, int], ...]:
        return tally(self.room, (answer for _, answer in self.answers))


def tally(room: Room, answers: Iterable[Answer]) -> tuple[tuple[Pair, int], ...]:
    """How many chose each of a merge question's choices, in the order they were offered (zeros kept)."""
    counts = dict.fromkeys(room.choices, 0)
    for answer in answers:
        if isinstance(answer, tuple) and tuple(answer) in counts:
            counts[tuple(answer)] += 1
    return tuple(counts.items())


