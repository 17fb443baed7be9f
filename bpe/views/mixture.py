"""The "What was it trained on?" page's pictures: an inferred mix beside the true one, and the error by merges.

    >>> frame = mix_frame({"eng": 0.7, "fra": 0.3}, {"eng": 0.68, "fra": 0.31, "code": 0.01}, {"eng": "English", "fra": "French"})
    >>> frame.to_dict("records")[0]
    {'category': 'English', 'true share': 0.7, 'inferred share': 0.68, 'difference': -0.02}
    >>> mix_chart(frame).to_dict()["mark"]["type"]
    'bar'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import altair as alt
import pandas as pd

from .why_cards import TOKENIZER_COLORS

SHOWN_FROM = 0.005
"""A category no truth names is shown once its inferred share reaches this (0.5 %)."""


def mix_frame(truth: Mapping[str, float] | None, estimate: Mapping[str, float], titles: Mapping[str, str]) -> pd.DataFrame:
    """One row per category in the truth or inferred at :data:`SHOWN_FROM` or more, biggest true share first
    (``truth`` ``None``: a real tokenizer's, unknown)."""
    known = truth or {}
    names = [*known, *(name for name, share in sorted(estimate.items(), key=lambda item: -item[1])
                       if name not in known and share >= SHOWN_FROM)]
    rows = []
    for name in names:
        row = {"category": titles.get(name, name), "inferred share": round(estimate.get(name, 0.0), 4)}
        if truth is not None:
            row = {"category": row["category"], "true share": round(known.get(name, 0.0), 4), "inferred share": row["inferred share"],
                   "difference": round(estimate.get(name, 0.0) - known.get(name, 0.0), 4)}
        rows.append(row)
    columns = ["category", "true share", "inferred share", "difference"] if truth is not None else ["category", "inferred share"]
    return pd.DataFrame(rows, columns=columns)


def mix_chart(frame: pd.DataFrame) -> alt.Chart:
    """A bar per category and share (true, inferred): the two side by side, as long as they agree."""
    shares = [column for column in ("true share", "inferred share") if column in frame]
    data = frame.melt(id_vars=["category"], value_vars=shares, var_name="share", value_name="proportion")
    order = list(frame["category"])
    return alt.Chart(data).mark_bar(stroke="#222", strokeWidth=0.4).encode(
        y=alt.Y("category:N", sort=order, title=None, axis=alt.Axis(labelFontSize=13, labelLimit=180)),
        yOffset=alt.YOffset("share:N", sort=shares),
        x=alt.X("proportion:Q", title="share of the training bytes", axis=alt.Axis(format="%")),
        color=alt.Color("share:N", sort=shares, title=None,
                        scale=alt.Scale(domain=shares, range=list(TOKENIZER_COLORS[: len(shares)])),
                        legend=alt.Legend(orient="top", labelFontSize=13)),
        tooltip=[alt.Tooltip("category:N"), alt.Tooltip("share:N"), alt.Tooltip("proportion:Q", format=".1%")],
    ).properties(height=alt.Step(12), autosize=alt.AutoSizeParams(type="fit-x", contains="padding"),
                 description="The share of each category in the training bytes" + (", true and inferred" if len(shares) > 1 else ", inferred"))


def error_frame(estimates: Sequence[Mapping]) -> pd.DataFrame:
    """Merges read -> mean absolute error of the shares (a ``known-mix`` result's estimates)."""
    return pd.DataFrame([{"merges": estimate["merges"], "mean absolute error": estimate["error"]} for estimate in estimates])


def error_chart(frame: pd.DataFrame) -> alt.Chart:
    """How the error shrinks as more merges are read (both axes logarithmic: the merges grow by threes)."""
    floor = max(min(frame["mean absolute error"].min(), 0.001), 1e-5)
    data = frame.assign(**{"mean absolute error": frame["mean absolute error"].clip(lower=floor)})
    return alt.Chart(data).mark_line(point=alt.OverlayMarkDef(size=80, filled=True), strokeWidth=3, color=TOKENIZER_COLORS[1]).encode(
        x=alt.X("merges:Q", scale=alt.Scale(type="log"), title="merges read (the first ones)", axis=alt.Axis(format=",")),
        y=alt.Y("mean absolute error:Q", scale=alt.Scale(type="log"), title="mean absolute error of the shares",
                axis=alt.Axis(format="~%")),
        tooltip=[alt.Tooltip("merges:Q", format=","), alt.Tooltip("mean absolute error:Q", format=".2%")],
    ).properties(height=260, autosize=alt.AutoSizeParams(type="fit-x", contains="padding"),
                 description="The mean absolute error of the inferred shares after each number of merges")
