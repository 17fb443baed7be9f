"""SentencePiece's choice of the next merge: the best of its *active* pairs, replayed exactly.

Why it exists: SentencePiece's BPE trainer (``bpe_model_trainer.cc``) does not look at every pair
for the next merge. Every 100 merges it keeps the most frequent pairs as "active" (at least 1,000,
or 5 % of all the symbols it knows, whichever is more), adds each pair a merge creates, and picks
the best of those only: the most frequent, then the shorter piece, then the first in code point
order. A pair left out waits for the next refresh even if it has become the most frequent, so a
trainer that always takes the global best learns other merges in the end. To learn SentencePiece's
pieces in SentencePiece's order, BPE Lab keeps the same books:

* the *cache*: every character and every valid pair ever seen, until it is merged; a pair whose
  occurrences are all gone stays in it with frequency 0 (*dead*), as SentencePiece's symbol does;
* a pair whose piece another path already made ("aa"+"a" after "a"+"aa") is dropped when it would
  win, not merged (SentencePiece keeps one piece per string), and a dropped pair that a later merge
  touches comes back into the cache with frequency 0 (``ResetFreq`` makes a new symbol for it);
* refreshes happen whenever the number of merges is a multiple of 100, the retry after a dropped
  pair included; the active set's size is computed in 32-bit floats, as in C++.

One choice is SentencePiece's hash map's: when pairs tie in frequency at the cut-off of a
refresh, which of them become active depends on the order its ``absl::flat_hash_map`` lists them
(per process). BPE Lab keeps them in the rule's order (shorter, then code point order). It only
matters if such a pair would become the best before the next refresh.

    >>> from bpe.tiebreak import ActiveSymbols
    >>> active_size(ActiveSymbols(), cache_size=30_000, pairs=25_000), active_size(ActiveSymbols(), cache_size=500, pairs=480)
    (1500, 480)
"""

from __future__ import annotations

import heapq
import struct
from collections import deque
from collections.abc import Callable, Iterable

from .pair_counts import PairCounts
from .tiebreak import ActiveSymbols, Pair


def _float32(value: float) -> float:
    return struct.unpack("f", struct.pack("f", value))[0]


def active_size(rule: ActiveSymbols, *, cache_size: int, pairs: int) -> int:
    """How many pairs a refresh keeps: ``min(max(min_size, cache_size * ratio), pairs)``, in C++'s
    arithmetic (``size_t * float`` in 32-bit floats, then truncated to an ``int``)."""
    share = int(_float32(_float32(cache_size) * _float32(rule.top_ratio)))
    return min(max(rule.min_size, share), pairs)


class ActivePairs:
    """The active set and the cache around a run's pair counts (``PairCounts`` holds the live ones)."""

    def __init__(
        self, rule: ActiveSymbols, counts: PairCounts, *, characters: int, spelling: Callable[[Pair], bytes],
    ) -> None:
        self.rule, self.counts, self.characters, self.spelling = rule, counts, characters, spelling
        self.key = counts.keys.__getitem__
        self.active: set[Pair] = set()
        self.dead: set[Pair] = set()
        """Pairs in the cache with frequency 0: every occurrence merged away, or dropped and touched again."""
        self.dropped: set[Pair] = set()
        """Pairs out of the cache for good (merged), or until a merge touches them (dropped respellings)."""
        self.made: set[bytes] = set()
        self.merges = 0
        self._order: tuple[int, deque[Pair]] | None = None
        """``(count, pairs in the rule's order)``: the tie last chosen from (see :meth:`_first`)."""

    def choose(self, max_ties: int) -> tuple[int, int, tuple[Pair, ...]] | None:
        """``(count, tie count, tied pairs, winner first)`` of the pair SentencePiece merges next;
        ``None`` if no pair is left. Respellings found on the way are dropped."""
        while True:
            if self.merges % self.rule.refresh_every == 0:
                self._refresh()
            chosen = self._best(max_ties)
            if chosen is None:
                return None
            winner = chosen[2][0]
            if self.spelling(winner) not in self.made:
                return chosen
            self._drop(winner)  # its piece exists already: SentencePiece erases it and looks again

    def merged(self, pair: Pair, new_id: int, deltas: dict[Pair, int]) -> None:
        """Book a merge: ``deltas`` are its changes of count (zero entries included: a pair made
        and unmade in one word, as "abab" -> "cc" makes (c, a), is a dead pair in the cache)."""
        self.merges += 1
        self.made.add(self.spelling(pair))
        self._drop(pair)
        live = self.counts.count
        if self._order is not None and any(live.get(changed, 0) == self._order[0] for changed in deltas):
            self._order = None  # a pair may have joined the kept tie
        for changed, delta in deltas.items():
            if new_id in changed:  # made by this merge: active at once
                self.active.add(changed)
                if changed not in live:
                    self.dead.add(changed)
            elif delta < 0 and changed != pair:
                if changed in self.dropped:
                    self.dropped.discard(changed)
                    self.dead.add(changed)  # a dropped respelling comes back with no occurrence
                elif changed not in live:
                    self.dead.add(changed)

    def _drop(self, pair: Pair) -> None:
        self.dropped.add(pair)
        self.active.discard(pair)
        self.dead.discard(pair)

    def _live(self, pairs: Iterable[Pair]) -> list[Pair]:
        excluded = self.dropped
        return [pair for pair in pairs if pair not in excluded and pair not in self.dead]

    def _best(self, max_ties: int) -> tuple[int, int, tuple[Pair, ...]] | None:
        for level in self.counts.levels_descending():
            tied = self.counts.pairs_with(level) & self.active  # set operations in C: late in a run,
            tied -= self.dropped  # thousands of pairs tie at a count of 1 or 2
            tied -= self.dead
            if tied:
                return level, len(tied), self._first(level, tied, max_ties)
        dead = self.dead & self.active
        return (0, len(dead), self._first(0, dead, max_ties)) if dead else None

    def _first(self, level: int, tied: set[Pair], max_ties: int) -> tuple[Pair, ...]:
        """The first ``max_ties`` of ``tied`` in the rule's order, from an order kept for ``level``.

        Why kept: sorting a thousand tied pairs at every merge was most of a long run. Pairs only
        leave a level's tie (merged, dropped, or less frequent now), so the kept order stays right
        by skipping them; anything that can add one (a refresh, a new pair, a count falling to this
        level) forgets it (:meth:`merged`, :meth:`_refresh`).
        """
        if self._order is None or self._order[0] != level:
            self._order = (level, deque(sorted(tied, key=self.key)))
        ordered = self._order[1]
        while ordered[0] not in tied:  # the head left the tie for good: drop it once
            ordered.popleft()
        first = []
        for pair in ordered:
            if pair in tied:
                first.append(pair)
                if len(first) == max(max_ties, 1):
                    break
        return tuple(first)

    def _refresh(self) -> None:
        """``UpdateActiveSymbols``: the most frequent pairs of the cache become the active set."""
        live_levels = [(level, self._live(self.counts.pairs_with(level))) for level in self.counts.levels_descending()]
        pairs = sum(len(members) for _, members in live_levels) + len(self.dead)
        wanted = active_size(self.rule, cache_size=self.characters + pairs, pairs=pairs)
        chosen: set[Pair] = set()
        for _, members in [*live_levels, (0, list(self.dead))]:
            if len(chosen) + len(members) <= wanted:
                chosen.update(members)
            else:  # the cut-off falls inside this count: the rule's order decides (see the module docstring)
                chosen.update(heapq.nsmallest(wanted - len(chosen), members, key=self.key))
            if len(chosen) >= wanted:
                break
        self.active = chosen
        self._order = None
