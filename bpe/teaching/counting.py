"""The counting lab: how often a pair *counts* versus how often a merge can *replace* it.

Trainers compare pair counts taken with overlap ("aaaa" has (a, a) at positions 0, 1 and 2), but a
merge replaces left to right without overlap ("aaaa" -> "aa aa": two replacements). This module
returns both, with the position of every counted occurrence and every replacement, so a page can
highlight them side by side.

    >>> from bpe.teaching.counting import count_pair
    >>> tally = count_pair("aaaa", ("a", "a"))
    >>> tally.count, tally.replacements, tally.counted, tally.replaced
    (3, 2, (0, 1, 2), (0, 2))
    >>> tally.merged_texts()
    ['aa', 'aa']

Scope: symbols of a text before any merge (bytes or characters) or after ``k`` merges of a trace,
the pairs present, and one pair's tally. Pairs never cross a pre-tokenized chunk, and gaps (text
the pre-tokenizer does not match, like the spaces under ``whitespace``) are shown but never
counted, as in training. Out of scope: weighting by word counts (a text is counted as written) and
drawing the highlights (the page does that from the positions).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ..encoding.tokenizer import Tokenizer
from ..notation.spelling import quote, spell, visible_text
from ..text.pretokenize import Pretokenizer
from ..tokens.vocab import Pair
from ..training.trace import PairCount, Trace


@dataclass(frozen=True, slots=True)
class Symbol:
    """One symbol of the text as the trainer sees it."""

    id: int
    """Byte value or code point before any merge; the trace's token id after ``k`` merges."""
    text: str
    """Its spelling, as the chips spell it: a space ``·``, a partial UTF-8 byte ``‹e2›``."""
    chunk: int
    """Index of the pre-tokenized piece it belongs to: pairs never cross chunks."""
    counted: bool
    """False for gaps and special tokens, which training never counts."""


@dataclass(frozen=True)
class PairTally:
    """One pair in one text: every counted occurrence and every replacement a merge makes."""

    pair: Pair
    pair_text: tuple[str, str]
    symbols: tuple[Symbol, ...]
    counted: tuple[int, ...]
    """Positions ``i`` where ``symbols[i], symbols[i + 1]`` is the pair, overlaps included."""
    replaced: tuple[int, ...]
    """The positions a merge replaces, left to right, skipping overlaps."""

    @property
    def count(self) -> int:
        """What trainers compare."""
        return len(self.counted)

    @property
    def replacements(self) -> int:
        """How many tokens the merge saves."""
        return len(self.replaced)

    @property
    def overlapped(self) -> tuple[int, ...]:
        """Counted positions the merge cannot replace: their left symbol was already merged."""
        taken = set(self.replaced)
        return tuple(i for i in self.counted if i not in taken)

    def merged_texts(self) -> list[str]:
        """The symbols' spellings after the merge: ``"aaaa", (a, a) -> ["aa", "aa"]``."""
        starts = set(self.replaced)
        texts: list[str] = []
        i = 0
        while i < len(self.symbols):
            if i in starts:
                texts.append(self.symbols[i].text + self.symbols[i + 1].text)
                i += 2
            else:
                texts.append(self.symbols[i].text)
                i += 1
        return texts


def symbols_of(text: str, *, unit: str = "byte", pretokenizer: str = "none") -> tuple[Symbol, ...]:
    """The text before any merge: one symbol per byte (``unit="byte"``) or per character.

    >>> [(s.id, s.text) for s in symbols_of("é", unit="byte")]
    [(195, '‹c3›'), (169, '‹a9›')]
    >>> [(s.text, s.chunk, s.counted) for s in symbols_of("a b", unit="char", pretokenizer="whitespace")]
    [('a', 0, True), ('·', 1, False), ('b', 2, True)]
    """
    if unit not in ("byte", "char"):
        raise ValueError(f"unknown unit {unit!r}: use 'byte' or 'char'")
    symbols: list[Symbol] = []
    for chunk, (piece, is_word) in enumerate(Pretokenizer.parse(pretokenizer).split(text)):
        if unit == "byte":
            symbols.extend(Symbol(b, visible_text(bytes([b])), chunk, is_word) for b in piece.encode("utf-8"))
        else:
            symbols.extend(Symbol(ord(char), spell(char), chunk, is_word) for char in piece)
    return tuple(symbols)


def symbols_at_step(trace: Trace, step: int, text: str) -> tuple[Symbol, ...]:
    """``text`` as the trainer's words stand after ``step`` merges of ``trace``.

    Uses the trace's own unit, pre-tokenizer and end-of-word marker (shown as its own symbol).

    >>> from bpe import PRESETS, train
    >>> trace = train(PRESETS["wikipedia"].corpus(), PRESETS["wikipedia"].settings)
    >>> [s.text for s in symbols_at_step(trace, 1, "aaab")]
    ['aa', 'a', 'b']
    """
    tokenizer = Tokenizer.from_trace(trace, step=step)
    tokens, marker = tokenizer.tokens, tokenizer.end_of_word
    symbols: list[Symbol] = []
    for chunk, walk in enumerate(tokenizer.encode_walkthrough(text, allowed_special="all")):
        symbols.extend(
            Symbol(token_id, visible_text(tokens[token_id].data, marker, tokens[token_id].ends_word), chunk,
                   walk.kind == "word")
            for token_id in walk.ids
        )
    return tuple(symbols)


def pairs_present(symbols: tuple[Symbol, ...]) -> list[PairCount]:
    """Every pair the trainer would count, most frequent first (then by first occurrence).

    >>> [(p.left, p.right, p.count) for p in pairs_present(symbols_of("abab"))]
    [(97, 98, 2), (98, 97, 1)]
    """
    counts: Counter[Pair] = Counter(_pair_at(symbols, i) for i in _countable(symbols))
    ordered = sorted(counts.items(), key=lambda item: -item[1])  # stable: first occurrence breaks ties
    return [PairCount(left, right, count) for (left, right), count in ordered]


def tally(symbols: tuple[Symbol, ...], pair: Pair) -> PairTally:
    """Where ``pair`` (two symbol ids) is counted and where a merge would replace it.

    >>> t = tally(symbols_of("aaa b aaa"), (97, 97))
    >>> t.counted, t.replaced, t.overlapped
    ((0, 1, 6, 7), (0, 6), (1, 7))
    """
    counted: list[int] = []
    replaced: list[int] = []
    free_from = 0  # subtle: a symbol just merged as a right half cannot start the next replacement
    for i in _countable(symbols):
        if _pair_at(symbols, i) != pair:
            continue
        counted.append(i)
        if i >= free_from:
            replaced.append(i)
            free_from = i + 2
    spelled = _spelling(symbols, pair)
    return PairTally(pair, spelled, symbols, tuple(counted), tuple(replaced))


def count_pair(
    text: str, pair_text: tuple[str, str], *, unit: str = "byte", pretokenizer: str = "none"
) -> PairTally:
    """:func:`tally` for a pair given by spelling, on ``text`` before any merge. A symbol may be
    typed as itself (a space) or as the lab shows it (``·``, ``‹c3›``).

    >>> count_pair("banana", ("a", "n")).count, count_pair("x", ("a", "n")).count
    (2, 0)
    >>> count_pair("a b a b", ("·", "b"), unit="char").count, count_pair("a b", (" ", "b"), unit="char").count
    (2, 1)
    """
    symbols = symbols_of(text, unit=unit, pretokenizer=pretokenizer)
    shown = {symbol.text: symbol.id for symbol in symbols}
    present = {symbol.id for symbol in symbols}

    def symbol_id(spelling: str) -> int:
        # Itself first, if the text holds it; then as the chips spell it (a space is shown "·", so "·"
        # means a space unless the text holds a real "·"); then itself, which counts 0 times.
        encoded = spelling.encode("utf-8")
        own = ord(spelling) if unit == "char" and len(spelling) == 1 else (
            encoded[0] if unit == "byte" and len(encoded) == 1 else None)
        if own is not None and own in present:
            return own
        if spelling in shown:
            return shown[spelling]
        if own is not None:
            return own
        raise ValueError(
            f"{quote(spelling)} is not one {unit} symbol of this text: pick one of the pairs the text "
            "holds, or type a single symbol on each side"
        )

    return tally(symbols, (symbol_id(pair_text[0]), symbol_id(pair_text[1])))


def _countable(symbols: tuple[Symbol, ...]) -> list[int]:
    """Positions ``i`` where ``symbols[i], symbols[i + 1]`` is a pair training counts."""
    return [
        i for i in range(len(symbols) - 1)
        if symbols[i].counted and symbols[i].chunk == symbols[i + 1].chunk
    ]


def _pair_at(symbols: tuple[Symbol, ...], i: int) -> Pair:
    return symbols[i].id, symbols[i + 1].id


def _spelling(symbols: tuple[Symbol, ...], pair: Pair) -> tuple[str, str]:
    texts = {symbol.id: symbol.text for symbol in symbols}
    return texts.get(pair[0], str(pair[0])), texts.get(pair[1], str(pair[1]))
