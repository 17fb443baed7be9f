"""A pretrained tokenizer, which looks a whole chunk up before merging it, as tiktoken does.

Why: tiktoken's encoder first asks whether a chunk *is* a token (``encoder.get(piece)`` in its
``CoreBPE``) and only runs the merge loop when it is not. In English text most chunks are whole
tokens of GPT-4 or GPT-4o, so the lookup saves most of a cold encode's merging (the benchmark,
``benchmarks/encode_benchmark.py``, measures it).

Why it is safe here: every token of these tokenizers encodes to itself, so the lookup changes no
result. For a rank file that holds by construction: each merge is recovered by running tiktoken's
merge loop on the token's own bytes with lower ranks until two parts remain
(``formats.tiktoken_bpe``), and the full loop then merges those two. For GPT-2's merges it is
checked token by token (``tests/test_pretrained_parity.py``). It is not true of every BPE (merges
``a b``, ``b c``, ``a bc`` encode "abc" as ``ab c``), so trained and imported tokenizers do not
use this class. The walkthrough still shows every merge.

    >>> from bpe import Corpus, TrainSettings, Tokenizer, train
    >>> trace = train(Corpus.from_text("aaabdaaabac", pretokenizer="none"),
    ...               TrainSettings(pretokenizer="none", merges=3))
    >>> looked_up = PretrainedTokenizer(unit="byte", pretokenizer="none", base=dict(enumerate(trace.base)),
    ...                               merges=[(step.left, step.right, step.new_id) for step in trace.steps])
    >>> looked_up.encode("aaab"), looked_up.encode("aaabdaaabac") == Tokenizer.from_trace(trace).encode("aaabdaaabac")
    ([258], True)

The lookup is also how :meth:`PretrainedTokenizer._encode_plain` reads a whole text: one
``dict.get`` per chunk, run from C over all chunks at once, gives an id for every chunk that is
a token; only the others go to the chunk cache (and on a miss, the merge loop). In English text
those are few, so a cold encode no longer makes a Python call and a 1-tuple for each distinct
whole-token chunk, nor flattens a tuple per chunk.
"""

from __future__ import annotations

from itertools import repeat

from ..encoding.tokenizer import Tokenizer
from .table_core import TableCore

_NOT_WHOLE = -1  # a small int: ``list.index`` finds it by identity, no id can equal it


class PretrainedTokenizer(Tokenizer):
    """A :class:`Tokenizer` (same constructor) whose chunk cache misses try a whole-token lookup first."""

    def _adopt(self, table, **settings) -> None:
        super()._adopt(table, **settings)
        # ids, not 1-tuples (a tuple per token is megabytes for GPT-4o); a miss makes the tuple. Special
        # tokens are left out: special-token text in a chunk is plain text, and must be merged as such.
        if isinstance(table.shared, TableCore):  # the look-up every tokenizer of these tokens shares
            self._whole_tokens = table.shared.by_text
            return
        whole: dict[str, int] = {}
        special = self._special_ids
        for token_id, token in table.tokens.items():
            if token_id in special:
                continue
            try:
                whole[token.data.decode()] = token_id
            except UnicodeDecodeError:
                pass  # part of a character: no chunk of text is spelled like it
        self._whole_tokens = whole

    def _encode_unicode(self, text: str) -> list[int]:
        """Text -> ids: whole-token chunks by one lookup each, the rest from the chunk cache.

        GPT-2, ``"The cat encodes"``: chunks ``["The", " cat", " encodes"]`` -> lookups ``[464, 3797,
        -1]`` (" encodes" is no token) -> the ``-1`` becomes its merged ids -> ``[464, 3797, 2207, 4147]``.
        """
        if self._split_words is None:  # a pattern with gaps between its words: the general path
            return super()._encode_unicode(text)
        words = self._split_words(text)
        whole = list(map(self._whole_tokens.get, words, repeat(_NOT_WHOLE)))
        ids: list[int] = []
        cache, find, done = self._word_cache, whole.index, 0  # whole[:done] is in ids already
        while True:
            try:
                missing = find(_NOT_WHOLE, done)
            except ValueError:  # no chunk left that is not a token (only here: merging a chunk may raise one too)
                break
            ids += whole[done:missing]
            ids += cache[words[missing]]
            done = missing + 1
        ids += whole[done:]
        return ids

    def _merge_chunk(self, chunk: str, is_word: bool = True) -> tuple[int, ...]:
        # Overrides the chunk cache's miss path (words and gaps alike: these have no end-of-word marker).
        whole = self._whole_tokens.get(chunk)
        return (whole,) if whole is not None else super()._merge_chunk(chunk, is_word)
