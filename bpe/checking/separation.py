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

from .compact import train_merges
from .mistakes import MISTAKES, Variant
from .rules import Rules
from .search import CheckCorpus, corpus_of
from .verdict import Separation

MAX_LINES_TRIED = 8
"""Candidate lines tried for one pair of re-trainings (each costs two short trainings on the corpus)."""
SEPARATING_MERGES = 12
"""Merges each training runs with a candidate line: a line repeated past the corpus's top count
changes the first merges, so a difference it makes shows there (this keeps a try cheap on a big corpus)."""


def _letters(source: CheckCorpus) -> list[str]:
    text = source.normalized_text(None)
    return sorted({char for char in text[:200_000] if char.isalpha()}) or ["a", "z"]


def tie_lines(source: CheckCorpus) -> list[tuple[str, int]]:
    """``(word, times)`` that make a tie at the top count with a new pair that sorts first or last (or
    comes last in the text): a two-letter word of the corpus's greatest or smallest letter, ``times`` 0
    (as many times as the corpus's top pair occurs)."""
    letters = _letters(source)
    low, high = letters[0], letters[-1]
    return [(word, 0) for word in (high * 2, low * 2, high + low, low + high)]


def candidate_lines(source: CheckCorpus, codes: tuple[str, ...]) -> Iterator[tuple[str, int]]:
    """``(line, times)`` to try: the tie lines when a tie rule is one of the two, then the two mistakes'
    own witnesses (:attr:`~bpe.checking.mistakes.Mistake.witness_lines`), each repeated past the top count
    (``times`` -1), so that it shows in the first merges."""
    seen: set[str] = set()
    lines = [*(tie_lines(source) if "tie-break" in codes else []),
             *((line, -1) for code in codes for line in MISTAKES[code].witness_lines)]
    for line, times in lines:
        if line not in seen:
            seen.add(line)
            yield line, times


def separating_line(source: CheckCorpus, first: Variant, second: Variant, merges: int, *, deadline: float,
                    count: int = 2) -> Separation | None:
    """The first candidate line after which ``first`` and ``second`` make different merges within
    ``merges`` (at most :data:`SEPARATING_MERGES`; None when none of :data:`MAX_LINES_TRIED` does, or at
    ``deadline``); ``count``: the top pair count at the first merge, which a tie line matches and a
    witness line passes."""
    codes = tuple(dict.fromkeys(part.code for variant in (first, second) for part in variant.single if part.code))
    merges = min(merges, SEPARATING_MERGES)
    for tried, (unit, times) in enumerate(candidate_lines(source, codes)):
        if tried >= MAX_LINES_TRIED or time.perf_counter() > deadline:
            return None
        repeats = max(count, 1) if times == 0 else count + 1
        line = " ".join([unit] * repeats) if times == 0 else unit
        grown = source.with_line("\n".join([line] * (1 if times == 0 else repeats)))
        made = [train_merges(corpus_of(grown, variant), variant.settings, merges, rules=variant.rules or Rules(),
                             deadline=deadline) for variant in (first, second)]
        if time.perf_counter() > deadline:
            return None
        times_said = 1 if times == 0 else repeats
        for step, (a, b) in enumerate(zip(*made), start=1):
            if a != b:
                return Separation(line, step, a, b, times_said)
        if len(made[0]) != len(made[1]):
            step = min(map(len, made)) + 1
            return Separation(line, step, *(m[step - 1] if len(m) >= step else None for m in made), times_said)
    return None
