"""The parity-aware lab drawn: each language's cost as a bar, per run and step, and the Gini curve.

Each run gets a chart of its own (one small dataset, so a screen reader gets its numbers as a table:
``bpe.views.chart_text``), on one shared scale, so the two sets of bars compare by length. The
language that chose the parity-aware merge is drawn in vermilion, the rest in blue (Okabe-Ito, as
the rest of the app). The Gini chart holds both runs' curves and a rule at the step shown.

    >>> from bpe.teaching.parity_lab import parity_lab
    >>> lab = parity_lab(merges=20)
    >>> spec = cost_chart(lab, "parity-aware", 1, widest=700).to_dict()
    >>> rows = spec["datasets"][next(iter(spec["datasets"]))]
    >>> len(rows), [row["language"] for row in rows if row["chose"] == "chose this merge"]
    (16, ['Tamil'])
    >>> spec["title"]
    'Parity-aware BPE: Gini 0.257 → 0.235'
"""

from __future__ import annotations

import altair as alt
import pandas as pd

from ..teaching.parity_lab import ParityLab
from ..training.objectives import OBJECTIVES
from .charts import ACCENT

BAND = 20
"""Pixels per language's bar: sixteen and their labels (11 px; presenter mode: 18 px in a 27-pixel band)."""
CHOSE = "#D55E00"
"""The language that chose this merge (Okabe-Ito vermilion, beside the blue of the others)."""


def cost_chart(lab: ParityLab, objective: str, step: int, *, widest: int) -> alt.Chart:
    """One run's costs after ``step`` merges as horizontal bars, languages in the lab's order, the
    x scale fixed to ``widest`` tokens (the largest cost of either run at step 0) so bars compare;
    its title names the run, the step and the costs' Gini coefficient."""
    chooser = lab.chooser(step) if objective == "parity-aware" else None
    rows = pd.DataFrame([
        {"language": language, "tokens": tokens, "chose": "chose this merge" if index == chooser else "other"}
        for index, (language, tokens) in enumerate(zip(lab.languages, lab.costs(objective, step)))
    ])
    return alt.Chart(rows).mark_bar().encode(
        y=alt.Y("language:N", sort=list(lab.languages), title=None, axis=alt.Axis(labelOverlap=False)),
        x=alt.X("tokens:Q", title="tokens of its text", scale=alt.Scale(domain=[0, widest]),
                axis=alt.Axis(labelFlush=True, tickCount=6)),  # the last label inside the chart's edge
        color=alt.Color(
            "chose:N", scale=alt.Scale(domain=["chose this merge", "other"], range=[CHOSE, ACCENT]), legend=None,
        ),
        tooltip=["language", alt.Tooltip("tokens:Q", format=",")],
    ).properties(height=alt.Step(BAND), title=(
        f"{OBJECTIVES[objective].title} BPE: Gini {lab.gini(objective, 0):.3f} → {lab.gini(objective, step):.3f}"
    ), description=(
        f"{OBJECTIVES[objective].title} BPE: each language's tokens after {step:,} merges"
    ))


def gini_chart(lab: ParityLab, step: int) -> alt.LayerChart:
    """Both runs' Gini coefficient per step, and a rule at ``step``."""
    rows = pd.DataFrame([
        {"merges": at, "Gini": round(value, 4), "run": OBJECTIVES[objective].title}
        for objective in lab.runs for at, value in lab.gini_curve(objective)
    ])
    lines = alt.Chart(rows).mark_line(strokeWidth=2.5).encode(
        x=alt.X("merges:Q", axis=alt.Axis(format="d")),
        y=alt.Y("Gini:Q", title="Gini", scale=alt.Scale(zero=True)),
        color=alt.Color("run:N", scale=alt.Scale(range=["#555555", ACCENT]), legend=alt.Legend(title=None)),
        strokeDash=alt.StrokeDash("run:N", legend=None),
        tooltip=["run", "merges", "Gini"],
    )
    rule = alt.Chart(pd.DataFrame([{"merges": step}])).mark_rule(color=CHOSE, strokeDash=[5, 3], strokeWidth=2).encode(x="merges:Q")
    return alt.layer(lines, rule).properties(height=260, title="Gini coefficient of the costs (0: all alike)")

