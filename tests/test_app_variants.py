"""The variants in the app: BPE-dropout on Encode, SuperBPE on Train, Compare and the Pre-tokenization
lab, and the Parity-aware lab page, each driven as a learner (or a link) drives it, in AppTest.

Expected values come from the engine called directly (a dropout sample's counts and exact
probabilities, the costs in a trace), so each test checks that the page shows what the engine
says, in the state the link or the widget asked for.
"""

from __future__ import annotations

import html
import json
import re

import pytest

from bpe import PRESETS, Corpus, Tokenizer, TrainSettings, train
from bpe.encoding.dropout import sample_segmentations
from bpe.teaching.parity_lab import parity_lab
from bpe.training.objectives import gini

from .apptest_support import ENCODE, TRAIN, chart_rows, html_with, narration, open_page, unescape_markdown

PARITY = "pages/15_Parity-aware_lab.py"
COMPARE = "pages/9_Compare.py"
PRETOKENIZATION = "pages/7_Pre-tokenization_lab.py"


def sennrich_tokenizer() -> Tokenizer:
    preset = PRESETS["sennrich"]
    return Tokenizer.from_trace(train(preset.corpus(), preset.settings))


def histogram_rows(at) -> list[tuple[int, str, str]]:
    """``(samples, share, exact)`` of each row of the dropout histogram, as drawn."""
    table = html_with(at, 'class="bpe-dropout"')
    cells = re.findall(r'<td class="bpe-number">([^<]*)</td><td class="bpe-number">([^<]*)</td><td class="bpe-number">([^<]*)</td></tr>', table)
    return [(int(count.replace(",", "")), share, exact) for count, share, exact in cells]


def histogram_lengths(at) -> list[int]:
    """How many tokens each row's segmentation has, as its column says."""
    table = html_with(at, 'class="bpe-dropout"')
    return [int(n) for n in re.findall(r'</td><td class="bpe-number">(\d+)</td><td class="bpe-bar-cell">', table)]


# -- BPE-dropout on Encode -------------------------------------------------------------------------
def test_a_dropout_link_draws_the_seeded_samples_with_their_exact_probabilities():
    at = open_page(ENCODE, preset="sennrich", step="10", dropout="0.3", seed="2", samples="400")
    assert not at.exception
    expected = sample_segmentations(sennrich_tokenizer(), " lowest", p=0.3, samples=400, seed=2, allowed_special="all")
    assert at.text_input(key="w.dropout_word").value == " lowest"  # the text's longest word, as the encoder cuts it
    rows = histogram_rows(at)
    assert [count for count, _, _ in rows] == [seg.count for seg in expected.segmentations[:12]]
    assert [exact for _, _, exact in rows] == [f"{100 * seg.probability:.1f}%" for seg in expected.segmentations[:12]]
    assert "without dropout" in html_with(at, 'class="bpe-dropout"')
    assert dict(at.query_params) == {"preset": "sennrich", "step": "10", "dropout": "0.3", "seed": "2", "samples": "400"}


def test_at_p_one_every_sample_is_the_bytes_and_draw_again_moves_the_seed_in_the_link():
    at = open_page(ENCODE, preset="sennrich", step="10", dropout="1")
    assert histogram_rows(at) == [(500, "100.0%", "100.0%")]
    assert histogram_lengths(at) == [7]  # " lowest" as its seven bytes
    at.button(key="w.dropout.again").click().run()
    assert at.query_params["seed"] == "1"
    at.select_slider(key="w.dropout_p").set_value(0.0).run()
    assert histogram_rows(at) == [(500, "100.0%", "100.0%")]
    assert at.query_params["dropout"] == "0"


def test_a_bad_dropout_link_says_what_it_takes_and_keeps_the_default():
    at = open_page(ENCODE, preset="sennrich", step="10", dropout="0.42", samples="0")
    warnings = [warning.value for warning in at.warning]
    assert any("dropout must be one of 0, 0.05, 0.1" in warning for warning in warnings)
    assert any("samples must be a whole number from 1 to 2,000" in warning for warning in warnings)
    assert at.select_slider(key="w.dropout_p").value == 0.1


# -- SuperBPE on Train, Compare and the Pre-tokenization lab -------------------------------------------
def test_the_sidebars_transition_makes_a_two_stage_run_whose_steps_say_what_changed():
    at = open_page(TRAIN, preset="sennrich", step="9")
    at.number_input(key="w.transition").set_value(8).run()
    assert at.query_params["transition"] == "8"
    assert any(notice.value.startswith("Retrained with SuperBPE transition 8: merges now differ from merge 10") for notice in at.info)
    told = narration(at)
    assert "Stage 2 starts: the text is split again by SuperBPE's split" in told
    at.session_state["w.tables"] = "The code"
    at.run()
    code = html.unescape(html_with(at, 'class="bpe-code"'))
    assert "len(merges) = 8: the second stage starts" in code and "split by superbpe" in code
    at = open_page(TRAIN, preset="sennrich", step="10", transition="8")
    assert "A superword: ·newest·newest holds words and the space between them" in narration(at)


def test_compare_puts_the_classic_run_beside_a_two_stage_one_and_counts_both():
    at = open_page(COMPARE, preset="sennrich", transition="4")
    assert not at.exception
    assert at.multiselect(key="w.compare_with").value[:2] == ["ours-last", "classic"]
    text = at.text_area(key="w.compare_text").value
    preset = PRESETS["sennrich"]
    two_stage = train(Corpus.from_text(preset.corpus_text, second_split="superbpe"), TrainSettings(**{
        **preset.settings.to_dict(), "transition": 4}))
    classic = train(preset.corpus(), preset.settings)
    counts = [len(Tokenizer.from_trace(trace).encode(text)) for trace in (two_stage, classic)]
    assert counts[0] != counts[1]
    note = next(element.value for element in at.markdown if "needs" in element.value and "SuperBPE" in element.value)
    assert f"needs {counts[0]:,} tokens" in note and f"needs {counts[1]:,}" in note


def test_the_pretokenization_lab_learns_superwords_once_the_split_is_lifted():
    at = open_page(PRETOKENIZATION, transition="4")
    shown = [element.value for element in at.markdown if "SuperBPE (GPT-2's split for 4 merges)" in unescape_markdown(element.value)]
    assert shown
    assert any("superword tokens, learned on purpose" in caption.value for caption in at.caption)
    at.slider(key="w.pretok_transition").set_value(8).run()
    assert at.query_params["transition"] == "8"
    bad = open_page(PRETOKENIZATION, transition="99")
    assert any("transition must be a whole number from 0 to 10" in warning.value for warning in bad.warning)


# -- the Parity-aware lab ----------------------------------------------------------------------------
def test_the_parity_lab_draws_each_runs_costs_and_who_chose_at_the_linked_merge():
    lab = parity_lab()
    at = open_page(PARITY, merge="2")
    assert not at.exception
    classic_chart, parity_chart, gini_chart = at.get("vega_lite_chart")
    for chart, objective in ((classic_chart, "classic"), (parity_chart, "parity-aware")):
        rows = chart_rows(chart)
        assert [row["tokens"] for row in rows] == list(lab.costs(objective, 2))
        title = json.loads(chart.proto.spec)["title"]
        assert title.endswith(f"{gini(lab.costs(objective, 2)):.3f}")
    assert [row["language"] for row in chart_rows(parity_chart) if row["chose"] == "chose this merge"] == ["Tamil"]
    assert any(unescape_markdown(element.value).startswith("Tamil is the most tokens now (511)") for element in at.markdown)
    at.button(key="w.parity.next").click().run()
    assert at.query_params["merge"] == "3"
    assert at.slider(key="w.parity_step").value == 3


def test_the_parity_lab_counts_in_characters_from_its_link_and_refuses_a_merge_past_its_end():
    at = open_page(PARITY, unit="char", merge="9999")
    # the bound is the run the link asks for, in characters (it was the byte run's 300 once)
    last = parity_lab(unit="char").steps
    assert any(f"merge must be a whole number from 0 to {last}, got '9999'" in warning.value for warning in at.warning)
    (classic_chart, *_) = at.get("vega_lite_chart")
    assert [row["tokens"] for row in chart_rows(classic_chart)] == list(parity_lab(unit="char").costs("classic", 0))
    assert at.query_params["unit"] == "char"
