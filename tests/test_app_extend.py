"""The Extend and Vocabulary health pages and Compare's vocabulary lookup, run headless with AppTest.

Expected values are computed here by the engine's own API (``extend``, ``vocabulary_health``,
``compare_vocabularies``) or by tiktoken, never read back from the page's own output.
"""

from __future__ import annotations

import re

import pytest
from streamlit.testing.v1 import AppTest

from bpe import PRESETS, Tokenizer, train
from bpe.encoding.vocab_health import vocabulary_health
from bpe.teaching.extension import NEW_TEXTS, old_text
from bpe.training.extend import extend

from .apptest_support import errors, narration, open_page, plain, settled, stat, unescape_markdown
from .peers import tiktoken_encoding
from .shared_tokenizers import shared_pretrained

EXTEND = "pages/13_Extend_a_tokenizer.py"
HEALTH = "pages/14_Vocabulary_health.py"
COMPARE = "pages/9_Compare.py"
HINDI = NEW_TEXTS["hin"].text


@pytest.fixture(scope="module")
def hindi_gpt2():
    return extend(shared_pretrained("gpt2"), HINDI, merges=200)


def table(at: AppTest, column: str):
    found = [frame.value for frame in at.dataframe if column in frame.value.columns]
    assert found, f"no dataframe has a {column!r} column"
    return found[0]


def test_a_link_opens_gpt2_extended_on_hindi_at_its_fifth_new_merge(hindi_gpt2):
    at = open_page(EXTEND, **{"from": "gpt2", "new": "hin", "add": "200", "least": "2", "at": "5"})
    assert not at.exception and not errors(at)
    total = len(hindi_gpt2.steps)
    fifth = hindi_gpt2.steps[4]
    assert f"Merge 5 of {total}" in narration(at)
    assert fifth.new_id == 50_261 and stat(at, "Vocabulary") == "50,262"  # GPT-2's 50,257 tokens, then merges 1 to 5
    assert at.query_params["at"] == "5" and at.query_params["from"] == "gpt2"


def test_the_costs_before_and_after_are_the_engines_and_the_old_text_is_unchanged(hindi_gpt2):
    at = open_page(EXTEND, **{"from": "gpt2", "new": "hin"})
    gpt2, extended = shared_pretrained("gpt2"), Tokenizer.from_trace(hindi_gpt2)
    costs = table(at, "tokens per byte after").set_index("text")
    hindi = costs.loc["Hindi"]
    assert (hindi["tokens before"], hindi["tokens after"]) == (len(gpt2.encode(HINDI)), len(extended.encode(HINDI)))
    assert hindi["tokens after"] < hindi["tokens before"]
    old = costs.loc["old text"]
    assert old["tokens before"] == old["tokens after"] == len(gpt2.encode_ordinary(old_text()))
    for language in ("English", "Chinese", "Amharic"):  # no Devanagari: untouched
        assert costs.loc[language, "change"] == "0%"
    said = [unescape_markdown(markdown.value) for markdown in at.markdown]
    assert any("The old text (English like its own" in line and "(unchanged: the new merges never apply to it)" in line for line in said)
    trade_off = [info.value for info in at.info if "embedding" in info.value]
    assert trade_off and f"ids 50,257 to {50_256 + len(hindi_gpt2.steps):,}" in trade_off[0]
    files = {button.label for button in at.get("download_button")}
    assert {"tokenizer.json", "tokenizer.tiktoken", "encoder.json", "vocab.bpe"} <= files


def test_pagedown_moves_to_the_next_new_merge_and_the_link_follows():
    at = open_page(EXTEND, **{"from": "gpt2", "new": "hin", "at": "0"})
    assert "Before any merge" in narration(at)
    at.button(key="w.extend.next").click().run()
    assert "Merge 1 of" in narration(at) and at.query_params["at"] == "1"


def test_our_own_run_extended_numbers_its_new_merges_after_the_runs_vocabulary():
    at = open_page(EXTEND, preset="sennrich", step="10", **{"from": "ours", "new": "eng", "least": "1", "at": "1"})
    assert not at.exception and not errors(at)
    run = Tokenizer.from_trace(train(PRESETS["sennrich"].corpus(), PRESETS["sennrich"].settings))
    expected = extend(run, NEW_TEXTS["eng"].text, merges=200, min_frequency=1)
    assert expected.steps[0].new_id == 266
    assert "Merge 1 of" in narration(at) and f"{len(expected.steps)}" in narration(at)
    assert at.query_params["preset"] == "sennrich" and at.query_params["from"] == "ours"


def test_own_text_with_markup_is_trained_on_and_shown_as_text():
    at = open_page(EXTEND, **{"from": "gpt2", "new": "own", "least": "1"})
    hostile = "<img src=x onerror=alert(1)> <img src=x onerror=alert(1)>"
    settled(at.text_area(key="w.extend_own_text").set_value(hostile).run())  # the new text is extended on apart
    assert not at.exception and not errors(at)
    corpus = [element.value for element in at.html if element.value.startswith("<div class=\"bpe-merge-view\"")]
    assert len(corpus) == 1 and "<img" not in corpus[0]
    assert "<img·src=x·onerror=alert(1)>·<img" in plain(corpus[0])  # every character, as text


def test_a_bad_link_parameter_is_said_and_the_page_still_draws():
    at = open_page(EXTEND, **{"from": "nope", "add": "0"})
    warnings = " ".join(unescape_markdown(warning.value) for warning in at.warning)
    assert "from must be one of gpt2, cl100k_base" in warnings and "add must be a whole number from 1" in warnings
    assert not at.exception and at.query_params["from"] == "gpt2"


# -- vocabulary health --------------------------------------------------------------------------------
def metrics(at: AppTest) -> dict[str, str]:
    return {metric.label: metric.value for metric in at.metric}


def test_health_of_gpt2_on_the_declaration_counts_the_engines_groups():
    at = open_page(HEALTH, of="gpt2", sample="udhr", part="0")
    assert not at.exception and not errors(at)
    expected = vocabulary_health(shared_pretrained("gpt2"), text="\n".join(NEW_TEXTS[s].text for s in NEW_TEXTS if s != "code"))
    assert metrics(at) == {
        "never emitted": f"{len(expected.never_emitted):,}", "unreachable": "0",
        "part of a character": f"{len(expected.partial):,}", "special": "1",
    }
    used_up = table(at, "used up by")
    assert len(used_up) == 2_000 and (used_up["used up by"].str.contains(" = ") | (used_up["used up by"] == "none: the text never has it")).all()
    assert used_up.set_index("token").loc["he", "used up by"].startswith("262 ·the = ·t + he; ")


def test_the_groups_are_a_lesson_walked_with_pagedown_and_kept_in_the_link():
    at = open_page(HEALTH, of="cl100k_base", sample="udhr", part="1")
    assert any("Unreachable: 0 tokens" in header.value for header in at.header)
    at.button(key="w.health.next").click().run()
    assert at.query_params["part"] == "2"
    partial = table(at, "a text that reaches it").set_index("id")
    assert partial.loc[62085, "a text that reaches it"] == "·실퀀"  # " 실" + a lead byte: reached, as tiktoken says
    assert tiktoken_encoding("cl100k_base").encode(" 실퀀")[0] == 62085


def test_our_runs_intermediate_tokens_are_those_later_merges_used_up():
    at = open_page(HEALTH, preset="wikipedia", step="3", of="ours")
    assert metrics(at)["never emitted"] == "2"
    used_up = table(at, "used up by").set_index("token")
    assert used_up.loc["aa", "used up by"] == used_up.loc["ab", "used up by"] == "258 aaab = aa + ab"
    assert any("Fishing for Magikarp" in info.value for info in at.info)


# -- compare: the run's vocabulary against a pretrained one ---------------------------------------
def test_compare_says_how_many_of_the_runs_tokens_gpt4_has_and_which_it_lacks():
    at = open_page(COMPARE, preset="sennrich", step="10")
    sentence = [unescape_markdown(m.value) for m in at.markdown if "tokens this run learned" in m.value]
    assert sentence == ["GPT-4 has 9 of the 10 tokens this run learned (90%), and lacks 1."]
    rows = table(at, "in GPT-4")
    run = Tokenizer.from_trace(train(PRESETS["sennrich"].corpus(), PRESETS["sennrich"].settings))
    owner = tiktoken_encoding("cl100k_base")
    for token_id, answer in zip(rows["id"], rows["in GPT-4"]):
        data = run.decode_single_token_bytes(int(token_id))
        in_gpt4 = data in owner._mergeable_ranks
        assert answer == (f"yes, id {owner._mergeable_ranks[data]:,}" if in_gpt4 else "no"), data
    assert re.search(r"lacks 1", plain(sentence[0]))
