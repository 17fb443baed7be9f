"""The pre-tokenization lab: one text split by every pre-tokenizer, and what training learns without one.

Merges never cross a pre-tokenized chunk, so the split decides which tokens can exist at all. This
module returns the data for a side-by-side view (every named pre-tokenizer, from ``none`` to the
Qwen, DeepSeek and SentencePiece families, each after its normalization step, then a custom
regex), a few telling example texts with their one-line lessons, and the tokens a trainer learns
across word boundaries when there is no pre-tokenizer.

    >>> from bpe.teaching.pretokenization_lab import compare_splits, spanning_tokens
    >>> [split.words for split in compare_splits("1234567", specs=("gpt2", "gpt4"))]
    [['1234567'], ['123', '456', '7']]
    >>> spanning_tokens("newest newest newest widest", pretokenizer="none")
    ['newest ', 'newest newest ']
    >>> spanning_tokens("newest newest newest widest", pretokenizer="gpt2")
    []

Scope: splitting (through :mod:`bpe.text.pretokenize`) and small training runs. Out of scope: special
tokens (split out before any pattern runs) and drawing the pieces.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import PatternError
from ..text.corpus import Corpus
from ..text.pretokenize import PRETOKENIZER_HELP, PRETOKENIZERS, Pretokenizer
from ..training.settings import TrainSettings
from ..training.trainer import train

NAMED_SPECS = tuple(PRETOKENIZERS)
NEWEST_TEXT = "newest newest newest widest"


@dataclass(frozen=True)
class Split:
    """``text`` cut by one pattern; ``error`` (and no pieces) when a custom pattern is bad."""

    spec: str
    pieces: tuple[tuple[str, bool], ...]
    """``(piece, is_word)``: words are trained on; gaps are kept when encoding but never trained on."""
    help: str
    error: str | None = None
    title: str = "your regex"
    """What the row is called (the registry's title, e.g. ``Qwen2.5``)."""
    normalization: str | None = None
    """The step run before the split, e.g. ``NFC``, when it changed the text (its result is the pieces)."""

    @property
    def words(self) -> list[str]:
        return [piece for piece, is_word in self.pieces if is_word]


@dataclass(frozen=True)
class SplitExample:
    title: str
    text: str
    lesson: str
    """One line: what comparing the splits of ``text`` shows."""


EXAMPLES: tuple[SplitExample, ...] = (
    SplitExample(
        "Accents, composed or not",
        "Cafe\u0301 or café?",
        "The two cafés look alike, but the first is e + a combining accent (U+0301). GPT-2 and GPT-4 cut the "
        "accent off into a piece of its own; Qwen first normalizes to NFC, so it becomes é; GPT-4o, DeepSeek "
        "and SentencePiece keep the mark on its letter.",
    ),
    SplitExample(
        "Numbers by family",
        "in 2024 we paid 1234567",
        "GPT-4, GPT-4o and DeepSeek cut digits into groups of three, Qwen gives every digit a piece of its own, "
        "and GPT-2 and SentencePiece keep a number whole (SentencePiece only keeps digits apart from letters).",
    ),
    SplitExample(
        "Spaces as ▁",
        "Hello  world",
        "SentencePiece writes a space as ▁ at the start of the next word, puts one in front of the text (the "
        "dummy prefix) and drops the extra space; the regex families keep the second space as a piece.",
    ),
    SplitExample(
        "Contractions in capitals",
        "I'm here. I'M HERE.",
        "GPT-2's contractions are case-sensitive: \"'m\" is one piece but \"'M\" falls apart into \"'\" "
        "and \"M\"; GPT-4 matches them in any case.",
    ),
    SplitExample(
        "Long numbers",
        "1234567",
        "GPT-4 cuts digits into groups of three (\"123\", \"456\", \"7\"), so no token can hold a "
        "longer number; GPT-2 keeps the whole run together.",
    ),
    SplitExample(
        "Trailing whitespace",
        "hello   ",
        "Spaces at the end of the text form their own piece under GPT-2 and GPT-4; whitespace "
        "splitting drops them from training altogether, and none lets them merge onto the word.",
    ),
    SplitExample(
        "Runs of spaces",
        "a  b",
        "Of a run of spaces, GPT-2 and GPT-4 keep the last one for the next word, so \" b\" is the same "
        "piece as in \"a b\" and the extra space stands alone.",
    ),
    SplitExample(
        "Blank lines",
        "a\n\n b",
        "Newlines form a piece of their own, and the space after them still joins the next word.",
    ),
    SplitExample(
        "Indented lines",
        "x\n  y",
        "GPT-2 glues the newline to the first space of the indentation; GPT-4 ends the piece at the "
        "newline, which keeps code indentation tokens clean.",
    ),
)


@dataclass(frozen=True)
class Learned:
    """What a few merges learn on ``text`` under one pre-tokenizer."""

    pretokenizer: str
    tokens: tuple[str, ...]
    """Every token learned, in merge order."""
    spanning: tuple[str, ...]
    """The learned tokens that span a word boundary (see :func:`spans_words`)."""
    transition: int | None = None
    """SuperBPE: the merges learned under ``pretokenizer`` before its split was lifted (``None``: one stage)."""

    @property
    def title(self) -> str:
        """``GPT-2``, or ``SuperBPE (GPT-2's split for 4 merges)``."""
        split = PRETOKENIZERS[self.pretokenizer].title
        return split if self.transition is None else f"SuperBPE ({split}'s split for {self.transition} merges)"


def compare_splits(
    text: str, *, custom: str | None = None, specs: tuple[str, ...] = NAMED_SPECS
) -> list[Split]:
    """``text`` split by each of ``specs``, then by the ``custom`` regex (without ``regex:``) if given.

    A bad custom pattern does not raise: its split carries the error message instead.

    >>> compare_splits("I'M HERE", specs=("gpt2", "gpt4"))[0].words
    ['I', "'", 'M', ' HERE']
    >>> bad = compare_splits("ab", custom="a*", specs=())[0]
    >>> bad.spec, bad.pieces, bad.error is not None
    ('regex:a*', (), True)
    """
    all_specs = list(specs) + ([f"regex:{custom}"] if custom is not None else [])
    splits = []
    for spec in all_specs:
        help_text = PRETOKENIZER_HELP["regex:PATTERN" if spec.startswith("regex:") else spec]
        title = PRETOKENIZERS[spec].title if spec in PRETOKENIZERS else "your regex"
        try:
            pretokenizer = Pretokenizer.parse(spec)
            normalized = pretokenizer.normalize(text)
            pieces = tuple(pretokenizer.split(normalized))
        except PatternError as error:
            splits.append(Split(spec, (), help_text, str(error), title))
            continue
        step = pretokenizer.normalization.name if pretokenizer.normalization and normalized != text else None
        splits.append(Split(spec, pieces, help_text, title=title, normalization=step))
    return splits


def spans_words(token: str) -> bool:
    """True when ``token`` reaches across a word boundary: whitespace after a non-space character.

    A leading space (GPT-2's " newest") does not count: it only attaches the space to its word.

    >>> [spans_words(t) for t in ("newest ", "t n", " newest", "   ")]
    [True, True, False, False]
    """
    return re.search(r"\S\s", token) is not None


def is_superword(token: str) -> bool:
    """True when ``token`` holds two words and the space between them (SuperBPE's " of the"), not
    only a word and a space after it.

    >>> [is_superword(t) for t in (" of the", "newest ", ".\\n\\n", "a b")]
    [True, False, False, True]
    """
    return re.search(r"\S\s+\S", token) is not None


def learn(text: str, *, pretokenizer: str, merges: int = 10, unit: str = "byte", transition: int | None = None) -> Learned:
    """Train ``merges`` merges on ``text`` (default minimum frequency 2) under ``pretokenizer``, and
    with ``transition`` SuperBPE's second stage after that many.

    >>> learn("newest newest newest widest", pretokenizer="gpt2", transition=4).spanning
    ('newest ', 'newest newest ')
    """
    settings = TrainSettings(unit=unit, pretokenizer=pretokenizer, merges=merges, transition=transition)
    corpus = Corpus.from_text(text, pretokenizer=pretokenizer, second_split=settings.second_split)
    trace = train(corpus, settings)
    tokens = tuple(trace.token_text(step.new_id) for step in trace.steps)
    return Learned(pretokenizer, tokens, tuple(token for token in tokens if spans_words(token)), transition)


def spanning_tokens(text: str = NEWEST_TEXT, *, pretokenizer: str = "none", merges: int = 10) -> list[str]:
    """The learned tokens that span words: what a pre-tokenizer exists to prevent."""
    return list(learn(text, pretokenizer=pretokenizer, merges=merges).spanning)


def without_pretokenization(
    text: str = NEWEST_TEXT, *, merges: int = 10, compare: tuple[str, ...] = ("none", "gpt2"), transition: int | None = None,
) -> list[Learned]:
    """:func:`learn` under each of ``compare``, then (with ``transition``) SuperBPE's two stages on
    the last of them, for a side-by-side view.

    >>> [(run.title, run.tokens[-1]) for run in without_pretokenization(transition=4)]
    [('none', 'newest newest '), ('GPT-2', ' newest'), ("SuperBPE (GPT-2's split for 4 merges)", 'newest newest ')]
    """
    runs = [learn(text, pretokenizer=spec, merges=merges) for spec in compare]
    if transition is not None:
        runs.append(learn(text, pretokenizer=compare[-1], merges=merges, transition=transition))
    return runs
