"""The Extend page's numbers: what a text costs before and after the new merges, as a table and a chart.

    >>> from bpe.pretrained.registry import load_pretrained
    >>> from bpe.training.extend import extend
    >>> from bpe.encoding.tokenizer import Tokenizer
    >>> gpt2 = load_pretrained("gpt2")
    >>> after = Tokenizer.from_trace(extend(gpt2, "नमस्ते नमस्ते नमस्ते", merges=20))
    >>> rows = cost_rows(gpt2, after, {"Hindi": ("Devanagari", "नमस्ते"), "English": ("Latin", "hello")})
    >>> [(row.text, row.before, row.after) for row in rows]
    [('Hindi', 12, 5), ('English', 1, 1)]
    >>> cost_frame(rows).iloc[0]["change"]
    '-58%'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

import altair as alt
import pandas as pd

from ..teaching.extension import CostRow, cost_rows  # noqa: F401 (the page's numbers, worked out in a job: bpe.teaching.jobs)
from .why_cards import TOKENIZER_COLORS


def cost_frame(rows: list[CostRow]) -> pd.DataFrame:
    """The rows with tokens per byte before and after and the change (``-38%``; ``0%``: untouched)."""
    return pd.DataFrame(
        [
            {
                "text": row.text, "script": row.script, "bytes": row.bytes, "tokens before": row.before,
                "tokens after": row.after, "tokens per byte before": row.before / row.bytes if row.bytes else 0.0,
                "tokens per byte after": row.after / row.bytes if row.bytes else 0.0,
                "change": f"{(row.after - row.before) / row.before:+.0%}".replace("+0%", "0%") if row.before else "–",
            }
            for row in rows
        ],
        columns=["text", "script", "bytes", "tokens before", "tokens after", "tokens per byte before", "tokens per byte after", "change"],
    )


def cost_chart(rows: list[CostRow], *, before: str, after: str) -> alt.Chart:
    """Tokens per byte, one bar before and one after for each text (shorter is cheaper)."""
    data = pd.DataFrame(
        [
            {"text": row.text, "tokenizer": name, "tokens per byte": tokens / row.bytes if row.bytes else 0.0, "tokens": tokens}
            for row in rows for name, tokens in ((before, row.before), (after, row.after))
        ]
    )
    order = [row.text for row in rows]
    return alt.Chart(data).mark_bar(stroke="#222", strokeWidth=0.4).encode(
        y=alt.Y("text:N", sort=order, title=None, axis=alt.Axis(labelFontSize=13, labelLimit=160)),
        yOffset=alt.YOffset("tokenizer:N", sort=[before, after]),
        x=alt.X("tokens per byte:Q", title="tokens per byte of text (fewer is cheaper)"),
        color=alt.Color(
            "tokenizer:N", title=None, sort=[before, after],
            scale=alt.Scale(domain=[before, after], range=list(TOKENIZER_COLORS[:2])), legend=alt.Legend(orient="top", labelFontSize=13),
        ),
        tooltip=[alt.Tooltip("text:N"), alt.Tooltip("tokenizer:N"), alt.Tooltip("tokens:Q", format=","),
                 alt.Tooltip("tokens per byte:Q", format=".3f")],
    ).properties(
        height=alt.Step(14), autosize=alt.AutoSizeParams(type="fit-x", contains="padding"),
        description="Tokens per byte of each text, under the old tokenizer and the extended one",
    )
