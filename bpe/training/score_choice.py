"""WordPiece's choice of the next merge: the best score, a pair's count over the product of its tokens' counts.

BPE merges the most frequent pair. WordPiece (Schuster and Nakajima, 2012; BERT's tokenizer), as
the Hugging Face course trains it, merges the pair with the best

    score(a, b) = count(a b) / (count(a) * count(b))

where ``count(a)`` is how often token ``a`` occurs in the corpus now (a word that is one token
counts too). A frequent pair of frequent tokens (``u`` + ``g`` in the course's example, 20 times,
but ``u`` occurs 36 times) loses to a rarer pair whose tokens seldom occur apart (``g`` + ``s``,
5 / (20 * 5) = 1/20 against 20 / (36 * 20) = 1/36): the score is pointwise mutual information
without the logarithm. Ties at the best score are broken by the run's tie rule, as ties at the best
count are; scores are compared as exact fractions, never as rounded floats.

How it stays fast: a max-heap of float scores with stale entries skipped. A merge of (a, b) into c
changes the counts of the pairs in its ``deltas`` and of the tokens a, b and c, so every pair
holding a or b gets a fresh entry (an index ``token -> pairs`` finds them; c's pairs are all in
``deltas``). The float only orders the heap: the pairs whose floats equal the best are compared as
fractions (equal fractions always round to equal floats, as Python divides integers correctly
rounded, so no tied pair hides below them).

**The ``##`` prefix is notation, not a setting.** WordPiece writes a token that continues a word
with ``##`` (``h ##u ##g``), and so keeps a word's first ``h`` and an inner ``##h`` apart as two
symbols. BPE Lab's symbols are a text's bytes or characters, the same wherever they stand, as in
every other run and page (the encoder, the exports, the checks read them): a WordPiece run here
changes *which pair is chosen*, the one thing this lesson is about, and nothing else. The pages
show ``##`` where the course writes it. The price: on a corpus where a letter both begins and
continues words, WordPiece counts two symbols where this run counts one, so its scores differ;
on the course's example no letter does (``h p b`` only begin words, ``u g n s`` only continue
them), and this run makes the course's merges exactly (``tests/test_wordpiece.py``).

    >>> from bpe.training.pair_queue import PairCounts
    >>> words, freqs = [[0, 1, 2], [1, 2, 3], [2]], [10, 2, 6]     # h u g ×10, u g s ×2, g ×6
    >>> counts = PairCounts({(0, 1): 10, (1, 2): 12, (2, 3): 2}, keys={(0, 1): 0, (1, 2): 1, (2, 3): 2})
    >>> choice = ScoreChoice(counts, words, freqs, min_frequency=1, max_ties=5, top_k=3, has_words=True).choose()
    >>> choice.tied, choice.scores.chosen.score, choice.scores.by_count    # h u: 10 / (10 × 12); u g: 12 / (12 × 18)
    (((0, 1),), Fraction(1, 12), (1, 2))
"""

from __future__ import annotations

import heapq
from collections import defaultdict
from collections.abc import Iterable

from ..tokens.vocab import Pair
from .choice import Choice, CountsChoice, PairScore, Stop, StepScores
from .pair_queue import PairCounts

REBUILD_FACTOR = 4
"""The heap is rebuilt from the live pairs once it holds this many times more entries (stale ones skipped)."""


class ScoreChoice(CountsChoice):
    """The pair with the best WordPiece score among those at the minimum frequency or more."""

    def __init__(
        self, counts: PairCounts, words: list[list[int]], freqs: list[int], *,
        min_frequency: int, max_ties: int, top_k: int, has_words: bool,
    ) -> None:
        super().__init__(counts, min_frequency=min_frequency, max_ties=max_ties, top_k=top_k, has_words=has_words)
        self.tokens: dict[int, int] = defaultdict(int)
        """Token id -> how often it occurs in the corpus now."""
        for ids, freq in zip(words, freqs):
            for token in ids:
                self.tokens[token] += freq
        self.pairs_of: dict[int, set[Pair]] = defaultdict(set)
        """Token id -> the counted pairs that hold it (to re-score them when its count changes)."""
        for pair in counts.count:
            self.pairs_of[pair[0]].add(pair)
            self.pairs_of[pair[1]].add(pair)
        self._rebuild()

    def _float(self, pair: Pair) -> float:
        return self.counts.count[pair] / (self.tokens[pair[0]] * self.tokens[pair[1]])

    def _eligible(self, pair: Pair) -> bool:
        count = self.counts.count.get(pair, 0)
        return count > 0 and count >= self.min_frequency

    def _rebuild(self) -> None:
        self.heap = [(-self._float(pair), pair) for pair in self.counts.count if self._eligible(pair)]
        heapq.heapify(self.heap)

    def score(self, pair: Pair) -> PairScore:
        """``pair``'s score now (it must be counted)."""
        return PairScore(self.counts.count[pair], self.tokens[pair[0]], self.tokens[pair[1]])

    def choose(self) -> Choice | Stop:
        stop = self.stop()
        if stop:
            return stop
        popped: list[tuple[float, Pair]] = []
        groups = self._groups(popped)
        try:
            ranked = next(groups)  # there is one: stop() found a pair at the minimum frequency
            best = self.score(ranked[0]).score
            tied = [pair for pair in ranked if self.score(pair).score == best]
            top = ranked
            while len(top) < self.top_k:
                group = next(groups, None)
                if group is None:
                    break
                top += group
        finally:
            for entry in popped:  # still valid: back they go
                heapq.heappush(self.heap, entry)
        top = top[: self.top_k]
        by_count = self.counts.ranked(self.counts.best_count(), 1)[0]
        scores = StepScores(tuple(map(self.score, top)), self.score(tied[0]), by_count, self.score(by_count))
        count = self.counts.count[tied[0]]
        return Choice(
            count, len(tied), tuple(tied[: max(self.max_ties, self.top_k, 1)]), tuple(top),
            tuple(self.counts.count[pair] for pair in top), scores=scores,
        )

    def _groups(self, popped: list[tuple[float, Pair]]) -> Iterable[list[Pair]]:
        """The eligible pairs, best score first, one group per float score: each group in exact-score
        order, then the rule's; every entry taken from the heap is kept in ``popped``."""
        heap, seen = self.heap, set()
        key = self.counts.keys.__getitem__
        while True:
            group: list[Pair] = []
            level = None
            while heap:
                negative, pair = heap[0]
                if level is not None and negative != level:
                    break
                heapq.heappop(heap)
                if pair in seen or not self._eligible(pair) or -negative != self._float(pair):
                    continue  # a duplicate, or stale: the pair's score changed since (a fresh entry is in)
                seen.add(pair)
                popped.append((negative, pair))
                level = negative
                group.append(pair)
            if not group:
                return
            group.sort(key=key, reverse=self.counts.greatest_wins)
            group.sort(key=lambda pair: self.score(pair).score, reverse=True)  # stable: the rule's order within a score
            yield group

    def merged(self, pair: Pair, deltas: dict[Pair, int], *, new_id: int, replaced: int) -> None:
        """Book the new token counts (``replaced`` times ``new_id`` made, as many of each part gone)
        and give every pair whose score changed a fresh heap entry."""
        tokens, live = self.tokens, self.counts.count
        tokens[new_id] += replaced
        for part in pair:
            tokens[part] -= replaced
            if not tokens[part]:
                del tokens[part]
        for changed in deltas:
            holders = (self.pairs_of[changed[0]], self.pairs_of[changed[1]])
            for held in holders:
                (held.add if changed in live else held.discard)(changed)
        rescored = {changed for changed in deltas if changed in live}
        for part in pair:
            rescored |= self.pairs_of.get(part, set())
        for changed in rescored:
            if self._eligible(changed):
                heapq.heappush(self.heap, (-self._float(changed), changed))
        if len(self.heap) > REBUILD_FACTOR * len(live) + 1000:
            self._rebuild()
