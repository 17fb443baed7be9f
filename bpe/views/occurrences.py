"""Where a pair occurs in the drawn corpus, just before it is merged: counted, and replaced.

Training counts a pair at every position where it stands, overlaps included, but a merge
replaces left to right without overlap. In "aaaa" (one word) the pair a + a is counted 3 times
and replaced 2 times: the Train page shows the two kinds differently, so the learner sees why
"occurs 3 times" and "replaced 2 times" can both be true.

    >>> marks = mark_pairs([Chunk((97, 97, 97, 97))], chosen=(97, 97), ranked=[(97, 97)])
    >>> sorted(marks.counted), sorted(marks.replaced), marks.rank_at
    ([0, 1, 2], [0, 2], {0: 1, 1: 1, 2: 1})

Pairs never cross a chunk of the pre-tokenizer (a word), a special token or a gap that a custom
regex leaves untrained, so the drawn ids are first cut into :class:`Chunk` records
(:func:`chunks_of`). Positions are indexes into the drawn ids, chunk after chunk. Why not the
counting lab's ``symbols_at_step``: it records every merge of every chunk (``encode_walkthrough``),
several times the cost of one cached ``encode`` cut by bytes, and the Train page does this twice
per step.

Scope: pure functions of a tokenizer or a trace and the text drawn. Out of scope: the HTML
(``merge_html``) and which step to show (the page).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ..encoding.tokenizer import Tokenizer
from ..reference import merge
from ..teaching.counting import Symbol, tally
from ..text.corpus import Corpus
from ..text.pretokenize import special_token_pattern, split_special
from ..tokens.vocab import Pair
from ..training.trace import PairCount, Trace


@dataclass(frozen=True, slots=True)
class Chunk:
    """The ids of one piece of drawn text that merges stay within."""

    ids: tuple[int, ...]
    trained: bool = True
    """A word training counted pairs in; ``False`` for a special token or an untrained regex gap."""


def chunks_of(tokenizer: Tokenizer, text: str) -> list[Chunk]:
    """``tokenizer.encode(text, allowed_special="all")`` cut into chunks (words, gaps, specials).

    The ids come from one ``encode`` call (its cached fast path); each chunk then takes tokens
    until their bytes cover its text, and a word also takes the end-of-word token that closes it.

    >>> from bpe.training.presets import PRESETS
    >>> from bpe.training.trainer import train
    >>> tokenizer = Tokenizer.from_trace(train(PRESETS["sennrich"].corpus(), PRESETS["sennrich"].settings), step=0)
    >>> [len(chunk.ids) for chunk in chunks_of(tokenizer, " low lower")]
    [4, 6]
    """
    ids = tokenizer.encode(text, allowed_special="all")
    tokens = tokenizer.tokens
    marker = tokenizer.end_of_word is not None
    chunks: list[Chunk] = []
    position = 0
    for piece, is_special in split_special(text, special_token_pattern(tokenizer.special_tokens)):
        if is_special:
            chunks.append(Chunk((ids[position],), trained=False))
            position += 1
            continue
        for chunk, is_word in tokenizer.pretokenizer.split(piece):
            start, wanted, have = position, len(chunk.encode("utf-8")), 0
            while have < wanted:
                have += len(tokens[ids[position]].data)
                position += 1
            # subtle: with a marker, a word ends with a token carrying it (the bare marker or a merge of it)
            if is_word and marker and not tokens[ids[position - 1]].ends_word:
                position += 1
            chunks.append(Chunk(tuple(ids[start:position]), trained=is_word))
    return chunks


def merged(chunks: Sequence[Chunk], pair: Pair, new_id: int) -> list[Chunk]:
    """The chunks after one more merge: ``pair`` replaced left to right, as encoding does.

    Equal to encoding again with the merge added (the property test checks it): a merge's new
    token only enters pairs ranked after it, so no earlier merge can apply once it is made. This
    saves the Train page a second tokenizer and encode per step.

    >>> merged([Chunk((1, 1, 1, 1)), Chunk((1, 1), trained=False)], (1, 1), 9)
    [Chunk(ids=(9, 9), trained=True), Chunk(ids=(9,), trained=False)]
    """
    left, right = pair
    return [Chunk(tuple(merge(list(chunk.ids), (left, right), new_id)), chunk.trained) for chunk in chunks]


@dataclass(frozen=True, slots=True)
class PairMarks:
    """What to mark on the drawn ids (positions of a pair's left token)."""

    counted: frozenset[int] = frozenset()
    """Where the chosen pair stands; training counts every one of them."""
    replaced: frozenset[int] = frozenset()
    """Where the merge replaces it (left to right, no overlap): a subset of ``counted``."""
    rank_at: dict[int, int] = field(default_factory=dict)
    """Position -> 1-based rank of the chart's pair that starts there (for hover links)."""


def mark_pairs(chunks: Sequence[Chunk], *, chosen: Pair | None, ranked: Sequence[Pair]) -> PairMarks:
    """Find ``chosen`` (counted and replaced, by the counting lab's :func:`tally`) and each of
    ``ranked`` in the trained chunks.

    >>> chunks = [Chunk((1, 2, 1)), Chunk((9,), trained=False), Chunk((1, 2))]
    >>> marks = mark_pairs(chunks, chosen=(1, 2), ranked=[(1, 2), (2, 1)])
    >>> sorted(marks.replaced), marks.rank_at
    ([0, 4], {0: 1, 1: 2, 4: 1})
    """
    symbols = tuple(
        Symbol(token_id, "", index, chunk.trained) for index, chunk in enumerate(chunks) for token_id in chunk.ids
    )
    ranks = {pair: rank for rank, pair in enumerate(ranked, start=1)}
    rank_at = {}
    for index, (left, right) in enumerate(zip(symbols, symbols[1:])):
        rank = ranks.get((left.id, right.id))
        if rank is not None and left.counted and left.chunk == right.chunk:
            rank_at[index] = rank
    if chosen is None:
        return PairMarks(rank_at=rank_at)
    found = tally(symbols, chosen)
    return PairMarks(frozenset(found.counted), frozenset(found.replaced), rank_at)


def training_corpus(trace: Trace, *, text: str | None, table: Iterable[tuple[str, int]] | None) -> Corpus:
    """The words the run was trained on last (a two-stage run's second split), rebuilt from its text
    (or word table) and settings."""
    if table is not None:
        return Corpus.from_word_counts(dict(table))
    settings = trace.settings
    split = settings.split_after(len(trace.steps))
    return Corpus.from_text(text or "", pretokenizer=split, special_tokens=settings.special_tokens)


def pairs_after_training(trace: Trace, corpus: Corpus, *, top: int = 5) -> list[PairCount]:
    """The best pair counts after the last merge: what the stop rule looked at.

    Ties are listed in the order the pairs first appear in the corpus.

    >>> from bpe.training.presets import PRESETS
    >>> from bpe.training.trainer import train
    >>> trace = train(PRESETS["wikipedia"].corpus(), PRESETS["wikipedia"].settings)   # aaabdaaabac -> XdXac
    >>> [(trace.token_text(p.left), trace.token_text(p.right), p.count) for p in pairs_after_training(trace, PRESETS["wikipedia"].corpus())]
    [('aaab', 'd', 1), ('d', 'aaab', 1), ('aaab', 'a', 1), ('a', 'c', 1)]
    """
    tokenizer = Tokenizer.from_trace(trace, pretokenizer="none")  # each training word is one chunk
    counts: Counter[Pair] = Counter()
    for word, count in corpus.words:
        ids = tokenizer.encode_ordinary(word)
        for pair in zip(ids, ids[1:]):
            counts[pair] += count
    best = sorted(counts.items(), key=lambda item: -item[1])[:top]  # stable: first seen first among ties
    return [PairCount(left, right, count) for (left, right), count in best]
