"""Pre-tokenization: normalizing text, then cutting it into chunks that merges never cross.

Scope: the named pre-tokenizers (:data:`PRETOKENIZERS`: ``none``, ``whitespace``, ``space``,
``gpt2``, ``gpt4``, ``gpt4o``, the Qwen and DeepSeek families, ``sentencepiece``) and
``regex:PATTERN``, the split of text around special tokens, and the lossless split used when
encoding. Out of scope: what happens inside a chunk (that is the trainer's and the tokenizer's job).

A named pre-tokenizer is one entry: a normalization step (Qwen's NFC, SentencePiece's whitespace
handling), then one of a single regex (GPT-2, GPT-4, GPT-4o, Qwen), a sequence of Hugging Face
``Split`` rules (DeepSeek: digit groups, then CJK runs, then a GPT-4-like pattern;
:mod:`bpe.text.split_rules`), or SentencePiece's own split (:mod:`bpe.text.sentencepiece_split`).

Two kinds of piece come out of a split:

* **words**: the pattern's matches. Training counts these and, with an end-of-word marker, appends
  the marker to each of them.
* **gaps**: text the pattern did not match (e.g. the spaces between words under ``whitespace``).
  Training ignores gaps, as Sennrich's whitespace split does, but encoding keeps them, so that
  ``decode(encode(text)) == text`` for every pattern that does not normalize: no character is
  ever dropped. (A normalizing one gives back the normalized text: NFC, or SentencePiece's
  single spaces.)

    >>> Pretokenizer.parse("whitespace").split("low  lower")
    [('low', True), ('  ', False), ('lower', True)]
    >>> Pretokenizer.parse("gpt2").words("I'm low")
    ['I', "'m", ' low']
    >>> Pretokenizer.parse("deepseek").words("in 2024年12月")
    ['in', ' ', '202', '4', '年', '12', '月']
    >>> qwen = Pretokenizer.parse("qwen2")
    >>> qwen.normalize("Cafe\u0301 12"), qwen.words(qwen.normalize("Cafe\u0301 12"))
    ('Café 12', ['Café', ' ', '1', '2'])
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

import regex

from ..errors import PatternError, SpecialTokenError
from .named_pretokenizers import (  # noqa: F401  (re-exported: the patterns are named here too)
    GPT2_PATTERN, GPT4_PATTERN, GPT4O_PATTERN, NAMED_PATTERNS, PRETOKENIZER_HELP, PRETOKENIZERS, NamedPretokenizer,
    Normalization,
)
from .pattern_guard import check_pattern_cost
from .split_rules import split_with_removed

REGEX_TIMEOUT_S = 2.0
"""A custom pattern that backtracks catastrophically is stopped after this many seconds."""


@dataclass(frozen=True)
class Pretokenizer:
    """A named pre-tokenizer or a custom split pattern. Build one with :meth:`parse`."""

    name: str
    """A name in :data:`PRETOKENIZERS` or ``regex:PATTERN`` (the spec as given)."""
    _compiled: regex.Pattern | None = field(default=None, compare=False, repr=False)
    entry: NamedPretokenizer | None = field(default=None, compare=False, repr=False)
    """The registry's entry (``None`` for a custom pattern)."""

    @classmethod
    def parse(cls, spec: str) -> "Pretokenizer":
        """Parse a name in :data:`PRETOKENIZERS` or ``regex:PATTERN``; raise :class:`PatternError` if bad."""
        if not isinstance(spec, str):  # subtle: a file read back may hold any JSON value here
            raise PatternError(f"the pre-tokenizer must be a name such as 'gpt2', got {spec!r}")
        if spec.startswith("regex:"):
            return cls(spec, compile_custom_pattern(spec[len("regex:"):]))
        entry = PRETOKENIZERS.lookup(spec)  # an unknown name is a PatternError listing the names
        return cls(spec, None if entry.pattern is None else regex.compile(entry.pattern), entry)

    @property
    def is_custom(self) -> bool:
        return self.name.startswith("regex:")

    @property
    def normalization(self) -> Normalization | None:
        return None if self.entry is None else self.entry.normalization

    @property
    def gapless(self) -> bool:
        """Every character lands in a word, so :meth:`words` alone rebuilds the text."""
        return self.entry is not None and self.entry.gapless

    def normalize(self, text: str) -> str:
        """The text to encode after the normalization step (unchanged for most pre-tokenizers)."""
        return text if self.normalization is None else self.normalization.normalize(text)

    def denormalize(self, text: str) -> str:
        """Decoded text back as written, where the normalization can be undone (SentencePiece's ▁)."""
        return text if self.normalization is None else self.normalization.denormalize(text)

    def training_words(self, text: str, *, split: Callable[[str], list[str]] | None = None) -> list[str]:
        """The chunks a training text yields: its normalized sentences' words (``split`` gives the
        same words as :meth:`words`, faster: ``fast_split``)."""
        if self.normalization is None:
            return (split or self.words)(text)
        sentences = self.normalization.sentences(text)
        if split is None and self.entry.sentence_words is not None:
            return self.entry.sentence_words(sentences)
        split = split or self.words
        return [word for sentence in sentences for word in split(sentence)]

    def words(self, text: str) -> list[str]:
        """The chunks training counts: the pattern's matches (the whole text for ``none``)."""
        if self._compiled is not None and not self.is_custom:
            return self._compiled.findall(text)
        if self._compiled is None and (self.entry is None or self.entry.name == "none"):
            return [text] if text else []
        return [piece for piece, is_word in self.split(text) if is_word]

    def split(self, text: str) -> list[tuple[str, bool]]:
        """Cut ``text`` into ``(piece, is_word)`` pieces that concatenate back to ``text``."""
        if self.entry is not None and self.entry.rules:
            return split_with_removed(text, self.entry.rules)
        if self.entry is not None and self.entry.splitter is not None:
            return self.entry.splitter(text)
        if self._compiled is None:
            return [(text, True)] if text else []
        pieces: list[tuple[str, bool]] = []
        position = 0
        try:
            matches = self._compiled.finditer(text, timeout=REGEX_TIMEOUT_S if self.is_custom else None)
            for match in matches:
                start, end = match.span()
                if start == end:
                    raise PatternError(
                        f"the pattern {self.name!r} matched the empty string at character {start}; "
                        "a split pattern must consume text (use + instead of * or ?)"
                    )
                if start > position:
                    pieces.append((text[position:start], False))
                pieces.append((match.group(), True))
                position = end
        except TimeoutError as error:
            raise PatternError(
                f"the pattern {self.name!r} took over {REGEX_TIMEOUT_S:g} s on this text "
                "(catastrophic backtracking?); simplify nested repeats like (a+)+"
            ) from error
        if position < len(text):
            pieces.append((text[position:], False))
        return pieces


def compile_custom_pattern(pattern: str) -> regex.Pattern:
    """Compile a user's split regex, refusing patterns that are empty, too costly to compile
    (:mod:`bpe.text.pattern_guard`), reversed, or that match the empty string.

    Every custom pattern passes here (links, the sidebar, imported files, the CLI all build a
    :class:`Pretokenizer` with :meth:`Pretokenizer.parse`).
    """
    if not pattern:
        # Said for the app's regex box and the command line alike, so it names no prefix or option.
        raise PatternError("the custom split pattern is empty: give it a regex, for example \\w+|\\W")
    check_pattern_cost(pattern)  # before compiling: a pattern like (?:a{65535}){65535} is a memory bomb
    try:
        # cache_pattern=False: regex's module cache would keep up to 500 users' programs alive
        compiled = regex.compile(pattern, cache_pattern=False)
    except (regex.error, ValueError, RecursionError) as error:  # ValueError: e.g. (?V0)(?V1), clashing flags
        raise PatternError(f"the custom pattern {pattern!r} is not a valid regex: {error}") from error
    if compiled.flags & regex.REVERSE:
        # Matches would come from the end of the text backwards, and the split would repeat text.
        raise PatternError(
            f"the custom pattern {pattern!r} uses the (?r) flag, which searches from the end of the text "
            "backwards; a split pattern reads left to right: remove (?r)"
        )
    if compiled.fullmatch("") is not None:
        raise PatternError(
            f"the custom pattern {pattern!r} matches the empty string; "
            "a split pattern must consume text (use + instead of * or ?)"
        )
    return compiled


def validate_special_tokens(special_tokens: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """Check special tokens are non-empty and distinct; return them as a tuple, order kept.

    Tokens may contain each other (``<|e|>`` and ``<|e|><|e|>``): the longest match wins.
    """
    seen: set[str] = set()
    for token in special_tokens:
        if not isinstance(token, str) or not token:
            raise SpecialTokenError("a special token is empty: give each one some text, e.g. <|endoftext|>")
        if token in seen:
            raise SpecialTokenError(f"the special token {token!r} is listed twice: list each one once")
        seen.add(token)
    return tuple(special_tokens)


SpecialSet = Literal["all"] | Collection[str]
"""The special tokens ``allowed_special`` or ``disallowed_special`` name (tiktoken's arguments):
``"all"``, or a collection of their texts."""


def special_token_pattern(special_tokens: tuple[str, ...] | list[str] | set[str]) -> regex.Pattern | None:
    """A regex matching any of ``special_tokens``: the leftmost occurrence, and there the longest
    token, as Hugging Face's added tokens match (special tokens may contain each other).

    >>> special_token_pattern(["<|e|>", "<|e|><|e|>"]).findall("<|e|><|e|><|e|>")
    ['<|e|><|e|>', '<|e|>']
    """
    if not special_tokens:
        return None
    return _special_token_pattern(frozenset(special_tokens))


@lru_cache(maxsize=64)
def _special_token_pattern(special_tokens: frozenset[str]) -> regex.Pattern:
    # Why cached: every encode asks for its tokenizer's pattern, and building it escapes each token
    # again (gpt-oss names 1,091 special tokens: building took 150 times a short encode). A handful
    # of tokenizers and special-token choices are in use at once, so 64 patterns cover them.
    ordered = sorted(special_tokens, key=lambda token: (-len(token), token))
    return regex.compile("|".join(regex.escape(token) for token in ordered))


def split_special(
    text: str, pattern: regex.Pattern | None, allowed: Collection[str] | None = None
) -> list[tuple[str, bool]]:
    """Cut ``text`` into ``(piece, is_special)`` pieces around special-token matches.

    ``pattern`` matches special tokens (:func:`special_token_pattern`). With ``allowed``, only those
    are cut out, by tiktoken's rule: the pattern of *every* special token finds the leftmost, longest
    one; one that is not allowed stays text and the search goes on from its second character, so an
    allowed token inside it is still found.

    >>> split_special("a<|e|>b", special_token_pattern(["<|e|>"]))
    [('a', False), ('<|e|>', True), ('b', False)]
    >>> split_special("<|e|><|e|>", special_token_pattern(["<|e|>", "<|e|><|e|>"]), allowed={"<|e|>"})
    [('<|e|>', False), ('<|e|>', True)]
    """
    if pattern is None:
        return [(text, False)] if text else []
    pieces: list[tuple[str, bool]] = []
    position = search_from = 0
    while match := pattern.search(text, search_from):
        if allowed is not None and match.group() not in allowed:
            search_from = match.start() + 1
            continue
        if match.start() > position:
            pieces.append((text[position:match.start()], False))
        pieces.append((match.group(), True))
        position = search_from = match.end()
    if position < len(text):
        pieces.append((text[position:], False))
    return pieces
