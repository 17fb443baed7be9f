"""Why subwords, drawn: the cost curves over N and k, the four tokenizers' numbers, and the held-out text.

Pure builders over :class:`bpe.teaching.subwords.SubwordLab`, tested without Streamlit. The curves
put every tokenizer on one x axis, the vocabulary size (log), against tokens per word (the length
of a sequence) and against the ``[UNK]`` rate (what the model never sees): the word tokenizer's
curve over N, BPE's over k, characters and bytes as one point each, and this run's places (N and
k) as diamonds labelled with their numbers. Each tokenizer has its own colour *and* point shape,
and its name at its line's end, so no reading depends on colour alone (WCAG 1.4.1).

A held-out ``[UNK]`` is drawn as a dashed chip that reads ``[UNK]`` (its title says which word or
character it stands for): text and border carry it, not a tint. Every text is escaped here.

    >>> from bpe.teaching.subwords import HeldOutToken
    >>> out = held_out_html([HeldOutToken(0, b"the"), HeldOutToken(-1, b"<rat>", True)], kind="words")
    >>> "[UNK]" in out, "&lt;rat&gt;" in out, "<rat>" in out
    (True, True, False)
"""

from __future__ import annotations

from types import MappingProxyType

import html
from collections.abc import Sequence

import altair as alt
import pandas as pd

from ..notation.scores import worked_score
from ..teaching.subwords import UNKNOWN, HeldOutToken, Measure, SubwordLab
from ..teaching.wordpiece import WorkedStep
from .plain_tables import scroll_box
from .token_html import Piece, chip_html
from .palette import assign_colors

TITLES = MappingProxyType({"words": "words", "characters": "characters", "bytes": "bytes", "bpe": "BPE"})
COLORS = MappingProxyType({"words": "#D55E00", "characters": "#009E73", "bytes": "#CC79A7", "bpe": "#0072B2"})
"""Okabe-Ito, one per tokenizer (the shapes below tell them apart too)."""
SHAPES = MappingProxyType({"words": "square", "characters": "triangle-up", "bytes": "cross", "bpe": "circle"})
FIELDS = MappingProxyType({"tokens_per_word": "tokens per word", "unknown_percent": "[UNK] rate (%)"})
"""The curves' y fields and their axis titles."""


def label(measure: Measure) -> str:
    """``words (top 1,000)``, ``BPE (2,000 merges)``, ``characters``.

    >>> label(Measure("bpe", 3, 15, 12, 1, 5)), label(Measure("words", 1, 2, 5, 4, 5))
    ('BPE (3 merges)', 'words (top 1)')
    """
    if measure.kind == "words":
        return f"words (top {measure.size:,})"
    if measure.kind == "bpe":
        return f"BPE ({measure.size:,} merge{'s' * (measure.size != 1)})"
    return TITLES[measure.kind]


def _row(measure: Measure, *, here: bool) -> dict:
    return {
        "tokenizer": TITLES[measure.kind], "kind": measure.kind, "size": measure.size, "vocabulary": measure.vocabulary,
        "tokens": measure.tokens, "tokens_per_word": round(measure.tokens_per_word, 4),
        "unknown_percent": round(100 * measure.unknown_rate, 3), "here": here, "label": label(measure),
    }


def curve_frame(lab: SubwordLab, *, n: int, k: int) -> pd.DataFrame:
    """Every point the curves draw: the word tokenizer over N, BPE over k (each including this run's
    N and k, marked ``here``), characters and bytes (one point each)."""
    rows = [_row(m, here=m.size == n) for m in lab.words_curve(also=n)]
    rows += [_row(m, here=m.size == k) for m in lab.bpe_curve(also=k)]
    rows += [_row(lab.characters(), here=False), _row(lab.bytes(), here=False)]
    return pd.DataFrame(rows)


LABEL_OFFSETS = MappingProxyType({"words": (-12, -14), "bpe": (-12, 16), "characters": (-12, 0), "bytes": (-10, -16)})
"""``(dx, dy)`` of each tokenizer's name, right-aligned to the left of its point (inside the plot, so
a phone's narrow chart keeps its width for the curves): apart where two points meet (characters and
bytes at one height, BPE's start on the bytes; words and BPE at one vocabulary size)."""


def cost_chart(frame: pd.DataFrame, field: str) -> alt.LayerChart:
    """``field`` (one of :data:`FIELDS`) against the vocabulary size: a line over N for words and over
    k for BPE, one point for characters and one for bytes, this run's N and k as diamonds, each
    tokenizer named beside its place."""
    kinds = list(TITLES)
    scale = alt.Scale(domain=[TITLES[kind] for kind in kinds], range=[COLORS[kind] for kind in kinds])
    shapes = alt.Scale(domain=[TITLES[kind] for kind in kinds], range=[SHAPES[kind] for kind in kinds])
    base = alt.Chart(frame).encode(
        x=alt.X("vocabulary:Q", scale=alt.Scale(type="log"), title="vocabulary size (log scale)",
                axis=alt.Axis(format="~s", labelFontSize=12, titleFontSize=13)),
        y=alt.Y(f"{field}:Q", title=FIELDS[field], axis=alt.Axis(labelFontSize=12, titleFontSize=13)),
        color=alt.Color("tokenizer:N", scale=scale, legend=alt.Legend(orient="top", title=None, labelFontSize=13)),
        shape=alt.Shape("tokenizer:N", scale=shapes, legend=None),
        tooltip=[
            alt.Tooltip("label:N", title="tokenizer"), alt.Tooltip("vocabulary:Q", format=","),
            alt.Tooltip("tokens:Q", format=","), alt.Tooltip("tokens_per_word:Q", title="tokens per word", format=".2f"),
            alt.Tooltip("unknown_percent:Q", title="[UNK] %", format=".2f"),
        ],
    )
    curves = base.transform_filter(alt.FieldOneOfPredicate("kind", ["words", "bpe"]))
    single = base.transform_filter(alt.FieldOneOfPredicate("kind", ["characters", "bytes"]))
    layers = [
        curves.mark_line(strokeWidth=2.5).encode(detail="tokenizer:N"),
        curves.mark_point(size=18, filled=True),
        single.mark_point(size=150, filled=True, stroke="#111", strokeWidth=1),
        curves.transform_filter(alt.datum.here).mark_point(size=260, filled=True, stroke="#111", strokeWidth=1.5).encode(
            shape=alt.value("diamond"),  # the run's places, whichever line they are on
        ),
    ]
    for kind, (dx, dy) in LABEL_OFFSETS.items():
        place = alt.datum.kind == kind
        named = base.transform_filter(place if kind in ("characters", "bytes") else place & alt.datum.here)
        layers.append(named.mark_text(align="right", dx=dx, dy=dy, fontSize=13, fontWeight="bold").encode(
            text="label:N", color=alt.value("#111"),  # dark text, not the line's tint: 4.5:1 on white (WCAG AA)
        ))
    return alt.layer(*layers).properties(
        height=230, title=FIELDS[field], autosize=alt.AutoSizeParams(type="fit-x", contains="padding"),
        padding={"left": 5, "top": 5, "bottom": 5, "right": 15},
        description=f"{FIELDS[field]} against the vocabulary size, per tokenizer, on the held-out text",
    )


def measures_table_html(measures: Sequence[Measure], *, shown: str) -> str:
    """The four tokenizers' numbers on the held-out text; the one drawn below is marked in words."""
    head = (
        '<tr><th scope="col">tokenizer</th><th scope="col">vocabulary</th><th scope="col">tokens</th>'
        '<th scope="col">tokens per word</th><th scope="col">[UNK] rate</th></tr>'
    )
    body = []
    for measure in measures:
        mark = ' <span class="bpe-shown">◀ drawn below</span>' if measure.kind == shown else ""
        attrs = ' class="bpe-here"' if measure.kind == shown else ""
        body.append(
            f'<tr{attrs}><th scope="row">{html.escape(label(measure))}{mark}</th><td>{measure.vocabulary:,}</td>'
            f"<td>{measure.tokens:,}</td><td>{measure.tokens_per_word:.2f}</td><td>{100 * measure.unknown_rate:.1f} %</td></tr>"
        )
    table = f'<table class="bpe-subwords"><thead>{head}</thead><tbody>{"".join(body)}</tbody></table>'
    return scroll_box(table, "Each tokenizer's cost on the held-out text")


def held_out_html(tokens: Sequence[HeldOutToken], *, kind: str, end_of_word: str | None = None) -> str:
    """The held-out text's first tokens as chips; each ``[UNK]`` a dashed chip that says so.

    Word tokens are drawn with a gap between them (a word tokenizer drops the spaces)."""
    colors = assign_colors([token.token_id for token in tokens])
    chips = []
    for token, color in zip(tokens, colors):
        if token.unknown:
            what = html.escape(f"{token.data.decode('utf-8', errors='replace')!r} is not in the vocabulary: {UNKNOWN}", quote=True)
            chips.append(f'<span class="bpe-tok bpe-special" title="{what}" data-unknown="1"><span class="bpe-name">{UNKNOWN}</span></span>')
        else:
            chips.append(chip_html(Piece(token.token_id, token.data), color, end_of_word=end_of_word, data_id=False))
    gap = " " if kind == "words" else ""
    return f'<div class="bpe-tokens bpe-held-out">{gap.join(chips)}</div>'


def wordpiece_steps_html(steps: Sequence[WorkedStep]) -> str:
    """The course's merges worked out: what WordPiece merged and its score, beside what BPE's count would."""
    head = (
        '<tr><th scope="col">merge</th><th scope="col">WordPiece merges</th><th scope="col">its score</th>'
        '<th scope="col">BPE\'s count would merge</th><th scope="col">its score</th></tr>'
    )
    body = []
    for step in steps:
        same = step.by_count == step.pair
        body.append(
            f'<tr><td>{step.step}</td><th scope="row">{_pair(step.pair)} → <code>{html.escape(step.made)}</code></th>'
            f"<td>{html.escape(worked_score(*step.score))}</td>"
            f"<td>{'the same pair' if same else _pair(step.by_count) + f' ({step.by_count_score.count:,} times)'}</td>"
            f"<td>{html.escape(worked_score(*step.by_count_score))}</td></tr>"
        )
    return scroll_box(f'<table class="bpe-subwords bpe-wordpiece"><thead>{head}</thead><tbody>{"".join(body)}</tbody></table>', "WordPiece's merges worked out")


def _pair(pair: tuple[str, str]) -> str:
    return f"<code>{html.escape(pair[0])}</code> + <code>{html.escape(pair[1])}</code>"


def encoder_cuts_html(rows: Sequence[tuple[str, Sequence[str], Sequence[str]]]) -> str:
    """Each word cut by the merges (BPE's encoder) and by longest match first (WordPiece's); a word the
    two cut apart is marked in words."""
    head = '<tr><th scope="col">word</th><th scope="col">BPE: merges in order</th><th scope="col">WordPiece: longest match first</th></tr>'
    body = []
    for word, by_merges, by_longest in rows:
        differ = " <b>(they differ)</b>" if tuple(by_merges) != tuple(by_longest) else ""
        cells = [" ".join(f"<code>{html.escape(piece)}</code>" for piece in cut) for cut in (by_merges, by_longest)]
        body.append(f'<tr><th scope="row">{html.escape(word)}</th><td>{cells[0]}</td><td>{cells[1]}{differ}</td></tr>')
    return scroll_box(f'<table class="bpe-subwords bpe-cuts"><thead>{head}</thead><tbody>{"".join(body)}</tbody></table>', "Each word cut by the merges and by longest match")


SUBWORDS_CSS = """
<style>
.bpe-subwords { border-collapse: collapse; font-variant-numeric: tabular-nums; font-size: .95rem; margin-bottom: .4rem; }
.bpe-subwords th, .bpe-subwords td { padding: .15em .7em; border-bottom: 1px solid #ddd; text-align: right; }
.bpe-subwords th[scope="row"], .bpe-subwords th[scope="col"]:first-child { text-align: left; }
.bpe-subwords tr.bpe-here th, .bpe-subwords tr.bpe-here td { font-weight: 700; background: #eef4fb; }
.bpe-subwords .bpe-shown { font-weight: 400; font-size: .85em; color: #333; }
.bpe-held-out [data-unknown] { border: 2px dashed #111; }
.bpe-wordpiece th[scope="row"], .bpe-cuts td, .bpe-cuts th[scope="row"] { text-align: left; }
</style>
"""
