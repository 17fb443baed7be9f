"""Chart specs, read with ``chart.to_dict()``: the chosen pair highlighted, ties marked, tooltips."""

from functools import cache

import pytest

from bpe.training.presets import PRESETS
from bpe.training.trainer import train
from bpe.views.chart_text import chart_table_html
from bpe.views.charts import (
    CHOSEN, OTHER, STATUS_COLORS, TIED, compression_chart, length_histogram, pair_chart, pair_rows, with_rows,
    with_step,
)
from bpe.views.naming import wikipedia_names


@cache
def trained(name):
    return train(PRESETS[name].corpus(), PRESETS[name].settings)


def dataset(spec):
    (rows,) = spec["datasets"].values() if len(spec["datasets"]) == 1 else [list(spec["datasets"].values())[0]]
    return rows


def test_pair_chart_highlights_the_chosen_pair_and_marks_the_ties():
    spec = pair_chart(trained("sennrich"), 3).to_dict()
    rows = dataset(spec)
    assert [(r["left"], r["right"], r["count"], r["status"]) for r in rows[:4]] == [
        ("o", "w", 7, CHOSEN), ("l", "o", 7, TIED), ("·", "l", 7, TIED), ("w", "est", 6, OTHER),
    ]
    bars = spec["layer"][0]
    assert bars["mark"]["type"] == "bar"
    assert bars["encoding"]["color"]["scale"]["range"] == list(STATUS_COLORS.values())
    assert {t["field"] for t in bars["encoding"]["tooltip"]} >= {"left", "right", "count"}
    label = spec["layer"][1]
    assert label["mark"]["type"] == "text"  # the winner is also labelled, not marked by colour only
    assert "transform" not in label  # same rows as the bars, or Vega-Lite loses the rank order
    assert label["encoding"]["text"] == {"field": "label", "type": "nominal"}
    # every bar carries its count (an audience cannot hover a tooltip); the winner also says so
    assert [r["label"] for r in rows[:5]] == ["7 ◀ merged", "7", "7", "6", "6"]


def test_the_pair_charts_table_for_screen_readers_reads_pairs_counts_and_status_not_the_bars_keys():
    table = chart_table_html(pair_chart(trained("sennrich"), 3).to_dict())
    assert "<th>pair</th><th>count</th><th>status</th></tr>" in table
    assert "<td>1. o + w</td><td>7</td><td>chosen</td>" in table
    assert "bpe-pair-" not in table and "◀" not in table


def test_pair_chart_orders_bars_best_first():
    spec = pair_chart(trained("sennrich"), 1).to_dict()
    assert spec["layer"][0]["encoding"]["y"]["sort"] == {"field": "rank", "op": "min", "order": "ascending"}
    assert dataset(spec)[0]["pair"] == "1. s + t"


def test_step_zero_previews_the_first_merge():
    rows = pair_rows(trained("sennrich"), 0)
    assert rows.iloc[0][["left", "right", "status"]].tolist() == ["s", "t", CHOSEN]


def test_pair_chart_uses_wikipedia_names():
    trace = trained("wikipedia")
    names = wikipedia_names(3, first_id=256)
    rows = pair_rows(trace, 3, names)
    assert rows.iloc[0][["left", "right"]].tolist() == ["Z", "Y"]


def test_a_run_without_merges_gives_an_empty_pair_table():
    from bpe.text.corpus import Corpus
    from bpe.training.settings import TrainSettings

    trace = train(Corpus.from_text("ab", pretokenizer="none"), TrainSettings(pretokenizer="none"))
    assert pair_rows(trace, 0).empty


@pytest.mark.parametrize("field", ["tokens", "bytes per token"])
def test_compression_chart_marks_the_current_step(field):
    trace = trained("sennrich")
    spec = compression_chart(trace, 4, field).to_dict()
    line, rule, point = spec["layer"]
    assert line["mark"]["type"] == "line" and rule["mark"]["type"] == "rule" and point["mark"]["type"] == "point"
    assert rule["data"] == point["data"] != line["data"]  # the marker reads its own one-row dataset
    rows, marker = spec["datasets"][line["data"]["name"]], spec["datasets"][rule["data"]["name"]]
    assert len(rows) == len(trace.steps) + 1
    assert rows[4]["tokens"] == trace.tokens_after(4)
    assert marker == [rows[4]]


def test_step_specs_are_derived_without_rebuilding_the_chart():
    trace = trained("sennrich")
    template = compression_chart(trace, 0).to_dict()
    at_7 = with_step(template, 7)
    assert list(at_7["datasets"].values()) == list(compression_chart(trace, 7).to_dict()["datasets"].values())
    # only a dataset differs: the browser swaps rows in the chart it drew instead of drawing anew
    assert {key: value for key, value in at_7.items() if key != "datasets"} == {
        key: value for key, value in template.items() if key != "datasets"
    }
    assert list(template["datasets"].values())[1][0]["merges"] == 0  # the template is not changed
    pairs = pair_chart(trace, 1).to_dict()
    at_3 = with_rows(pairs, pair_rows(trace, 3).to_dict("records"))
    assert list(at_3["datasets"].values())[0] == list(pair_chart(trace, 3).to_dict()["datasets"].values())[0]
    assert at_3["layer"] == pair_chart(trace, 3).to_dict()["layer"]


def test_length_histogram_counts_tokens_per_length():
    spec = length_histogram([1, 1, 2, 5], ["byte", "byte", "merge", "merge"]).to_dict()
    assert dataset(spec) == [
        {"length": 1, "kind": "byte", "tokens": 2},
        {"length": 2, "kind": "merge", "tokens": 1},
        {"length": 5, "kind": "merge", "tokens": 1},
    ]
    assert spec["encoding"]["color"]["field"] == "kind"
    # a numeric axis: length 5 sits three steps from length 2, not next to it as a category
    assert spec["encoding"]["x"]["type"] == "quantitative" and spec["encoding"]["x"]["axis"]["format"] == "d"
