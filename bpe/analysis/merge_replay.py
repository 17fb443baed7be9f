"""A tokenizer's merge list replayed over sample texts: every pair's count in every sample, merge by merge.

Scope: :func:`sample_words` (a text as the tokenizer's own training would see it: its chunks, each
as base ids, with counts) and :func:`replay`, which applies merges 1, 2, ... to every sample at once
and keeps what the data-mixture inference reads (:mod:`bpe.analysis.mix_program`): before each merge,
the merged pair's count in each sample, and for every pair the history of its counts, as the steps
at which they change. Out of scope: the linear program.

Each sample keeps its pair counts as the trainer does and is merged with the trainer's own
:func:`~bpe.training.pair_merge.merge_pair`, so a merge changes only the counts it touches, and the
history holds one entry per change: a few tens of thousands for 3,000 merges over 350 KB of samples.

    >>> from bpe import Corpus, TrainSettings, Tokenizer, train
    >>> tok = Tokenizer.from_trace(train(Corpus.from_text("abab", pretokenizer="none"), TrainSettings(pretokenizer="none", merges=1)))
    >>> history = replay(tok, {"A": sample_words(tok, "abab"), "B": sample_words(tok, "ba")})
    >>> [tok.token_text(i) for i in history.steps[0].pair], history.steps[0].merged
    (['a', 'b'], (2, 0))
    >>> history.changes[(98, 97)]      # "ba": once in each sample from step 1; merging "ab" took A's
    [(1, 0, 1), (1, 1, 1), (2, 0, 0)]

Merge 1 made "ab": 2 of them in A, none in B; its rival "ba" was there once in each.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Mapping
from typing import NamedTuple

from ..encoding.tokenizer import Tokenizer
from ..tokens.vocab import Pair
from ..training.pair_merge import index_pairs, merge_pair

Change = tuple[int, int, int]
"""``(step, sample index, count)``: from merge ``step`` on (before it is applied), the pair occurs
``count`` times in that sample."""


class SampleWords(NamedTuple):
    """One sample text as training sees it: distinct chunks as base ids, their counts, its size."""

    words: list[list[int]]
    freqs: list[int]
    size: int
    """The text's length in UTF-8 bytes: counts are compared per byte (the proportions are of bytes)."""


class StepCounts(NamedTuple):
    """Merge ``step`` (1-based) and its pair's count in each sample just before it was applied."""

    step: int
    pair: Pair
    merged: tuple[int, ...]


class MergeHistory(NamedTuple):
    steps: list[StepCounts]
    changes: dict[Pair, list[Change]]
    """Per pair, its counts as they change, in step order (a count not listed for a sample is 0)."""


def sample_words(tokenizer: Tokenizer, text: str) -> SampleWords:
    """``text`` cut as ``tokenizer`` cuts it (normalization, pre-tokenizer; special-token text read as plain
    text), each chunk as its base ids: what training on ``text`` would have started from.

    >>> from bpe.pretrained.registry import load_pretrained
    >>> sample_words(load_pretrained("gpt2"), "hi hi").words   # 'hi' and ' hi', GPT-2's ids of h, i and Ġ
    [[71, 72], [220, 71, 72]]
    """
    chunks: Counter[tuple[int, ...]] = Counter()
    for walk in tokenizer.encode_walkthrough(text, allowed_special=frozenset(), disallowed_special=(), walk=False):
        if len(walk.initial) > 1:  # a chunk of one token holds no pair
            chunks[walk.initial] += 1
    return SampleWords([list(ids) for ids in chunks], list(chunks.values()), len(text.encode("utf-8")))


def replay(
    tokenizer: Tokenizer, samples: Mapping[str, SampleWords], *, merges: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> MergeHistory:
    """Apply ``tokenizer``'s first ``merges`` merges (all by default) to every sample, in rank order, and
    keep each merge's counts and every pair's history. ``progress(done, total)`` is called now and then.

    Subtle: a rank file's recovered merges may rank a token before one of its parts (Llama 3's ``.:.:``
    before ``.:.``); such a merge finds its pair nowhere, counts 0 everywhere and changes nothing."""
    chosen = tokenizer.merges[:merges]
    changes: dict[Pair, list[Change]] = defaultdict(list)
    state = []
    for index, sample in enumerate(samples.values()):
        words = [list(ids) for ids in sample.words]  # merged in place: the caller's lists stay as they were
        counts, holders = index_pairs(words, sample.freqs)
        for pair, count in counts.items():
            changes[pair].append((1, index, count))
        state.append((words, sample.freqs, counts, holders))
    steps = []
    for step, (left, right, new_id) in enumerate(chosen, 1):
        pair = (left, right)
        steps.append(StepCounts(step, pair, tuple(counts.get(pair, 0) for _, _, counts, _ in state)))
        for index, (words, freqs, counts, holders) in enumerate(state):
            held = holders.pop(pair, None)
            if not held or pair not in counts:
                continue
            for changed, delta in merge_pair(words, freqs, held, pair, new_id, holders).deltas.items():
                if delta:
                    count = counts[changed] = counts.get(changed, 0) + delta
                    changes[changed].append((step + 1, index, count))
        if progress is not None and step % 250 == 0:
            progress(step, len(chosen))
    return MergeHistory(steps, dict(changes))
