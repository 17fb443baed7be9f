"""The two lessons under Compare's chips: where the tokenizers cut the text differently, and what numbers cost.

Scope: pure builders over :mod:`bpe.teaching.cuts`: the text with each disagreement marked
(:func:`disagreement_html`; every character escaped, a stretch of only spaces spelled so it shows),
the disagreements as a table (:func:`disagreement_frame`), the number heatmap (:func:`number_heatmap`:
0 to 999 as a square of a hundred rows of ten per tokenizer, as the Hugging Face post on number
tokenization draws GPT-2, Llama and GPT-4) and its counts as a table (:func:`number_cost_frame`, what a screen
reader reads in place of the picture).

    >>> from bpe.teaching.cuts import Disagreement
    >>> found = [Disagreement(0, 5, "lower", {"A": ("low", "er"), "B": ("lower",)})]
    >>> print(disagreement_html("lower <b>", found))
    <div class="bpe-cuts"><mark class="bpe-cut" title="A: 2 tokens (low|er) · B: 1 token (lower)">lower</mark> &lt;b&gt;</div>
    >>> disagreement_frame(found).to_dict("records")
    [{'text': 'lower', 'spread': 1, 'A': '2: low|er', 'B': '1: lower'}]
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from types import MappingProxyType

import altair as alt
import pandas as pd

from ..notation.spelling import spell
from ..teaching.cuts import Disagreement

CUTS_CSS = """
<style>
.bpe-cuts { white-space: pre-wrap; line-height: 1.9; overflow-wrap: anywhere; }
.bpe-cut { background: #FBD9BF; border-bottom: 3px solid #D55E00; padding: 0 .05em; border-radius: 2px; color: inherit; }
</style>
"""
COST_COLORS: Mapping[int, str] = MappingProxyType({1: "#F0E442", 2: "#56B4E9", 3: "#0072B2", 4: "#D55E00", 5: "#CC79A7"})
"""Tokens per number: Okabe-Ito colours, light to dark, told apart also by the legend's numbers."""


def _tokens(count: int) -> str:
    return f"{count} token{'s' if count != 1 else ''}"


def disagreement_html(text: str, found: Sequence[Disagreement], *, limit: int | None = None) -> str:
    """``text`` (its first ``limit`` characters) with each disagreement in a ``<mark>`` whose title
    says how every tokenizer cuts it; escaped throughout."""
    limit = len(text) if limit is None else limit
    parts, at = [], 0
    for item in found:
        if item.start >= limit:
            break
        parts.append(html.escape(text[at:item.start]))
        title = " · ".join(f"{name}: {_tokens(len(pieces))} ({'|'.join(pieces)})" for name, pieces in item.pieces.items())
        shown = item.text if item.text.strip() else spell(item.text)
        parts.append(f'<mark class="bpe-cut" title="{html.escape(title)}">{html.escape(shown)}</mark>')
        at = item.end
    parts.append(html.escape(text[at:limit]))
    return f'<div class="bpe-cuts">{"".join(parts)}</div>'


def disagreement_frame(found: Sequence[Disagreement], *, top: int | None = None) -> pd.DataFrame:
    """One row per disagreement, the widest spread first (text order among equals): each
    tokenizer's cell is ``tokens: its pieces``."""
    ranked = sorted(found, key=lambda item: (-item.spread, item.start))[:top]
    names = list(found[0].pieces) if found else []
    rows = [
        {"text": spell(item.text), "spread": item.spread,
         **{name: f"{len(item.pieces[name])}: {'|'.join(item.pieces[name])}" for name in names}}
        for item in ranked
    ]
    return pd.DataFrame(rows, columns=["text", "spread", *names])


def number_heatmap(costs: Mapping[str, Sequence[int]]) -> alt.Chart:
    """A hundred square per tokenizer: a cell per number (row: its tens, ``0`` to ``99``; column: its
    last digit), coloured by its tokens; three squares to a row, so that a phone's width holds them."""
    present = sorted({cost for counts in costs.values() for cost in counts})
    rows = pd.DataFrame([
        {"tokenizer": name, "number": number, "tokens": cost} for name, counts in costs.items() for number, cost in enumerate(counts)
    ])
    return alt.Chart(rows).transform_calculate(
        tens="floor(datum.number / 10)", **{"last digit": "datum.number % 10"},
    ).mark_rect(stroke="white", strokeWidth=0.2).encode(
        x=alt.X("last digit:O", title="last digit", axis=alt.Axis(labelAngle=0)),
        y=alt.Y("tens:O", title=None, axis=alt.Axis(values=list(range(0, 100, 10)), labelExpr="datum.value * 10")),
        color=alt.Color(
            "tokens:O", title="tokens", scale=alt.Scale(domain=present, range=[COST_COLORS.get(c, "#000000") for c in present]),
            legend=alt.Legend(orient="top", symbolType="square", symbolSize=300),
        ),
        tooltip=[alt.Tooltip("number:Q", title="number"), "tokenizer:N", alt.Tooltip("tokens:Q", title="tokens")],
    ).properties(width=alt.Step(8), height=alt.Step(3)).facet(
        facet=alt.Facet("tokenizer:N", title=None, sort=list(costs), header=alt.Header(labelFontWeight="bold", labelExpr="split(datum.label, ' (')[0]", labelLimit=100)), columns=3,
    ).configure_view(stroke=None)


def number_cost_frame(costs: Mapping[str, Sequence[int]]) -> pd.DataFrame:
    """Per tokenizer: how many of the numbers cost 1, 2, 3... tokens, and the tokens for all of them.

    >>> number_cost_frame({"A": [1, 1, 2]}).to_dict("records")
    [{'tokenizer': 'A', '1 token': 2, '2 tokens': 1, 'all numbers': 4}]
    """
    present = sorted({cost for counts in costs.values() for cost in counts})
    rows = [
        {"tokenizer": name, **{_tokens(cost): list(counts).count(cost) for cost in present}, "all numbers": sum(counts)}
        for name, counts in costs.items()
    ]
    return pd.DataFrame(rows, columns=["tokenizer", *map(_tokens, present), "all numbers"])
