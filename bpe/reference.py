"""BPE in a hundred lines: the code to read first, and the reference the fast engine is tested against.

This is the classic teaching code (minbpe's ``get_stats`` and ``merge``, the Sennrich paper's
loop), kept plain on purpose: every step recounts every pair, merges rebuild every word, and each
tie-break rule is one sort key: the built-in rules' are in :data:`TIE_BREAKS`, under the names
``bpe.training.tiebreak`` registers; a rule added there brings its own (``TieBreakRule.reference``).
It imports nothing from the engine but the name of a pair's type (``Pair``, from ``bpe.tokens``),
so when the fast trainer and encoder agree with it, merge for merge and id for id
(``tests/test_reference.py``), that is evidence, not a tautology. The app's Train and Encode pages
show the lines below that a step runs, and the encode walkthrough replaces pairs with
:func:`merge` itself (it shows what this code does; the fast loops have their own).

    >>> merges = train({"aaabdaaabac": 1}, 3, tie_break="lexicographic-min")
    >>> merges                                 # Wikipedia's Z=aa, Y=ab, X=ZY
    [Merge(pair=(97, 97), count=4, new_id=256), Merge(pair=(97, 98), count=2, new_id=257), Merge(pair=(256, 257), count=2, new_id=258)]
    >>> ranks = {m.pair: m.new_id for m in merges}
    >>> encode("aaabdaaabac", ranks), decode([258, 100], ranks)
    ([258, 100, 258, 97, 99], 'aaabd')

Four variants are a few lines each: parity-aware BPE (:func:`worst_language_stats`, the counts that
choose), WordPiece's score (:func:`wordpiece_scores`, what chooses instead of a count), SuperBPE's
second stage (``train``'s ``then_words`` and ``transition``) and Hugging Face's BPE-dropout
(:func:`encode_chunk_dropout`); the fast engine makes their merges and draws too
(``tests/test_variants.py``, ``tests/test_wordpiece.py``, ``tests/test_dropout.py``).

Left out: speed (``bpe.training.trainer``), special tokens and the split around them (``bpe.text.pretokenize``),
the end-of-word marker glued to the last symbol (``attached``), the trace's bookkeeping, and
SentencePiece's candidates that no longer occur (a run asked for more pieces than its corpus holds:
``bpe.training.sentencepiece_choice``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from fractions import Fraction
from types import MappingProxyType
from typing import NamedTuple

import regex

from .tokens.vocab import Pair


class Merge(NamedTuple):
    """One merge: ``pair`` became token ``new_id``; it occurred ``count`` times when it was chosen."""

    pair: Pair
    count: int
    """Its count when chosen (parity-aware: in the language that chose it)."""
    new_id: int


def get_stats(words: list[tuple[list[int], int]]) -> dict[Pair, int]:
    """How often each pair of neighbours occurs, each word weighted by its count.

    >>> get_stats([([1, 2, 3, 1, 2], 1)])
    {(1, 2): 2, (2, 3): 1, (3, 1): 1}

    Subtle: pairs overlap ("aaa" holds (a, a) twice), and the dict keeps the order in which the
    pairs first occur, which the first-seen rule reads.
    """
    counts: dict[Pair, int] = {}
    for ids, count in words:
        for pair in zip(ids, ids[1:]):
            counts[pair] = counts.get(pair, 0) + count
    return counts


def merge(ids: list[int], pair: Pair, new_id: int) -> list[int]:
    """Replace each occurrence of ``pair`` by ``new_id``, left to right: ``[1, 2, 3, 1, 2], (1, 2), 4 -> [4, 3, 4]``.

    >>> merge([1, 1, 1], (1, 1), 9)            # no overlap: the third 1 stays
    [9, 1]
    """
    out, i = [], 0
    while i < len(ids):
        if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
            out.append(new_id)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


class Tie(NamedTuple):
    """What a tie-break rule reads at one step."""

    stats: dict[Pair, int]
    """Every pair's count, in the order the pairs first occur."""
    spelling: dict[int, bytes]
    """Each token's bytes (the end-of-word marker spelled out)."""
    hf_ids: dict[int, int]
    """Base tokens' ids as Hugging Face numbers them (merged tokens keep theirs)."""


def first_seen(pair: Pair, tie: Tie) -> object:
    return list(tie.stats).index(pair)


def spelling(pair: Pair, tie: Tie) -> object:
    return tie.spelling[pair[0]], tie.spelling[pair[1]], pair  # subtle: ab+c and a+bc spell alike; ids decide


def hf_ids(pair: Pair, tie: Tie) -> object:
    return tie.hf_ids.get(pair[0], pair[0]), tie.hf_ids.get(pair[1], pair[1])


def raw_ids(pair: Pair, tie: Tie) -> object:
    return pair


def shorter_piece(pair: Pair, tie: Tie) -> object:
    """SentencePiece's ``bpe_model_trainer.cc``: the shorter merged piece in characters (a byte of a
    partial character counts as one), then the smaller string."""
    piece = tie.spelling[pair[0]] + tie.spelling[pair[1]]
    return len(piece.decode(errors="surrogateescape")), piece, pair


# rule: (sort key of a tied pair, whether the smallest or the greatest key wins); read-only, as a
# server's modules are shared by every user
TIE_BREAKS = MappingProxyType({
    "first-seen": (first_seen, min),
    "lexicographic-max": (spelling, max),
    "lexicographic-min": (spelling, min),
    "hf": (hf_ids, min),
    "smallest-ids": (raw_ids, min),
    "sentencepiece": (shorter_piece, min),
})
SortRule = tuple[Callable[[Pair, Tie], object], Callable[..., Pair]]
"""A tie-break rule as this code reads it: the sort key of a tied pair, and ``min`` or ``max``."""
ONE_PIECE_PER_STRING = frozenset({"sentencepiece"})
"""Rules whose trainer never merges a pair that spells a piece it made already (SentencePiece)."""


def break_tie(tied: list[Pair], tie: Tie, rule: str | SortRule) -> Pair:
    """The pair ``rule`` (a name in :data:`TIE_BREAKS`, or a rule's own ``(key, pick)``) picks among
    ``tied`` (pairs with the same, highest count)."""
    key, pick = TIE_BREAKS[rule] if isinstance(rule, str) else rule
    return pick(tied, key=lambda pair: key(pair, tie))


def hugging_face_ids(vocab: dict[int, bytes], unit: str) -> dict[int, int]:
    """Hugging Face sorts its alphabet by character. Characters are sorted already; a byte sorts by
    GPT-2's printable stand-in for it, so the 188 printable bytes come first and the 68 others (the
    space, shown as "Ġ", is one) after them; the end-of-word marker comes last."""
    printable = lambda b: 33 <= b <= 126 or 161 <= b <= 172 or 174 <= b <= 255  # noqa: E731
    order = sorted(vocab, key=lambda i: (unit == "byte" and not (i < 256 and printable(i)), i))
    return {token_id: rank for rank, token_id in enumerate(order)}


def worst_language_stats(corpus: list[tuple[list[int], int]], language_of: list[str], min_frequency: int) -> dict[Pair, int]:
    """Parity-aware BPE's counts: the pairs of the language whose words are the most tokens now (the first
    listed on a tie), passing over a language whose most frequent pair is below ``min_frequency``.

    >>> worst_language_stats([([1, 2, 1, 2], 1), ([3, 4], 5)], ["fr", "en"], 1)    # en: 10 tokens, fr: 4
    {(3, 4): 5}
    """
    tokens: dict[str, int] = {}
    for (ids, count), language in zip(corpus, language_of):
        tokens[language] = tokens.get(language, 0) + len(ids) * count
    for language in sorted(tokens, key=lambda language: -tokens[language]):  # stable: the first listed on a tie
        stats = get_stats([word for word, of in zip(corpus, language_of) if of == language])
        if stats and max(stats.values()) >= min_frequency:
            return stats
    return {}


def wordpiece_scores(corpus: list[tuple[list[int], int]], stats: dict[Pair, int]) -> dict[Pair, Fraction]:
    """WordPiece's score of each pair of ``stats``: its count over the product of its two tokens'
    counts in ``corpus`` (every token counts, a word of one token too), as an exact fraction.

    >>> corpus = [([1, 2, 3], 10), ([1, 2, 3, 4], 5)]          # h u g ×10, h u g s ×5
    >>> wordpiece_scores(corpus, get_stats(corpus))[(3, 4)]     # g s: 5 / (15 × 5)
    Fraction(1, 15)
    """
    tokens: dict[int, int] = {}
    for ids, count in corpus:
        for token in ids:
            tokens[token] = tokens.get(token, 0) + count
    return {pair: Fraction(n, tokens[pair[0]] * tokens[pair[1]]) for pair, n in stats.items()}


def train(
    words: dict[str, int], num_merges: int, *, unit: str = "byte", alphabet: str = "",
    end_of_word: str | None = None, tie_break: str | SortRule = "first-seen", min_frequency: int = 1,
    by_language: dict[str, dict[str, int]] | None = None, then_words: dict[str, int] | None = None,
    transition: int | None = None, wordpiece: bool = False,
) -> list[Merge]:
    """Learn up to ``num_merges`` merges from ``words`` (each distinct word or chunk with its count,
    in the order they first appear). ``unit``: start from bytes, or from the characters of
    ``alphabet`` (default: the words'); ``end_of_word``: a marker symbol after every word (``</w>``);
    ``tie_break``: a rule's name in :data:`TIE_BREAKS`, or a rule's own ``(key, pick)``.

    Two variants each change one step of the loop. Parity-aware BPE (Foroutan et al., 2025):
    ``by_language`` holds each language's words (``words`` is then unread), and the pairs that choose
    are those of the language whose words are the most tokens now. SuperBPE (Liu et al., 2025):
    ``then_words`` holds the same text split without cutting between words, and after ``transition``
    merges training goes on over them, each encoded with the merges learned so far. WordPiece (as the
    Hugging Face course trains it): with ``wordpiece`` the pair with the best score of those at
    ``min_frequency`` or more is merged, not the most frequent.
    """
    if isinstance(tie_break, str) and tie_break not in TIE_BREAKS:
        raise ValueError(f"unknown tie-break rule {tie_break!r}: use one of {', '.join(TIE_BREAKS)}")
    languages = by_language or {"": words}
    if unit == "byte":  # ids 0..255 are the bytes, as in GPT-2 and minbpe
        symbols = [bytes([b]) for b in range(256)]
        spell = lambda word: [bytes([b]) for b in word.encode()]  # noqa: E731
    else:  # ids 0..n-1 are the characters, sorted, as in the Sennrich paper
        symbols = [c.encode() for c in sorted(set(alphabet or "".join(w for table in languages.values() for w in table)))]
        spell = lambda word: [c.encode() for c in word]  # noqa: E731
    id_of = {symbol: token_id for token_id, symbol in enumerate(symbols)}
    marker = [len(symbols)] if end_of_word else []  # the marker's id follows the symbols'
    ids_of = lambda word: [id_of[s] for s in spell(word)] + marker  # noqa: E731
    corpus = [(ids_of(word), count) for table in languages.values() for word, count in table.items()]
    language_of = [language for language, table in languages.items() for _ in table]
    vocab = dict(enumerate(symbols + ([end_of_word.encode()] if end_of_word else [])))  # id -> bytes
    hf = hugging_face_ids(vocab, unit)
    merges: list[Merge] = []
    for new_id in range(len(vocab), len(vocab) + num_merges):
        if len(merges) == transition:  # SuperBPE's second stage: the same text, chunks that span words
            learned = {m.pair: m.new_id for m in merges}
            corpus = [(encode_chunk(ids_of(word), learned), count) for word, count in then_words.items()]
        stats = get_stats(corpus)
        if tie_break in ONE_PIECE_PER_STRING:
            made = {vocab[m.new_id] for m in merges}
            stats = {pair: n for pair, n in stats.items() if vocab[pair[0]] + vocab[pair[1]] not in made}
        counted = stats if by_language is None else worst_language_stats(corpus, language_of, min_frequency)
        if not counted or max(counted.values()) < min_frequency:
            break  # nothing left to merge, or the best pair is too rare
        if wordpiece:  # the score chooses among the pairs frequent enough
            counted = {pair: score for pair, score in wordpiece_scores(corpus, stats).items() if stats[pair] >= min_frequency}
        best = max(counted.values())
        tied = [pair for pair in counted if counted[pair] == best]
        pair = break_tie(tied, Tie(stats, vocab, hf), tie_break)
        count = stats[pair] if by_language is None else counted[pair]  # parity-aware: its count in the language that chose
        corpus = [(merge(ids, pair, new_id), n) for ids, n in corpus]
        vocab[new_id] = vocab[pair[0]] + vocab[pair[1]]
        merges.append(Merge(pair, count, new_id))
    return merges


def encode_chunk(ids: list[int], ranks: dict[Pair, int]) -> list[int]:
    """Apply the learned merges (``pair -> new id``) to one chunk, earliest-learned first, as training did.

    >>> encode_chunk([97, 97, 97, 98], {(97, 97): 256, (97, 98): 257})    # "aaab": aa first, then ab
    [256, 257]
    """
    while len(ids) >= 2:
        stats = get_stats([(ids, 1)])
        # the pair learned earliest: new ids grow with each merge, so the smallest one
        pair = min(stats, key=lambda p: ranks.get(p, float("inf")))
        if pair not in ranks:
            break  # no pair of this chunk was ever merged
        ids = merge(ids, pair, ranks[pair])
    return ids


def encode(text: str, ranks: dict[Pair, int], *, split: str | None = None) -> list[int]:
    """Text -> ids for a byte-level tokenizer: cut it into chunks with the ``split`` regex (GPT-2's,
    GPT-4's; none: one chunk), and encode each chunk's UTF-8 bytes."""
    chunks = regex.findall(split, text) if split else [text]
    return [token for chunk in chunks for token in encode_chunk(list(chunk.encode()), ranks)]


def decode(ids: list[int], ranks: dict[Pair, int]) -> str:
    """Ids -> text for a byte-level tokenizer; half a character shows as U+FFFD."""
    vocab = {b: bytes([b]) for b in range(256)}
    for (left, right), new_id in ranks.items():  # in the order learned: each token from two older ones
        vocab[new_id] = vocab[left] + vocab[right]
    return b"".join(vocab[i] for i in ids).decode("utf-8", errors="replace")


def encode_chunk_dropout(ids: list[int], ranks: dict[Pair, int], p: float, rng: random.Random) -> list[int]:
    """BPE-dropout as Hugging Face's tokenizers runs it (``Word::merge_all``): each place where a learned
    merge applies waits in a queue, earliest-learned first, then leftmost; a place taken from it is
    skipped with probability ``p`` and set aside until the next merge is made, when it rejoins the queue.

    >>> encode_chunk_dropout([97, 97, 97, 98], {(97, 97): 256, (97, 98): 257, (256, 257): 258}, 1.0, random.Random(0))
    [97, 97, 97, 98]
    """
    symbols: list[int | None] = list(ids)  # a symbol merged into its left neighbour becomes None: places never move
    queue = [(ranks[pair], i) for i, pair in enumerate(zip(ids, ids[1:])) if pair in ranks]
    skipped: list[tuple[int, int]] = []
    while queue:
        place = min(queue)  # (new id, position): the earliest-learned merge, then the leftmost
        queue.remove(place)
        if rng.random() < p:
            skipped.append(place)  # dropped, for now
            continue
        queue += skipped
        skipped = []
        new_id, i = place
        j = next((k for k in range(i + 1, len(symbols)) if symbols[k] is not None), None)
        if symbols[i] is None or j is None or ranks.get((symbols[i], symbols[j])) != new_id:
            continue  # that pair is no longer there
        symbols[i], symbols[j] = new_id, None
        h = next((k for k in range(i - 1, -1, -1) if symbols[k] is not None), None)
        j = next((k for k in range(i + 1, len(symbols)) if symbols[k] is not None), None)
        for left, right in ((h, i), (i, j)):  # the pairs the new token makes with its neighbours
            if left is not None and right is not None and (symbols[left], symbols[right]) in ranks:
                queue.append((ranks[symbols[left], symbols[right]], left))
    return [symbol for symbol in symbols if symbol is not None]
