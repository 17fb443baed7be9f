"""Pair counts in buckets by count: the trainer's priority queue, read in the tie-break rule's order.

Scope: :class:`PairCounts`, which keeps ``pair -> count`` and answers "which count is best, how
many pairs share it, and which are the first ``n`` of a count in the rule's order" without a scan.
Out of scope: computing the counts (``trainer``) and the rules' keys (``tiebreak``, ``first_seen``).

Why buckets rather than a heap: a merge changes the counts of a handful of pairs, each by a known
delta, so moving a pair between two buckets is exact, with no stale heap entries to skip; and a
merge never makes a pair more frequent than itself, so the best count only goes down.

What a step records decides which buckets are kept in order (on real text most merges are ties,
among many pairs). The best bucket is read at every step. The one below it is read whenever fewer
than ``top_k`` pairs tie, and late in a run it holds many pairs, so picking its first few afresh
each time was most of the cost of recording the top pairs. Both are sorted once and then kept
sorted; lower buckets are read rarely and picked from when asked (keeping every bucket sorted
through every change of count cost more than it saved).

    >>> counts = PairCounts({(1, 2): 2, (2, 3): 1, (3, 1): 1}, keys={(1, 2): 0, (2, 3): 2, (3, 1): 1})
    >>> counts.best_count(), counts.ranked(1, 2)
    (2, [(3, 1), (2, 3)])
    >>> counts.apply({(1, 2): -2, (2, 3): 1}, new_keys={})
    >>> counts.best_count(), counts.ranked(2, 5), counts.ranked(1, 5)
    (2, [(2, 3)], [(3, 1)])
"""

from __future__ import annotations

import bisect
import heapq
from collections import defaultdict

from ..tokens.vocab import Pair


class PairCounts:
    """``pair -> count`` plus buckets by count, so the best pairs are found without a scan."""

    def __init__(self, counts: dict[Pair, int], *, keys: dict[Pair, object], greatest_wins: bool = False) -> None:
        self.count = {pair: n for pair, n in counts.items() if n > 0}
        self.keys = keys
        """``pair -> tie-break key``; the trainer keeps it up to date."""
        self.greatest_wins = greatest_wins
        """The greatest key is preferred (else the smallest)."""
        self._bucket: dict[int, set[Pair]] = defaultdict(set)
        for pair, n in self.count.items():
            self._bucket[n].add(pair)
        self._levels = sorted(self._bucket)  # distinct counts with a non-empty bucket, ascending
        self._sorted: dict[int, list[Pair]] = {}  # count -> its bucket in key order (the top two)

    def __bool__(self) -> bool:
        return bool(self.count)

    def best_count(self) -> int:
        return self._levels[-1]

    def pairs_with(self, count: int) -> set[Pair]:
        return self._bucket[count]

    def levels_descending(self):
        return reversed(self._levels)

    def best(self, n: int) -> tuple[int, int, list[Pair]]:
        """``(the best count, how many pairs have it, the first n of them in the rule's order)``: what
        every step reads, in one call (``n`` at least 1, the counts not empty)."""
        count = self._levels[-1]
        ordered = self._sorted.get(count)
        if ordered is None:
            return count, len(self._bucket[count]), self.ranked(count, n)
        return count, len(ordered), (ordered[: -n - 1 : -1] if self.greatest_wins else ordered[:n])

    def ranked(self, count: int, n: int) -> list[Pair]:
        """The first ``n`` pairs with ``count`` in the rule's order (the winner first)."""
        key = self.keys.__getitem__
        ordered = self._sorted.get(count)
        if ordered is None:
            top_two = self._levels[-2:]
            if count not in top_two:
                pick = heapq.nlargest if self.greatest_wins else heapq.nsmallest
                return pick(n, self._bucket[count], key=key)
            ordered = self._sorted[count] = sorted(self._bucket[count], key=key)
            for level in [level for level in self._sorted if level < top_two[0]]:
                del self._sorted[level]  # no longer among the top two: stop keeping it in order
        return ordered[: -n - 1 : -1] if self.greatest_wins else ordered[:n]

    def apply(self, deltas: dict[Pair, int], new_keys: dict[Pair, object]) -> None:
        """Add ``deltas[pair]`` to each pair's count (pairs that reach 0 are dropped) and move
        the pairs in ``new_keys`` to their new key. A re-keyed pair always has a delta."""
        count, bucket, levels, ordered, keys = self.count, self._bucket, self._levels, self._sorted, self.keys
        key = keys.__getitem__
        winner = -1 if self.greatest_wins else 0
        for pair, delta in deltas.items():
            if not delta:
                continue
            old = count.get(pair, 0)
            new = old + delta
            if old:
                members = bucket[old]
                members.discard(pair)
                if not members:
                    del bucket[old]
                    del levels[bisect.bisect_left(levels, old)]
                    ordered.pop(old, None)
                elif old in ordered:
                    in_order = ordered[old]
                    if in_order[winner] == pair:  # the merged pair: no search
                        del in_order[winner]
                    else:
                        del in_order[bisect.bisect_left(in_order, keys[pair], key=key)]
            if new > 0:
                count[pair] = new
                if pair in new_keys:
                    keys[pair] = new_keys[pair]
                members = bucket.get(new)
                if members is None:
                    bucket[new] = {pair}
                    bisect.insort(levels, new)
                else:
                    members.add(pair)
                    if new in ordered:
                        bisect.insort(ordered[new], pair, key=key)
            elif new == 0:
                del count[pair]
                keys.pop(pair, None)
            else:
                raise RuntimeError(f"internal error: the count of pair {pair} fell to {new}")
