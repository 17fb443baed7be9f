"""SentencePiece's choice of the next merge, replayed exactly (sentencepiece 0.2.3).

Why it exists: SentencePiece's BPE trainer (``bpe_model_trainer.cc``) keeps its pairs in a priority
queue ordered by frequency, then the shorter piece, then code point order, which the tie rule
``sentencepiece`` expresses; two books of its own make its choices differ from a textbook's, so
BPE Lab keeps them too:

* a pair whose piece another path made already ("aa"+"a" after "a"+"aa") is *dropped* when it
  would win, never merged (SentencePiece keeps one piece per string), and the next best is taken;
* a pair whose occurrences are all gone stays a candidate at frequency 0 (*dead*), so a run asked
  for more pieces than the corpus holds goes on merging pairs that no longer occur, shortest first.

Releases up to 0.2.1 looked for the best pair among a refreshed "active" set only; 0.2.3 always
takes the best of all, and so does this module (``tests/test_sentencepiece_parity.py`` trains a
corpus where the two differ).

It is the tie rule's chooser (:mod:`bpe.training.choice`): the ``sentencepiece`` entry of
``TIE_BREAK_RULES`` names it, and the trainer asks it for every merge. SentencePiece's other rule,
which merged pieces a pre-tokenizer allows (:class:`PieceRule`), is here too.

    >>> from bpe.training.pair_queue import PairCounts
    >>> counts = PairCounts({(0, 1): 5, (2, 3): 4}, keys={(0, 1): 0, (2, 3): 1})
    >>> choice = SentencePieceChoice(
    ...     counts, spelling=lambda pair: b"same", key=counts.keys.get, min_frequency=0, max_ties=5, top_k=0,
    ... )
    >>> choice.choose()[:3]
    (5, 1, ((0, 1),))
    >>> counts.apply({(0, 1): -5}, new_keys={}); choice.merged((0, 1), {(0, 1): -5}, new_id=4, replaced=5)
    >>> choice.choose().reason  # (2, 3) spells the piece (0, 1) made: dropped
    'no_pairs'
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from ..tokens.vocab import Pair
from .choice import STOP_MIN_FREQUENCY, STOP_NO_PAIRS, Choice, Stop, ranking
from .pair_queue import PairCounts


class SentencePieceChoice:
    """The dead and dropped pairs around a run's pair counts (``PairCounts`` holds the live ones)."""

    def __init__(
        self, counts: PairCounts, *, spelling: Callable[[Pair], bytes], key: Callable[[Pair], object],
        min_frequency: int, max_ties: int, top_k: int,
    ) -> None:
        self.counts, self.spelling, self.key = counts, spelling, key
        self.min_frequency, self.max_ties, self.top_k = min_frequency, max_ties, top_k
        self.dead: set[Pair] = set()
        """Pairs that occurred and no longer do, never merged: candidates at frequency 0."""
        self.dropped: set[Pair] = set()
        """Pairs whose piece exists already: never merged."""
        self.made: set[bytes] = set()
        self._dead_order: deque[Pair] | None = None
        """The dead pairs in the rule's order, kept while none joins (see :meth:`_first_dead`)."""

    def choose(self) -> Choice | Stop:
        """The pair SentencePiece merges next, or why it stops; its top pairs are the live ones
        (:func:`~bpe.training.choice.ranking`)."""
        if self.counts and not self.dropped:
            # The common case, ranked once: with nothing dropped the best live pair is the candidate, unless its
            # piece exists already (then the search below drops it). The trace keeps the same first ties.
            choice = ranking(self.counts, max_ties=self.max_ties, top_k=self.top_k)
            if self.spelling(choice.tied[0]) not in self.made:
                return choice if choice.count >= self.min_frequency else self._below_minimum(choice.count)
        chosen = self._candidate()
        if chosen is None:
            return Stop(STOP_NO_PAIRS, "no pair is left to merge, not even one that no longer occurs")
        count, tie_count, tied = chosen
        if count < self.min_frequency:
            return self._below_minimum(count)
        top, top_counts = ranking(self.counts, max_ties=self.max_ties, top_k=self.top_k)[3:5] if self.counts else ((), ())
        return Choice(count, tie_count, tied, top, top_counts)

    def _below_minimum(self, count: int) -> Stop:
        if count == 0:
            return Stop(STOP_NO_PAIRS, (
                "no pair occurs any more; SentencePiece would go on merging pairs that no longer occur "
                "(minimum frequency 0)"
            ))
        return Stop(STOP_MIN_FREQUENCY, (
            f"the most frequent pair occurs {count} times, below the minimum frequency {self.min_frequency}"
        ))

    def _candidate(self) -> tuple[int, int, tuple[Pair, ...]] | None:
        """``(count, tie count, tied pairs, winner first)`` of the pair SentencePiece merges next;
        ``None`` if no pair is left. Respellings found on the way are dropped."""
        while True:
            chosen = self._best(self.max_ties)
            if chosen is None:
                return None
            winner = chosen[2][0]
            if self.spelling(winner) not in self.made:
                return chosen
            self.dropped.add(winner)  # its piece exists already: SentencePiece erases it and looks again
            self.dead.discard(winner)

    def merged(self, pair: Pair, deltas: dict[Pair, int], *, new_id: int, replaced: int) -> None:
        """Book a merge of ``pair``: ``deltas`` are its changes of count, zero entries included (a
        pair made and unmade in one word, as "abab" -> "cc" makes (c, a), is dead at once)."""
        self.made.add(self.spelling(pair))
        self.dead.discard(pair)
        live, dropped, dead = self.counts.count, self.dropped, self.dead
        for changed in deltas:
            if changed != pair and changed not in live and changed not in dropped:
                dead.add(changed)
                self._dead_order = None

    def _best(self, max_ties: int) -> tuple[int, int, tuple[Pair, ...]] | None:
        dropped = self.dropped
        for level in self.counts.levels_descending():
            tied = self.counts.pairs_with(level)
            excluded = len(tied & dropped) if dropped else 0
            if len(tied) > excluded:
                wanted = max(max_ties, 1)
                first = [pair for pair in self.counts.ranked(level, wanted + excluded) if pair not in dropped]
                return level, len(tied) - excluded, tuple(first[:wanted])
        if not self.dead:
            return None
        return 0, len(self.dead), self._first_dead(max(max_ties, 1))

    def _first_dead(self, n: int) -> tuple[Pair, ...]:
        """The first ``n`` dead pairs in the rule's order.

        Why kept: once no pair occurs, every merge takes a dead pair and makes none (it has no
        occurrence), so the dead only leave; sorting thousands of them at every merge was most of a
        run asked for more pieces than its corpus holds.
        """
        if self._dead_order is None:
            self._dead_order = deque(sorted(self.dead, key=self.key))
        ordered, dead = self._dead_order, self.dead
        while ordered[0] not in dead:  # merged or dropped: gone for good
            ordered.popleft()
        first = []
        for pair in ordered:
            if pair in dead:
                first.append(pair)
                if len(first) == n:
                    break
        return tuple(first)


class PieceRule(dict):
    """``pair -> may it be merged``, asked of a pre-tokenizer's piece rule (SentencePiece's) once per pair.

    >>> allowed = PieceRule(str.isalpha, [b"a", b"b", b" "])
    >>> allowed[(0, 1)], allowed[(1, 2)]
    (True, False)
    """

    def __init__(self, rule: Callable[[str], bool], sort_bytes: list[bytes]) -> None:
        super().__init__()
        self._rule, self._bytes = rule, sort_bytes

    def __missing__(self, pair: Pair) -> bool:
        allowed = self[pair] = self._rule((self._bytes[pair[0]] + self._bytes[pair[1]]).decode("utf-8"))
        return allowed
