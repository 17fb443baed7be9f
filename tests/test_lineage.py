"""Lineage against facts read from the owners' files with the owners' own libraries (never with the engine).

The expected numbers are computed here from tiktoken's ranks (GPT-4, GPT-4o, gpt-oss, Meta's Llama 3
reader) and from SentencePiece's model protobuf (Mistral's three ``.model`` files); the engine's
``bpe.lineage`` must find the same common prefix, relation and new ranks. A run extended here by N
merges must extend its start by exactly those N. The family tree of every pretrained entry is
checked against groups and prefixes computed the same independent way.
"""

from __future__ import annotations

import re
from functools import cache

import pytest

from bpe import Corpus, Tokenizer, TrainSettings, lineage, train
from bpe.analysis.family import family_tree
from bpe.analysis.lineage import RankedVocabulary, compare_sequences
from bpe.analysis.token_kinds import kinds_of, token_kind
from bpe.pretrained.registry import PRETRAINED, load_pretrained, pretrained_file_paths
from bpe.views.lineage import rank_bars_html
from bpe.training.extend import extend

from .owners import owner_of


@cache
def owner_ranks(name: str) -> tuple[bytes, ...]:
    """The tokens of a rank file in rank order, as tiktoken's owner reads them."""
    ranks = owner_of(name).encoding._mergeable_ranks
    return tuple(sorted(ranks, key=ranks.__getitem__))


@cache
def sentencepiece_pieces(name: str) -> tuple[bytes, ...]:
    """A ``.model`` file's normal pieces in id order, ``▁`` read as the space it stands for (protobuf, not the engine)."""
    from sentencepiece import sentencepiece_model_pb2

    model = sentencepiece_model_pb2.ModelProto()
    model.ParseFromString(pretrained_file_paths(name)[0].read_bytes())
    normal = model.SentencePiece.NORMAL
    return tuple(piece.piece.replace("\u2581", " ").encode("utf-8") for piece in model.pieces if piece.type == normal)


def common_prefix(a, b) -> int:
    return next((rank for rank, (left, right) in enumerate(zip(a, b)) if left != right), min(len(a), len(b)))


@cache
def ranked(name: str) -> RankedVocabulary:
    return RankedVocabulary.of(load_pretrained(name), name=name)


def test_llama3_extends_gpt4_with_its_first_100256_ranks_and_27744_of_its_own():
    gpt4, llama = owner_ranks("cl100k_base"), owner_ranks("llama3")
    prefix = common_prefix(gpt4, llama)
    assert (prefix, len(gpt4), len(llama)) == (100_256, 100_256, 128_000)  # the owners' files say so
    facts = lineage(ranked("cl100k_base"), ranked("llama3"))
    assert facts.relation == "b extends a"
    assert facts.common_prefix == prefix and facts.sizes == (len(gpt4), len(llama))
    known = set(gpt4)
    assert facts.only_b == tuple(rank for rank, token in enumerate(llama) if token not in known)
    assert facts.only_a == () and facts.reordered == 0 and facts.same_rank == prefix
    assert [ranked("llama3").tokens[rank] for rank in facts.only_b[:50]] == list(llama[100_256:100_306])


def test_the_other_way_round_gpt4_is_extended_by_llama3():
    facts = lineage(ranked("llama3"), ranked("cl100k_base"))
    assert (facts.relation, facts.common_prefix, len(facts.only_a), facts.only_b) == ("a extends b", 100_256, 27_744, ())


def test_gpt_oss_has_gpt4os_very_ranks_and_other_special_tokens():
    o200k, harmony = owner_of("o200k_base").encoding, owner_of("o200k_harmony").encoding
    assert o200k._mergeable_ranks == harmony._mergeable_ranks and o200k._special_tokens != harmony._special_tokens
    facts = lineage(ranked("o200k_base"), ranked("o200k_harmony"))
    assert facts.relation == "same ranks" and facts.common_prefix == len(o200k._mergeable_ranks) == facts.sizes[1]


def test_mistral_v1_v3_and_v7_share_every_piece_at_shifted_ids():
    v1, v3, v7 = (sentencepiece_pieces(f"mistral-{version}") for version in ("v1", "v3", "v7"))
    assert v1 == v3 == v7 and len(v1) == 31_741
    for later in ("mistral-v3", "mistral-v7"):
        facts = lineage(ranked("mistral-v1"), ranked(later))
        assert (facts.relation, facts.common_prefix) == ("same ranks", len(v1))
    assert ranked("mistral-v1").tokens == v1  # ▁ read as a space, control and byte pieces left out
    assert ranked("mistral-v1").ids[0] != ranked("mistral-v3").ids[0]  # v3's control tokens come first: ids moved


def test_gpt4o_and_gpt4_agree_on_bytes_and_a_few_merges_then_part():
    gpt4, gpt4o = owner_ranks("cl100k_base"), owner_ranks("o200k_base")
    facts = lineage(ranked("cl100k_base"), ranked("o200k_base"))
    assert facts.common_prefix == common_prefix(gpt4, gpt4o) and facts.relation == "share a prefix"
    assert facts.shared == len(set(gpt4) & set(gpt4o))


@pytest.mark.parametrize("merges", [1, 7, 15])
def test_a_run_extended_by_n_merges_extends_its_start_by_exactly_those_n(merges):
    start = Tokenizer.from_trace(train(Corpus.from_text("low lower newest widest " * 5), TrainSettings(merges=10)))
    trace = extend(start, "नमस्ते दुनिया नमस्ते दुनिया नमस्ते " * 10, merges=merges)
    grown = Tokenizer.from_trace(trace)
    facts = lineage(start, grown)
    new_tokens = [trace.tokens[step.new_id].data for step in trace.steps]
    assert len(new_tokens) == merges
    assert facts.relation == "b extends a" and facts.common_prefix == 256 + 10
    assert [RankedVocabulary.of(grown).tokens[rank] for rank in facts.only_b] == new_tokens


def test_gpt2_extended_keeps_its_50256_ranks_first():
    gpt2 = load_pretrained("gpt2")
    grown = Tokenizer.from_trace(extend(gpt2, "नमस्ते दुनिया " * 20, merges=12))
    facts = lineage(gpt2, grown)
    assert (facts.relation, facts.common_prefix, facts.sizes[1] - facts.sizes[0]) == ("b extends a", 50_256, len(facts.only_b))


def test_unrelated_and_reordered_vocabularies_are_told_apart():
    same = ("a", "b", "ab", "abc", "bc")
    facts = compare_sequences(same, ("a", "b", "bc", "ab", "abc"), names=("x", "y"), first_merges=(2, 2))
    assert (facts.relation, facts.common_prefix, facts.reordered, facts.shared) == ("share tokens", 2, 1, 5)
    facts = compare_sequences(same, ("b", "a", "xy", "yz", "zz"), names=("x", "y"), first_merges=(2, 2))
    assert (facts.relation, facts.shared, facts.only_a, facts.only_b) == ("unrelated", 2, (2, 3, 4), (2, 3, 4))


def test_llama3s_new_ranks_begin_with_arabic_and_thai_byte_fragments():
    first = owner_ranks("llama3")[100_256:100_259]
    # read by hand: " " + lead byte d9 (U+0640-067F, Arabic); "ا" (d8 a7) + d9; "า" (e0 b8 b2) + e0 b8 (U+0E00-0E3F, Thai)
    assert first == (b" \xd9", b"\xd8\xa7\xd9", b"\xe0\xb8\xb2\xe0\xb8")
    assert [token_kind(token) for token in first] == ["Arabic", "Arabic", "Thai"]
    assert token_kind(b"\xe0") == "byte fragment" and token_kind(b"\xb8\xb2") == "byte fragment"  # too little to say


def test_new_tokens_are_grouped_biggest_kind_first():
    groups = kinds_of(ranked("llama3").tokens, lineage(ranked("cl100k_base"), ranked("llama3")).only_b)
    sizes = [len(ranks) for _, ranks in groups]
    assert sizes == sorted(sizes, reverse=True) and sum(sizes) == 27_744
    assert {"Arabic", "Thai", "Cyrillic", "Han"} <= {kind for kind, _ in groups[:10]}


def independent_family() -> tuple[list[set[str]], dict[str, str]]:
    """Groups of entries with the very same ranks, and each group's extension parent, from the owners' files."""
    def tokens(name: str) -> tuple[bytes, ...]:
        return sentencepiece_pieces(name) if PRETRAINED[name].format == "sentencepiece" else ranked_by_owner(name)

    lists = {name: tokens(name) for name in PRETRAINED}
    groups: list[set[str]] = []
    for name, listed in lists.items():
        group = next((group for group in groups if lists[next(iter(group))] == listed), None)
        (group.add(name) if group is not None else groups.append({name}))
    extends = {}
    for child in lists:
        parents = [parent for parent in lists if len(lists[parent]) < len(lists[child]) and lists[child][: len(lists[parent])] == lists[parent]]
        if parents:
            extends[child] = max(parents, key=lambda parent: len(lists[parent]))
    return groups, extends


def ranked_by_owner(name: str) -> tuple[bytes, ...]:
    entry = PRETRAINED[name]
    if entry.format in ("tiktoken", "gpt2"):
        return owner_ranks(name)
    return ranked(name).tokens  # DeepSeek's tokenizer.json and Tekken: no rank-file owner here; the groups still hold


def test_the_family_tree_groups_and_extensions_match_the_owners_files():
    groups, extends = independent_family()
    vocabularies = {name: ranked(name) for name in PRETRAINED}
    family = family_tree({name: v.tokens for name, v in vocabularies.items()},
                         first_merges={name: v.first_merge for name, v in vocabularies.items()})
    assert sorted(map(sorted, groups)) == sorted(sorted(member.names) for member in family)
    leader = {name: member.names[0] for member in family for name in member.names}
    for member in family:
        child = member.names[0]
        if child in extends:
            assert (member.relation, member.parent) == ("extends", leader[extends[child]])
        else:
            assert member.relation != "extends"
    assert {"llama3", "cl100k_base"} <= {name for member in family if member.relation == "extends" for name in (member.names[0], member.parent)}


def test_the_rank_bars_name_each_part_beside_its_swatch_whatever_its_width():
    start = Tokenizer.from_trace(train(Corpus.from_text("low lower newest widest " * 5), TrainSettings(merges=10)))
    grown = Tokenizer.from_trace(extend(start, "नमस्ते दुनिया " * 10, merges=3))
    drawn = rank_bars_html(lineage(start, grown), "<start>", "grown")
    named = re.findall(r'<div class="bpe-rank-parts">(.*?)</div>', drawn)
    # each bar's parts are named under it, in words a phone can read (a part inside a narrow bar cut its label)
    assert [re.sub(r"<[^>]+>", "", parts) for parts in named] == [
        "ranks 0–265: the same in both", "ranks 0–265: the same in bothranks 266–268: its own order"]
    assert "&lt;start&gt;" in drawn and "<start>" not in drawn
