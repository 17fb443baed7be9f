"""DataFrames of a trace for ``st.dataframe``: the merges so far and the vocabulary.

Built once per trace for *all* steps; a page slices the first k rows, so stepping costs a slice,
not a rebuild. :func:`latest_rows_html` draws the latest rows as a plain HTML table, for views
redrawn on every step (an interactive data grid costs the browser several times more).

    >>> from bpe.training.presets import PRESETS
    >>> from bpe.training.trainer import train
    >>> sennrich = train(PRESETS["sennrich"].corpus(), PRESETS["sennrich"].settings)
    >>> merges_frame(sennrich).iloc[2][["step", "left", "right", "token", "count"]].to_dict()
    {'step': 3, 'left': 'o', 'right': 'w', 'token': 'ow', 'count': 7}
"""

from __future__ import annotations

from collections.abc import Mapping

import html

import pandas as pd

from ..notation.spelling import spelled, visible_text
from ..tokens.ids import is_digits
from ..training.trace import Trace
from .plain_tables import MERGE_COLUMNS, TABLES_CSS, merge_rows, scroll_box, table_html  # TABLES_CSS: the pages' import


def merges_frame(trace: Trace, names: Mapping[int, str] | None = None) -> pd.DataFrame:
    """One row per merge: step, left + right -> token (its id), count, tie, tokens after.

    Every token is spelled as the chips spell it, so a space or a zero-width joiner is never a
    blank cell:

    >>> from bpe import Corpus, TrainSettings, train
    >>> corpus = Corpus.from_text("a\u200db a\u200db", pretokenizer="none")
    >>> frame = merges_frame(train(corpus, TrainSettings(unit="char", pretokenizer="none", merges=1)))
    >>> frame.iloc[0][["left", "right", "token", "tie"]].to_dict()
    {'left': 'a', 'right': '‹ZWJ›', 'token': 'a‹ZWJ›', 'tie': '2 pairs'}
    """
    frame = pd.DataFrame(merge_rows(trace, names), columns=list(MERGE_COLUMNS))
    return frame if names else frame.drop(columns="name")


LATEST_ROWS = 10
"""How many rows :func:`latest_rows_html` shows: the recent past, which is what a step is about (the
browser redraws them at every step; the Vocabulary page lists every merge)."""


def latest_rows_html(frame: pd.DataFrame, *, upto: int, what: str, limit: int = LATEST_ROWS) -> str:
    """Rows ``upto - 1`` back to ``upto - limit`` of ``frame``, latest first, as an HTML table with
    every cell escaped; a note says how many earlier ``what`` are not shown.

    >>> frame = pd.DataFrame({"step": [1, 2, 3], "token": ["a<b", "ab", "abc"]})
    >>> print(latest_rows_html(frame, upto=3, what="merges", limit=2))
    <div class="bpe-scroll-x" role="region" aria-label="The latest merges" tabindex="0"><table class="bpe-table"><tr><th>step</th><th>token</th></tr><tr><td class="bpe-number">3</td><td>abc</td></tr><tr><td class="bpe-number">2</td><td>ab</td></tr></table></div><p class="bpe-legend">1 earlier merge not shown.</p>
    """
    shown = frame.iloc[max(upto - limit, 0):upto].iloc[::-1]
    numeric = [pd.api.types.is_numeric_dtype(dtype) for dtype in shown.dtypes]
    table = table_html(shown.columns, shown.itertuples(index=False), numeric=numeric)
    hidden = upto - len(shown)
    what_hidden = what.removesuffix("s") if hidden == 1 else what
    note = f'<p class="bpe-legend">{hidden:,} earlier {html.escape(what_hidden)} not shown.</p>' if hidden > 0 else ""
    return scroll_box(table, f"The latest {what}") + note


def token_kind(trace: Trace, token_id: int) -> str:
    """``byte``/``char``, ``marker``, ``merge`` or ``special``."""
    if token_id in trace.special_ids.values():
        return "special"
    if token_id >= len(trace.base):
        return "merge"
    token = trace.base[token_id]
    return "marker" if token.ends_word and not token.data else trace.settings.unit  # w</w> (attached) is a unit


def vocab_frame(trace: Trace) -> pd.DataFrame:
    """Every token of the whole run, by id: text, hex bytes, length, kind, creating step, its count."""
    rows = []
    for token_id, token in enumerate(trace.tokens):
        created = trace.created_at(token_id)
        rows.append({
            "id": token_id,
            "token": spelled(trace, token_id),
            "bytes (hex)": token.data.hex(" "),
            "length": len(token.data),
            "kind": token_kind(trace, token_id),
            # Step 0 means before any merge everywhere in the app: base and special tokens are there from it.
            "created at step": created.step if created else 0,
            "count then": created.count if created else None,
        })
    frame = pd.DataFrame(rows)
    # Nullable integers: base and special tokens come from no pair, and "3.0" would read as a float.
    frame["count then"] = frame["count then"].astype("Int64")
    return frame


def shown_counts(frame: pd.DataFrame) -> pd.DataFrame:
    """:func:`vocab_frame` rows as a table shows them: a token made by no pair has the count "–"
    (Streamlit's table would print Python's ``None`` there).

    >>> shown_counts(pd.DataFrame({"count then": pd.array([None, 1234], dtype="Int64")}))["count then"].tolist()
    ['–', '1,234']
    """
    return frame.assign(**{"count then": [("–" if pd.isna(count) else f"{count:,}") for count in frame["count then"]]})


def vocab_at(trace: Trace, frame: pd.DataFrame, step: int) -> pd.DataFrame:
    """The rows of :func:`vocab_frame` present after ``step`` merges (base, merged so far, special)."""
    return frame.iloc[trace.vocab_ids(step)]


def search_vocab(frame: pd.DataFrame, query: str) -> pd.DataFrame:
    """Rows whose id equals ``query``, or whose text or hex contains it (case-insensitive).

    Whitespace in the query matches the visible glyphs (a space finds "·the").
    """
    query = query.strip("\n")
    if not query:
        return frame
    shown = visible_text(query.encode("utf-8")).lower()
    mask = frame["token"].str.lower().str.contains(shown, regex=False) | frame["bytes (hex)"].str.contains(
        query.lower(), regex=False
    )
    if is_digits(query.strip()):
        mask |= frame["id"] == int(query.strip())
    return frame[mask]


def apply_table_edits(rows: list[tuple[object, object]], edits: dict) -> list[tuple[object, object]]:
    """Apply ``st.data_editor``'s edit record to ``(word, count)`` rows (deleted, edited, added).

    >>> apply_table_edits([("low", 5), ("lower", 2)],
    ...     {"deleted_rows": [0], "edited_rows": {1: {"count": 3}}, "added_rows": [{"word": "new", "count": 6}]})
    [('lower', 3), ('new', 6)]
    """
    table = [list(row) for row in rows]
    for index, changes in (edits.get("edited_rows") or {}).items():
        index = int(index)
        if 0 <= index < len(table):
            for column, value in changes.items():
                table[index][0 if column == "word" else 1] = value
    deleted = {int(index) for index in edits.get("deleted_rows") or []}
    kept = [row for index, row in enumerate(table) if index not in deleted]
    for added in edits.get("added_rows") or []:
        kept.append([added.get("word"), added.get("count")])
    return [(word, count) for word, count in kept]
