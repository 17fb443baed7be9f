"""The incremental BPE trainer: merge the most frequent pair, record why, repeat.

Scope: training from a :class:`~bpe.corpus.Corpus` into a :class:`~bpe.trace.Trace`. Out of scope:
splitting text (``corpus``/``pretokenize``), choosing among ties (``tiebreak``), encoding.

How it stays fast without ever recounting the corpus:

* Words are stored once with their counts, so "low" seen 5 times is one list of ids.
* ``pair -> count`` is kept up to date from *local* changes only: merging (a, b) -> c at a spot
  with neighbours x and y removes (x, a), (a, b), (b, y) and adds (x, c), (c, y), each weighted by
  the word's count. Only words listed as containing (a, b) are visited.
* Counts are also bucketed (``count -> pairs``) with the distinct counts kept sorted, so the best
  count, every pair tied at it, and the top-k pairs come without a scan. A merge can never create a
  pair more frequent than itself, so the best count only goes down.

Counting is with overlap ("aaa" has (a, a) twice: that is what every trainer compares), while
merging replaces left to right without overlap ("aaa" -> "aa a"). Worked example, merging
``ids=[1, 2, 3, 1, 2], pair=(1, 2), new=4 -> [4, 3, 4]``: (1, 2) -2, (2, 3) -1, (3, 1) -1,
(4, 3) +1, (3, 4) +1.
"""

from __future__ import annotations

import bisect
import time
from collections import defaultdict
from collections.abc import Callable

from .corpus import Corpus
from .settings import TrainSettings
from .tiebreak import Pair, TieContext, hf_ranks, tie_break_rule
from .trace import (
    STOP_MERGES, STOP_MIN_FREQUENCY, STOP_NO_PAIRS, STOP_TIME_LIMIT, STOP_VOCAB_SIZE,
    MergeStep, PairCount, Trace,
)
from .vocab import Token, base_tokens, token_sort_bytes

ProgressCallback = Callable[[int, int], None]
"""Called as ``progress(merges_done, merges_wanted)`` every 100 merges."""


class PairCounts:
    """``pair -> count`` plus buckets by count, so the best pairs are found without a scan.

    Buckets that have been read in order stay sorted by the tie-break key as counts change, so
    listing the ties and the top-k pairs costs no sort per merge.

    >>> counts = PairCounts({(1, 2): 2, (2, 3): 1, (3, 1): 1}, keys={})
    >>> counts.best_count(), sorted(counts.pairs_with(1))
    (2, [(2, 3), (3, 1)])
    """

    def __init__(self, counts: dict[Pair, int], *, keys: dict[Pair, object]) -> None:
        self.count = {pair: n for pair, n in counts.items() if n > 0}
        self.keys = keys
        """``pair -> tie-break key`` (preferred first); the trainer keeps it up to date."""
        self._bucket: dict[int, set[Pair]] = defaultdict(set)
        for pair, n in self.count.items():
            self._bucket[n].add(pair)
        self._levels = sorted(self._bucket)  # distinct counts with a non-empty bucket, ascending
        self._sorted: dict[int, list[Pair]] = {}  # count -> its bucket in key order, once asked for

    def __bool__(self) -> bool:
        return bool(self.count)

    def best_count(self) -> int:
        return self._levels[-1]

    def pairs_with(self, count: int) -> set[Pair]:
        return self._bucket[count]

    def sorted_pairs_with(self, count: int) -> list[Pair]:
        """The pairs with ``count``, ascending by key."""
        ordered = self._sorted.get(count)
        if ordered is None:
            ordered = self._sorted[count] = sorted(self._bucket[count], key=self.keys.__getitem__)
        return ordered

    def levels_descending(self):
        return reversed(self._levels)

    def apply(self, deltas: dict[Pair, int], new_keys: dict[Pair, object]) -> None:
        """Add ``deltas[pair]`` to each pair's count (pairs that reach 0 are dropped) and move
        the pairs in ``new_keys`` to their new key. A re-keyed pair always has a delta."""
        count, bucket, levels, ordered, keys = self.count, self._bucket, self._levels, self._sorted, self.keys
        key = keys.__getitem__
        for pair, delta in deltas.items():
            if not delta:
                continue
            old = count.get(pair, 0)
            new = old + delta
            if old:
                members = bucket[old]
                members.discard(pair)
                if not members:
                    del bucket[old]
                    del levels[bisect.bisect_left(levels, old)]
                    ordered.pop(old, None)
                elif old in ordered:
                    in_order = ordered[old]
                    del in_order[bisect.bisect_left(in_order, keys[pair], key=key)]
            if new > 0:
                count[pair] = new
                if pair in new_keys:
                    keys[pair] = new_keys[pair]
                members = bucket.get(new)
                if members is None:
                    bucket[new] = {pair}
                    bisect.insort(levels, new)
                else:
                    members.add(pair)
                    if new in ordered:
                        bisect.insort(ordered[new], pair, key=key)
            elif new == 0:
                del count[pair]
                keys.pop(pair, None)
            else:
                raise RuntimeError(f"internal error: the count of pair {pair} fell to {new}")


class FirstSeenIndex:
    """Where each pair first occurs, as ``(word index, byte offset in that word)``.

    Words are in order of first appearance, so the smallest key is the pair Python's ``max`` over
    an insertion-ordered dict of fresh counts would meet first. Byte offsets, unlike token
    positions, do not move when a merge shortens the word, so a key stays valid until the very
    occurrence it points at is merged away; only those keys are recomputed.
    """

    def __init__(self, words: list[list[int]], pair_words: dict[Pair, set[int]], token_bytes: list[int]):
        self._words = words
        self._pair_words = pair_words
        self._token_bytes = token_bytes  # per token id: its length in bytes (the marker has 0)
        self.keys: dict[Pair, tuple[int, int]] = {}
        self._keyed_in: dict[int, set[Pair]] = defaultdict(set)  # word index -> pairs keyed there
        for index, ids in enumerate(words):
            for pair, offset in self._first_offsets(ids).items():
                if pair not in self.keys:
                    self.keys[pair] = (index, offset)
                    self._keyed_in[index].add(pair)

    def _first_offsets(self, ids: list[int]) -> dict[Pair, int]:
        firsts: dict[Pair, int] = {}
        offset = 0
        token_bytes = self._token_bytes
        for pair in zip(ids, ids[1:]):
            firsts.setdefault(pair, offset)
            offset += token_bytes[pair[0]]
        return firsts

    def locate(self, pair: Pair) -> tuple[int, int]:
        """Search for the first occurrence of ``pair``, pruning words it has left."""
        holders = self._pair_words[pair]
        while holders:
            index = min(holders)
            offset = self._first_offsets(self._words[index]).get(pair)
            if offset is not None:
                return index, offset
            holders.discard(index)
        raise RuntimeError(f"internal error: pair {pair} has a count but occurs nowhere")

    def rekey(
        self, rewritten: list[int], created: set[Pair], still_counted: Callable[[Pair], bool]
    ) -> dict[Pair, tuple[int, int]]:
        """New keys after a merge rewrote the words ``rewritten`` and made the pairs ``created``."""
        new_keys: dict[Pair, tuple[int, int]] = {}
        for index in rewritten:
            keyed = self._keyed_in.get(index)
            if not keyed:
                continue
            firsts = self._first_offsets(self._words[index])
            for pair in list(keyed):
                if firsts.get(pair) == self.keys[pair][1]:
                    continue
                keyed.discard(pair)
                if pair in firsts:
                    new_keys[pair] = (index, firsts[pair])  # still first here: no earlier word has it
                elif still_counted(pair):
                    new_keys[pair] = self.locate(pair)
        for pair in created:
            if pair not in self.keys and pair not in new_keys:
                new_keys[pair] = self.locate(pair)
        for pair, (index, _) in new_keys.items():
            self._keyed_in[index].add(pair)
        return new_keys


def count_pairs(words: list[list[int]], freqs: list[int]) -> dict[Pair, int]:
    """Weighted pair counts with overlap: ``[[1, 2, 3, 1, 2]], [1] -> {(1, 2): 2, (2, 3): 1, (3, 1): 1}``."""
    counts: dict[Pair, int] = defaultdict(int)
    for ids, freq in zip(words, freqs):
        for pair in zip(ids, ids[1:]):
            counts[pair] += freq
    return dict(counts)


def merge_word(
    ids: list[int], left: int, right: int, new_id: int, freq: int, deltas: dict[Pair, int],
    created: list[Pair],
) -> list[int]:
    """Replace ``(left, right)`` by ``new_id`` left to right.

    The pair-count changes are added to ``deltas`` and the pairs containing ``new_id`` are appended
    to ``created`` (a pair may be listed that a later replacement in the same word undoes).

    >>> deltas, created = defaultdict(int), []
    >>> merge_word([1, 2, 3, 1, 2], 1, 2, 4, 1, deltas, created), dict(deltas)
    ([4, 3, 4], {(1, 2): -2, (2, 3): -1, (4, 3): 1, (3, 1): -1, (3, 4): 1})

    Subtle: the left neighbour is read from the *output* (it may be a token this very call just
    made, as in "abab" -> "cc"), the right neighbour from the input.
    """
    out: list[int] = []
    last = len(ids) - 1
    copied = 0  # ids[:copied] are already in out
    i = -1
    while True:
        try:
            i = ids.index(left, i + 1)  # jump to the next candidate instead of looping in Python
        except ValueError:
            break
        if i >= last or ids[i + 1] != right or i < copied:
            continue
        out.extend(ids[copied:i])
        deltas[left, right] -= freq
        if out:
            before = out[-1]
            deltas[before, left] -= freq
            deltas[before, new_id] += freq
            created.append((before, new_id))
        if i + 1 < last:
            after = ids[i + 2]
            deltas[right, after] -= freq
            deltas[new_id, after] += freq
            created.append((new_id, after))
        out.append(new_id)
        copied = i + 2
    out.extend(ids[copied:])
    return out


def _no_first_seen(pair: Pair) -> tuple[int, int]:
    raise RuntimeError("internal error: first occurrences are only tracked for rules with tracks_first_occurrence")


def train(
    corpus: Corpus,
    settings: TrainSettings,
    *,
    progress: ProgressCallback | None = None,
    time_limit_s: float | None = None,
    verify_counts: bool = False,
) -> Trace:
    """Learn merges from ``corpus`` under ``settings``; return the full trace.

    Never fails on a small corpus: an empty text simply stops with ``no_pairs``. With
    ``verify_counts`` (for tests; slow) every merge is followed by a full recount that must equal
    the incrementally maintained counts.
    """
    marker = settings.end_of_word
    base = base_tokens(unit=settings.unit, alphabet=corpus.alphabet, end_of_word=marker)
    wanted = settings.target_merges(len(base))
    char_id = {} if settings.unit == "byte" else {
        token.data.decode("utf-8"): i for i, token in enumerate(base) if not token.ends_word
    }
    marker_ids = [len(base) - 1] if marker else []

    words: list[list[int]] = []
    freqs: list[int] = []
    corpus_bytes = 0
    for text, freq in corpus.words:
        encoded = text.encode("utf-8")
        ids = list(encoded) if settings.unit == "byte" else [char_id[char] for char in text]
        words.append(ids + marker_ids)
        freqs.append(freq)
        corpus_bytes += len(encoded) * freq
    tokens_now = sum(len(ids) * freq for ids, freq in zip(words, freqs))
    initial_tokens = tokens_now

    # Words that contain each pair. Entries can go stale (the pair merged away from that word);
    # visiting a stale word costs a scan and changes nothing, and FirstSeenIndex prunes them.
    pair_words: dict[Pair, set[int]] = defaultdict(set)
    for index, ids in enumerate(words):
        for pair in zip(ids, ids[1:]):
            pair_words[pair].add(index)

    tokens = list(base)
    sort_bytes = [token_sort_bytes(token, marker) for token in base]
    hf_rank = hf_ranks(base, unit=settings.unit)
    token_bytes = [len(token.data) for token in base]
    rule = tie_break_rule(settings.tie_break)
    first_seen = FirstSeenIndex(words, pair_words, token_bytes) if rule.tracks_first_occurrence else None
    context = TieContext(sort_bytes, hf_rank, settings.unit, first_seen.locate if first_seen else _no_first_seen)
    rule_key, reverse = rule.key(context), rule.greatest_wins
    # Keys are computed once per pair and looked up from C (``dict.__getitem__``) when ranking:
    # ranking ties and top pairs would otherwise be most of the trace's cost.
    keys = first_seen.keys if first_seen else {pair: rule_key(pair) for pair in pair_words}
    counts = PairCounts(count_pairs(words, freqs), keys=keys)

    def ranked(level: int, n: int) -> list[Pair]:
        in_order = counts.sorted_pairs_with(level)
        return in_order[: -n - 1 : -1] if reverse else in_order[:n]

    steps: list[MergeStep] = []
    stop_reason, stop_detail = STOP_MERGES, f"reached the requested {wanted} merges"
    if settings.vocab_size is not None:
        stop_reason, stop_detail = STOP_VOCAB_SIZE, f"reached the vocabulary size {settings.vocab_size}"
    deadline = None if time_limit_s is None else time.perf_counter() + time_limit_s
    while len(steps) < wanted:
        if not counts:
            stop_reason = STOP_NO_PAIRS
            stop_detail = (
                "no pair of adjacent tokens is left: every word is a single token"
                if words else "the corpus has no words, so there is no pair to merge"
            )
            break
        best = counts.best_count()
        if best < settings.min_frequency:
            stop_reason = STOP_MIN_FREQUENCY
            stop_detail = (
                f"the most frequent pair occurs {best} time{'s' if best != 1 else ''}, "
                f"below the minimum frequency {settings.min_frequency}"
            )
            break
        if deadline is not None and time.perf_counter() > deadline:
            stop_reason = STOP_TIME_LIMIT
            stop_detail = f"stopped after the time limit of {time_limit_s:g} s"
            break

        tied_set = counts.pairs_with(best)
        tie_count = len(tied_set)  # read now: the bucket is a live set that the merge changes
        tied = ranked(best, max(settings.max_ties, settings.top_k, 1))
        left, right = tied[0]
        top_pairs = [PairCount(a, b, best) for a, b in tied[: settings.top_k]]
        if len(top_pairs) < settings.top_k:
            for level in counts.levels_descending():
                if level == best:
                    continue
                needed = settings.top_k - len(top_pairs)
                top_pairs.extend(PairCount(a, b, level) for a, b in ranked(level, needed))
                if len(top_pairs) >= settings.top_k:
                    break

        new_id = len(tokens)
        tokens.append(tokens[left].merged_with(tokens[right]))
        sort_bytes.append(token_sort_bytes(tokens[-1], marker))
        hf_rank.append(new_id)
        token_bytes.append(len(tokens[-1].data))

        deltas: dict[Pair, int] = defaultdict(int)
        rewritten: list[int] = []
        created: list[Pair] = []
        before_total = tokens_now
        for index in pair_words.pop((left, right)):
            ids = words[index]
            made = len(created)
            merged = merge_word(ids, left, right, new_id, freqs[index], deltas, created)
            if len(merged) == len(ids):
                continue  # a stale entry: the pair had already left this word
            rewritten.append(index)
            tokens_now -= (len(ids) - len(merged)) * freqs[index]
            words[index] = merged
            for pair in created[made:]:
                pair_words[pair].add(index)
        # A created pair can vanish again in the same word ("abab" -> "cc" makes and unmakes (c, a)).
        created_pairs = {pair for pair in created if deltas[pair] > 0}
        if first_seen is not None:
            still_counted = lambda pair: counts.count.get(pair, 0) + deltas.get(pair, 0) > 0  # noqa: E731
            new_keys = first_seen.rekey(rewritten, created_pairs, still_counted)
        else:
            new_keys = {pair: rule_key(pair) for pair in created_pairs}
        counts.apply(deltas, new_keys)

        if verify_counts and counts.count != count_pairs(words, freqs):
            raise RuntimeError(f"internal error: pair counts after merge {len(steps) + 1} differ from a recount")
        steps.append(
            MergeStep(
                step=len(steps) + 1, new_id=new_id, left=left, right=right, count=best,
                replacements=before_total - tokens_now, tie_count=tie_count,
                tied=tuple(tied[: settings.max_ties]), top_pairs=tuple(top_pairs),
                tokens_after=tokens_now, words_changed=len(rewritten),
            )
        )
        if progress is not None and len(steps) % 100 == 0:
            progress(len(steps), wanted)

    return Trace(
        settings=settings, base=base, steps=tuple(steps), stop_reason=stop_reason,
        stop_detail=stop_detail, initial_tokens=initial_tokens, corpus_bytes=corpus_bytes,
        word_count=len(words),
    )
