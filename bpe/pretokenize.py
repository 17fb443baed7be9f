"""Pre-tokenization: cutting text into chunks that merges never cross.

Scope: the named split patterns (``none``, ``whitespace``, ``space``, ``gpt2``, ``gpt4``, ``regex:PATTERN``),
the split of text around special tokens, and the lossless split used when encoding. Out of scope:
what happens inside a chunk (that is the trainer's and the tokenizer's job).

Two kinds of piece come out of a split:

* **words**: the pattern's matches. Training counts these and, with an end-of-word marker, appends
  the marker to each of them.
* **gaps**: text the pattern did not match (e.g. the spaces between words under ``whitespace``).
  Training ignores gaps, as Sennrich's whitespace split does, but encoding keeps them, so that
  ``decode(encode(text)) == text`` for every pattern: no character is ever dropped.

    >>> Pretokenizer.parse("whitespace").split("low  lower")
    [('low', True), ('  ', False), ('lower', True)]
    >>> Pretokenizer.parse("gpt2").words("I'm low")
    ['I', "'m", ' low']
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal

import regex

from .errors import PatternError, SpecialTokenError
from .pattern_guard import check_pattern_cost

# tiktoken's spelling of GPT-2's split pattern (r50k_base); same splits as GPT-2's encoder.py.
GPT2_PATTERN = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s"""
# tiktoken's cl100k_base pattern (GPT-4): case-insensitive contractions, digits in groups of 3.
GPT4_PATTERN = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
    r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
)
# tiktoken's o200k_base pattern (GPT-4o), copied from tiktoken_ext/openai_public.py: a word may
# start with capitals (camelCase splits before each hump), contractions stick to their word.
GPT4O_PATTERN = "|".join([
    r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
    r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
    r"""\p{N}{1,3}""",
    r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
    r"""\s*[\r\n]+""",
    r"""\s+(?!\S)""",
    r"""\s+""",
])
WHITESPACE_PATTERN = r"\S+"
# subword-nmt's learn_bpe and apply_bpe split each line with ``line.strip('\r\n ').split(' ')``:
# only the space character (and the line breaks between lines) separate words; a tab stays inside.
SPACE_PATTERN = r"[^ \r\n]+"

NAMED_PATTERNS: MappingProxyType[str, str | None] = MappingProxyType({
    "none": None,
    "whitespace": WHITESPACE_PATTERN,
    "space": SPACE_PATTERN,
    "gpt2": GPT2_PATTERN,
    "gpt4": GPT4_PATTERN,
    "gpt4o": GPT4O_PATTERN,
})
PRETOKENIZER_HELP: MappingProxyType[str, str] = MappingProxyType({
    "none": "the whole text is one sequence (Wikipedia's 'aaabdaaabac', minbpe's BasicTokenizer)",
    "whitespace": "words are runs of non-space characters; spaces are never trained on (Sennrich)",
    "space": "words are cut at the space character and line breaks only, tabs stay inside (subword-nmt)",
    "gpt2": "GPT-2's regex: letters, numbers, punctuation and contractions, a space joins the next word",
    "gpt4": "GPT-4's regex (cl100k): like GPT-2 but digits in groups of three, case-blind contractions",
    "gpt4o": "GPT-4o's regex (o200k): like GPT-4, but camelCase splits at capitals and contractions stay on their word",
    "regex:PATTERN": "your own regex; its matches are the words, the text between them is kept as is",
})
REGEX_TIMEOUT_S = 2.0
"""A custom pattern that backtracks catastrophically is stopped after this many seconds."""


@dataclass(frozen=True)
class Pretokenizer:
    """A named split pattern. Build one with :meth:`parse`."""

    name: str
    """``none``, ``whitespace``, ``space``, ``gpt2``, ``gpt4`` or ``regex:PATTERN`` (the spec as given)."""
    _compiled: regex.Pattern | None = field(default=None, compare=False, repr=False)

    @classmethod
    def parse(cls, spec: str) -> "Pretokenizer":
        """Parse ``none|whitespace|space|gpt2|gpt4|regex:PATTERN``; raise :class:`PatternError` if bad."""
        if not isinstance(spec, str):  # subtle: a file read back may hold any JSON value here
            raise PatternError(f"the pre-tokenizer must be a name such as 'gpt2', got {spec!r}")
        if spec in NAMED_PATTERNS:
            pattern = NAMED_PATTERNS[spec]
            return cls(spec, None if pattern is None else regex.compile(pattern))
        if spec.startswith("regex:"):
            return cls(spec, compile_custom_pattern(spec[len("regex:"):]))
        raise PatternError(
            f"unknown pre-tokenizer {spec!r}: use one of {', '.join(NAMED_PATTERNS)} "
            "or regex:PATTERN (e.g. regex:\\w+)"
        )

    @property
    def is_custom(self) -> bool:
        return self.name.startswith("regex:")

    def words(self, text: str) -> list[str]:
        """The chunks training counts: the pattern's matches (the whole text for ``none``)."""
        if self._compiled is None:
            return [text] if text else []
        if not self.is_custom:
            return self._compiled.findall(text)
        return [piece for piece, is_word in self.split(text) if is_word]

    def split(self, text: str) -> list[tuple[str, bool]]:
        """Cut ``text`` into ``(piece, is_word)`` pieces that concatenate back to ``text``."""
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
    (:mod:`bpe.pattern_guard`), reversed, or that match the empty string.

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
