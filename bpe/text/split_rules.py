"""Split rules with Hugging Face's ``Split`` semantics, applied one after another.

Scope: :class:`SplitRule` (a regex, a behaviour, ``invert``) and :func:`split_in_sequence`, which
cuts text the way a ``tokenizers`` ``Sequence`` of ``Split`` pre-tokenizers does: each rule cuts
every piece the previous rule left, so a rule's lookarounds and ``$`` see the end of its piece,
not of the text. Out of scope: which rules a tokenizer uses (``pretokenize`` names them) and the
byte-level step that follows in Hugging Face (BPE Lab's byte unit does that).

A rule finds its matches in a piece and labels every stretch ``match`` or ``gap`` (``invert``
swaps the labels), then the behaviour decides what the stretches become:

* ``isolated``: every stretch is a piece of its own;
* ``removed``: matches are dropped (BPE Lab keeps them as gaps, which encoding keeps and training
  skips, so that no character is ever lost);
* ``merged_with_previous`` / ``merged_with_next``: a match joins the stretch before / after it;
* ``contiguous``: neighbouring stretches with the same label join.

    >>> digits = SplitRule(r"\\p{N}{1,3}")
    >>> split_in_sequence("in 2024:12345", [digits])
    ['in ', '202', '4', ':', '123', '45']
    >>> split_in_sequence("a-b-c", [SplitRule("-", behavior="merged_with_previous")])
    ['a-', 'b-', 'c']
    >>> split_in_sequence("a-b-c", [SplitRule("-", behavior="merged_with_next")])
    ['a', '-b', '-c']
    >>> split_in_sequence("ab12cd", [SplitRule(r"\\d", behavior="contiguous", invert=True)])
    ['ab', '12', 'cd']

Subtle: Hugging Face drops empty pieces, and so does this (an empty match makes none).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import regex

BEHAVIORS = ("isolated", "removed", "merged_with_previous", "merged_with_next", "contiguous")
"""``SplitDelimiterBehavior`` in Hugging Face ``tokenizers``, by its snake-case name."""

Stretch = tuple[int, int, bool]
"""``(start, end, is_match)`` of one stretch of a piece."""


@dataclass(frozen=True)
class SplitRule:
    """One ``Split`` pre-tokenizer: where it cuts and what becomes of its matches."""

    pattern: str
    behavior: str = "isolated"
    invert: bool = False
    _compiled: regex.Pattern = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.behavior not in BEHAVIORS:  # a mistake in a registry entry: fail at import
            raise ValueError(f"unknown split behavior {self.behavior!r}: use one of {', '.join(BEHAVIORS)}")
        object.__setattr__(self, "_compiled", regex.compile(self.pattern))

    def stretches(self, piece: str) -> list[Stretch]:
        """The piece cut at the rule's matches, each stretch labelled (``invert`` applied).

        ``"a1b"`` with ``\\d`` -> ``[(0, 1, False), (1, 2, True), (2, 3, False)]``.
        """
        found: list[Stretch] = []
        position = 0
        for match in self._compiled.finditer(piece):
            start, end = match.span()
            if start > position:
                found.append((position, start, False))
            found.append((start, end, True))
            position = end
        if position < len(piece):
            found.append((position, len(piece), False))
        return [(start, end, is_match != self.invert) for start, end, is_match in found]

    def split(self, piece: str) -> list[tuple[str, bool]]:
        """``(text, kept)`` pieces in order; ``kept`` is False only for ``removed`` matches."""
        grouped = _group(self.stretches(piece), self.behavior)
        return [(piece[start:end], keep) for start, end, keep in grouped if end > start]


def _group(stretches: list[Stretch], behavior: str) -> list[Stretch]:
    """Hugging Face's ``NormalizedString::split``: stretches joined per ``behavior``; the flag
    of each result says whether it is kept."""
    if behavior == "isolated":
        return [(start, end, True) for start, end, _ in stretches]
    if behavior == "removed":
        return [(start, end, not is_match) for start, end, is_match in stretches]
    joined: list[list[int]] = []
    previous = False
    ordered = stretches[::-1] if behavior == "merged_with_next" else stretches
    for start, end, is_match in ordered:
        if behavior == "contiguous":
            join = bool(joined) and is_match == previous
        else:  # a match joins its neighbour unless that neighbour is a match itself
            join = bool(joined) and is_match and not previous
        if join and behavior == "merged_with_next":
            joined[-1][0] = start
        elif join:
            joined[-1][1] = end
        else:
            joined.append([start, end])
        previous = is_match
    if behavior == "merged_with_next":
        joined.reverse()
    return [(start, end, True) for start, end in joined]


def split_in_sequence(text: str, rules: Sequence[SplitRule]) -> list[str]:
    """The pieces of ``text`` after each rule in turn cut every piece so far (removed text dropped)."""
    return [piece for piece, kept in split_with_removed(text, rules) if kept]


def split_with_removed(text: str, rules: Sequence[SplitRule]) -> list[tuple[str, bool]]:
    """``(piece, kept)`` pieces that concatenate back to ``text``; a removed piece is never cut again."""
    pieces = [(text, True)] if text else []
    for rule in rules:
        pieces = [cut for piece, kept in pieces for cut in (rule.split(piece) if kept else [(piece, False)])]
    return pieces
