"""Merges written as the two spellings they join (``Ġ t``): the one reader of GPT-2's ``vocab.bpe``,
Hugging Face's ``merges`` and subword-nmt's codes.

Scope: an entry is a line ``left right`` (two spellings, one space between, nothing else) or, in a
``tokenizer.json``, the list ``["left", "right"]``; :func:`read_spelled_merges` gives ``(number, left,
right)`` per merge in rank order. What each file's own header, line endings and ids are stays in
its format's module.

A repeated merge is read as the file's owner reads it. Each owner puts the lines in a table keyed
by the pair, so one of the two ranks is kept and the other forgotten:

* GPT-2's ``encoder.py`` (``dict(zip(bpe_merges, range(len(bpe_merges))))``) and Hugging Face's
  ``BPE`` (its merges ``collect``-ed into a hash map) keep the **last** rank: the repeated merge
  moves down to its last line (``keep="last"``);
* subword-nmt's ``apply_bpe`` keeps the **first** ("some hacking to deal with duplicates (only
  consider first instance)"): a repeat is ignored (``keep="first"``).

    >>> [pair[1:] for pair in read_spelled_merges([(1, "a b"), (2, "b c"), (3, "a b")], keep="last", source="m")]
    [('b', 'c'), ('a', 'b')]
    >>> [pair[1:] for pair in read_spelled_merges([(1, "a b"), (2, "b c"), (3, "a b")], keep="first", source="m")]
    [('a', 'b'), ('b', 'c')]

subtle: moved to its last line, a merge comes after any line between that already joins its
token (``a b``, ``ab c``, ``a b``): an owner ranks ``ab c`` before the merge that makes ``ab``,
which a merge list read in order cannot hold (a token is made before it is used), so that file is
refused, saying which line uses the token too early. ``tests/test_spelled_merges.py`` checks both
rules against Hugging Face's ``tokenizers`` and subword-nmt on files with repeated lines.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Literal

from ..errors import FormatError

Keep = Literal["first", "last"]


def _pair(entry: object, where: str) -> tuple[str, str]:
    parts = entry.split(" ") if isinstance(entry, str) else entry if isinstance(entry, list) else []
    if len(parts) != 2 or not all(isinstance(part, str) and part for part in parts):
        raise FormatError(f"{where}: expected two tokens separated by one space, got {str(entry)[:60]!r}")
    return parts[0], parts[1]


def read_spelled_merges(entries: Iterable[tuple[int, object]], *, keep: Keep, source: str,
                        counted: str = "line") -> list[tuple[int, str, str]]:
    """``(number, left, right)`` per merge of ``entries`` (``(number, "left right")`` or ``(number, [left,
    right])``), a repeated one kept at its ``keep`` place; messages name an entry ``{source} {counted} {number}``."""
    name = lambda number: f"{source} {counted} {number}"  # noqa: E731
    read = [(number, *_pair(entry, name(number))) for number, entry in entries]
    place: dict[tuple[str, str], int] = {}
    for index, (_, left, right) in enumerate(read):
        if keep == "last" or (left, right) not in place:
            place[left, right] = index
    kept = sorted(place.values())
    if keep == "last":
        _check_made_before_used(read, place, name, counted)
    return [read[index] for index in kept]


def _check_made_before_used(read: list, place: dict[tuple[str, str], int], name: Callable[[int], str], counted: str) -> None:
    """A merge moved down to its last line must not be used by a line between (see the module's subtle note)."""
    first: dict[tuple[str, str], int] = {}
    for index, (_, left, right) in enumerate(read):
        first.setdefault((left, right), index)
    for (left, right), end in place.items():
        start = first[left, right]
        for index in range(start + 1, end):  # empty unless the merge is repeated
            number, *parts = read[index]
            if left + right in parts:
                raise FormatError(
                    f"{name(read[end][0])}: repeats the merge {left} {right} of {counted} {read[start][0]}; its owner ranks "
                    f"a repeated merge at its last place, but {counted} {number} already joins {left + right!r}, made only "
                    f"there: no merge list can use a token before the merge that makes it (remove one of the two {counted}s)"
                )
