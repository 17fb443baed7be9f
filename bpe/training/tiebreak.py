"""Tie-break rules: which pair wins when several share the top count.

Ties are the rule, not the exception: on real text thousands of the first 5,000 merges are ties,
so a trainer that does not say how it breaks them cannot be reproduced. Each rule here is named
after what it does and reproduces the trainers listed under it exactly.

A rule is one :class:`TieBreakRule` in one registry: its name, who uses it, its sort key over
candidate pairs (the preferred pair sorts first, or last for ``greatest_wins``), the sentence the
labs use to explain a choice, whether it needs first occurrences tracked, and, for a rule that
chooses among candidates of its own (SentencePiece's), the chooser the trainer asks instead of
the pair counts (:mod:`bpe.training.choice`). The trainer and the
labs read only the rule object, never its name; the key reads the trainer's state through
:class:`TieContext`, so the rules stay independent of how the trainer stores its words.

Adding a rule is one more entry in ``TIE_BREAK_RULES`` (tests/test_teaching_tie_lab.py adds a toy
rule). The entry holds the rule twice on purpose: its ``key`` for the fast trainer and its
``reference``, the same rule written plainly for :mod:`bpe.reference`, which recounts everything
and shares nothing else with the trainer, so that their agreement (``tests/test_reference.py``,
run over every entry) is evidence. The built-in rules' plain keys are lines of the reference
itself (:data:`bpe.reference.TIE_BREAKS`, which the Train page shows). A name that is not
registered is an error when it is looked up, never a silent default.

Worked example, the pairs tied at count 2 in Wikipedia's "ZabdZabac" after Z=aa:
``lexicographic-min`` picks (a, b) because b"a" < b"aa"; ``first-seen`` picks (Z, a) because it
occurs first; ``lexicographic-max`` picks (Z, a) as well.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .. import reference
from ..errors import SettingsError
from ..registry import Registry
from ..tokens.byte_level import BYTE_TO_UNICODE
from ..tokens.vocab import Pair, Token
from .choice import Chooser
from .sentencepiece_choice import SentencePieceChoice

SortKey = Callable[[Pair], object]


@dataclass(frozen=True)
class TieContext:
    """What a rule may read: per-id spellings and ranks, where a pair first occurs, and how to
    name a pair in a sentence."""

    sort_bytes: Sequence[bytes]
    """Per token id: the bytes the lexicographic rules compare."""
    hf_rank: Sequence[int]
    """Per token id: its id in Hugging Face's numbering."""
    unit: str
    """``byte`` or ``char``."""
    first_occurrence: Callable[[Pair], tuple[int, int]]
    """Pair -> (index of the first word containing it, byte offset of its first occurrence there);
    only rules with ``tracks_first_occurrence`` may call it."""
    label: Callable[[Pair], str] = str
    """A pair as people read it (explanations only), e.g. ``'aa' + 'a'``."""
    spell: Callable[[bytes], str] = repr
    """A token's bytes as people read them (explanations only); the labs pass the chips' notation."""


@dataclass(frozen=True)
class TieBreakRule:
    name: str
    summary: str
    """One line: what the rule prefers."""
    used_by: str
    """Who breaks ties this way."""
    key: Callable[[TieContext], SortKey]
    """Given the trainer's state, the sort key of a pair. Keys must be total (end on the pair
    itself when spellings can repeat), so the order never depends on set iteration order."""
    why: Callable[[TieContext, Pair, Pair], str]
    """``why(context, winner, loser)`` completes "the rule picks <winner> because ..."."""
    reference: reference.SortRule
    """The same rule written plainly for :func:`bpe.reference.train`: ``(key, pick)``, the sort key
    of a tied pair over the reference's :class:`~bpe.reference.Tie`, and ``min`` or ``max``."""
    greatest_wins: bool = False
    """The pair with the greatest key wins (the key sorts descending)."""
    tracks_first_occurrence: bool = False
    """The key reads ``first_occurrence``, which the trainer then keeps up to date."""
    contrast: str = "first-seen"
    """The rule a lesson sets beside this one (Compare's run diff opens on it): one that breaks
    ties differently on the classic examples, so the two runs visibly part."""
    candidates: Callable[..., Chooser] | None = None
    """A rule that chooses among candidates of its own, not the pair counts alone: its chooser
    (:mod:`bpe.training.choice`), built as ``candidates(counts, spelling=, key=, min_frequency=,
    max_ties=, top_k=)``. SentencePiece's (:mod:`bpe.training.sentencepiece_choice`): a pair spelling a
    piece made already is dropped, never merged, and pairs that no longer occur stay candidates at count 0."""
    min_frequency: int | None = None
    """The minimum frequency the trainer it reproduces uses, when a run does not set one."""


def tie_break_rule(name: str) -> TieBreakRule:
    """The registered rule called ``name``; an unknown name is a :class:`SettingsError`.

    It reads the registry when called, so everything that looks rules up sees the same entries.
    """
    return TIE_BREAK_RULES.lookup(name)


def contrasting_rule(name: str) -> str:
    """The rule to compare rule ``name`` with by default: its ``contrast``, or, if that is the rule
    itself or not registered, the first registered rule that is not ``name``.

    >>> contrasting_rule("first-seen"), contrasting_rule("hf")
    ('lexicographic-min', 'first-seen')
    """
    contrast = tie_break_rule(name).contrast
    if contrast != name and contrast in TIE_BREAK_RULES:
        return contrast
    return next(other for other in TIE_BREAK_RULES if other != name)


def _spelling(context: TieContext) -> SortKey:
    # subtle: two different tokens can spell the same bytes (ab+c and a+bc); the ids then decide
    spell = context.sort_bytes
    return lambda pair: (spell[pair[0]], spell[pair[1]], pair)


def _why_by_spelling(word: str, sign: str) -> Callable[[TieContext, Pair, Pair], str]:
    def why(context: TieContext, winner: Pair, loser: Pair) -> str:
        spell = context.sort_bytes
        won, lost = (spell[winner[0]], spell[winner[1]]), (spell[loser[0]], spell[loser[1]])
        if won == lost:
            return f"both spell the same bytes, so the smaller ids decide: {winner} < {loser}"
        return (
            f"its byte strings are the {word}, comparing the left token first: "
            f"({', '.join(map(context.spell, won))}) {sign} ({', '.join(map(context.spell, lost))})"
        )
    return why


def _piece_length(data: bytes) -> int:
    """How SentencePiece measures a piece: in characters (a byte of a partial character, which the
    byte unit has, counts as one)."""
    return len(data.decode("utf-8", errors="surrogateescape"))


def _sentencepiece_key(context: TieContext) -> SortKey:
    spell = context.sort_bytes

    def key(pair: Pair) -> object:
        piece = spell[pair[0]] + spell[pair[1]]
        return _piece_length(piece), piece, pair

    return key


def _why_sentencepiece(context: TieContext, winner: Pair, loser: Pair) -> str:
    spell = context.sort_bytes
    won, lost = spell[winner[0]] + spell[winner[1]], spell[loser[0]] + spell[loser[1]]
    won_length, lost_length = _piece_length(won), _piece_length(lost)
    if won_length != lost_length:
        return f"its piece is shorter: {context.spell(won)} has {won_length} characters, {context.spell(lost)} {lost_length}"
    if won != lost:
        return f"its piece comes first in code point order: {context.spell(won)} < {context.spell(lost)}"
    return f"both spell the same piece, so the smaller ids decide: {winner} < {loser}"


def _hf_key(context: TieContext) -> SortKey:
    rank = context.hf_rank  # the trainer appends each merged token's rank as it is made
    return lambda pair: (rank[pair[0]], rank[pair[1]])


def _why_hf(context: TieContext, winner: Pair, loser: Pair) -> str:
    rank = context.hf_rank
    ordering = "its alphabet sorted by character" + (
        " (bytes by GPT-2's stand-in, so a space 'Ġ' sorts after the letters)" if context.unit == "byte" else ""
    )
    return (
        f"it has the smallest ids in Hugging Face's numbering ({ordering}, merged tokens after it): "
        f"({rank[winner[0]]}, {rank[winner[1]]}) < ({rank[loser[0]]}, {rank[loser[1]]})"
    )


# A new rule is one more entry in this tuple.
TIE_BREAK_RULES: Registry[TieBreakRule] = Registry("tie-break rule", error=SettingsError, entries=(
        TieBreakRule(
            "first-seen",
            "the pair whose first occurrence comes earliest in the current corpus",
            "minbpe, tiktoken's educational trainer, the Hugging Face course, the Sennrich paper's "
            "code (Python's max over an insertion-ordered dict)",
            key=lambda context: context.first_occurrence,
            why=lambda context, winner, loser: (
                "it occurs first in the text: its first occurrence comes before any occurrence of "
                f"{context.label(loser)} (words are read in the order they first appear)"
            ),
            tracks_first_occurrence=True,
            # first-seen and lexicographic-max agree on every merge of the Hugging Face course's
            # example, so a lesson beside them would show nothing
            contrast="lexicographic-min",
            reference=reference.TIE_BREAKS["first-seen"],
        ),
        TieBreakRule(
            "lexicographic-max",
            "the greatest pair of byte strings",
            "Stanford CS336, subword-nmt's learn_bpe",
            key=_spelling, why=_why_by_spelling("greatest", ">"), greatest_wins=True,
            reference=reference.TIE_BREAKS["lexicographic-max"],
        ),
        TieBreakRule(
            "lexicographic-min",
            "the smallest pair of byte strings",
            "Wikipedia's walk-through (Z=aa, Y=ab, X=ZY)",
            key=_spelling, why=_why_by_spelling("smallest", "<"),
            reference=reference.TIE_BREAKS["lexicographic-min"],
        ),
        TieBreakRule(
            "hf",
            "the smallest (left id, right id), ids ordered as Hugging Face numbers its alphabet "
            "(by character; bytes by GPT-2's byte-to-unicode character), then merges in order",
            "Hugging Face tokenizers' BpeTrainer",
            key=_hf_key, why=_why_hf,
            reference=reference.TIE_BREAKS["hf"],
        ),
        TieBreakRule(
            "smallest-ids",
            "the smallest (left id, right id) with raw byte ids",
            "rustbpe (nanochat)",
            key=lambda context: lambda pair: pair,
            why=lambda context, winner, loser: f"it has the smallest raw ids, left id first: {winner} < {loser}",
            reference=reference.TIE_BREAKS["smallest-ids"],
        ),
        TieBreakRule(
            "sentencepiece",
            "the shorter merged piece, then the first in code point order; a pair spelling a piece "
            "made already is never merged",
            "SentencePiece's BPE trainer (google/sentencepiece)",
            key=_sentencepiece_key, why=_why_sentencepiece, candidates=SentencePieceChoice,
            min_frequency=0, contrast="lexicographic-max",
            reference=reference.TIE_BREAKS["sentencepiece"],
        ),
))
"""Every rule by name, in the order the app lists them."""


def hf_ranks(base: Sequence[Token], *, unit: str, vocab_size: int | None = None) -> list[int]:
    """Each token's id in Hugging Face's numbering: the base alphabet sorted by character, then
    the merged tokens in creation order (ids ``len(base)`` to ``vocab_size - 1`` keep their id).

    For bytes that character is GPT-2's byte-to-unicode stand-in, so b" " (shown "Ġ") sorts after
    the letters; a marker token sorts last.

    >>> from bpe.tokens.vocab import base_tokens
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
