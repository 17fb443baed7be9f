"""The "Why tokenization matters" page in AppTest: each card's ids and counts are tiktoken's, the
"try your own" box counts the learner's text, and the links lead to the page that shows why.

Expected ids come from tiktoken's own encodings, built offline from the same files
(``peers.tiktoken_encoding``), never from this engine.
"""

from __future__ import annotations

import html
import json
import re
from urllib.parse import parse_qsl

import pytest

from bpe.app.pages import WHY
from bpe.pretrained.registry import PRETRAINED
from bpe.teaching.udhr import ARTICLE_1
from bpe.teaching.why_tokenization import ENDOFTEXT, GPT2_MAGIKARP, PHENOMENA

from .apptest_support import VOCAB, open_page, page_markup
from .peers import tiktoken_by_title



@pytest.fixture(scope="module")
def tiktokens() -> dict:
    return tiktoken_by_title()


def rows_of(at) -> dict[str, tuple[str, str]]:
    """The first split table: tokenizer -> (its count, the ids drawn)."""
    table = next(element.value for element in at.html if 'class="bpe-splits"' in element.value)
    rows = {}
    for row in table.split("<tr>")[2:]:
        name, count = re.match(r'<th scope="row">(.*?)<span class="bpe-count">(.*?)</span>', row).groups()
        rows[html.unescape(name)] = (count, ", ".join(re.findall(r'class="bpe-id"[^>]*>(\d+)</span>', row)))
    return rows


def expect_rows(at, text: str, tiktokens: dict) -> None:
    rows = rows_of(at)
    for name, encoding in tiktokens.items():
        ids = encoding.encode(text, disallowed_special=())
        count, drawn = rows[name]
        drawn = drawn.split(", ")
        assert count == f"{len(ids):,} token{'s' * (len(ids) != 1)}" and len(drawn) >= min(48, len(ids)), name
        assert drawn == [str(token_id) for token_id in ids[: len(drawn)]], name


@pytest.mark.parametrize("key", list(PHENOMENA))
def test_each_card_opens_from_its_link_with_tiktokens_ids_and_counts(key, tiktokens):
    at = open_page(WHY.file, card=key)
    assert not at.exception
    card = PHENOMENA[key]
    assert card.question in [element.value for element in at.header]
    expect_rows(at, card.samples[0][1], tiktokens)
    assert at.query_params["card"] == key


def test_another_sample_text_shows_its_own_ids(tiktokens):
    at = open_page(WHY.file, card="spelling")
    at.button_group(key="w.why_sample.spelling").set_value("' STRAWBERRY'").run()
    assert not at.exception
    expect_rows(at, " STRAWBERRY", tiktokens)
    at = open_page(WHY.file, card="languages")
    at.selectbox(key="w.why_sample.languages").set_value("Thai").run()
    (thai,) = [sentence.text for sentence in ARTICLE_1 if sentence.language == "Thai"]
    expect_rows(at, thai, tiktokens)


def test_the_try_box_counts_the_learners_text_under_every_tokenizer(tiktokens):
    at = open_page(WHY.file, card="numbers")
    text = "3.14159 + 2.71828 = 5.85987"
    at.text_input(key="w.why_try.numbers").set_value(text).run()
    assert not at.exception
    counts = next(element.value for element in at.markdown if "GPT-4o\\:" in element.value)
    for name, encoding in tiktokens.items():
        assert f"{name}\\: {len(encoding.encode(text)):,} tokens" in counts
    assert at.session_state["bpe.why_try.numbers"] == text


def test_the_languages_card_charts_every_language_and_tokenizer_and_tables_the_numbers(tiktokens):
    at = open_page(WHY.file, card="languages")
    (chart,) = at.get("vega_lite_chart")
    spec = json.loads(chart.proto.spec)
    assert spec["description"].startswith("Tokens for the first article")
    table = next(element.value for element in at.html if 'class="bpe-costs"' in element.value)
    english = {name: len(encoding.encode(ARTICLE_1[0].text)) for name, encoding in tiktokens.items()}
    for sentence in ARTICLE_1:
        assert f'<th scope="row">{sentence.language}</th>' in table
        for name, encoding in tiktokens.items():
            tokens = len(encoding.encode(sentence.text))
            assert f'<td class="bpe-first">{tokens:,}</td>' in table
            assert f"{tokens / english[name]:.1f}×" in table


def test_the_special_tokens_card_quotes_the_default_refusal():
    at = open_page(WHY.file, card="special-tokens")
    (refusal,) = [element.value for element in at.error]
    assert refusal.startswith("**GPT-2's `encode` by default:**") and "allowed\\_special" in refusal


def test_the_glitch_card_links_to_gpt2s_merge_tree_of_solidgoldmagikarp():
    at = open_page(WHY.file, card="glitch-tokens")
    (link,) = [link.proto for link in at.get("page_link") if link.proto.label.startswith("Vocabulary:")]
    params = dict(parse_qsl(link.query_string))
    assert (link.page, params) == ("Vocabulary", {"vocab": "gpt2", "token": str(GPT2_MAGIKARP)})
    vocabulary = open_page(VOCAB, **params)
    assert not vocabulary.exception
    assert vocabulary.session_state["bpe.vocab_of"] == "gpt2"
    (tree,) = vocabulary.get("graphviz_chart")
    assert "SolidGoldMagikarp" in tree.proto.spec and f"id {GPT2_MAGIKARP}" in tree.proto.spec


def test_every_card_link_opens_its_page_without_error():
    for card in PHENOMENA.values():
        for link in card.links:
            at = open_page(link.page, **link.params)
            assert not at.exception, (card.key, link.label)


def test_home_and_the_tours_end_link_here():
    home = open_page()
    assert any(link.proto.page == "Why_tokenization_matters" for link in home.get("page_link") if link.proto.label.startswith(WHY.title + ":"))


def test_a_text_with_a_special_token_typed_in_the_try_box_is_shown_not_run():
    at = open_page(WHY.file, card="special-tokens")
    at.text_input(key="w.why_try.special-tokens").set_value(f"<script>alert(1)</script>{ENDOFTEXT}").run()
    assert not at.exception
    assert all("<script>" not in markup for markup in page_markup(at))


def test_a_tokenizer_still_loading_gets_a_row_that_says_so_and_its_chips_once_ready(monkeypatch, tiktokens):
    """A cold server: the page draws what is loaded, a loading row for GPT-4o, and a note that reruns the
    page as it arrives (here the loader holds GPT-4o back until the page has been drawn once)."""
    import threading

    import ui.tokenizers

    release, loaded = threading.Event(), ui.tokenizers.load_pretrained
    monkeypatch.setattr(ui.tokenizers, "load_pretrained", lambda name: release.wait(60) and loaded(name) if name == "o200k_base" else loaded(name))
    ui.tokenizers._loader().ready(["gpt2", "cl100k_base"], wait_s=120)  # before GPT-4o in the registry's order
    monkeypatch.setattr(ui.tokenizers, "FIRST_SCREEN_WAIT_S", 0.5)
    at = open_page(WHY.file, card="numbers")
    assert not at.exception
    table = next(element.value for element in at.html if 'class="bpe-splits"' in element.value)
    assert '<tr class="bpe-loading"><th scope="row">GPT-4o<span class="bpe-count">loading…</span>' in table
    assert rows_of(at)["GPT-2"][1] and rows_of(at)["GPT-4"][1]  # loaded before it: drawn meanwhile (the later ones wait behind it)
    assert any(caption.value.startswith(":material/hourglass_top: Reading GPT-4o") and "each appears here as soon as it is ready"
               in caption.value for caption in at.caption)
    release.set()
    ui.tokenizers._loader().ready(list(PRETRAINED), wait_s=120)  # all loaded now; the page's next run draws them
    at.run()
    assert 'class="bpe-loading"' not in next(element.value for element in at.html if 'class="bpe-splits"' in element.value)
    expect_rows(at, PHENOMENA["numbers"].samples[0][1], tiktokens)
    assert not any("Reading GPT-4o" in caption.value for caption in at.caption)
