"""The pretrained tokenizers as a family tree, computed from their files' lineage facts, never typed in.

Each tokenizer's parent is the smaller vocabulary whose tokens it keeps, in that vocabulary's own
order, the most of (at least :data:`KEEPS_ORDER` of them): Llama 3 keeps all of GPT-4's 100,256
ranks at their ranks (it *extends* GPT-4); Qwen2.5 keeps 98.9 % of them in GPT-4's order with its own
tokens between them (it *builds on* GPT-4). Tokenizers with the very same ranks (gpt-oss and GPT-4o:
only their special tokens differ) are one node. The rest are roots: trained afresh, as far as
their files tell.

    >>> family = family_tree({"a": ("x", "y", "xy"), "b": ("x", "y", "xy", "yx"), "c": ("x", "y", "xy"),
    ...                       "d": ("y", "x", "yx")}, first_merges={"a": 2, "b": 2, "c": 2, "d": 2})
    >>> [(member.names, member.parent, member.relation, member.added) for member in family]
    [(('a', 'c'), None, '', 0), (('b',), 'a', 'extends', 1), (('d',), None, '', 0)]

Out of scope: reading the tokenizers (the caller passes each one's tokens in rank order, as
:class:`~bpe.analysis.lineage.RankedVocabulary` holds them, or interned as ids) and drawing.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass

from .lineage import Lineage, compare_sequences

KEEPS_ORDER = 0.9
"""A parent is a smaller vocabulary of which the child keeps at least this share of tokens in the
parent's order (the longest run of them in the same order, not merely the same set)."""


@dataclass(frozen=True)
class FamilyMember:
    names: tuple[str, ...]
    """Tokenizers with the very same ranks (one node of the tree), in the order given."""
    parent: str | None
    """The first name of the parent's node, or ``None`` for a root."""
    relation: str
    """``extends`` (the parent's ranks are its first ranks) or ``builds on`` (keeps most of the parent's
    tokens in the parent's order, with others between them); empty for a root."""
    kept: int
    """Of the parent's tokens, how many it keeps in the parent's order."""
    added: int
    """Its tokens the parent lacks."""
    size: int


def family_tree(
    vocabularies: Mapping[str, Sequence[Hashable]], *, first_merges: Mapping[str, int],
) -> tuple[FamilyMember, ...]:
    """The family of ``vocabularies`` (name -> tokens in rank order), one member per node, in the order given."""
    return family_facts(vocabularies, first_merges=first_merges)[0]


def family_facts(
    vocabularies: Mapping[str, Sequence[Hashable]], *, first_merges: Mapping[str, int],
) -> tuple[tuple[FamilyMember, ...], dict[tuple[str, str], Lineage]]:
    """:func:`family_tree`, and the lineage of every two nodes it compared (smaller first)."""
    groups: list[list[str]] = []
    for name, tokens in vocabularies.items():
        same = next((group for group in groups if vocabularies[group[0]] == tokens), None)
        if same is None:
            groups.append([name])
        else:
            same.append(name)
    leaders = [group[0] for group in groups]
    facts: dict[tuple[str, str], Lineage] = {}
    members = []
    for group in groups:
        child = group[0]
        best: tuple[int, str, Lineage] | None = None
        for parent in leaders:
            if len(vocabularies[parent]) >= len(vocabularies[child]):
                continue
            fact = facts[parent, child] = compare_sequences(
                vocabularies[parent], vocabularies[child], names=(parent, child),
                first_merges=(first_merges[parent], first_merges[child]),
            )
            kept = fact.shared - fact.reordered
            if kept >= KEEPS_ORDER * len(vocabularies[parent]) and (best is None or kept > best[0]):
                best = (kept, parent, fact)
        if best is None:
            members.append(FamilyMember(tuple(group), None, "", 0, 0, len(vocabularies[child])))
        else:
            kept, parent, fact = best
            relation = "extends" if fact.relation == "b extends a" else "builds on"
            members.append(FamilyMember(tuple(group), parent, relation, kept, len(fact.only_b), len(vocabularies[child])))
    return tuple(members), facts
