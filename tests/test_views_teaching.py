"""The pure builders behind the teaching pages and presenter mode: HTML and chart specs, no Streamlit."""

import html
import re

import pytest

from bpe.teaching.byte_inspector import inspect_text, inspect_token
from bpe.teaching.counting import count_pair
from bpe.teaching.pretokenization_lab import Learned, compare_splits
from bpe.teaching.quiz import grade, make_question
from bpe.teaching.tie_lab import tie_lab_for_preset
from bpe.training.presets import PRESETS
from bpe.training.trainer import train
from bpe.views.charts import compression_chart, pair_chart
from bpe.views.labs import (
    bytes_html, candidates_html, counting_html, learned_html, merged_html, splits_html, tie_table_html,
    token_bytes_html,
)
from bpe.views.presenter import scale_fonts
from ui.page_css import PRESENTER_CSS

HOSTILE = "<script>alert(1)</script>"
WIKIPEDIA = train(PRESETS["wikipedia"].corpus(), PRESETS["wikipedia"].settings)


def chips(markup: str) -> list[str]:
    return [html.unescape(re.sub(r"<[^>]+>", "", chip)) for chip in re.findall(r'<span class="bpe-tok[^"]*".*?</span>', markup)]


# -- presenter mode -------------------------------------------------------------------------------
def test_scale_fonts_enlarges_every_font_and_band_but_never_the_data():
    spec = compression_chart(WIKIPEDIA, 2).to_dict()
    scaled = scale_fonts(spec, 1.5)
    assert scaled["height"] == 345 and spec["height"] == 230
    assert scaled["config"]["axis"]["labelFontSize"] == 16  # Vega-Lite's 11, times 1.5, rounded
    assert scaled["datasets"] == spec["datasets"]  # rows with a "step"-like field are left alone


def test_scale_fonts_enlarges_the_pair_charts_explicit_label_sizes():
    spec = pair_chart(WIKIPEDIA, 1).to_dict()
    scaled = repr(scale_fonts(spec, 2))
    assert "'labelFontSize': 28" in scaled and "'fontSize': 26" in scaled and "'step': 42" in scaled


def test_presenter_css_scales_the_root_font_and_styles_only_the_main_area_besides():
    rules = [line for line in PRESENTER_CSS.splitlines() if "{" in line]
    assert rules[0] == "html { font-size: 22px !important; }"
    # the main area, the band above it (title and "Leave presenter mode"), and our own keyed elements: never the sidebar
    allowed = (".stMain", '[data-testid="stHeader"]', '[class*="st-key-')
    assert all(rule.lstrip().startswith(allowed) for rule in rules[1:]), [r for r in rules[1:] if not r.lstrip().startswith(allowed)]


# -- the labs' HTML -------------------------------------------------------------------------------
@pytest.mark.parametrize("text, pair, kinds", [
    ("aaaa", ("a", "a"), ["replaced", "overlap", "replaced"]),
    ("aaa", ("a", "a"), ["replaced", "overlap"]),
    ("abab", ("a", "b"), ["replaced", "replaced"]),
], ids=["aaaa: three counted, two replaced", "aaa: two counted, one replaced", "abab: no overlap"])
def test_counting_html_badges_every_counted_occurrence(text, pair, kinds):
    markup = counting_html(count_pair(text, pair, unit="char"))
    assert re.findall(r'bpe-join-(\w+)"', markup) == kinds


def test_merged_html_shows_the_text_after_the_merge():
    assert chips(merged_html(count_pair("aaaa", ("a", "a"), unit="char"))) == ["aa", "aa"]
    assert chips(merged_html(count_pair("a ab", ("a", "b"), unit="char"))) == ["a", "·", "ab"]


def test_splits_html_draws_words_and_gaps_and_reports_a_bad_regex():
    markup = splits_html(compare_splits("1234567 x", custom="("), {"gpt4": "GPT-4"})
    gpt4 = re.search(r'<th scope="row">GPT-4</th><td>(.*?)</td>', markup).group(1)
    assert chips(gpt4) == ["123", "456", "7", "·x"]
    assert "not a valid regex" in markup and "bpe-error" in markup


def test_bytes_html_marks_the_bytes_gpt2_remaps():
    markup = bytes_html(inspect_text("a é"))
    assert re.findall(r'bpe-g2 bpe-remapped">(.)<', markup) == ["Ġ"]
    assert ">c3<" in markup and ">a9<" in markup and "U+00E9" in markup


def test_token_bytes_html_explains_each_byte():
    markup = token_bytes_html(inspect_token(b"\xe2\x82"))
    assert "lead" in markup and "continuation" in markup


def test_tie_table_highlights_the_rows_where_rules_disagree():
    lab = tie_lab_for_preset("wikipedia")
    markup = tie_table_html(lab, rules_used_by={"first-seen": "minbpe"})
    rows = re.findall(r'<tr( class="bpe-differ")?><td class="bpe-num">(\d+)</td>', markup)
    assert [(step, bool(differ)) for differ, step in rows] == [("1", False), ("2", True), ("3", True)]
    # in a row where they part, every rule outside the largest group that agrees is marked (Wikipedia: the
    # rules that make aaa, then aaab from it, are fewer than those that make ab)
    outside = [len(row.merged) - max(map(list(row.merged.values()).count, row.merged.values())) for row in lab.rows if not row.agree]
    assert "minbpe" in markup and markup.count("bpe-odd") == sum(outside) >= 4


def test_candidates_html_reveals_every_count():
    question = make_question(WIKIPEDIA, 1)
    markup = candidates_html(grade(question, (97, 99)))  # 'a' + 'c'
    assert re.findall(r'bpe-num">(\d+)<', markup) == ["2", "2", "1", "1"]  # a + b and its tied rival aa + a, then the rest
    assert "your pick" in markup and "merged next" in markup


@pytest.mark.parametrize("build", [
    lambda: counting_html(count_pair(HOSTILE, ("<", "s"), unit="char")),
    lambda: merged_html(count_pair(HOSTILE, ("<", "s"), unit="char")),
    lambda: splits_html(compare_splits(HOSTILE)),
    lambda: bytes_html(inspect_text(HOSTILE)),
    lambda: learned_html(Learned("none", (HOSTILE,), (HOSTILE,))),
    lambda: token_bytes_html(inspect_token(HOSTILE.encode())),
], ids=["counting", "merged", "splits", "bytes", "learned", "token bytes"])
def test_every_builder_escapes_user_text(build):
    markup = build()
    assert "<script" not in markup and "&lt;" in markup
