"""The encoder's merge loop: apply learned merges to one chunk's ids, lowest rank first.

Scope: three ways to run the same loop over ``ranks`` (``(left, right) -> rank``): :func:`merge_ids`
for encoding (a list for short chunks, a heap for long ones), which needs only ``made`` (the id
each rank's merge makes), and :func:`walk_merges`, which records every merge for the step-by-step
walkthrough from ``merges`` (``(left, right, new_id)`` by rank); and the rule every encoder applies
last where a vocabulary has an unknown token (:func:`one_unknown_per_run`). Out of scope: splitting
text into chunks and the chunk cache (``tokenizer``).

The loop applies the lowest-ranked merge present, everywhere in the chunk left to right, until
none applies; this replays training exactly, because a merged pair can never re-form later.

    >>> ranks, merges = {(1, 2): 0, (4, 3): 1}, [(1, 2, 4), (4, 3, 5)]
    >>> merge_ids([1, 2, 3, 1, 2], ranks, [4, 5])
    [5, 4]
    >>> [(step.new_id, step.positions) for step in walk_merges([1, 2, 3, 1, 2], ranks, merges)]
    [(4, (0, 3)), (5, (0,))]
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import repeat

from ..reference import merge
from ..tokens.vocab import Pair
from .pair_positions import pair_positions

LONG_CHUNK = 48
"""From this many symbols on, a heap beats rescanning the chunk for every merge."""
_NO_RANK = 1 << 62  # "no merge": an int, so ``min`` never compares int with float

Ranks = dict[Pair, int]
Merges = Sequence[tuple[int, int, int]]
Made = Sequence[int]
"""``made[rank]``: the id the merge of that rank makes (a table keeps it apart from the merges: see
:mod:`bpe.encoding.packed_tokens`)."""


@dataclass(frozen=True, slots=True)
class AppliedMerge:
    """One merge applied while encoding a chunk: ``left`` + ``right`` -> ``new_id`` at ``positions``."""

    rank: int
    left: int
    right: int
    new_id: int
    positions: tuple[int, ...]
    """Where the pair stood in the chunk's ids before this merge."""
    ids_after: tuple[int, ...]


def merge_ids(ids: list[int], ranks: Ranks, made: Made) -> list[int]:
    """``ids`` after every merge that applies (``ids`` itself may be changed)."""
    return merge_long(ids, ranks, made) if len(ids) >= LONG_CHUNK else merge_short(ids, ranks, made)


def merge_short(ids: list[int], ranks: Ranks, made: Made) -> list[int]:
    """Merge the leftmost lowest-ranked pair, one at a time, updating only its neighbours.

    This is :func:`walk_merges`'s "every occurrence, left to right" one occurrence at a time: a
    merged token only joins merges of higher rank, so the next lowest rank is the same pair
    again until its occurrences run out (tiktoken's loop, with our ranks of pairs).
    ``ids=[1, 2, 3, 1, 2]`` with ``(1, 2) -> 4`` -> ``[4, 3, 1, 2]`` -> ``[4, 3, 4]``.
    """
    rank_of = ranks.get
    pair_ranks = list(map(rank_of, zip(ids, ids[1:]), repeat(_NO_RANK)))  # pair_ranks[i]: (ids[i], ids[i+1])
    last = len(pair_ranks) - 1  # kept by hand: this loop runs ~35,000 times for the python docs
    while last >= 0:
        rank = min(pair_ranks)
        if rank == _NO_RANK:
            break
        i = pair_ranks.index(rank)
        new_id = ids[i] = made[rank]
        del ids[i + 1], pair_ranks[i]
        if i:
            pair_ranks[i - 1] = rank_of((ids[i - 1], new_id), _NO_RANK)
        if i < last:
            pair_ranks[i] = rank_of((new_id, ids[i + 1]), _NO_RANK)
        last -= 1
    return ids


def merge_long(ids: list[int], ranks: Ranks, made: Made, skip: Callable[[], bool] | None = None) -> list[int]:
    """The same merges as :func:`merge_short` in O(n log n): a heap of (rank, position).

    Popping the lowest (rank, position) merges a pair's occurrences left to right; entries
    made stale by an earlier merge are recognised and skipped. This is Hugging Face's
    ``Word::merge_all`` (its queue, its positions, its test of staleness), so ``skip`` adds its
    BPE-dropout (:mod:`bpe.encoding.dropout`): each entry popped is set aside when ``skip()`` says so, and
    the set-aside entries go back into the heap when the next one is not, stale ones included.
    Each entry is one int, ``rank`` above ``position``'s bits: half the time and memory of a heap
    of tuples (a chunk of a million symbols is a million entries; a rank file's longest token is
    replayed through here).
    """
    size = len(ids)
    gone = size + 1  # following[i] once symbol i was merged into its left neighbour
    shift = size.bit_length()
    position_bits = (1 << shift) - 1
    symbols = list(ids)
    following = list(range(1, size + 1))  # size: the last symbol
    preceding = list(range(-1, size - 1))
    rank_of = ranks.get
    heap = [rank << shift | i for i, rank in enumerate(map(rank_of, zip(ids, ids[1:]))) if rank is not None]
    heapq.heapify(heap)
    skipped: list[int] = []
    while heap:
        entry = heapq.heappop(heap)
        if skip is not None:
            if skip():
                skipped.append(entry)
                continue
            for place in skipped:  # back in the heap: a skipped merge may happen after this one
                heapq.heappush(heap, place)
            skipped.clear()
        i = entry & position_bits
        j = following[i]
        if j >= size or rank_of((symbols[i], symbols[j])) != entry >> shift:
            continue  # stale: one side was merged away since this entry was pushed
        new_id = symbols[i] = made[entry >> shift]
        after = following[i] = following[j]
        following[j] = gone
        if after < size:
            preceding[after] = i
            rank = rank_of((new_id, symbols[after]))
            if rank is not None:
                heapq.heappush(heap, rank << shift | i)
        before = preceding[i]
        if before >= 0:
            rank = rank_of((symbols[before], new_id))
            if rank is not None:
                heapq.heappush(heap, rank << shift | before)
    return [symbol for symbol, after in zip(symbols, following) if after != gone]


def walk_merges(ids: list[int], ranks: Ranks, merges: Merges) -> tuple[AppliedMerge, ...]:
    """Every merge applied to ``ids``, in order, each with where it applied and the ids after it."""
    applied: list[AppliedMerge] = []
    while len(ids) > 1:
        rank = min(map(ranks.get, zip(ids, ids[1:]), repeat(_NO_RANK)))
        if rank == _NO_RANK:
            break
        left, right, new_id = merges[rank]
        positions = pair_positions(ids, left, right)
        ids = merge(ids, (left, right), new_id)
        applied.append(AppliedMerge(rank, left, right, new_id, positions, tuple(ids)))
    return tuple(applied)


def one_unknown_per_run(ids: list[int], unknown: int | None) -> list[int]:
    """SentencePiece's rule: neighbouring unknown characters are one unknown token (``unknown``'s id;
    ``None``: a tokenizer without one). Every way of encoding applies it last: ``encode``, its dropout,
    the three cuts.

    >>> one_unknown_per_run([5, 0, 0, 7, 0, 0, 0], 0)
    [5, 0, 7, 0]
    """
    if unknown is None or ids.count(unknown) < 2:
        return ids
    return [token_id for index, token_id in enumerate(ids) if token_id != unknown or ids[index - 1] != unknown or not index]
