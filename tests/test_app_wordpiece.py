"""WordPiece's score stepped on Train (AppTest): the sidebar's merge rule, the bars as scores, the
narration beside BPE's count, and the code panel's score lines; the link keeps the rule."""

from __future__ import annotations

import html
import json

from .apptest_support import TRAIN, chart_rows, narration, open_page, plain


def test_a_wordpiece_step_on_train_draws_the_scores_and_says_what_bpes_count_would_merge():
    at = open_page(TRAIN, preset="hf-course", objective="wordpiece", step="1")
    assert not at.exception and at.session_state["bpe.lab"].objective == "wordpiece"
    told = narration(at)
    assert "Merge 1 of 9: g + s → gs" in told
    assert "its WordPiece score is 5 / (20 × 5) = 1/20, the best" in told
    assert "BPE's count would merge u + g (20 times), but its tokens are frequent on their own: it scores 20 / (36 × 20) = 1/36" in told
    (chart, *_) = at.get("vega_lite_chart")
    spec = json.loads(chart.proto.spec)
    assert spec["layer"][0]["encoding"]["x"]["field"] == "score_value"
    rows = chart_rows(chart)
    assert [(row["pair"], row["count"], row["label"], row["status"]) for row in rows[:3]] == [
        ("1. g + s", 5, "1/20 ◀ merged", "chosen"), ("2. h + u", 15, "1/36", "other"), ("3. u + g", 20, "1/36", "other"),
    ]
    assert "its WordPiece score" in plain(next(e.value for e in at.html if "bpe-pair-legend" in e.value))
    assert at.query_params["objective"] == "wordpiece"


def test_the_sidebars_merge_rule_switches_a_run_between_bpes_count_and_wordpieces_score():
    at = open_page(TRAIN, preset="hf-course", step="1")
    assert "Merge 1 of 7: u + g → ug" in narration(at)
    at.radio(key="w.objective").set_value("wordpiece").run()
    assert not at.exception
    assert "g + s → gs" in narration(at) and at.query_params["objective"] == "wordpiece"


def test_a_wordpiece_steps_code_panel_shows_the_references_score_lines_worked_out():
    at = open_page(TRAIN, preset="hf-course", objective="wordpiece", step="1")
    at.session_state["w.tables"] = "The code"
    at.run()
    code = html.unescape(next(e.value for e in at.html if 'class="bpe-code"' in e.value))
    assert "return {pair: Fraction(n, tokens[pair[0]] * tokens[pair[1]]) for pair, n in stats.items()}" in code
    assert "'g' + 's': 5 / (20 × 5) = 1/20" in code and "Merge(pair=(2, 6), count=5, new_id=8)" in code
