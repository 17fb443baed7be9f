"""Where tokenizers cut a text differently, and what numbers cost them (``bpe.teaching.cuts`` and its views).

Expected cuts and counts come from the owners' libraries (tiktoken, ``sentencepiece`` through
``mistral-common``), never from our own encoder; the disagreements are checked against a brute-force
reading of the same cuts.
"""

from __future__ import annotations

import html
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe import Corpus, Tokenizer, TrainSettings, train
from bpe.teaching.cuts import (
    NUMBERS, digit_groups, disagreements, number_costs, right_to_left_groups, text_pieces, token_ends,
)
from bpe.views.compare_lessons import disagreement_frame, disagreement_html, number_cost_frame, number_heatmap

from .examples import examples
from .owners import owner_of
from .shared_tokenizers import shared_pretrained

TRIO = ("o200k_base", "llama3", "mistral-v7")  # GPT-4o, Llama 3, Mistral v7: the lesson's three
TEXT = "All human beings are born free. Alle Menschen sind frei. 人人生而自由。 In 2024: 12,345.67 €, 👋🏽 naïve"


def owner_pieces(name: str, text: str) -> list[bytes]:
    """The owner's tokens of ``text`` as stretches of it: tiktoken's bytes, or SentencePiece's pieces with
    ``▁`` as a space and the dummy prefix dropped (bytes of byte-fallback pieces as they are)."""
    owner = owner_of(name)
    ids = owner.default(text)
    if name.startswith("mistral"):
        model = owner.encoding._model
        pieces = [
            bytes([int(piece[3:5], 16)]) if model.is_byte(i) else piece.replace("\u2581", " ").encode()
            for i, piece in ((i, model.id_to_piece(i)) for i in ids)
        ]
        return [pieces[0][1:], *pieces[1:]]
    return [owner.encoding.decode_single_token_bytes(i) for i in ids]


def brute_force_disagreements(text: str, cuts: dict[str, frozenset[int]]) -> list[str]:
    """The stretches between consecutive shared cuts (at character boundaries) that not every tokenizer cuts alike."""
    data = text.encode()
    starts = {len(text[:i].encode()) for i in range(len(text) + 1)}
    shared = sorted({0, len(data)} | {c for c in set.intersection(*map(set, cuts.values())) if c in starts})
    return [
        data[a:b].decode() for a, b in zip(shared, shared[1:])
        if len({frozenset(c for c in own if a < c < b) for own in cuts.values()}) > 1
    ]


def test_each_tokenizers_pieces_spell_the_text_as_its_owner_cuts_it():
    for name in TRIO:
        tokenizer = shared_pretrained(name)
        assert text_pieces(tokenizer, TEXT, tokenizer.encode_ordinary(TEXT)) == owner_pieces(name, TEXT), name


def test_a_normalized_text_has_no_pieces_of_its_own():
    settings = TrainSettings(unit="char", pretokenizer="sentencepiece", merges=0)
    spaces_made_one = Tokenizer.from_trace(train(Corpus.from_text("a b", pretokenizer="sentencepiece"), settings))
    assert text_pieces(spaces_made_one, "a b", spaces_made_one.encode("a b")) == [b"", b"a", b" ", b"b"]  # ▁ in front: nothing
    assert text_pieces(spaces_made_one, "a  b", spaces_made_one.encode("a  b")) is None  # SentencePiece made it "a b"


def test_the_disagreements_of_gpt4o_llama3_and_mistral_are_the_stretches_their_owners_cut_differently():
    cuts = {name: token_ends(owner_pieces(name, TEXT)) for name in TRIO}
    ours = {name: token_ends(text_pieces(shared_pretrained(name), TEXT, shared_pretrained(name).encode_ordinary(TEXT))) for name in TRIO}
    found = disagreements(TEXT, ours)
    assert [item.text for item in found] == brute_force_disagreements(TEXT, cuts)
    by_text = {item.text: item for item in found}
    assert by_text["202"].counts == {"o200k_base": 1, "llama3": 1, "mistral-v7": 3}  # 2024: 202|4 and 2|0|2|4
    assert by_text["202"].pieces["mistral-v7"] == ("2", "0", "2") and by_text["202"].spread == 2
    assert by_text["🏽"].pieces == {  # a character byte-level tokens split, SentencePiece's piece keeps whole
        "o200k_base": ("‹f0 9f 8f›", "‹bd›"), "llama3": ("‹f0 9f›", "‹8f›", "‹bd›"), "mistral-v7": ("🏽",),
    }


@settings(max_examples=examples(60), deadline=None)
@given(st.lists(st.sampled_from(["lo", "w", "er", " new", "é", "👋🏽", " 12", "3", "東京", "\n", "  "]), max_size=12))
def test_any_text_s_disagreements_are_exactly_the_stretches_cut_differently(words):
    text = "".join(words)
    cuts = {name: token_ends(text_pieces(shared_pretrained(name), text, shared_pretrained(name).encode_ordinary(text))) for name in TRIO}
    found = disagreements(text, cuts)
    assert [item.text for item in found] == brute_force_disagreements(text, cuts)
    for item in found:
        assert item.spread == max(item.counts.values()) - min(item.counts.values())


def test_the_marked_text_escapes_everything_and_titles_each_mark_with_every_cut():
    text = "<b>lower</b>"
    found = disagreements(text, {"A": token_ends([b"<b>", b"low", b"er", b"</b>"]), "B": token_ends([b"<b>", b"lower", b"</b>"])})
    marked = disagreement_html(text, found)
    assert "<b>" not in marked.replace('<div class="bpe-cuts">', "") and html.escape("<b>") in marked
    assert re.findall(r'<mark class="bpe-cut" title="([^"]*)">([^<]*)</mark>', marked) == [("A: 2 tokens (low|er) · B: 1 token (lower)", "lower")]
    assert disagreement_frame(found).to_dict("records") == [{"text": "lower", "spread": 1, "A": "2: low|er", "B": "1: lower"}]


@pytest.mark.parametrize("name", ["gpt2", "o200k_base", "llama3", "tekken-240718"])
def test_what_each_number_costs_is_its_owners_token_count(name):
    owner = owner_of(name)
    assert number_costs(shared_pretrained(name)) == [len(owner.default(str(number))) for number in range(NUMBERS)]


def test_a_sentencepiece_number_costs_its_digits_not_the_space_in_front():
    owner = owner_of("mistral-v7")
    costs = number_costs(shared_pretrained("mistral-v7"))
    assert costs == [len(owner.default(str(number))) - 1 for number in range(NUMBERS)]  # ▁ then one piece per digit
    assert (costs[7], costs[42], costs[999]) == (1, 2, 3)


def test_digits_are_grouped_from_the_left_by_gpt4_and_from_the_right_by_place_value():
    assert digit_groups(shared_pretrained("o200k_base"), "1234567") == ["123", "456", "7"]
    assert digit_groups(shared_pretrained("mistral-v7"), "1234567") == list("1234567")
    assert right_to_left_groups("1234567") == ["1", "234", "567"]
    assert right_to_left_groups("123456") == ["123", "456"] and right_to_left_groups("") == []


def test_the_heatmap_draws_a_cell_per_number_per_tokenizer_and_its_table_counts_them():
    costs = {"A": [1] * 10 + [2] * 90 + [3] * 900, "B": [1] * 1000}
    spec = number_heatmap(costs).to_dict()
    (rows,) = spec["datasets"].values()
    assert len(rows) == 2000 and spec["spec"]["mark"]["type"] == "rect" and spec["facet"]["field"] == "tokenizer"
    assert spec["spec"]["encoding"]["color"]["scale"]["domain"] == [1, 2, 3]
    assert number_cost_frame(costs).to_dict("records") == [
        {"tokenizer": "A", "1 token": 10, "2 tokens": 90, "3 tokens": 900, "all numbers": 2890},
        {"tokenizer": "B", "1 token": 1000, "2 tokens": 0, "3 tokens": 0, "all numbers": 1000},
    ]
