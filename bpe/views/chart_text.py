"""A chart's numbers as text: a table screen readers read in place of the picture (WCAG 1.1.1).

Charts are drawn on a canvas, which a screen reader cannot read. For a chart with one small
dataset (the pair counts, the length histogram) this builds the same rows as an HTML table that is
visually hidden but read aloud; a chart whose data is a long curve gets none (its caption carries
the point instead).

    >>> spec = {"datasets": {"d1": [{"pair": "1. a + a", "count": 4}, {"pair": "2. a + b", "count": 2}]}}
    >>> print(chart_table_html(spec))
    <div class="bpe-sr-only"><table><caption>The numbers in the chart</caption><tr><th>pair</th><th>count</th></tr><tr><td>1. a + a</td><td>4</td></tr><tr><td>2. a + b</td><td>2</td></tr></table></div>
    >>> chart_table_html({"datasets": {"curve": [{"merges": n} for n in range(500)]}}) is None
    True

A chart whose rows carry fields for its drawing only (the key its bars are found by, a label's
text) names the columns a reader needs in its ``usermeta``:

    >>> spec["datasets"]["d1"][0]["key"] = "bpe-pair-1"
    >>> "bpe-pair-1" in chart_table_html({**spec, "usermeta": {TABLE_COLUMNS: ["pair", "count"]}})
    False

Every value is escaped, so a token spelled ``<script>`` is read, never run.
"""

from __future__ import annotations

import html

TABLE_COLUMNS = "bpe_table_columns"
"""The ``usermeta`` entry naming the columns of the table (all of them when absent)."""
MAX_ROWS = 40
"""More rows than this is a curve, not a set of counts to read out one by one."""

SR_ONLY_CSS = """
<style>
/* Read by screen readers, not drawn: the usual "visually hidden" pattern. */
.bpe-sr-only { position: absolute !important; width: 1px; height: 1px; padding: 0; margin: -1px;
  overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
</style>
"""


def chart_table_html(spec: dict, *, max_rows: int = MAX_ROWS) -> str | None:
    """The rows of a one-dataset Vega-Lite spec as a hidden table, or ``None`` if there is none to read."""
    datasets = spec.get("datasets") or {}
    if len(datasets) != 1:
        return None
    (rows,) = datasets.values()
    if not rows or len(rows) > max_rows:
        return None
    columns = (spec.get("usermeta") or {}).get(TABLE_COLUMNS) or list(rows[0])
    head = "".join(f"<th>{html.escape(str(column))}</th>" for column in columns)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(str(row.get(column, '')))}</td>" for column in columns) + "</tr>"
        for row in rows
    )
    caption = html.escape(spec.get("description") or "The numbers in the chart")
    # subtle: the hidden box is a div around the table: a table grows to its content whatever width
    # it is given, and a 1-pixel table 450 pixels wide made a phone's page pan sideways
    return f'<div class="bpe-sr-only"><table><caption>{caption}</caption><tr>{head}</tr>{body}</table></div>'
