"""The other pure view models: URL state, narration, naming, merge trees, tables, encode views."""

import re
from functools import cache

import pandas as pd
import pytest

from bpe.app.lab_state import OWN_TEXT_SOURCE, SOURCES, LabState
from bpe.encoding.tokenizer import Tokenizer
from bpe.errors import BpeError
from bpe.text.corpus import Corpus
from bpe.training.presets import PRESETS
from bpe.training.settings import TrainSettings
from bpe.training.trainer import train
from bpe.views.encoding import parse_ids, sample_text, walkthrough_html
from bpe.views.merge_tree import merge_tree_dot
from bpe.views.naming import wikipedia_names
from bpe.views.narration import narrate_step
from bpe.views.stats import Stat, stats_html
from bpe.views.tables import apply_table_edits, latest_rows_html, merges_frame, search_vocab, vocab_at, vocab_frame
from bpe.views.token_html import pieces_for, segmentation_text


@cache
def trained(name):
    return train(PRESETS[name].corpus(), PRESETS[name].settings)


# -- the URL --------------------------------------------------------------------------------------
BAD_LINKS = {
    "unknown preset": ({"preset": "gpt5"}, "unknown example 'gpt5'"),
    "step not a number": ({"preset": "sennrich", "step": "three"}, "step must be a whole number"),
    "negative step": ({"preset": "sennrich", "step": "-2"}, "step must be a whole number"),
    "bad unit": ({"preset": "sennrich", "unit": "word"}, "unknown unit 'word' (use byte, char)"),
    "bad regex": ({"preset": "own-text", "pretok": "regex:(("}, "not a valid regex"),
    "bad tie rule": ({"preset": "sennrich", "tie": "coin-flip"}, "unknown tie-break rule"),
    "too many merges": ({"preset": "sennrich", "merges": "10000000"}, "merges must be a whole number from 0"),
    "bad names flag": ({"preset": "wikipedia", "names": "yes"}, "names must be 0 or 1"),
    "duplicate specials": ({"preset": "own-text", "special": ["<e>", "<e>"]}, "special tokens in the link"),
}


@pytest.mark.parametrize("source", list(SOURCES))
def test_every_example_round_trips_through_the_url(source):
    state = LabState.for_source(source).replace(step=2)
    assert LabState.from_query(state.to_query()) == (state, [])


def test_the_url_holds_only_what_differs_from_the_example():
    assert LabState.for_source("cs336").to_query() == {"preset": "cs336"}
    changed = LabState.for_source("cs336").replace(tie_break="hf", special_tokens=("<|e|>",), step=4)
    assert changed.to_query() == {"preset": "cs336", "tie": "hf", "special": ["<|e|>"], "step": "4"}
    assert LabState.from_query(changed.to_query())[0] == changed


def test_the_url_never_carries_the_corpus_text():
    query = LabState.for_source(OWN_TEXT_SOURCE).replace(step=3).to_query()
    assert set(query) <= {"preset", "unit", "pretok", "eow", "eowmode", "tie", "merges", "vocab", "minfreq", "special", "specialtext", "step", "names"}


@pytest.mark.parametrize("params, message", BAD_LINKS.values(), ids=BAD_LINKS.keys())
def test_bad_link_values_become_warnings_and_fall_back(params, message):
    state, warnings = LabState.from_query(params)
    assert any(message in warning for warning in warnings), warnings
    state.to_settings()  # the fallback is always a valid run


def test_a_link_may_ask_for_a_vocabulary_size():
    state, warnings = LabState.from_query({"preset": "sennrich", "vocab": "300"})
    assert warnings == [] and state.to_settings().vocab_size == 300


def test_invalid_settings_raise_teaching_errors():
    with pytest.raises(BpeError, match="not a valid regex"):
        LabState.for_source(OWN_TEXT_SOURCE).replace(pretokenizer="regex:(").to_settings()


# -- narration ------------------------------------------------------------------------------------
def test_narration_of_sennrich_merge_3_names_the_pair_the_ties_and_the_rule():
    text = narrate_step(trained("sennrich"), 3).to_text()
    assert "Merge 3 of 10: 'o' + 'w' → 'ow'" in text
    assert "occurs 7 times; 3 pairs share that count" in text
    assert "Tied at 7: 'o' + 'w', 'l' + 'o', '·' + 'l'" in text
    assert "lexicographic-max rule prefers the greatest pair of byte strings" in text
    assert "replaced the pair 7 times" in text
    assert "gets id 258" in text
    assert "shrank from 77 to 70 tokens" in text


def test_narration_at_the_last_step_gives_the_stop_reason():
    trace = trained("wikipedia")
    assert trace.stop_detail in narrate_step(trace, 3).to_text()


def test_narration_at_step_zero_previews_merge_one():
    text = narrate_step(trained("sennrich"), 0).to_text()
    assert "Merge 1 will join 's' + 't'" in text


def test_narration_explains_overlap_when_replacements_fall_short_of_the_count():
    trace = train(Corpus.from_text("aaa aaa", pretokenizer="whitespace"), TrainSettings(pretokenizer="whitespace", merges=1))
    assert "overlapping pairs" in narrate_step(trace, 1).to_text()


def test_narration_html_escapes_tokens():
    trace = train(Corpus.from_text("<b><b><b>", pretokenizer="none"), TrainSettings(pretokenizer="none", merges=2))
    markup = narrate_step(trace, 1).to_html()
    assert "<b>" not in markup and "&lt;" in markup


# -- Wikipedia names ------------------------------------------------------------------------------
def test_wikipedia_example_reads_zabdzabac_then_zydzyac_then_xdxac():
    trace = trained("wikipedia")
    names = wikipedia_names(len(trace.steps), first_id=len(trace.base), avoid="aaabdaaabac")
    readings = []
    for step in (1, 2, 3):
        tokenizer = Tokenizer.from_trace(trace, step=step)
        pieces = pieces_for(tokenizer.encode("aaabdaaabac"), tokenizer.tokens, names=names)
        readings.append(segmentation_text(pieces))
    assert readings == ["ZabdZabac", "ZYdZYac", "XdXac"]
    assert "The new token X = ZY = 'aaab'" in narrate_step(trace, 3, names=names).to_text()


def test_names_skip_letters_the_corpus_uses_and_stop_for_big_runs():
    assert wikipedia_names(2, first_id=10, avoid="Zebra") == {10: "Y", 11: "X"}
    assert wikipedia_names(27, first_id=0) == {}


# -- merge trees ----------------------------------------------------------------------------------
def test_merge_tree_of_x_shows_z_and_y_down_to_bytes():
    dot = merge_tree_dot(trained("wikipedia"), 258, names={256: "Z", 257: "Y", 258: "X"})
    assert dot.startswith("digraph merges {") and dot.endswith("}")
    assert 'label=<X = aaab<BR/><FONT POINT-SIZE="11">id 258 · step 3</FONT>>' in dot
    assert 'label=<Z = aa<BR/><FONT POINT-SIZE="11">id 256 · step 1</FONT>>' in dot
    assert dot.count("->") == 6  # X -> Z, Y; Z -> a, a; Y -> a, b


def test_dot_labels_are_escaped():
    trace = train(Corpus.from_text('<a>&"<a>&"', pretokenizer="none"), TrainSettings(pretokenizer="none", merges=1))
    dot = merge_tree_dot(trace, 256)
    assert "label=<&lt;a<BR/>" in dot and "<a>" not in dot  # a token spelled <a> stays text in the HTML-like label


def test_a_base_token_is_a_single_node():
    assert merge_tree_dot(trained("sennrich"), 97).count("label=") == 1


# -- tables ---------------------------------------------------------------------------------------
def test_merges_and_vocab_tables():
    trace = trained("sennrich")
    merges = merges_frame(trace)
    assert merges.iloc[2][["left", "right", "token", "id", "count", "tie"]].tolist() == ["o", "w", "ow", 258, 7, "3 pairs"]
    vocab = vocab_frame(trace)
    row = vocab.set_index("id").loc[258]
    assert (row["token"], row["bytes (hex)"], row["length"], row["created at step"], row["count then"]) == ("ow", "6f 77", 2, 3, 7)
    assert len(vocab_at(trace, vocab, 3)) == 259


def test_latest_merges_table_is_newest_first_capped_and_escaped():
    trace = trained("sennrich")
    markup = latest_rows_html(merges_frame(trace), upto=5, what="merges", limit=3)
    steps = [int(cell) for cell in re.findall(r'<tr><td class="bpe-number">(\d+)</td>', markup)]
    assert steps == [5, 4, 3]
    assert "2 earlier merges not shown." in markup
    assert "earlier" not in latest_rows_html(merges_frame(trace), upto=3, what="merges", limit=3)
    hostile = pd.DataFrame({"token": ["<img src=x onerror=alert(1)>"], "count": [1234]})
    markup = latest_rows_html(hostile, upto=1, what="rows")
    assert "<img" not in markup and "&lt;img src=x onerror=alert(1)&gt;" in markup
    assert '<td class="bpe-number">1,234</td>' in markup


def test_stats_row_escapes_and_colours_changes_by_meaning():
    markup = stats_html([
        Stat("<b>Tokens</b>", "120", change="-4", good=True),
        Stat("Vocabulary", "300", change="+1"),
        Stat("Errors", "2", change="+2", good=False),
        Stat("Step", "3 / 9"),
    ])
    assert "<b>" not in markup and "&lt;b&gt;Tokens&lt;/b&gt;" in markup
    tones = re.findall(r'class="bpe-stat-change (bpe-\w+)">([^<]*)<', markup)
    assert tones == [("bpe-good", "-4"), ("bpe-neutral", "+1"), ("bpe-bad", "+2")]
    assert markup.count('class="bpe-stat"') == 4


def test_vocab_search_by_text_hex_and_id():
    vocab = vocab_frame(trained("sennrich"))
    assert "est" in set(search_vocab(vocab, "est")["token"])
    assert 258 in set(search_vocab(vocab, "6f 77")["id"])
    assert list(search_vocab(vocab, "258")["id"]) == [258]
    assert "·low" in set(search_vocab(vocab, " low")["token"])


def test_data_editor_edits_apply_in_order():
    rows = [("low", 5), ("lower", 2), ("newest", 6)]
    edits = {"edited_rows": {2: {"count": 7}}, "deleted_rows": [0], "added_rows": [{"word": "wide", "count": 1}]}
    assert apply_table_edits(rows, edits) == [("lower", 2), ("newest", 7), ("wide", 1)]


# -- encoding views -------------------------------------------------------------------------------
def test_parse_ids_reads_commas_and_spaces_and_rejects_words():
    assert parse_ids("258, 100 258\n[97]") == [258, 100, 258, 97]
    with pytest.raises(BpeError, match="cannot read 'x1' as a token id"):
        parse_ids("1, x1")


def test_walkthrough_lists_each_merge_by_rank_and_escapes_text():
    trace = trained("sennrich")
    tokenizer = Tokenizer.from_trace(trace, step=5)
    walk = walkthrough_html(tokenizer, tokenizer.encode_walkthrough(" lowest <script>"))
    assert "merge 1: s + t → st (at 5)" in walk
    assert "merge 2: e + st → est" in walk
    assert "<script" not in walk and "“·&lt;”" in walk  # GPT-2 splits " <" from "script"


@pytest.mark.parametrize("name", PRESETS)
def test_each_examples_sample_text_round_trips_and_uses_its_learned_merges(name):
    trace = trained(name)
    text = sample_text(name)
    ids = Tokenizer.from_trace(trace).encode(text)
    assert Tokenizer.from_trace(trace).decode(ids) == text
    assert len(ids) < len(Tokenizer.from_trace(trace, step=0).encode(text))  # some merge applies to it


def test_own_texts_sample_is_its_first_line_cut_to_200_characters_with_the_special_token_shown():
    assert sample_text("own-text", "  low lower\nnewest") == "low lower"
    assert sample_text("own-text", "x" * 300 + "\ny") == "x" * 200
    assert sample_text("own-text", "") == "hello world"
    assert sample_text("own-text", "low lower", special_tokens=["<|eot|>"]) == "low lower<|eot|>low lower"
