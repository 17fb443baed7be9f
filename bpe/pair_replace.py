"""Replacing one pair in a list of ids, as BPE does: left to right, never overlapping.

Scope: the two small helpers the encode walkthrough shows a merge with. Out of scope: the fast
merge loops (``tokenizer``) and the trainer's replacement, which also tracks pair counts.

    >>> replace_pair([1, 1, 1, 2], 1, 1, 9), pair_positions([1, 1, 1, 2], 1, 1)
    ([9, 1, 2], (0,))
"""

from __future__ import annotations


def replace_pair(ids: list[int], left: int, right: int, new_id: int) -> list[int]:
    """``ids=[1, 2, 3, 1, 2], pair=(1, 2), new_id=4 -> [4, 3, 4]`` (left to right, no overlap)."""
    out: list[int] = []
    i, last = 0, len(ids) - 1
    while i <= last:
        if i < last and ids[i] == left and ids[i + 1] == right:
            out.append(new_id)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


def pair_positions(ids: list[int], left: int, right: int) -> tuple[int, ...]:
    """Where ``replace_pair`` will merge: ``[1, 1, 1, 1], (1, 1) -> (0, 2)``."""
    positions: list[int] = []
    i, last = 0, len(ids) - 1
    while i < last:
        if ids[i] == left and ids[i + 1] == right:
            positions.append(i)
            i += 2
        else:
            i += 1
    return tuple(positions)
