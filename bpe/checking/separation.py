"""A line to add to the corpus that tells two re-trainings apart, when the learner's corpus cannot.

Scope: the candidate lines (each mistake's own witnesses from the registry, and lines that make a
tie at the first merge, where tie rules part), and the search for the first that makes two
variants' merges differ. Out of scope: deciding which variants need telling apart
(:mod:`bpe.checking.diagnose`).

Why: when two mistakes give the same merges on the learner's corpus, naming one of them would be
a guess. The check says they cannot be told apart there and names a line that would, found by
training both on the corpus with the line added: evidence, not a rule of thumb. Some pairs agree on
every corpus (a pair loop one short beside a marker after each word never counts a pair with the
marker, which is what no marker does); then no line is found and the verdict says so.

    >>> from bpe import TrainSettings
    >>> from .mistakes import Variant
    >>> from .rules import Rules
    >>> meant = TrainSettings(pretokenizer="whitespace", tie_break="first-seen")
    >>> first, last = Variant("", "first seen", meant), Variant("tie-break", "last seen", meant, Rules(tie="last-seen"))
    >>> separating_line(CheckCorpus(text="ab ab"), first, last, 1, deadline=float("inf")).step
    1
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass

from .compact import train_merges
from .mistakes import MISTAKES, Variant
from .rules import Rules
from .search import CheckCorpus, corpus_of
from .verdict import Separation

MAX_LINES_TRIED = 8
"""Lines tried for one pair of re-trainings (each costs two short trainings on the corpus)."""
SEPARATING_MERGES = 12
"""Merges each training runs with a candidate line: a line repeated past the corpus's top count
changes the first merges, so a difference it makes shows there (this keeps a try cheap on a big corpus)."""


def _letters(source: CheckCorpus) -> list[str]:
    text = source.normalized_text(None)
    return sorted({char for char in text[:200_000] if char.isalpha()}) or ["a", "z"]


@dataclass(frozen=True)
class LineToAdd:
    """Lines to add: ``unit`` ``times`` times, each a line, at the corpus's end (or its start)."""

    unit: str
    times: int = 1
    at_start: bool = False

    def added_to(self, source: CheckCorpus) -> CheckCorpus:
        return source.with_line("\n".join([self.unit] * self.times), at_start=self.at_start)


def tie_candidates(source: CheckCorpus, count: int) -> list[LineToAdd]:
    """Lines that make a tie at the corpus's top count ``count``: a two-letter word of its greatest or
    smallest letter, ``count`` times on one line (pairs that sort first or last, or come last in the
    text); two such words tied with each other, past the top; and, at the start, words that make a *new* pair tie with an *old* one that occurs after it
    (``qjx`` ×k, ``zv`` ×k, ``qj`` ×(k+1): once ``q + j`` is merged, ``qj + x`` occurs first but
    ``z + v`` was counted first), where counting afresh and a running count part."""
    letters = _letters(source)
    low, high = letters[0], letters[-1]
    found = [LineToAdd(" ".join([word] * max(count, 1))) for word in (high * 2, low * 2, high + low, low + high)]
    # two new pairs that tie with each other: rules that agree on the corpus's own pairs part on these
    found.append(LineToAdd(" ".join([high * 2] * (count + 1) + [low * 2] * (count + 1))))
    rare = [char for char in "qjxzvkw" if char not in letters] or list("qjxzv")
    q, j, x, z, v = (rare * 5)[:5]
    k = count + 1
    found.append(LineToAdd("\n".join([q + j + x] * k + [z + v] * k + [q + j] * (k + 1)), at_start=True))
    return found


def candidate_lines(source: CheckCorpus, codes: tuple[str, ...], count: int) -> Iterator[LineToAdd]:
    """The tie lines when a tie rule is one of the two, then the two mistakes' own witnesses
    (:attr:`~bpe.checking.mistakes.Mistake.witness_lines`), each repeated past the top count so that it
    shows in the first merges."""
    seen: set[LineToAdd] = set()
    lines = [*(tie_candidates(source, count) if "tie-break" in codes else []),
             *(LineToAdd(line, count + 1) for code in codes for line in MISTAKES[code].witness_lines)]
    for line in lines:
        if line not in seen:
            seen.add(line)
            yield line


def separating_line(source: CheckCorpus, first: Variant, second: Variant, merges: int, *, deadline: float,
                    count: int = 2) -> Separation | None:
    """The first candidate line after which ``first`` and ``second`` make different merges within
    ``merges`` (at most :data:`SEPARATING_MERGES`; None when none of :data:`MAX_LINES_TRIED` does, or at
    ``deadline``); ``count``: the top pair count at the first merge, which a tie line matches and a
    witness line passes."""
    codes = tuple(dict.fromkeys(part.code for variant in (first, second) for part in variant.single if part.code))
    merges = min(merges, SEPARATING_MERGES)
    for tried, candidate in enumerate(candidate_lines(source, codes, count)):
        if tried >= MAX_LINES_TRIED or time.perf_counter() > deadline:
            return None
        grown = candidate.added_to(source)
        made = [train_merges(corpus_of(grown, variant), variant.settings, merges, rules=variant.rules or Rules(),
                             deadline=deadline) for variant in (first, second)]
        if time.perf_counter() > deadline:
            return None
        said = dict(line=candidate.unit, times=candidate.times, at_start=candidate.at_start)
        for step, (a, b) in enumerate(zip(*made), start=1):
            if a != b:
                return Separation(step=step, first=a, second=b, **said)
        if len(made[0]) != len(made[1]):
            step = min(map(len, made)) + 1
            return Separation(step=step, first=made[0][step - 1] if len(made[0]) >= step else None,
                              second=made[1][step - 1] if len(made[1]) >= step else None, **said)
    return None
