"""The parity-aware lab: classic and parity-aware BPE trained on one sentence in 16 languages.

The Declaration's first article (``bpe.teaching.udhr``) says the same thing in every language, so
the tokens each language's text takes are its cost, comparable across languages: a language whose
text is three times as many tokens pays three times as much for the same meaning. Both runs learn
from the same parallel corpus with the same settings; only the objective differs
(:mod:`bpe.training.objectives`): classic BPE merges the most frequent pair of all sixteen texts, parity-aware
BPE lets the language that is the most tokens now choose from its own counts. At every step the lab
reads each language's cost from the traces (the trainer records them) and the Gini coefficient
of those costs, 0 when all pay alike.

    >>> lab = parity_lab(merges=40)
    >>> len(lab.languages), lab.costs("classic", 0) == lab.costs("parity-aware", 0)
    (16, True)
    >>> lab.gini("parity-aware", 40) < lab.gini("classic", 40) < lab.gini("classic", 0)
    True
    >>> print(lab.pick("classic", 2)); print(lab.pick("parity-aware", 2))
    The most frequent pair of all 16 texts, ‹e0› + ‹a4›, occurs 118 times.
    Tamil is the most tokens now (511): its most frequent pair, ‹e0› + ‹af›, occurs 60 times there.

Scope: the two runs and what the lab reads of them. Out of scope: drawing (``views.parity``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from types import MappingProxyType

from ..notation.spelling import spelled
from ..text.corpus import Corpus
from ..training.objectives import OBJECTIVES, gini
from ..training.settings import TrainSettings
from ..training.trainer import train
from .udhr import ARTICLE_1

TEXTS = MappingProxyType({sentence.language: sentence.text for sentence in ARTICLE_1})
"""Each language's sentence, in the Why page's order."""
LAB_MERGES = 300
"""Merges each run learns: past the point where parity-aware training has evened the costs out."""


@dataclass(frozen=True)
class ParityLab:
    runs: MappingProxyType
    """Objective name -> its trace (``classic`` and ``parity-aware``)."""

    @property
    def languages(self) -> tuple[str, ...]:
        return self.runs["classic"].languages

    @property
    def steps(self) -> int:
        """The most merges either run made (a run that stopped early keeps its last costs)."""
        return max(len(trace.steps) for trace in self.runs.values())

    def costs(self, objective: str, step: int) -> tuple[int, ...]:
        """Each language's tokens after ``step`` merges of that run."""
        trace = self.runs[objective]
        return trace.language_costs(min(step, len(trace.steps)))

    def gini(self, objective: str, step: int) -> float:
        return gini(self.costs(objective, step))

    def gini_curve(self, objective: str) -> list[tuple[int, float]]:
        return [(step, self.gini(objective, step)) for step in range(self.steps + 1)]

    def chooser(self, step: int) -> int | None:
        """The language that chose parity-aware merge ``step`` (``None`` at step 0 or past its end)."""
        trace = self.runs["parity-aware"]
        return trace.chosen_by[step - 1][0] if 0 < step <= len(trace.chosen_by) else None

    def pick(self, objective: str, step: int) -> str:
        """Merge ``step`` of a run in one sentence: who chose it, and how often its pair occurred."""
        trace = self.runs[objective]
        if step == 0:
            return "No merge yet: every language's text is as many tokens as it has " + (
                "bytes." if trace.settings.unit == "byte" else "characters."
            )
        if step > len(trace.steps):
            return f"This run stopped after merge {len(trace.steps):,}: {trace.stop_detail}."
        merge = trace.steps[step - 1]
        pair = f"{spelled(trace, merge.left)} + {spelled(trace, merge.right)}"
        if not trace.chosen_by:
            return f"The most frequent pair of all {len(self.languages)} texts, {pair}, occurs {merge.count:,} times."
        language, count = trace.chosen_by[step - 1]
        cost = trace.language_costs(step - 1)[language]
        return (
            f"{self.languages[language]} is the most tokens now ({cost:,}): its most frequent pair, {pair}, "
            f"occurs {count:,} times there."
        )


@cache
def parity_lab(*, unit: str = "byte", pretokenizer: str = "gpt2", tie_break: str = "first-seen", merges: int = LAB_MERGES) -> ParityLab:
    """Both runs on the Declaration (cached: a handful of settings, a few hundredths of a second each)."""
    corpus = Corpus.from_languages(TEXTS, pretokenizer=pretokenizer)
    runs = {
        name: train(corpus, TrainSettings(unit=unit, pretokenizer=pretokenizer, tie_break=tie_break, merges=merges, objective=name))
        for name in OBJECTIVES
    }
    return ParityLab(MappingProxyType(runs))

