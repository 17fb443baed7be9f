"""Where each pair first occurs in the training words, kept up to date as merges rewrite them.

The ``first-seen`` tie-break rule (minbpe, the Sennrich paper's code: Python's ``max`` over an
insertion-ordered dict of fresh counts) prefers the pair that occurs first. Recounting the corpus
to find it would cost a full scan per merge; this index keeps one key per pair and recomputes only
the keys whose occurrence a merge touched. The trainer builds it for any rule whose
``tracks_first_occurrence`` is set; tests/test_reference.py checks it against the readable
reference, ``bpe/reference.py``, which recounts.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable

from ..tokens.vocab import Pair


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

    def locate(self, pair: Pair, scanned: dict[int, dict[Pair, int]] | None = None) -> tuple[int, int]:
        """Search for the first occurrence of ``pair``, pruning words it has left. ``scanned``
        keeps each word's first offsets for the rest of one merge's rekeying.

        subtle: without it a merge that creates many pairs in one long word (the ``none`` split of
        a whole text) rescans that word once per created pair: quadratic in the word's length.
        """
        holders = self._pair_words[pair]
        scanned = {} if scanned is None else scanned
        while holders:
            index = min(holders)
            if index not in scanned:
                scanned[index] = self._first_offsets(self._words[index])
            offset = scanned[index].get(pair)
            if offset is not None:
                return index, offset
            holders.discard(index)
        raise RuntimeError(f"internal error: pair {pair} has a count but occurs nowhere")

    def rekey(
        self, rewritten: list[int], created: set[Pair], still_counted: Callable[[Pair], bool]
    ) -> dict[Pair, tuple[int, int]]:
        """New keys after a merge rewrote the words ``rewritten`` and made the pairs ``created``."""
        new_keys: dict[Pair, tuple[int, int]] = {}
        scanned: dict[int, dict[Pair, int]] = {}  # word index -> its first offsets, during this merge
        for index in rewritten:
            keyed = self._keyed_in.get(index)
            if not keyed:
                continue
            firsts = scanned[index] = self._first_offsets(self._words[index])
            for pair in list(keyed):
                if firsts.get(pair) == self.keys[pair][1]:
                    continue
                keyed.discard(pair)
                if pair in firsts:
                    new_keys[pair] = (index, firsts[pair])  # still first here: no earlier word has it
                elif still_counted(pair):
                    new_keys[pair] = self.locate(pair, scanned)
        for pair in created:
            if pair not in self.keys and pair not in new_keys:
                new_keys[pair] = self.locate(pair, scanned)
        for pair, (index, _) in new_keys.items():
            self._keyed_in[index].add(pair)
        return new_keys
