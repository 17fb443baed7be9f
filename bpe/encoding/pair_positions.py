"""Where a merge will replace a pair in a list of ids: left to right, never overlapping.

Scope: the positions the encode walkthrough marks before a merge. The replacement itself is
:func:`bpe.reference.merge`, the readable one (the walkthrough shows what the reference does); the
fast merge loops (``merge_loop``) and the trainer's replacement, which also tracks pair counts,
have their own.

    >>> from bpe.reference import merge
    >>> merge([1, 1, 1, 2], (1, 1), 9), pair_positions([1, 1, 1, 2], 1, 1)
    ([9, 1, 2], (0,))
"""

from __future__ import annotations


def pair_positions(ids: list[int], left: int, right: int) -> tuple[int, ...]:
    """Where ``bpe.reference.merge`` will merge: ``[1, 1, 1, 1], (1, 1) -> (0, 2)``."""
    positions: list[int] = []
    i, last = 0, len(ids) - 1
    while i < last:
        if ids[i] == left and ids[i + 1] == right:
            positions.append(i)
            i += 2
        else:
            i += 1
    return tuple(positions)
