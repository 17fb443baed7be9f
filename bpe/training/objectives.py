"""Objectives: whose pair counts choose the next merge.

Classic BPE counts every pair of the whole corpus and merges the most frequent. Parity-aware BPE
(Foroutan et al., 2025, "Parity-aware Byte-Pair Encoding") trains on a parallel corpus, the same
text in several languages: at each step the language whose text is the most tokens now (the worst
compressed) chooses, and the most frequent pair *in that language* is merged everywhere. On the
same meaning in every language, the per-language token counts flatten (the paper reports the Gini
coefficient of those costs falling by up to 89 %).

WordPiece (Schuster and Nakajima, 2012), as the Hugging Face course trains it, merges the pair with
the best *score*, its count over the product of its two tokens' counts, rather than the most
frequent one: its chooser is :class:`~bpe.training.score_choice.ScoreChoice`, whose docstring says
why the ``##`` prefix is notation here, not a setting.

An objective is one :class:`Objective` in :data:`OBJECTIVES`: the trainer reads its fields, never
its name. With a corpus of one language, or of none, every objective makes the classic merges
(``tests/test_variants.py`` checks it merge for merge).

Read from Hugging Face tokenizers' ``ParityBpeTrainer`` (``models/bpe/parity_trainer.rs``, "matching
the Python reference implementation exactly"), its ``base`` variant: the language with the most
tokens chooses (the first on a tie); a language whose best pair is below the minimum frequency is
exhausted and the next one chooses; merges apply to every language. The cost is measured on the
training text itself (the trainer's fallback when no separate development set is given).

    >>> objective("parity-aware").order([410, 230, 410])     # languages 0 and 2 tie: the first chooses
    [0, 2, 1]
    >>> objective("classic").by_language, objective("wordpiece").chooser.__name__
    (False, 'ScoreChoice')
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..errors import SettingsError
from ..registry import Registry
from .choice import Chooser
from .score_choice import ScoreChoice


@dataclass(frozen=True)
class Objective:
    name: str
    title: str
    summary: str
    """One line: what chooses."""
    used_by: str
    by_language: bool
    """The counts of one language choose (in :meth:`order`), not those of the whole corpus."""
    chooser: Callable[..., Chooser] | None = None
    """An objective that chooses by something other than a count: its chooser
    (:mod:`bpe.training.choice`), built as ``chooser(counts, words, freqs, min_frequency=, max_ties=,
    top_k=, has_words=)``; ``None``: the pair counts choose."""

    def order(self, costs: Sequence[int]) -> list[int]:
        """The languages in the order they are asked to choose: the most tokens first, the first
        listed on a tie (a stable sort, as the owner's scan keeps the first maximum)."""
        return sorted(range(len(costs)), key=lambda language: -costs[language])


OBJECTIVES: Registry[Objective] = Registry("objective", error=SettingsError, entries=(
    Objective(
        "classic", "Classic", "the most frequent pair in the whole corpus",
        "every BPE trainer (Sennrich et al., GPT-2, tiktoken, Hugging Face, SentencePiece)", by_language=False,
    ),
    Objective(
        "parity-aware", "Parity-aware",
        "the most frequent pair in the language whose text is the most tokens now",
        "Foroutan et al. (2025); Hugging Face tokenizers' ParityBpeTrainer", by_language=True,
    ),
    Objective(
        "wordpiece", "WordPiece",
        "the pair with the best score: its count over the product of its two tokens' counts",
        "WordPiece (Schuster and Nakajima, 2012; BERT) as the Hugging Face course trains it (Hugging Face "
        "tokenizers' WordPieceTrainer counts as BPE does)", by_language=False, chooser=ScoreChoice,
    ),
))
"""Every objective by name, in the order the app lists them."""


def objective(name: str) -> Objective:
    """The registered objective called ``name``; an unknown name is a :class:`SettingsError`."""
    return OBJECTIVES.lookup(name)


def gini(costs: Sequence[float]) -> float:
    """The Gini coefficient of ``costs``: 0 when every language costs the same, towards 1 when one
    costs everything (the mean absolute difference of all pairs over twice the mean).

    >>> gini([10, 10, 10]), gini([0, 0, 30]), round(gini([1, 2, 3, 4]), 4)
    (0.0, 0.6666666666666666, 0.25)
    """
    values = sorted(costs)
    n, total = len(values), sum(values)
    if n == 0 or total == 0:
        return 0.0
    # sum over pairs |a - b| = 2 * sum_i (2i - n + 1) * v_i for sorted values (0-based i)
    return sum((2 * i - n + 1) * value for i, value in enumerate(values)) / (n * total)
