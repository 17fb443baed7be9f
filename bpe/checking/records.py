"""What a replay of a learner's merges records: each pair's count at a step, the first difference, the run.

Scope: the immutable records :func:`bpe.checking.compact.replay` returns and the diagnosis, the JSON
report and the page read (micrograd's split: the trainer records, the views only read), and a pair
in the app's notation. Out of scope: computing them (:mod:`bpe.checking.compact`).

    >>> shown_pair((b" t", b"he"))
    '·t + he'
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..notation.spelling import visible_text
from .handwritten import Spelled


def shown_pair(pair: Spelled) -> str:
    """``(b" t", b"he") -> "·t + he"``: a pair in the app's notation."""
    return f"{visible_text(pair[0])} + {visible_text(pair[1])}"


@dataclass(frozen=True)
class PairStat:
    """A pair at one step: its spelling, count, and the words it occurs in most (``(word, weight, times)``;
    a long word, such as a whole text nothing splits, is the place in it where the pair occurs)."""

    spelled: Spelled
    count: int | None
    """None when unknown (the replay ran out of time before this step)."""
    words: tuple[tuple[str, int, int], ...]


@dataclass(frozen=True)
class Divergence:
    step: int
    """1-based: the first merge this run makes differently from the learner."""
    ours: PairStat | None
    """What this run merges there (None when no pair is left)."""
    theirs: PairStat
    tie_count: int
    tied: tuple[Spelled, ...]
    """Pairs sharing the top count, the rule's choice first (at most 20)."""


@dataclass(frozen=True)
class Replay:
    matching: int
    divergence: Divergence | None
    timed_out: bool = False
    by_rule: dict = field(default_factory=dict)
    """Tie rule -> leading merges matched, for the run's own rule and every one in ``also``."""
    probed: tuple[PairStat, ...] = ()
    """The ``probe`` pairs' counts (empty when the run stopped before that step)."""
