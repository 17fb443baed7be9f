"""What was this tokenizer trained on? Its merge list, sample texts of each category, and the linear program.

:func:`infer_mix` replays the tokenizer's first merges over every sample, keeping every pair's count
history (:mod:`~bpe.analysis.merge_replay`), and solves Hayase et al.'s linear program by constraint
generation over every pair (:mod:`~bpe.analysis.mix_program`). The answer is the share of each category in the training bytes, as far
as the samples stand for the training data.

    >>> from bpe.analysis.known_mix import train_on_mix
    >>> from bpe import Tokenizer
    >>> texts = {"A": "abc abc abc abd", "B": "xyz xyz xyw xyw"}
    >>> tok = Tokenizer.from_trace(train_on_mix(texts, {"A": 0.5, "B": 0.5}, merges=4))
    >>> estimate = infer_mix(tok, texts, merges=4)
    >>> estimate.informative, {name: round(share, 2) for name, share in estimate.proportions.items()}
    (4, {'A': 0.5, 'B': 0.5})

Out of scope: training a known mix (``known_mix``) and the categories' texts (``samples``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from ..encoding.tokenizer import Tokenizer
from ..errors import BpeError
from ..limits import MAX_MIX_MERGES
from .lp_solver import solve_highs
from .merge_replay import SampleWords, replay, sample_words
from .mix_program import MixProgram, Solve

Progress = Callable[[str, float], None]
"""``progress(what is being done, fraction done)``."""


@dataclass(frozen=True)
class MixEstimate:
    """An inferred mix and how it was reached."""

    proportions: dict[str, float]
    """Category -> share of the training bytes, in the samples' order, summing to 1."""
    merges: int
    """Merges read (the first ones of the tokenizer)."""
    informative: int
    """Of those, the merges whose pair occurs in some sample (the others say nothing about these categories)."""
    constraints: int
    """Constraints in the last program (the others were met with room to spare)."""
    solves: int
    merge_slack: float
    """Total slack of the merges (per million sample bytes): how much the samples fail to explain."""
    pair_slack: float
    gap: float
    """How far the slack may be above the least possible, as a share (:attr:`~bpe.analysis.mix_program.MixSolution.gap`)."""


def infer_mix(
    tokenizer: Tokenizer, samples: Mapping[str, str], *, merges: int = 3_000, solve: Solve | None = None,
    progress: Progress | None = None,
) -> MixEstimate:
    """The mix of ``samples``' categories (name -> sample text) that best explains ``tokenizer``'s first
    ``merges`` merges. ``solve``: the LP solver (SciPy's HiGHS by default, :mod:`bpe.analysis.lp_solver`)."""
    if not 1 <= merges <= MAX_MIX_MERGES:
        raise BpeError(f"the inference reads from 1 to {MAX_MIX_MERGES:,} merges, got {merges:,}")
    if len(samples) < 2:
        raise BpeError("a mix needs at least two categories, each with a sample text")
    words = {name: sample_words(tokenizer, text) for name, text in samples.items()}
    return estimate_from_words(tokenizer, words, merges=merges, solve=solve, progress=progress)


def estimate_from_words(
    tokenizer: Tokenizer, words: Mapping[str, SampleWords], *, merges: int, solve: Solve | None = None,
    progress: Progress | None = None,
) -> MixEstimate:
    """:func:`infer_mix` on samples already cut into words (:func:`~bpe.analysis.merge_replay.sample_words`)."""
    report = progress or (lambda what, done: None)
    merges = min(merges, len(tokenizer.merges))
    history = replay(tokenizer, words, merges=merges,
                     progress=lambda done, total: report("Replaying the merges over the samples", 0.5 * done / max(total, 1)))
    program = MixProgram(history, sizes=tuple(sample.size for sample in words.values()))
    report("Solving the linear program", 0.5)
    solution = program.solve(solve or solve_highs)
    report("Done", 1.0)
    return MixEstimate(
        proportions=dict(zip(words, solution.proportions)), merges=merges, informative=program.informative,
        constraints=solution.constraints, solves=solution.solves,
        merge_slack=sum(solution.merge_slack.values()), pair_slack=sum(solution.pair_slack.values()), gap=solution.gap,
    )


def mix_error(estimate: Mapping[str, float], truth: Mapping[str, float]) -> float:
    """Mean absolute error of the inferred shares against the true ones, over every category of either.

    >>> mix_error({"A": 0.6, "B": 0.4}, {"A": 0.5, "B": 0.5})
    0.1
    """
    names = dict.fromkeys([*truth, *estimate])
    return round(sum(abs(estimate.get(name, 0.0) - truth.get(name, 0.0)) for name in names) / len(names), 12)
