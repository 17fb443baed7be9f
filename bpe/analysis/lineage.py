"""Lineage of two tokenizers: where their ranked vocabularies agree, where one extends the other, what each adds.

Tokenizers are extended as well as trained: Llama 3's rank file begins with all 100,256 of GPT-4's
ranks, the same token at the same rank, and goes on with 27,744 of its own. A merge list is
ordered, so two of them are compared by rank as well as by token:

* the **common prefix**: ranks 0, 1, ... that hold the same token in both (base bytes included);
* the **relation**: the same ranks, one *extends* the other (the shorter is a prefix of the longer),
  they *share a prefix* (their first merges agree), *share tokens* (most of them, in another order),
  or are *unrelated*;
* the tokens **only one has**, and the shared ones **in a different order**: how many would have to
  move for the two orders to agree (the shared tokens minus the longest run in the same order).

Tokens are compared as the text they stand for (a SentencePiece piece's ``▁`` is a space), so
Mistral's pieces can be compared with a byte-level vocabulary.

    >>> a = RankedVocabulary("a", (b"a", b"b", b"ab", b"abb"))
    >>> b = RankedVocabulary("b", (b"a", b"b", b"ab", b"abb", b"ba"))
    >>> facts = lineage(a, b)
    >>> facts.common_prefix, facts.relation, facts.only_b
    (4, 'b extends a', (4,))
    >>> lineage(a, RankedVocabulary("c", (b"a", b"b", b"abb", b"ab"))).reordered
    1

Out of scope: drawing (``bpe/views/lineage.py``) and the pretrained family (``family``).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from ..encoding.packed_tokens import datas_of
from ..encoding.tokenizer import Tokenizer
from ..text.sentencepiece_split import SPACE_SYMBOL

SHARED_TOKENS = 0.5
"""Two vocabularies with no common merged prefix are said to share tokens when at least this share of
the smaller one's tokens are in the other."""


@dataclass(frozen=True)
class RankedVocabulary:
    """A tokenizer's tokens in rank order (base, merged and whole-only; no special or byte-fallback tokens)."""

    name: str
    tokens: tuple[bytes, ...]
    parts: tuple[tuple[int, int] | None, ...] = ()
    """Per rank, the ranks of the two tokens its merge joined (``None``: a base or whole-only token);
    empty when not known."""
    ids: tuple[int, ...] = ()
    """Per rank, the token's id in its tokenizer (for drawing its merge tree); empty when not known."""

    @classmethod
    def of(cls, tokenizer: Tokenizer, *, name: str | None = None) -> "RankedVocabulary":
        """``tokenizer``'s vocabulary by rank: its ids in order, special and byte-fallback ones left out."""
        skipped = set(tokenizer.special_tokens.values()) | set(tokenizer.fallback_bytes)
        vocabulary = tokenizer.tokens
        ids = [token_id for token_id in sorted(vocabulary) if token_id not in skipped]
        rank_of = {token_id: rank for rank, token_id in enumerate(ids)}
        made = {new_id: (rank_of[left], rank_of[right]) for left, right, new_id in tokenizer.merges}
        normalization = tokenizer.pretokenizer.normalization
        spaces = normalization is not None and normalization.name.startswith("SentencePiece")
        datas = datas_of(vocabulary, ids)
        if spaces:
            space = SPACE_SYMBOL.encode("utf-8")
            datas = [data.replace(space, b" ") for data in datas]
        return cls(name or tokenizer.name, tuple(datas), tuple(made.get(token_id) for token_id in ids), tuple(ids))

    def __len__(self) -> int:
        return len(self.tokens)

    @property
    def first_merge(self) -> int:
        """The first rank a merge made (256 for a byte-level vocabulary; 0 for SentencePiece's, whose
        characters come last); without ``parts``, the first rank of a token of more than one byte."""
        if self.parts:
            return next((rank for rank, parts in enumerate(self.parts) if parts is not None), len(self.parts))
        return next((rank for rank, token in enumerate(self.tokens) if len(token) > 1), len(self.tokens))


@dataclass(frozen=True)
class Lineage:
    """The facts of two ranked vocabularies, ``a`` and ``b`` (ranks are each one's own)."""

    a: str
    b: str
    sizes: tuple[int, int]
    common_prefix: int
    """Ranks ``0 .. common_prefix - 1`` hold the same token in both."""
    relation: str
    """``same ranks``, ``a extends b`` / ``b extends a``, ``share a prefix``, ``share tokens`` or ``unrelated``."""
    shared: int
    """Tokens both have, at any rank."""
    only_a: tuple[int, ...]
    """Ranks in ``a`` of the tokens ``b`` lacks."""
    only_b: tuple[int, ...]
    reordered: int
    """Shared tokens that would have to move for both to order the shared tokens alike."""
    same_rank: int
    """Shared tokens at the same rank in both."""

    def sentence(self, title_a: str, title_b: str) -> str:
        """The lineage in one plain sentence (escape it where it is drawn).

        >>> a, b = RankedVocabulary("a", (b"a", b"b", b"ab")), RankedVocabulary("b", (b"a", b"b", b"ab", b"ba"))
        >>> lineage(a, b).sentence("GPT-4", "Llama 3")
        "Llama 3 extends GPT-4: its first 3 ranks are GPT-4's 3, the same token at each rank, and its 1 further rank is its own."
        """
        (size_a, size_b), prefix = self.sizes, self.common_prefix
        if self.relation == "same ranks":
            return f"{title_a} and {title_b} have the very same {size_a:,} ranks: only their special tokens can differ."
        if self.relation in ("a extends b", "b extends a"):
            (old, new, size_old, size_new) = (title_b, title_a, size_b, size_a) if self.relation == "a extends b" else (title_a, title_b, size_a, size_b)
            more = size_new - size_old
            return (f"{new} extends {old}: its first {prefix:,} ranks are {old}'s {size_old:,}, the same token at each rank, "
                    f"and its {more:,} further rank{'s are' if more != 1 else ' is'} its own.")
        shared = f"They share {self.shared:,} tokens"
        order = ("in the same order" if not self.reordered else f"{self.reordered:,} of them in another order")
        if self.relation == "share a prefix":
            return f"{title_a} and {title_b} agree on their first {prefix:,} ranks, then part. {shared}, {order}."
        if self.relation == "share tokens":
            return f"{title_a} and {title_b} part at rank {prefix:,}, but share most tokens: {self.shared:,}, {order}."
        return f"{title_a} and {title_b} part at rank {prefix:,} and share {self.shared:,} tokens: no sign that one was made from the other."


def lineage(a: RankedVocabulary | Tokenizer, b: RankedVocabulary | Tokenizer) -> Lineage:
    """The lineage facts of ``a`` and ``b``, tokenizers or their ranked vocabularies (see the module's docstring).

    >>> from bpe.pretrained.registry import load_pretrained
    >>> facts = lineage(load_pretrained("gpt-4"), load_pretrained("llama3"))
    >>> facts.relation, facts.common_prefix, len(facts.only_b)
    ('b extends a', 100256, 27744)
    """
    a, b = (RankedVocabulary.of(side) if isinstance(side, Tokenizer) else side for side in (a, b))
    return compare_sequences(a.tokens, b.tokens, names=(a.name, b.name), first_merges=(a.first_merge, b.first_merge))


def compare_sequences(
    a: Sequence[Hashable], b: Sequence[Hashable], *, names: tuple[str, str], first_merges: tuple[int, int],
) -> Lineage:
    """:func:`lineage` of two sequences of tokens (bytes, or interned ids when many are compared);
    ``first_merges``: each one's first rank that a merge made (:attr:`RankedVocabulary.first_merge`)."""
    (name_a, name_b), (first_a, first_b) = names, first_merges
    prefix = 0
    for left, right in zip(a, b):
        if left != right:
            break
        prefix += 1
    rank_b = {token: rank for rank, token in enumerate(b)}
    in_a = set(a)
    shared_ranks = [rank_b[token] for token in a if token in rank_b]  # b's ranks, in a's order
    only_a = tuple(rank for rank, token in enumerate(a) if token not in rank_b)
    only_b = tuple(rank for rank, token in enumerate(b) if token not in in_a)
    same_rank = sum(1 for rank, token in enumerate(a) if rank_b.get(token) == rank)
    if prefix == len(a) == len(b):
        relation = "same ranks"
    elif prefix == len(a):
        relation = "b extends a"
    elif prefix == len(b):
        relation = "a extends b"
    elif prefix > min(first_a, first_b):  # a merged token at the same rank in both
        relation = "share a prefix"
    elif len(shared_ranks) >= SHARED_TOKENS * min(len(a), len(b)):
        relation = "share tokens"
    else:
        relation = "unrelated"
    return Lineage(
        a=name_a, b=name_b, sizes=(len(a), len(b)), common_prefix=prefix, relation=relation, shared=len(shared_ranks),
        only_a=only_a, only_b=only_b, reordered=len(shared_ranks) - _longest_increasing(shared_ranks), same_rank=same_rank,
    )


def _longest_increasing(values: Sequence[int]) -> int:
    """Length of the longest strictly increasing subsequence (patience sorting): ``[1, 3, 2, 4] -> 3``."""
    tails: list[int] = []
    for value in values:
        at = bisect_left(tails, value)
        if at == len(tails):
            tails.append(value)
        else:
            tails[at] = value
    return len(tails)
