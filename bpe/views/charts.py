"""Altair charts of a trace: the pair counts before a merge, compression, token lengths.

Each builder returns an ``alt.Chart`` (or a layered / concatenated chart) built from plain rows,
so tests read the spec with ``chart.to_dict()`` and no browser. Colours follow the token palette's
Okabe-Ito family; the chosen pair is also marked by a text label, not by colour alone.

    >>> from bpe.training.presets import PRESETS
    >>> from bpe.training.trainer import train
    >>> sennrich = train(PRESETS["sennrich"].corpus(), PRESETS["sennrich"].settings)
    >>> list(pair_rows(sennrich, 3)["status"][:4])   # before merge 3: o+w won a 3-way tie
    ['chosen', 'tied', 'tied', 'other']
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from types import MappingProxyType

import altair as alt
import pandas as pd

from ..notation.scores import score_text, worked_score
from ..notation.spelling import spelled
from ..training.trace import Trace
from .chart_text import TABLE_COLUMNS
from .pointer import hover_or_tap

CHOSEN, TIED, OTHER = "chosen", "tied", "other"
STATUS_COLORS: Mapping[str, str] = MappingProxyType({CHOSEN: "#D55E00", TIED: "#CC79A7", OTHER: "#56B4E9"})
ACCENT = "#0072B2"


def pair_rows(trace: Trace, step: int, names: Mapping[int, str] | None = None) -> pd.DataFrame:
    """The top pairs just before merge ``step`` (merge 1 when ``step`` is 0), best first.

    ``label`` is drawn beside each bar: its count, and for the chosen pair whether it is merged
    at this step or (at step 0) next. ``key`` names the bar's SVG mark (its ``aria-label``), which
    the corpus's hover rules look for (see :mod:`bpe.views.merge_html`).

    A run chosen by WordPiece's score also has ``score_value`` (the bar's length) and ``score`` (it
    worked out, for the tooltip); its label is the score, and "tied" means the same score.
    """
    names = names or {}
    if not trace.steps:
        return pd.DataFrame(columns=["rank", "pair", "left", "right", "count", "status", "label", "key"])
    merge = trace.steps[max(step, 1) - 1]
    scored = trace.scores[max(step, 1) - 1] if trace.scores else None
    arrow = " ◀ merged" if step else " ◀ next"
    rows = []
    for rank, pair in enumerate(merge.top_pairs, start=1):
        key = (pair.left, pair.right)
        score = None if scored is None else scored.top[rank - 1]
        level = pair.count == merge.count if score is None else score.score == scored.chosen.score
        status = CHOSEN if key == (merge.left, merge.right) else TIED if level else OTHER
        left, right = spelled(trace, pair.left, names), spelled(trace, pair.right, names)
        value = f"{pair.count:,}" if score is None else score_text(score.score)
        rows.append({
            "rank": rank,
            # Subtle: two pairs can spell the same (ab+c, a+bc); the rank keeps each label unique.
            "pair": f"{rank}. {left} + {right}",
            "left": left,
            "right": right,
            "count": pair.count,
            **({} if score is None else {"score_value": float(score.score), "score": worked_score(*score)}),
            "status": status,
            "label": value + (arrow if status == CHOSEN else ""),
            "key": f"bpe-pair-{rank}",
        })
    return pd.DataFrame(rows)


STATUS_MEANINGS: Mapping[str, str] = MappingProxyType({
    CHOSEN: "the pair merged at this step",
    TIED: "the same count; the tie-break rule passed them over",
    OTHER: "the runners-up",
})


def pair_legend_html(step: int, *, scored: bool = False) -> str:
    """The chart's legend, drawn under it as HTML: the same names and colours as the bars.

    >>> "chosen</b>: the pair merged next" in pair_legend_html(0)
    True
    """
    items = []
    for status, color in STATUS_COLORS.items():
        meaning = STATUS_MEANINGS[status]
        if status == CHOSEN and step == 0:
            meaning = "the pair merged next"
        if status == TIED and scored:
            meaning = meaning.replace("count", "score")
        items.append(
            f'<span class="bpe-swatch" style="background:{color}"></span> <b>{status}</b>: {html.escape(meaning)}'
        )
    return (
        '<p class="bpe-legend bpe-pair-legend">' + " · ".join(items)
        + (". The number on a bar is its WordPiece score, its count over the product of its two tokens' counts"
           if scored else ". The number on a bar is its count")
        + f". {hover_or_tap('Hover', 'Tap')} a bar to mark its places in the corpus.</p>"
    )


def pair_chart(
    trace: Trace, step: int, names: Mapping[int, str] | None = None, *, bar_step: int = 21
) -> alt.LayerChart:
    """Horizontal bars of the top pair counts before merge ``step``, each labelled with its count
    (WordPiece's run: its scores).

    The legend is :func:`pair_legend_html`, not Vega-Lite's: the caption and the legend are then
    one thing, and the chart is shorter."""
    data = pair_rows(trace, step, names)
    value = "score_value" if trace.scores else "count"  # WordPiece's bars are its scores
    base = alt.Chart(data).encode(
        # Sorted by a field, not a list, so the spec is the same at every step but for its rows.
        y=alt.Y("pair:N", sort=alt.EncodingSortField("rank", op="min", order="ascending"), title=None,
                axis=alt.Axis(labelFontSize=14, labelLimit=200, ticks=False, domain=False)),
        # No x axis: every bar carries its count (an audience cannot hover a tooltip).
        x=alt.X(f"{value}:Q", axis=None, scale=alt.Scale(zero=True), stack=None),
        description=alt.Description("key:N"),
        tooltip=[
            alt.Tooltip("left:N", title="left"),
            alt.Tooltip("right:N", title="right"),
            alt.Tooltip("count:Q", title="count", format=","),
            *([alt.Tooltip("score:N", title="score")] if trace.scores else []),
            alt.Tooltip("status:N", title="status"),
        ],
    )
    bars = base.mark_bar(stroke="#222", strokeWidth=0.6).encode(
        color=alt.Color(
            "status:N", scale=alt.Scale(domain=list(STATUS_COLORS), range=list(STATUS_COLORS.values())), legend=None,
        ),
    )
    # Subtle: the label layer reads the same rows as the bars (no filter), so both layers share one
    # data source and Vega-Lite keeps the rank order; a filtered layer made it sort labels as text.
    labels = base.mark_text(align="left", dx=4, fontWeight="bold", fontSize=13).encode(text="label:N")
    # A height per bar (not per chart) keeps every pair label readable, however many pairs; fit-x
    # stretches the width only (Streamlit's default "fit" would squeeze the bars into its height).
    # The right padding leaves room for the longest label ("12,345 ◀ merged") past the longest bar.
    return alt.layer(bars, labels).properties(
        height=alt.Step(bar_step), autosize=alt.AutoSizeParams(type="fit-x", contains="padding"),
        padding={"left": 5, "top": 2, "bottom": 2, "right": 95},
        usermeta={TABLE_COLUMNS: ["pair", "count", *(["score"] if trace.scores else []), "status"]},  # not the bars' keys
    )


def compression_rows(trace: Trace) -> pd.DataFrame:
    return pd.DataFrame(trace.compression_curve(), columns=["merges", "tokens", "bytes per token"])


COMPRESSION_FIELDS = ("tokens", "bytes per token")


def compression_chart(trace: Trace, step: int, field: str = "tokens") -> alt.LayerChart:
    """``field`` (tokens in the corpus, or bytes per token) against merges, with a rule at ``step``.

    The line and the marker read two datasets: the whole curve, and the curve's one row at
    ``step``. Moving to another step only swaps that one-row dataset (see :func:`with_step`): the
    spec stays the same, so the browser updates the drawn chart instead of building it anew.
    """
    data = compression_rows(trace)
    marker = alt.Chart(data[data["merges"] == step])
    title = "tokens in the corpus" if field == "tokens" else "bytes per token"
    line = alt.Chart(data).mark_line(color=ACCENT, strokeWidth=2.5).encode(
        x=alt.X("merges:Q", title="merges", axis=alt.Axis(format="d", tickMinStep=1)),  # whole merges, never 0.2
        y=alt.Y(f"{field}:Q", title=title, scale=alt.Scale(zero=field == "tokens")),
        tooltip=[alt.Tooltip("merges:Q"), alt.Tooltip(f"{field}:Q", format=",.2f")],
    )
    rule = marker.mark_rule(color="#D55E00", strokeWidth=2, strokeDash=[5, 3]).encode(x="merges:Q")
    point = marker.mark_point(color="#D55E00", size=140, filled=True, shape="diamond").encode(
        x="merges:Q", y=f"{field}:Q",
        tooltip=[alt.Tooltip("merges:Q", title="step"), alt.Tooltip(f"{field}:Q", format=",.2f")],
    )
    layers = [line, rule, point]
    if trace.stage_change is not None:  # SuperBPE: where the split was lifted (after the layers with_step reads)
        change = alt.Chart(pd.DataFrame([{"merges": trace.stage_change.step, "label": "stage 2 →"}]))
        layers.append(change.mark_rule(color="#444", strokeWidth=1.5, strokeDash=[2, 2]).encode(x="merges:Q"))
        layers.append(change.mark_text(align="left", baseline="top", dx=4, dy=4, color="#333").encode(
            x="merges:Q", y=alt.value(0), text="label:N",
        ))
    return alt.layer(*layers).properties(height=230, title=title)


# -- fast re-rendering ----------------------------------------------------------------------------
# Building an Altair chart and turning it into a spec is most of a step's time on the server. The
# pages build each chart's spec once per trace and derive each step's spec from it in microseconds.
# Only datasets differ from step to step: the browser then swaps the rows of the chart it drew
# (Streamlit sends datasets apart from the spec) rather than re-creating it from a new spec.
def with_rows(spec: dict, rows: list[dict]) -> dict:
    """A copy of a one-dataset spec (like :func:`pair_chart`'s) with other rows; the rest shared."""
    (name,) = spec["datasets"]
    return {**spec, "datasets": {name: rows}}


def with_step(spec: dict, step: int) -> dict:
    """A copy of :func:`compression_chart`'s spec marking another step; the curve is shared."""
    line, marker = spec["layer"][0]["data"]["name"], spec["layer"][1]["data"]["name"]
    rows = [row for row in spec["datasets"][line] if row["merges"] == step]
    return {**spec, "datasets": {**spec["datasets"], marker: rows}}


KIND_COLORS: Mapping[str, str] = MappingProxyType(
    {"byte": "#56B4E9", "char": "#56B4E9", "merge": "#E69F00", "special": "#999999"}
)


def length_histogram(lengths: list[int], kinds: list[str] | None = None, *, unit: str = "bytes") -> alt.Chart:
    """How many tokens have each length (in bytes), stacked by kind (base, merge, special)."""
    kinds = kinds or ["token"] * len(lengths)
    data = (
        pd.DataFrame({"length": lengths, "kind": kinds}).value_counts().rename("tokens").reset_index()
        .sort_values(["length", "kind"], ignore_index=True)
    )
    present = [kind for kind in KIND_COLORS if kind in set(kinds)] or sorted(set(kinds))
    # A numeric axis: lengths 1, 2 and 9 sit at their distances, not side by side as categories.
    return alt.Chart(data).transform_calculate(start="datum.length - 0.4", end="datum.length + 0.4").mark_bar(
        stroke="#222", strokeWidth=0.5, orient="vertical",  # x to x2 is a range: the bars still stand up
    ).encode(
        x=alt.X(
            "start:Q", title=f"token length ({unit})", axis=alt.Axis(tickMinStep=1, format="d"),
            scale=alt.Scale(domain=[0.5, max(lengths, default=1) + 0.5], nice=False),
        ),
        x2="end:Q",
        y=alt.Y("tokens:Q", title="tokens", axis=alt.Axis(tickMinStep=1, format="d")),
        color=alt.Color(
            "kind:N", title=None,
            scale=alt.Scale(domain=present, range=[KIND_COLORS.get(kind, ACCENT) for kind in present]),
            legend=alt.Legend(orient="bottom"),
        ),
        tooltip=[alt.Tooltip("length:O", title="length"), alt.Tooltip("kind:N"), alt.Tooltip("tokens:Q", title="tokens")],
    ).properties(height=260)
