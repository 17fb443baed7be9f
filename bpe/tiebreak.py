"""Tie-break rules: which pair wins when several share the top count.

Ties are the rule, not the exception: on real text thousands of the first 5,000 merges are ties,
so a trainer that does not say how it breaks them cannot be reproduced. Each rule here is named
after what it does and reproduces the trainers listed under it exactly.

Every rule is a sort key over candidate pairs (the preferred pair sorts first). The key reads the
trainer's current state through :class:`TieContext`, so the rules stay independent of how the
trainer stores its words.

Worked example, the pairs tied at count 2 in Wikipedia's "ZabdZabac" after Z=aa:
``lexicographic-min`` picks (a, b) because b"a" < b"aa"; ``first-seen`` picks (Z, a) because it
occurs first; ``lexicographic-max`` picks (Z, a) as well.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from .byte_level import BYTE_TO_UNICODE
from .vocab import Token

Pair = tuple[int, int]


@dataclass(frozen=True)
class TieBreakRule:
    name: str
    summary: str
    """One line: what the rule prefers."""
    used_by: str
    """Who breaks ties this way."""


TIE_BREAK_RULES: MappingProxyType[str, TieBreakRule] = MappingProxyType({
    rule.name: rule
    for rule in (
        TieBreakRule(
            "first-seen",
            "the pair whose first occurrence comes earliest in the current corpus",
            "minbpe, tiktoken's educational trainer, the Hugging Face course, the Sennrich paper's "
            "code (Python's max over an insertion-ordered dict)",
        ),
        TieBreakRule(
            "lexicographic-max",
            "the greatest pair of byte strings",
            "Stanford CS336, subword-nmt's learn_bpe, the seed tutorial",
        ),
        TieBreakRule(
            "lexicographic-min",
            "the smallest pair of byte strings",
            "Wikipedia's walk-through (Z=aa, Y=ab, X=ZY)",
        ),
        TieBreakRule(
            "hf",
            "the smallest (left id, right id), ids ordered as Hugging Face numbers its alphabet "
            "(by character; bytes by GPT-2's byte-to-unicode character), then merges in order",
            "Hugging Face tokenizers' BpeTrainer",
        ),
        TieBreakRule(
            "smallest-ids",
            "the smallest (left id, right id) with raw byte ids",
            "rustbpe (nanochat)",
        ),
    )
})


@dataclass(frozen=True)
class TieContext:
    """What a rule may read: per-id spellings and ranks, and where a pair first occurs."""

    sort_bytes: list[bytes]
    """Per token id: the bytes the lexicographic rules compare."""
    hf_rank: list[int]
    """Per token id: its id in Hugging Face's numbering."""
    first_occurrence: Callable[[Pair], tuple[int, int]]
    """Pair -> (index of the first word containing it, byte offset of its first occurrence there)."""


def sort_key(rule: str, context: TieContext) -> tuple[Callable[[Pair], object], bool]:
    """Return ``(key, reverse)`` such that ``sorted(pairs, key=key, reverse=reverse)[0]`` wins.

    Subtle: two different tokens can spell the same bytes (``ab+c`` and ``a+bc``); the ids then
    decide, so the order is always total and never depends on set iteration order.
    """
    if rule == "first-seen":
        return context.first_occurrence, False
    if rule in ("lexicographic-max", "lexicographic-min"):
        spell = context.sort_bytes
        return (lambda pair: (spell[pair[0]], spell[pair[1]], pair)), rule == "lexicographic-max"
    if rule == "hf":
        rank = context.hf_rank
        return (lambda pair: (rank[pair[0]], rank[pair[1]])), False
    return (lambda pair: pair), False


def hf_ranks(base: Sequence[Token], *, unit: str, vocab_size: int | None = None) -> list[int]:
    """Each token's id in Hugging Face's numbering: the base alphabet sorted by character, then
    the merged tokens in creation order (ids ``len(base)`` to ``vocab_size - 1`` keep their id).

    For bytes that character is GPT-2's byte-to-unicode stand-in, so b" " (shown "Ġ") sorts after
    the letters; a marker token sorts last.

    >>> from bpe.vocab import base_tokens
    >>> ranks = hf_ranks(base_tokens(unit="byte"), unit="byte")
    >>> ranks[ord("a")] < ranks[ord("z")] < ranks[ord(" ")]
    True
    """
    def char_of(token_id: int) -> str:
        token = base[token_id]
        if token.ends_word:
            return "\U0010ffff"
        return BYTE_TO_UNICODE[token.data[0]] if unit == "byte" else token.data.decode("utf-8")

    ranks = list(range(vocab_size or len(base)))
    for rank, token_id in enumerate(sorted(range(len(base)), key=char_of)):
        ranks[token_id] = rank
    return ranks
