"""What a class room asks: one entry per kind of question, each with its answers' rules.

Two kinds, one registry (:data:`QUESTION_KINDS`), so the room, its stores and its pages handle
every question the same way and a third kind is one more entry:

* :class:`MergeAsk` ("Predict the next merge"): the room's example after ``step`` merges; each
  phone picks one of the offered pairs.
* :class:`CountAsk` ("Guess the tokens"): a phrase and a tokenizer; each phone guesses how many
  tokens the phrase costs. The teacher's page counts it when it asks (the phones never need the
  tokenizer to be graded), and the reveal compares the class's guesses with that count.

    >>> ask = CountAsk(text="How many r's are in strawberry?", tokenizer="gpt2", count=9)
    >>> ask.check(12)                         # a guess in range: no exception
    >>> ask.encode(12), ask.decode("12")
    ('12', 12)
    >>> ask.check(0)
    Traceback (most recent call last):
    ...
    bpe.teaching.room_questions.RoomRefused: a guess is a whole number of tokens from 1 to 9,999
    >>> grade_guess(ask, 9).verdict, grade_guess(ask, 10).verdict, grade_guess(ask, 11).verdict   # 11 is 2 off: over a fifth
    ('correct', 'right_count', 'wrong')
    >>> guess_histogram([8, 9, 9, 30], real=9)
    ((8, 1), (9, 2), (30, 1))

Scope: the questions' data, their answers' checks and encodings, grading a guess, and the guesses'
histogram. Out of scope: the merge question's content (:mod:`bpe.teaching.quiz`), counting tokens
(the caller's tokenizer), drawing.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import ClassVar, Union

from ..encoding.tokenizer import Tokenizer
from ..errors import BpeError
from ..limits import MAX_GUESS_PHRASE_CHARS, MAX_TOKEN_GUESS
from ..tokens.vocab import Pair, Token
from .quiz import CORRECT, RIGHT_COUNT, WRONG
from .why_tokenization import PHENOMENA, Tokenized

HISTOGRAM_BARS = 12
"""Most bars of a histogram of guesses (a projector's half screen); wider spreads are binned."""


class RoomRefused(BpeError):
    """A room operation that the room's state or the caller's role does not allow; the message says
    why (defined here, below the room, so a question's own checks raise it too)."""


@dataclass(frozen=True)
class MergeAsk:
    """Which pair will the trainer merge next? The offered pairs, in the order every phone shows them."""

    kind: ClassVar[str] = "merge"
    choices: tuple[Pair, ...]

    def check(self, answer: object) -> None:
        if not isinstance(answer, tuple) or tuple(answer) not in self.choices:
            raise RoomRefused(f"{answer} is not one of this question's choices")

    @staticmethod
    def encode(answer: Pair) -> str:
        """A pair as a store keeps it: ``(256, 97) -> "256,97"``."""
        return f"{answer[0]},{answer[1]}"

    @staticmethod
    def decode(text: str) -> Pair:
        left, right = text.split(",")
        return int(left), int(right)

    def to_data(self) -> dict:
        return {"choices": [list(pair) for pair in self.choices]}

    @classmethod
    def from_data(cls, data: Mapping) -> "MergeAsk":
        return cls(tuple((left, right) for left, right in data["choices"]))


@dataclass(frozen=True)
class CountAsk:
    """How many tokens does ``tokenizer`` make of ``text``? ``count`` is the answer."""

    kind: ClassVar[str] = "count"
    text: str
    tokenizer: str
    """A name of :data:`bpe.pretrained.registry.PRETRAINED`."""
    count: int

    def __post_init__(self) -> None:
        if not self.text.strip() or len(self.text) > MAX_GUESS_PHRASE_CHARS:
            raise RoomRefused(f"a phrase to guess is 1 to {MAX_GUESS_PHRASE_CHARS} characters; got {len(self.text):,}")

    def check(self, answer: object) -> None:
        if isinstance(answer, bool) or not isinstance(answer, int) or not 1 <= answer <= MAX_TOKEN_GUESS:
            raise RoomRefused(f"a guess is a whole number of tokens from 1 to {MAX_TOKEN_GUESS:,}")

    @staticmethod
    def encode(answer: int) -> str:
        return str(answer)

    @staticmethod
    def decode(text: str) -> int:
        return int(text)

    def to_data(self) -> dict:
        return {"text": self.text, "tokenizer": self.tokenizer, "count": self.count}

    @classmethod
    def from_data(cls, data: Mapping) -> "CountAsk":
        return cls(data["text"], data["tokenizer"], data["count"])


Asked = Union[MergeAsk, CountAsk]
Answer = Union[Pair, int]

QUESTION_KINDS: Mapping[str, type] = MappingProxyType({kind.kind: kind for kind in (MergeAsk, CountAsk)})
"""Every kind of room question, by the name a store keeps it under."""


def question_to_json(question: Asked) -> str:
    return json.dumps({"kind": question.kind, **question.to_data()}, ensure_ascii=False)


def question_from_data(data: Mapping) -> Asked:
    fields = dict(data)
    return QUESTION_KINDS[fields.pop("kind")].from_data(fields)


@dataclass(frozen=True)
class GuessResult:
    """A student's guess graded: the verdict as the quiz names them, and a sentence saying why."""

    guess: int | None
    count: int
    verdict: str
    """``correct`` (exact), ``right_count`` (close: within :func:`close_margin`), ``wrong``, or
    ``revealed`` (no guess)."""
    explanation: str


def close_margin(count: int) -> int:
    """How far a guess may be from ``count`` and still be *close*: within a fifth of it, so the whole
    tokens up to ``count / 5``. A count under 5 has no close guess (2 or 4 for 3 is a third off).

    >>> close_margin(3), close_margin(5), close_margin(12), close_margin(100)
    (0, 1, 2, 20)
    """
    return count // 5


def grade_guess(question: CountAsk, guess: int | None) -> GuessResult:
    """Green for the exact count, amber within :func:`close_margin`, red beyond it."""
    real, margin = question.count, close_margin(question.count)
    tokens = f"{real:,} token{'s' * (real != 1)}"
    if guess is None:
        return GuessResult(None, real, "revealed", f"It costs {tokens}.")
    off = guess - real
    if off == 0:
        return GuessResult(guess, real, CORRECT, f"Exactly: it costs {tokens}.")
    direction = "too many" if off > 0 else "too few"
    if abs(off) <= margin:
        return GuessResult(guess, real, RIGHT_COUNT, f"Close: {abs(off):,} {direction}. It costs {tokens}.")
    return GuessResult(guess, real, WRONG, f"Not this time: {abs(off):,} {direction}. It costs {tokens}.")


def guess_histogram(guesses: Iterable[int], *, real: int, bars: int = HISTOGRAM_BARS) -> tuple[tuple[int | tuple[int, int], int], ...]:
    """How many guessed each count, smallest first, the real count always among the bars (with 0
    if nobody guessed it). With more than ``bars`` distinct values the guesses are binned into
    ranges ``(low, high)`` of equal width, the real count's bin included.

    >>> guess_histogram(range(1, 41), real=7, bars=4)
    (((1, 10), 10), ((11, 20), 10), ((21, 30), 10), ((31, 40), 10))
    """
    counts = Counter(guesses)
    counts.setdefault(real, 0)
    if len(counts) <= bars:
        return tuple(sorted(counts.items()))
    low, high = min(counts), max(counts)
    width = -(-(high - low + 1) // bars)  # ceiling: ``bars`` ranges cover low..high
    binned: Counter = Counter()
    for value, number in counts.items():
        start = low + (value - low) // width * width
        binned[(start, start + width - 1)] += number
    return tuple(sorted(binned.items()))


def ask_count(text: str, *, name: str, tokenizer: Tokenizer) -> CountAsk:
    """The question "how many tokens does ``name`` make of ``text``?", counted (special-token text
    as plain text, as the Why cards count it)."""
    return CountAsk(text, name, len(tokenizer.encode(text, disallowed_special=())))


def split_of(question: CountAsk, tokenizer: Tokenizer, *, title: str) -> Tokenized:
    """The phrase's tokens, for the reveal's chips (drawn as a Why card draws a split)."""
    ids = tuple(tokenizer.encode(question.text, disallowed_special=()))
    tokens = tuple(Token(data) for data in tokenizer.decode_tokens_bytes(ids))
    return Tokenized(title, ids, tokens, frozenset(tokenizer.special_tokens.values()), f"{len(ids):,} token{'s' * (len(ids) != 1)}")


def guess_cases() -> dict[str, str]:
    """``{label: phrase}``: the Why cards' sample texts a teacher can ask about in one click
    (those short enough for a question)."""
    return {
        f"{card.title}: {label}": text
        for card in PHENOMENA.values() for label, text in card.samples
        if text.strip() and len(text) <= MAX_GUESS_PHRASE_CHARS
    }
