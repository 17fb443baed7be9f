"""Counting pairs and merging one pair everywhere: the two operations a training run repeats.

Scope: :func:`index_pairs` (the weighted pair counts, with overlap, and which words hold each
pair) and :func:`merge_pair` (replace a pair left to right in the words that hold it, returning
only the local changes of count). Out of scope: choosing the pair (``trainer``, ``tiebreak``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import NamedTuple

from ..tokens.vocab import Pair


def count_pairs(words: list[list[int]], freqs: list[int]) -> dict[Pair, int]:
    """Weighted pair counts with overlap: ``[[1, 2, 3, 1, 2]], [1] -> {(1, 2): 2, (2, 3): 1, (3, 1): 1}``."""
    return index_pairs(words, freqs)[0]


def index_pairs(words: list[list[int]], freqs: list[int]) -> tuple[dict[Pair, int], dict[Pair, set[int]]]:
    """The weighted pair counts and, for each pair, the indices of the words that hold it (in one
    pass: it is most of a run's set-up).

    >>> index_pairs([[1, 2, 1, 2], [2, 1]], [1, 5])
    ({(1, 2): 2, (2, 1): 6}, defaultdict(<class 'set'>, {(1, 2): {0}, (2, 1): {0, 1}}))
    """
    counts: dict[Pair, int] = defaultdict(int)
    holders: dict[Pair, set[int]] = defaultdict(set)
    for index, (ids, freq) in enumerate(zip(words, freqs)):
        for pair in zip(ids, ids[1:]):
            counts[pair] += freq
            holders[pair].add(index)
    return dict(counts), holders


class PairMerge(NamedTuple):
    """What merging one pair did to the words it visited."""

    deltas: dict[Pair, int]
    """The change of each pair's count, weighted by the words' counts."""
    rewritten: list[int]
    """The indices of the words that changed."""
    replaced: int
    """Replacements made, weighted by the words' counts: how many fewer tokens the words hold."""


def merge_pair(
    words: list[list[int]], freqs: list[int], indices: Iterable[int], pair: Pair, new_id: int,
    holders: dict[Pair, set[int]],
) -> PairMerge:
    """Replace ``pair`` by ``new_id`` left to right in each ``words[index]``, in place, and add
    the index to ``holders[p]`` for each pair ``p`` the merge makes there.

    >>> words, holders = [[1, 2, 3, 1, 2]], defaultdict(set)
    >>> done = merge_pair(words, [1], [0], (1, 2), 4, holders)
    >>> words, dict(done.deltas), done.replaced, dict(holders)
    ([[4, 3, 4]], {(2, 3): -1, (4, 3): 1, (3, 1): -1, (3, 4): 1, (1, 2): -2}, 2, {(4, 3): {0}, (3, 4): {0}})

    Only local changes: at a spot with neighbours x and y, (x, a), (a, b), (b, y) go and (x, c),
    (c, y) come. Subtle: the left neighbour is read from the *output* (it may be a token this very
    merge just made, as in "abab" -> "cc"), the right one from the input; so a pair can come and go
    again in one word, and only the sum is the change.

    Why one function for all the words rather than a call per word: collecting each word's pairs
    in lists and walking them again cost a call and two lists per word visited, at every merge.
    """
    left, right = pair
    deltas: dict[Pair, int] = defaultdict(int)
    rewritten: list[int] = []
    replaced = merged = 0
    for index in indices:
        ids = words[index]
        # subtle: an entry goes stale when another merge takes the pair's last occurrence from the
        # word. That merge almost always took one of its tokens with it, so two scans in C rule
        # most of them out.
        if left not in ids or right not in ids:
            continue
        freq = freqs[index]
        out: list[int] = []
        last = len(ids) - 1
        copied = 0  # ids[:copied] are already in out
        # Each occurrence of ``left`` in turn, found by ``index`` in C: counted first, as a failing ``index``
        # would cost an exception; a while loop, as most words hold it once and a range for one costs more.
        remaining = ids.count(left)
        i = ids.index(left)
        while True:
            if i < last and ids[i + 1] == right and i >= copied:
                out += ids[copied:i]
                merged += freq
                if out:
                    before = out[-1]
                    deltas[before, left] -= freq
                    made = before, new_id  # one tuple for both dicts
                    deltas[made] += freq
                    holders[made].add(index)
                if i + 1 < last:
                    after = ids[i + 2]
                    deltas[right, after] -= freq
                    made = new_id, after
                    deltas[made] += freq
                    holders[made].add(index)
                out.append(new_id)
                copied = i + 2
            remaining -= 1
            if not remaining:
                break
            i = ids.index(left, i + 1)
        if copied:  # else stale all the same: both tokens are there, but never side by side
            out += ids[copied:]
            words[index] = out
            rewritten.append(index)
            replaced += (len(ids) - len(out)) * freq
    deltas[pair] -= merged  # once, not per spot (overlaps such as (a, a) in "aaa" went as neighbours)
    return PairMerge(deltas, rewritten, replaced)  # not copied into a plain dict: every reader only looks up and loops
