"""Where tokenizers cut one text, where they cut it differently, and what a number costs each of them.

Scope: a tokenizer's tokens as pieces of the text itself (:func:`text_pieces`: SentencePiece's
``▁`` read back as a space, its dummy prefix dropped), the places each one cuts (byte offsets of
the text's UTF-8: a byte-level token may end inside a character), the stretches where they
disagree (:func:`disagreements`), and numbers: the tokens each of 0 to 999 costs
(:func:`number_costs`) and how a run of digits is grouped (:func:`digit_groups`, beside
:func:`right_to_left_groups`, the grouping by place value).

Between two offsets where every tokenizer cuts (and that fall between characters) lies a stretch
they all agree on or not: a disagreement is a stretch where some tokenizer cuts and another does
not (or cuts elsewhere), with how many tokens each spends on it and the spread, most minus fewest.

    >>> cuts = {"A": token_ends([b"low", b"er", b" new"]), "B": token_ends([b"lo", b"wer", b" new"]),
    ...         "C": token_ends([b"lower", b" new"])}
    >>> [(d.text, d.counts, d.spread) for d in disagreements("lower new", cuts)]
    [('lower', {'A': 2, 'B': 2, 'C': 1}, 1)]
    >>> right_to_left_groups("1234567")
    ['1', '234', '567']

Out of scope: drawing them (:mod:`bpe.views.compare_lessons`).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import accumulate

from ..encoding.tokenizer import Tokenizer
from ..notation.spelling import visible_text

NUMBERS = 1000
"""The numbers :func:`number_costs` prices: 0 to 999, as the Hugging Face number-tokenization post draws them."""
_SPACE_SYMBOL = "\u2581".encode()


def text_pieces(tokenizer: Tokenizer, text: str, ids: Sequence[int]) -> list[bytes] | None:
    """Each token's stretch of ``text`` (UTF-8 bytes), or ``None`` if the tokens do not spell the text
    (a normalization changed it: NFC, or SentencePiece's dropped repeated spaces).

    >>> from bpe.pretrained.registry import load_pretrained
    >>> mistral = load_pretrained("mistral-v1")
    >>> text_pieces(mistral, "Hi 12", mistral.encode("Hi 12"))
    [b'Hi', b' ', b'1', b'2']
    """
    pieces = tokenizer.decode_tokens_bytes(ids)
    normalize = tokenizer.pretokenizer.normalize
    if "\u2581" in normalize("x x"):  # SentencePiece: ▁ is a space, and one ▁ was put in front of the text
        pieces = [piece.replace(_SPACE_SYMBOL, b" ") for piece in pieces]
        prefix = normalize("x")[:-1].replace("\u2581", " ").encode()
        if pieces and pieces[0].startswith(prefix):
            pieces[0] = pieces[0][len(prefix):]
    return pieces if b"".join(pieces) == text.encode("utf-8") else None


def token_ends(pieces: Sequence[bytes]) -> frozenset[int]:
    """The byte offsets where the tokens end (``0`` and the end of the text left out)."""
    ends = list(accumulate(map(len, pieces)))
    return frozenset(ends[:-1]) - {0}


@dataclass(frozen=True)
class Disagreement:
    """A stretch of text that the tokenizers cut differently: ``start``/``end`` are character offsets."""

    start: int
    end: int
    text: str
    pieces: Mapping[str, tuple[str, ...]]
    """Per tokenizer, its tokens over the stretch, spelled (``·`` a space, ``‹e2 82›`` part of a character)."""

    @property
    def counts(self) -> dict[str, int]:
        return {name: len(pieces) for name, pieces in self.pieces.items()}

    @property
    def spread(self) -> int:
        return max(self.counts.values()) - min(self.counts.values())


def disagreements(text: str, cuts: Mapping[str, frozenset[int]]) -> list[Disagreement]:
    """The stretches of ``text`` where the tokenizers' cuts (:func:`token_ends`) differ, in text order
    (linear in the text and the cuts: each stretch's cuts are found by bisection)."""
    data = text.encode("utf-8")
    char_starts = _char_offsets(text)  # byte offset -> character offset, at every character boundary
    shared = sorted({0, len(data)} | {cut for cut in frozenset.intersection(*cuts.values()) if cut in char_starts})
    own = {name: sorted(ends) for name, ends in cuts.items()}
    every = sorted(frozenset.union(*cuts.values()))
    found = []
    for start, end in zip(shared, shared[1:]):
        if bisect_right(every, start) == bisect_left(every, end):
            continue  # no tokenizer cuts inside: one token each, the same
        pieces = {}
        for name, ends in own.items():
            inside = [start, *ends[bisect_right(ends, start):bisect_left(ends, end)], end]
            pieces[name] = tuple(visible_text(data[a:b]) for a, b in zip(inside, inside[1:]))
        if len(set(pieces.values())) > 1:
            found.append(Disagreement(char_starts[start], char_starts[end], text[char_starts[start]:char_starts[end]], pieces))
    return found


def _char_offsets(text: str) -> dict[int, int]:
    offsets, at = {}, 0
    for index, char in enumerate(text):
        offsets[at] = index
        at += len(char.encode("utf-8", "surrogatepass"))
    offsets[at] = len(text)
    return offsets


def number_costs(tokenizer: Tokenizer, count: int = NUMBERS) -> list[int]:
    """How many tokens each of ``0`` to ``count - 1`` costs, written alone (SentencePiece's ``▁`` in
    front, the space it puts before any text, is not counted: it belongs to no digit)."""
    return [len(digit_groups(tokenizer, str(number))) for number in range(count)]


def digit_groups(tokenizer: Tokenizer, digits: str) -> list[str]:
    """The text of each token of ``digits`` written alone (a byte-level part of a character spelled).

    >>> from bpe.pretrained.registry import load_pretrained
    >>> digit_groups(load_pretrained("cl100k_base"), "1234567")
    ['123', '456', '7']
    """
    ids = tokenizer.encode_ordinary(digits)
    pieces = text_pieces(tokenizer, digits, ids) or tokenizer.decode_tokens_bytes(ids)
    return [visible_text(piece) for piece in pieces if piece]


def right_to_left_groups(digits: str) -> list[str]:
    """``digits`` in groups of three counted from the right, as place value groups them (and commas do)."""
    head = len(digits) % 3
    return ([digits[:head]] if head else []) + [digits[i:i + 3] for i in range(head, len(digits), 3)]
