"""Choosing the next merge: which pair, or why training stops.

The trainer's loop asks one question before each merge, "which pair next, or why stop?", of one
:class:`Chooser` picked once per run (per stage, for SuperBPE). There is one chooser per way of
choosing, each beside what it reads:

* :class:`CountsChoice` (here): the most frequent pair of the whole corpus, ties broken by the
  rule's keys, as in :func:`bpe.reference.train` (classic BPE);
* ``LanguageChoice`` (:mod:`~bpe.training.language_counts`): the most frequent pair of the
  language the objective asks first (parity-aware BPE);
* ``SentencePieceChoice`` (:mod:`~bpe.training.sentencepiece_choice`): SentencePiece's candidates,
  named by the ``sentencepiece`` tie rule's entry;
* ``ScoreChoice`` (:mod:`~bpe.training.score_choice`): the pair with WordPiece's best score, named
  by the ``wordpiece`` objective's entry.

The answer is a :class:`Choice` (its fields are :class:`~bpe.training.trace.MergeStep`'s of the
same names) or a :class:`Stop` (the trace's ``stop_reason`` and ``stop_detail``). The stop reasons
live here, below the trace and the choosers, so both read them without importing each other.

    >>> from bpe.training.pair_queue import PairCounts
    >>> counts = PairCounts({(1, 2): 2, (2, 3): 1, (3, 1): 1}, keys={(1, 2): 0, (2, 3): 2, (3, 1): 1})
    >>> CountsChoice(counts, min_frequency=1, max_ties=1, top_k=2, has_words=True).choose()
    Choice(count=2, tie_count=1, tied=((1, 2),), top=((1, 2), (3, 1)), top_counts=(2, 1), language=None, scores=None)
    >>> CountsChoice(counts, min_frequency=3, max_ties=1, top_k=2, has_words=True).choose().reason
    'min_frequency'
"""

from __future__ import annotations

from fractions import Fraction
from typing import NamedTuple, Protocol

from ..tokens.vocab import Pair
from .pair_queue import PairCounts

STOP_MERGES = "merges"
STOP_VOCAB_SIZE = "vocab_size"
STOP_MIN_FREQUENCY = "min_frequency"
STOP_NO_PAIRS = "no_pairs"
STOP_TIME_LIMIT = "time_limit"


class PairScore(NamedTuple):
    """A pair's WordPiece score as one step saw it: its count over the product of its two tokens' counts.

    >>> PairScore(count=5, left_count=20, right_count=5).score
    Fraction(1, 20)
    """

    count: int
    left_count: int
    """How often the pair's left token occurs in the corpus then (in every position, alone in a word too)."""
    right_count: int

    @property
    def score(self) -> Fraction:
        return Fraction(self.count, self.left_count * self.right_count)


class StepScores(NamedTuple):
    """What a step chosen by score records: the scores of its top pairs and of the winner, and the
    pair the count alone would have merged (BPE's pick, under the same tie rule)."""

    top: tuple[PairScore, ...]
    """One per pair of the step's ``top``, in its order."""
    chosen: PairScore
    by_count: Pair
    by_count_score: PairScore


class Choice(NamedTuple):
    """The pair to merge next (``tied[0]``) and what its step records about the choice."""

    count: int
    """The winner's count (parity-aware: in the language that chose)."""
    tie_count: int
    """How many pairs share that count."""
    tied: tuple[Pair, ...]
    """The tied pairs in the rule's order, winner first, as many as the trace keeps (at least one)."""
    top: tuple[Pair, ...]
    """The ``top_k`` most frequent pairs, reaching below the ties if needed."""
    top_counts: tuple[int, ...]
    language: int | None = None
    """The language that chose (parity-aware), else ``None``."""
    scores: StepScores | None = None
    """The scores that chose (WordPiece), else ``None``."""


class Stop(NamedTuple):
    """Why no pair is merged next: the trace's ``stop_reason`` (a ``STOP_`` constant) and a sentence."""

    reason: str
    detail: str


class Chooser(Protocol):
    def choose(self) -> Choice | Stop:
        """The next merge's :class:`Choice`, read before the merge, or why training stops."""

    def merged(self, pair: Pair, deltas: dict[Pair, int], *, new_id: int, replaced: int) -> None:
        """Book a merge of ``pair`` into token ``new_id``, made ``replaced`` times; ``deltas``: its
        changes of count (the run's counts have them already)."""


def ranking(counts: PairCounts, *, max_ties: int, top_k: int) -> Choice:
    """The :class:`Choice` of the best pair of ``counts`` (which must hold a pair).

    Mostly (on real text most merges are ties) the top pairs are a slice of the tied pairs and one
    repeated count, so recording them allocates nearly nothing.
    """
    count, tie_count, tied = counts.best(max(max_ties, top_k, 1))
    tied = tuple(tied)
    top = tied[:top_k]
    if len(top) == top_k:
        return Choice(count, tie_count, tied, top, (count,) * len(top))
    top, top_counts = list(top), [count] * len(top)
    levels = counts.levels_descending()
    next(levels)  # the best count: done
    for level in levels:
        if len(top) >= top_k:
            break
        more = counts.ranked(level, top_k - len(top))
        top += more
        top_counts += [level] * len(more)
    return Choice(count, tie_count, tied, tuple(top), tuple(top_counts))


class CountsChoice:
    """Classic BPE: the most frequent pair of the whole corpus; stop when none is left or it is too rare."""

    def __init__(self, counts: PairCounts, *, min_frequency: int, max_ties: int, top_k: int, has_words: bool) -> None:
        self.counts, self.min_frequency, self.max_ties, self.top_k = counts, min_frequency, max_ties, top_k
        self.has_words = has_words
        """The corpus has a word (so an empty ``counts`` means every word is one token)."""

    def choose(self) -> Choice | Stop:
        counts = self.counts
        # subtle: the common case tested first, inline (asked at every merge); stop() says why not
        if counts.count and counts.best_count() >= self.min_frequency:
            return ranking(counts, max_ties=self.max_ties, top_k=self.top_k)
        return self.stop()

    def stop(self) -> Stop | None:
        """Why the whole corpus's counts allow no merge, else ``None``."""
        if not self.counts:
            return Stop(STOP_NO_PAIRS, (
                "no pair of adjacent tokens is left: every word is a single token"
                if self.has_words else "the corpus has no words, so there is no pair to merge"
            ))
        count = self.counts.best_count()
        if count < self.min_frequency:
            return Stop(STOP_MIN_FREQUENCY, (
                f"the most frequent pair occurs {count} time{'s' if count != 1 else ''}, "
                f"below the minimum frequency {self.min_frequency}"
            ))
        return None

    def merged(self, pair: Pair, deltas: dict[Pair, int], *, new_id: int, replaced: int) -> None:
        """Nothing to book: the run's counts are all this chooser reads."""
