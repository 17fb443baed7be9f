"""Which two tokens make each token of a rank file or a SentencePiece model, in O(n log n).

Why: a tiktoken rank file and a SentencePiece ``.model`` store tokens ranked (by rank or score),
not merges. Their owners' encoders merge, again and again, the neighbouring pair whose
concatenation is the best-ranked token (the leftmost such pair on a tie). Run on a token's own
symbols (bytes, or characters for a ``.model``) until two parts remain, that loop names the merge
that made the token (minbpe's ``recover_merges``). Run as the owner writes it (join every
neighbouring pair, look the join up, merge the best, repeat), a token of L symbols costs O(L²)
joins of up to L bytes each: a 2.8 MB file of the tokens a, aa, aaaa, ... would take hours.

How: tokens are replayed shortest first, and each one's symbols are merged by *ids*, never by
joining bytes, with the encoder's own loop (:func:`~bpe.encoding.merge_loop.merge_ids`: a heap for long
chunks, O(L log L)), over a table of the pairs recovered so far. That is the owner's loop exactly:

* Every part the owner's loop builds inside a token T is a token the loop builds from the same
  two parts when run on that part alone: the merges inside a part's span only ever compete with
  each other, so the span replays the part's own loop. Such a part is shorter than T, so it was
  replayed before T, and its pair is in the table.
* A pair of parts that joins to a token by some *other* split is never the loop's choice: if it
  were, the loop would build that token from it, against the first point. So leaving those pairs
  out of the table changes no choice.

T's own pair is not in the table while T is replayed, so the replay ends at T's two parts, or
stuck at more: a token no two tokens make (a rank file's whole-chunk token; an error in a
``.model``). Each token costs O(L log L) and the table one entry per token, so a file costs
O(n log n) time in its total length and O(tokens) memory. ``tests/test_merge_recovery.py``
checks the result against the owner's loop on every shipped file and on random files.

    >>> split_tokens({b"a": 0, b"b": 1, b"c": 2, b"ab": 3, b"abc": 4, b"ac": 5, b"bac": 6})
    {b'ab': (b'a', b'b'), b'ac': (b'a', b'c'), b'abc': (b'ab', b'c'), b'bac': (b'b', b'ac')}
    >>> split_tokens({"lo": 0, "▁lo": 1, "▁low": 2, "xyz": 3})   # xyz: no two pieces make it
    {'lo': ('l', 'o'), '▁lo': ('▁', 'lo'), '▁low': ('▁lo', 'w')}
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import chain
from typing import TypeVar

from ..encoding.merge_loop import merge_ids

Spelled = TypeVar("Spelled", str, bytes)


def split_tokens(ranks: Mapping[Spelled, int]) -> dict[Spelled, tuple[Spelled, Spelled]]:
    """``token -> (left, right)`` for every token of two or more symbols that the owner's loop
    builds from two tokens, shortest first; the others are left out. ``ranks`` maps each token
    (all ``bytes`` or all ``str``) to its own rank, the lower the earlier merged (a rank file's
    ranks are distinct; a ``.model``'s reader ranks tied scores by id)."""
    if not ranks:
        return {}
    by_rank = sorted(ranks, key=ranks.__getitem__)
    position = {token: index for index, token in enumerate(by_rank)}  # ranks may have gaps: these do not
    # Each symbol starts as the id of the one-symbol token it is, or as an id past every token's.
    symbols = sorted(set(chain.from_iterable(ranks)))
    spelled = [_one_symbol(symbol, like=by_rank[0]) for symbol in symbols]
    unit_ids = {
        symbol: position.get(text, len(by_rank) + index) for index, (symbol, text) in enumerate(zip(symbols, spelled))
    }
    names = by_rank + spelled  # id -> token, for the ids past the tokens their symbol
    pair_ranks: dict[tuple[int, int], int] = {}
    made = range(len(by_rank))  # the id a rank's merge makes is the rank itself
    splits: dict[Spelled, tuple[Spelled, Spelled]] = {}
    for token in sorted((token for token in by_rank if len(token) > 1), key=len):
        parts = merge_ids(list(map(unit_ids.__getitem__, token)), pair_ranks, made)
        if len(parts) == 2:
            rank = position[token]
            pair_ranks[parts[0], parts[1]] = rank
            splits[token] = (names[parts[0]], names[parts[1]])
    return splits


def _one_symbol(symbol: int | str, *, like: str | bytes) -> str | bytes:
    """A symbol as a one-symbol token: iterating ``bytes`` gives ints, iterating ``str`` one-character strings."""
    return bytes([symbol]) if isinstance(like, bytes) else symbol  # type: ignore[list-item]
