"""How a trainer counts pairs and applies a merge: the right way and the classic wrong ones.

Scope: the plug-ins of the compact trainer (:mod:`bpe.checking.compact`), one registry per
choice, and :class:`Rules`, which names one entry of each. Out of scope: running them.

* counting ``overlap`` (right: ``aaa`` has (a, a) twice), ``no-overlap`` (once), or
  ``skip-last``: a pair loop one short (``for i in range(len(symbols) - 2)``), which never counts
  a word's last pair;
* replacing ``left-to-right`` (right: ``aaa`` -> ``aa a``), ``right-to-left`` (``a aa``),
  ``overlap`` (``aa aa``: every counted occurrence becomes a token) or ``first-place`` (only the
  first occurrence in each word: ``abab`` -> ``X ab``); or, reading the symbols' spellings,
  ``across-symbols``: the Sennrich paper's code with its regex replaced by a plain ``str.replace``
  on the spaced word, which also joins a symbol *ending* with the left token to one *starting*
  with the right (``n e w es t``, merge ``s t`` -> ``n e w est``: a token no merge made);
* reaching ``every`` word that holds the pair (right) or only the ``first`` one;
* weighting by ``frequency`` (right) or ``once`` per distinct word;
* an end-of-word marker kept ``separate`` (a token of its own) or ``attached`` to the word's last
  symbol (``t</w>``, as subword-nmt does);
* a tie rule of the learner's own (``tie``, a :data:`~bpe.checking.ties.TIE_EFFECTS` name: last
  seen, a running count's insertion order), followed by the compact trainer only;
* updating the counts after a merge ``exactly`` (right), or ``never-decremented``: the pair counts
  patched after each merge with the new token's pairs, the merged pair deleted, but the pairs the
  merge broke never decremented (a minbpe-style speed-up written without the subtraction), so stale
  counts win later merges.

The two replacement bugs that leave the pair behind (``first-place``, ``first`` word) make the
learner's trainer merge the same pair again at a later step: a repeated merge is their signature.

    >>> replace_left_to_right([1, 2, 1, 2], 1, 2, 9), replace_first_place([1, 2, 1, 2], 1, 2, 9)
    ([9, 9], [9, 1, 2])
    >>> list(count_without_overlap([1, 1, 1])), list(count_all_but_the_last([1, 2, 3]))
    ([(1, 1)], [(1, 2)])
    >>> join_across_symbols([b"n", b"e", b"w", b"es", b"t"], b"s", b"t")   # str.replace("s t", "st")
    [False, False, False, True]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from types import MappingProxyType

from ..tokens.vocab import Pair
from .ties import TIE_EFFECTS

Ids = list[int]


def count_with_overlap(ids: Ids) -> Iterable[Pair]:
    """Each occurrence of each pair: ``[1, 1, 1] -> (1, 1), (1, 1)``."""
    return zip(ids, ids[1:])


def count_without_overlap(ids: Ids) -> Iterable[Pair]:
    """``[1, 1, 1] -> (1, 1)``: an occurrence that shares a symbol with the last one counted is skipped."""
    pairs = list(zip(ids, ids[1:]))
    if len(set(pairs)) == len(pairs):
        return pairs  # no pair repeats, so none can overlap itself (the usual word: decided in C)
    last: dict[Pair, int] = {}
    counted = []
    for i, pair in enumerate(pairs):
        if last.get(pair) != i - 1:
            last[pair] = i
            counted.append(pair)
    return counted


def count_all_but_the_last(ids: Ids) -> Iterable[Pair]:
    """``[1, 2, 3] -> (1, 2)``: ``for i in range(len(ids) - 2)``, a loop bound one short."""
    return list(zip(ids, ids[1:]))[:-1]


def replace_left_to_right(ids: Ids, left: int, right: int, new: int, *, limit: int = -1) -> Ids:
    """``[1, 1, 1], (1, 1) -> [new, 1]``; ``limit``: at most that many replacements (-1: all)."""
    out: Ids = []
    done = 0  # ids[:done] are in out
    while limit:
        try:
            i = ids.index(left, done)  # jump to the next candidate instead of looping in Python
        except ValueError:
            break
        if i + 1 < len(ids) and ids[i + 1] == right:
            out.extend(ids[done:i])
            out.append(new)
            done = i + 2
            limit -= 1
        else:
            out.extend(ids[done:i + 1])
            done = i + 1
    out.extend(ids[done:])
    return out


def replace_right_to_left(ids: Ids, left: int, right: int, new: int) -> Ids:
    """``[1, 1, 1], (1, 1) -> [1, new]``."""
    return replace_left_to_right(ids[::-1], right, left, new)[::-1]


def replace_with_overlap(ids: Ids, left: int, right: int, new: int) -> Ids:
    """``[1, 1, 1], (1, 1) -> [new, new]``: a symbol shared by two occurrences goes into both."""
    out, i, last = [], 0, len(ids) - 1
    while i <= last:
        if i < last and ids[i] == left and ids[i + 1] == right:
            out.append(new)
            # subtle: only a pair like (a, a) can overlap itself; the shared symbol is used again
            i += 1 if i + 1 < last and ids[i + 2] == right and left == right else 2
        else:
            out.append(ids[i])
            i += 1
    return out


def replace_first_place(ids: Ids, left: int, right: int, new: int) -> Ids:
    """``[1, 2, 1, 2], (1, 2) -> [new, 1, 2]``: a loop that stops after its first replacement."""
    return replace_left_to_right(ids, left, right, new, limit=1)


def join_across_symbols(spelled: list[bytes], left: bytes, right: bytes) -> list[bool]:
    """Which neighbours ``" ".join(spelled).replace(left + b" " + right, left + right)`` joins: ``joins[k]`` is
    True when the space between symbols ``k`` and ``k + 1`` goes. Symbols hold no space (a learner's
    spaced word splits on them), so a match's space is always one between two symbols."""
    joins, used = [], 0  # used: bytes at the start of symbol k that the last match took
    for a, b in zip(spelled, spelled[1:]):
        # subtle: str.replace goes on after a match's end, so a match may not start inside the last one
        joined = a.endswith(left) and len(a) - len(left) >= used and b.startswith(right)
        joins.append(joined)
        used = len(right) if joined else 0
    return joins


COUNTING: MappingProxyType[str, Callable[[Ids], Iterable[Pair]]] = MappingProxyType(
    {"overlap": count_with_overlap, "no-overlap": count_without_overlap, "skip-last": count_all_but_the_last}
)
REPLACING: MappingProxyType[str, Callable[[Ids, int, int, int], Ids]] = MappingProxyType({
    "left-to-right": replace_left_to_right, "right-to-left": replace_right_to_left,
    "overlap": replace_with_overlap, "first-place": replace_first_place,
})
WEIGHTING: MappingProxyType[str, Callable[[int], int]] = MappingProxyType(
    {"frequency": lambda freq: freq, "once": lambda freq: 1}
)
SPELLED_REPLACING: MappingProxyType[str, Callable[[list[bytes], bytes, bytes], list[bool]]] = MappingProxyType(
    {"across-symbols": join_across_symbols}
)
"""Replacements that read the symbols' spellings (a string-based trainer): which neighbours they join."""
REACH = ("every", "first")
"""Which words a merge is applied to: every word holding the pair, or the first one only."""
MARKING = ("separate", "attached")
UPDATING = ("exact", "never-decremented")
"""How counts follow a merge: recounted exactly, or patched with the new pairs and never decremented."""


@dataclass(frozen=True)
class Rules:
    """How a run counts and merges; the defaults are the reference's."""

    counting: str = "overlap"
    replacing: str = "left-to-right"
    reach: str = "every"
    weighting: str = "frequency"
    marker: str | None = None
    """``separate`` or ``attached``; None: as the settings place it (``end_of_word_mode``)."""
    updating: str = "exact"
    tie: str | None = None
    """A tie rule of the learner's own (:data:`~bpe.checking.ties.TIE_EFFECTS`); None: the settings' rule."""

    def __post_init__(self) -> None:
        if self.tie is not None and self.tie not in TIE_EFFECTS:
            raise ValueError(f"unknown tie rule {self.tie!r}: use one of {', '.join(TIE_EFFECTS)}")
        for name, registry in (("counting", COUNTING), ("replacing", {**REPLACING, **SPELLED_REPLACING}),
                               ("reach", REACH), ("weighting", WEIGHTING), ("marker", MARKING), ("updating", UPDATING)):
            if getattr(self, name) not in registry and not (name == "marker" and self.marker is None):
                raise ValueError(f"unknown {name} rule {getattr(self, name)!r}: use one of {', '.join(registry)}")

    @property
    def is_reference(self) -> bool:
        """Counting and replacing as the reference does (the compact trainer's fast local update applies)."""
        return (self.counting, self.replacing, self.reach, self.updating) == ("overlap", "left-to-right", "every", "exact")
