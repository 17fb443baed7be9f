"""Tables without pandas: merges as plain rows, and rows as one escaped HTML table.

The app's DataFrames (:mod:`bpe.views.tables`) are built from these rows, and a notebook draws
them directly, so a trace or tokenizer displays in an install without pandas. Every cell passes
through :func:`html.escape`: a token spelled ``<script>`` is shown, never run.

    >>> print(table_html(["step", "token"], [(1, "a<b"), (2, "ab")], numeric=[True, False]))
    <table class="bpe-table"><tr><th>step</th><th>token</th></tr><tr><td class="bpe-number">1</td><td>a&lt;b</td></tr><tr><td class="bpe-number">2</td><td>ab</td></tr></table>
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from ..notation.spelling import visible_text
from ..tokens.vocab import Token
from ..training.trace import Trace

if TYPE_CHECKING:
    from ..encoding.tokenizer import Tokenizer

TABLES_CSS = """
<style>
.bpe-table { border-collapse: collapse; font-size: .9rem; width: 100%; }
.bpe-table th, .bpe-table td { padding: .2em .6em; border-bottom: 1px solid #e4e4e4; text-align: left;
  white-space: pre; }
.bpe-table th { background: #F2F5F8; font-weight: 600; }
.bpe-table td.bpe-number { text-align: right; font-variant-numeric: tabular-nums; }
.bpe-scroll-x { overflow-x: auto; max-width: 100%; }
.bpe-scroll-x:focus-visible { outline: 3px solid #E69F00; outline-offset: 1px; }
</style>
"""

MERGE_COLUMNS = ("step", "left", "right", "token", "name", "id", "count", "tie", "tokens after")


def _spell(token: Token, end_of_word: str | None) -> str:
    return visible_text(token.data, end_of_word, token.ends_word)


def merge_rows(trace: Trace, names: Mapping[int, str] | None = None) -> list[dict]:
    """One row per merge, keyed by :data:`MERGE_COLUMNS`: left + right -> token (its id), count,
    tie, tokens after. ``names`` (Wikipedia's Z, Y, X) replace the spelling of parts and fill
    ``name``."""
    names = names or {}
    tokens, eow = trace.tokens, trace.settings.end_of_word
    return [
        {
            "step": s.step,
            "left": names.get(s.left) or _spell(tokens[s.left], eow),
            "right": names.get(s.right) or _spell(tokens[s.right], eow),
            "token": _spell(tokens[s.new_id], eow),
            "name": names.get(s.new_id, ""),
            "id": s.new_id,
            "count": s.count,
            # "tied 1" would read as "tied", when it means the pair stood alone at its count.
            "tie": f"{s.tie_count:,} pairs" if s.tie_count > 1 else "no",
            "tokens after": s.tokens_after,
        }
        for s in trace.steps
    ]


def tokenizer_merge_rows(tokenizer: "Tokenizer", *, limit: int) -> list[dict]:
    """The first ``limit`` merges of a tokenizer by rank: left + right -> token (its id)."""
    tokens, eow = tokenizer.tokens, tokenizer.end_of_word
    return [
        {
            "rank": rank, "left": _spell(tokens[left], eow), "right": _spell(tokens[right], eow),
            "token": _spell(tokens[new_id], eow), "id": new_id,
        }
        for rank, (left, right, new_id) in enumerate(tokenizer.merges[:limit], start=1)
    ]


def scroll_box(table: str, label: str) -> str:
    """A wide table in a box of its own that scrolls sideways on a narrow screen (the page never
    does); the box is a named region the keyboard can reach, so arrow keys scroll it too."""
    return f'<div class="bpe-scroll-x" role="region" aria-label="{html.escape(label)}" tabindex="0">{table}</div>'


def table_html(columns: Sequence[str], rows: Iterable[Sequence[object]], *, numeric: Sequence[bool]) -> str:
    """An HTML table: a header of ``columns``, then ``rows``; cells of ``numeric`` columns are
    right-aligned with thousands separators (``None`` there: "–").

    >>> table_html(["n"], [(None,)], numeric=[True])
    '<table class="bpe-table"><tr><th>n</th></tr><tr><td class="bpe-number">–</td></tr></table>'
    """
    header = "".join(f"<th>{html.escape(str(column))}</th>" for column in columns)
    body = "".join(
        "<tr>" + "".join(
            f'<td class="bpe-number">{"–" if value is None else format(value, ",")}</td>' if is_number
            else f"<td>{html.escape(str(value))}</td>"
            for value, is_number in zip(row, numeric)
        ) + "</tr>"
        for row in rows
    )
    return f'<table class="bpe-table"><tr>{header}</tr>{body}</table>'
