"""BPE in a hundred lines: the code to read first, and the reference the fast engine is tested against.

This is the classic teaching code (minbpe's ``get_stats`` and ``merge``, the Sennrich paper's
loop), kept plain on purpose: every step recounts every pair, merges rebuild every word, and each
tie-break rule is one sort key in :data:`TIE_BREAKS`, under the names ``bpe.tiebreak`` registers.
It imports nothing from the engine, so when the fast trainer and encoder agree with it, merge for
merge and id for id (``tests/test_reference.py``), that is evidence, not a tautology. The app's
Train and Encode pages show the lines below that a step runs, and the encode walkthrough replaces
pairs with :func:`merge` itself (it shows what this code does; the fast loops have their own).

    >>> merges = train({"aaabdaaabac": 1}, 3, tie_break="lexicographic-min")
    >>> merges                                 # Wikipedia's Z=aa, Y=ab, X=ZY
    [Merge(pair=(97, 97), count=4, new_id=256), Merge(pair=(97, 98), count=2, new_id=257), Merge(pair=(256, 257), count=2, new_id=258)]
    >>> ranks = {m.pair: m.new_id for m in merges}
    >>> encode("aaabdaaabac", ranks), decode([258, 100], ranks)
    ([258, 100, 258, 97, 99], 'aaabd')

Left out: speed (``bpe.trainer``), special tokens and the split around them (``bpe.pretokenize``),
the end-of-word marker glued to the last symbol (``attached``), the trace's bookkeeping, and
SentencePiece's candidates that no longer occur (a run asked for more pieces than its corpus holds:
``bpe.sentencepiece_choice``).
"""

from __future__ import annotations

from types import MappingProxyType
from typing import NamedTuple

import regex

Pair = tuple[int, int]


class Merge(NamedTuple):
    """One merge: ``pair`` became token ``new_id``; it occurred ``count`` times when it was chosen."""

    pair: Pair
    count: int
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
ONE_PIECE_PER_STRING = frozenset({"sentencepiece"})
"""Rules whose trainer never merges a pair that spells a piece it made already (SentencePiece)."""


def break_tie(tied: list[Pair], tie: Tie, rule: str) -> Pair:
    """The pair ``rule`` picks among ``tied`` (pairs with the same, highest count)."""
    key, pick = TIE_BREAKS[rule]
    return pick(tied, key=lambda pair: key(pair, tie))


def hugging_face_ids(vocab: dict[int, bytes], unit: str) -> dict[int, int]:
    """Hugging Face sorts its alphabet by character. Characters are sorted already; a byte sorts by
    GPT-2's printable stand-in for it, so the 188 printable bytes come first and the 68 others (the
    space, shown as "Ġ", is one) after them; the end-of-word marker comes last."""
    printable = lambda b: 33 <= b <= 126 or 161 <= b <= 172 or 174 <= b <= 255  # noqa: E731
    order = sorted(vocab, key=lambda i: (unit == "byte" and not (i < 256 and printable(i)), i))
    return {token_id: rank for rank, token_id in enumerate(order)}


def train(
    words: dict[str, int], num_merges: int, *, unit: str = "byte", alphabet: str = "",
    end_of_word: str | None = None, tie_break: str = "first-seen", min_frequency: int = 1,
) -> list[Merge]:
    """Learn up to ``num_merges`` merges from ``words`` (each distinct word or chunk with its count,
    in the order they first appear). ``unit``: start from bytes, or from the characters of
    ``alphabet`` (default: the words'); ``end_of_word``: a marker symbol after every word (``</w>``)."""
    if tie_break not in TIE_BREAKS:
        raise ValueError(f"unknown tie-break rule {tie_break!r}: use one of {', '.join(TIE_BREAKS)}")
    if unit == "byte":  # ids 0..255 are the bytes, as in GPT-2 and minbpe
        symbols = [bytes([b]) for b in range(256)]
        spell = lambda word: [bytes([b]) for b in word.encode()]  # noqa: E731
    else:  # ids 0..n-1 are the characters, sorted, as in the Sennrich paper
        symbols = [c.encode() for c in sorted(set(alphabet or "".join(words)))]
        spell = lambda word: [c.encode() for c in word]  # noqa: E731
    id_of = {symbol: token_id for token_id, symbol in enumerate(symbols)}
    marker = [len(symbols)] if end_of_word else []  # the marker's id follows the symbols'
    corpus = [([id_of[s] for s in spell(word)] + marker, count) for word, count in words.items()]
    vocab = dict(enumerate(symbols + ([end_of_word.encode()] if end_of_word else [])))  # id -> bytes
    hf = hugging_face_ids(vocab, unit)
    merges: list[Merge] = []
    for new_id in range(len(vocab), len(vocab) + num_merges):
        stats = get_stats(corpus)
        if tie_break in ONE_PIECE_PER_STRING:
            made = {vocab[m.new_id] for m in merges}
            stats = {pair: n for pair, n in stats.items() if vocab[pair[0]] + vocab[pair[1]] not in made}
        if not stats or max(stats.values()) < min_frequency:
            break  # nothing left to merge, or the best pair is too rare
        count = max(stats.values())
        tied = [pair for pair in stats if stats[pair] == count]
        pair = break_tie(tied, Tie(stats, vocab, hf), tie_break)
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
