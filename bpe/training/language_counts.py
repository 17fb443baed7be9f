"""A parallel corpus's languages during training: each one's token cost and, for parity-aware
training, each one's pair counts, kept up to date merge by merge.

Scope: :class:`LanguageCounts`, which the trainer builds for a corpus of several languages
(``Corpus.from_languages``). It merges a pair one language at a time (:func:`~bpe.training.pair_merge.merge_pair`
on that language's words), so each language's changes of count are its own and their sum is the
whole corpus's; it ranks the pairs of the language an objective asks (:mod:`bpe.training.objectives`);
and :class:`LanguageChoice` is parity-aware training's chooser (:mod:`bpe.training.choice`).
Out of scope: which language asks (``objectives``) and the whole corpus's counts (``trainer``).

Why per-language counts are buckets without a sorted order (``PairCounts`` with no keys): the tie
rule's keys are the whole corpus's (the first-seen rule's first occurrence moves when *any*
language's word changes), so a language's tied pairs are ranked with those keys when asked, which
a kept order could not follow.

    >>> counts = LanguageCounts([[1, 2, 1, 2], [1, 2]], [1, 1], [0, 1], languages=2, by_language=True)
    >>> counts.tokens, counts.counts[0].count, counts.counts[1].count
    ([4, 2], {(1, 2): 2, (2, 1): 1}, {(1, 2): 1})
"""

from __future__ import annotations

import heapq
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from ..tokens.vocab import Pair
from .choice import STOP_MIN_FREQUENCY, Choice, CountsChoice, Stop
from .pair_merge import PairMerge, merge_pair
from .pair_queue import PairCounts

if TYPE_CHECKING:
    from .objectives import Objective


class LanguageCounts:
    def __init__(
        self, words: list[list[int]], freqs: list[int], word_languages: Sequence[int], *, languages: int,
        by_language: bool, allowed: Callable[[Pair], bool] | None = None,
    ) -> None:
        self.language_of = list(word_languages)
        self.tokens = [0] * languages
        """Per language: how many tokens its words hold now (weighted by their counts): its cost."""
        self._allowed = allowed
        found: list[dict[Pair, int]] = [defaultdict(int) for _ in range(languages)]
        for ids, freq, language in zip(words, freqs, self.language_of):
            self.tokens[language] += len(ids) * freq
            if by_language:
                for pair in zip(ids, ids[1:]):
                    found[language][pair] += freq
        self.counts: list[PairCounts] | None = None
        """Per language: its pair counts (only when its objective reads them)."""
        if by_language:
            self.counts = [PairCounts(self._kept(pairs), keys={}) for pairs in found]

    def _kept(self, deltas: dict[Pair, int]) -> dict[Pair, int]:
        allowed = self._allowed
        return deltas if allowed is None else {pair: n for pair, n in deltas.items() if allowed(pair)}

    def merge(
        self, words: list[list[int]], freqs: list[int], indices: Iterable[int], pair: Pair, new_id: int,
        holders: dict[Pair, set[int]],
    ) -> PairMerge:
        """Merge ``pair`` language by language; return the whole corpus's :class:`PairMerge`."""
        by_language: dict[int, list[int]] = defaultdict(list)
        for index in indices:
            by_language[self.language_of[index]].append(index)
        deltas: dict[Pair, int] = defaultdict(int)
        rewritten: list[int] = []
        replaced = 0
        for language, held in sorted(by_language.items()):
            done = merge_pair(words, freqs, held, pair, new_id, holders)
            self.tokens[language] -= done.replaced
            if self.counts is not None:
                self.counts[language].apply(self._kept(done.deltas), new_keys={})
            for changed, delta in done.deltas.items():
                deltas[changed] += delta
            rewritten += done.rewritten
            replaced += done.replaced
        return PairMerge(dict(deltas), rewritten, replaced)

    def choosing(self, order: Sequence[int], min_frequency: int) -> int | None:
        """The first language of ``order`` with a pair at ``min_frequency`` or more (``None``: every
        language is exhausted)."""
        if self.counts is None:
            raise RuntimeError("internal error: only an objective that reads a language's counts asks which one chooses")
        return next(
            (language for language in order if self.counts[language] and self.counts[language].best_count() >= min_frequency),
            None,
        )

    def ranking(self, language: int, *, key: Callable[[Pair], object], greatest_wins: bool, top_k: int, max_ties: int) -> Choice:
        """``language``'s :class:`~bpe.training.choice.Choice`, as :func:`~bpe.training.choice.ranking`
        gives the whole corpus's, ranked by ``key`` (the tie rule's key over the whole corpus)."""
        counts = self.counts[language]
        pick = heapq.nlargest if greatest_wins else heapq.nsmallest
        count = counts.best_count()
        tied = tuple(pick(max(max_ties, top_k, 1), counts.pairs_with(count), key=key))
        top, top_counts = list(tied[:top_k]), [count] * min(len(tied), top_k)
        for level in counts.levels_descending():
            if len(top) >= top_k:
                break
            if level == count:
                continue
            more = pick(top_k - len(top), counts.pairs_with(level), key=key)
            top += more
            top_counts += [level] * len(more)
        return Choice(count, len(counts.pairs_with(count)), tied, tuple(top), tuple(top_counts), language)


class LanguageChoice(CountsChoice):
    """Parity-aware BPE's chooser: when the whole corpus's counts allow a merge, the first language in
    the objective's order with a pair at the minimum frequency chooses, its pairs ranked by the whole
    corpus's keys; when every language is exhausted, training stops."""

    def __init__(
        self, counts: PairCounts, languages: LanguageCounts, objective: "Objective", *,
        min_frequency: int, max_ties: int, top_k: int, has_words: bool,
    ) -> None:
        super().__init__(counts, min_frequency=min_frequency, max_ties=max_ties, top_k=top_k, has_words=has_words)
        self.languages, self.objective = languages, objective

    def choose(self) -> Choice | Stop:
        stop = self.stop()
        if stop:
            return stop
        language = self.languages.choosing(self.objective.order(self.languages.tokens), self.min_frequency)
        if language is None:
            return Stop(STOP_MIN_FREQUENCY, (
                f"in every language the most frequent pair occurs fewer than {self.min_frequency} times"
            ))
        return self.languages.ranking(
            language, key=self.counts.keys.__getitem__, greatest_wins=self.counts.greatest_wins,
            top_k=self.top_k, max_ties=self.max_ties,
        )
