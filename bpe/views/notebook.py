"""Notebook display: a trace, a tokenizer and a text's tokens as HTML; a merge's pair counts as a chart.

A thin composition over the builders the app's pages draw with: token chips and the word table
(``token_html``), headline numbers (``stats``), escaped tables (``plain_tables``) and the pair-count
chart (``charts``). :mod:`bpe.notebook` registers them with IPython, so Jupyter draws every
:class:`~bpe.training.trace.Trace` and :class:`~bpe.encoding.tokenizer.Tokenizer` with them.

Each view is one HTML fragment with its CSS inline in a ``<style>`` block: no external CSS and no
script, so it draws offline, in exported notebooks and in viewers that strip scripts. The palette
is the app's colour-blind-safe one, and every chip also has a border. Every string from a corpus,
a token or a tokenizer's name is escaped (by the builders, or here). How much is drawn is bounded,
since a notebook shows whatever it is handed: :data:`MERGES_SHOWN` merges, :data:`WORDS_SHOWN`
training words and :data:`TEXT_SHOWN` characters of a text.

Out of scope: pandas and altair. Only :func:`pair_chart` needs them (imported when called), so a
trace or tokenizer displays in an install of the engine alone.

    >>> from bpe import PRESETS, Tokenizer, train
    >>> trace = train(PRESETS["sennrich"].corpus(), PRESETS["sennrich"].settings)
    >>> view = trace_html(trace)
    >>> "<td>e</td><td>st</td><td>est</td>" in view, "stopped: " in view, "newest" in view
    (True, True, True)
    >>> "2 tokens for 7 characters." in tokens_html(Tokenizer.from_trace(trace), " lowest")
    True
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..encoding.tokenizer import Tokenizer
from ..notation.spelling import visible_text
from ..text.pretokenize import SpecialSet
from ..training.trace import Trace
from .plain_tables import MERGE_COLUMNS, TABLES_CSS, merge_rows, table_html, tokenizer_merge_rows
from .stats import STATS_CSS, Stat, stats_html, step_stats
from .token_html import TOKEN_CSS, chips_html, pieces_for, word_table_html

if TYPE_CHECKING:
    import altair

MERGES_SHOWN = 30
WORDS_SHOWN = 50
TEXT_SHOWN = 20_000
SPECIALS_SHOWN = 10
NUMBER_COLUMNS = frozenset({"step", "rank", "id", "count", "tokens after"})

NOTEBOOK_CSS = TOKEN_CSS + STATS_CSS + TABLES_CSS + """
<style>
.bpe-nb { color: #1B1F24; background: #FFFFFF; padding: .4em .6em; font-family: sans-serif; }
.bpe-nb h4 { margin: .6em 0 .3em 0; font-size: 1.05rem; }
</style>
"""
"""The app's styles, plus a light box of its own: a notebook in a dark theme would otherwise draw
dark text on a dark background around the light chips."""


class Html(str):
    """HTML that Jupyter draws (``_repr_html_``) and that is a plain ``str`` everywhere else."""

    __slots__ = ()

    def _repr_html_(self) -> str:
        return str(self)


def _box(body: str) -> Html:
    return Html(f'{NOTEBOOK_CSS}<div class="bpe-nb">{body}</div>')


def _rows_table(rows: Sequence[dict], columns: Sequence[str]) -> str:
    return table_html(
        columns, ([row[column] for column in columns] for row in rows),
        numeric=[column in NUMBER_COLUMNS for column in columns],
    )


def _more(hidden: int, what: str) -> str:
    return f'<p class="bpe-legend">… and {hidden:,} more {what}</p>' if hidden > 0 else ""


def trace_html(trace: Trace, *, merges: int = MERGES_SHOWN, words: int = WORDS_SHOWN) -> Html:
    """Settings and stop reason, the headline numbers after the last merge, the first ``merges``
    merges, and the first ``words`` training words segmented by all the merges."""
    settings, last = trace.settings, len(trace.steps)
    rules = f"{settings.unit} · pre-tokenizer {settings.pretokenizer} · ties: {settings.tie_break}"
    if settings.end_of_word:
        rules += f" · end of word {settings.end_of_word}"
    columns = [column for column in MERGE_COLUMNS if column != "name"]
    return _box(
        f"<h4>BPE trace: {last:,} merges</h4>"
        f'<p class="bpe-legend">{html.escape(rules)} · stopped: {html.escape(trace.stop_detail)}</p>'
        + stats_html(step_stats(trace, last))
        + "<h4>Merges</h4>" + _rows_table(merge_rows(trace)[:merges], columns) + _more(last - merges, "merges")
        + f"<h4>The corpus after merge {last:,}</h4>" + _corpus_html(trace, words)
    )


def _corpus_html(trace: Trace, limit: int) -> str:
    """Each training word, its count and its segmentation now, as on the Train page's word table."""
    if trace.corpus is None:
        return '<p class="bpe-legend">Not stored: a trace read from a file keeps the merges, not the corpus.</p>'
    # Each word is encoded whole (pre-tokenizer "none"): it was a word of its own in training.
    tokenizer = Tokenizer.from_trace(trace, pretokenizer="none")
    tokens = tokenizer.tokens
    new_id = trace.steps[-1].new_id if trace.steps else None
    words = trace.corpus.words
    rows = [
        (word, count, pieces_for(tokenizer.encode_ordinary(word), tokens, new_id=new_id))
        for word, count in words[:limit]
    ]
    # subtle: the other words are listed (unsegmented) only so the table can say how many it left out
    rows += [(word, count, ()) for word, count in words[limit:]]
    return word_table_html(rows, end_of_word=trace.settings.end_of_word, limit=limit)


def tokenizer_html(tokenizer: Tokenizer, *, merges: int = MERGES_SHOWN) -> Html:
    """Size, the rules it encodes by, and its first ``merges`` merges by rank."""
    specials = list(tokenizer.special_tokens)
    merge_count = len(tokenizer.merges)
    rules = f"{tokenizer.unit} · pre-tokenizer {tokenizer.pretokenizer.name}"
    if tokenizer.end_of_word:
        rules += f" · end of word {tokenizer.end_of_word}"
    if specials:
        shown = ", ".join(visible_text(text.encode("utf-8")) for text in specials[:SPECIALS_SHOWN])
        rules += f" · special: {shown}" + (" …" if len(specials) > SPECIALS_SHOWN else "")
    stats = [
        Stat("Vocabulary", f"{tokenizer.n_vocab:,}"), Stat("Merges", f"{merge_count:,}"),
        Stat("Special tokens", f"{len(specials):,}"),
    ]
    rows = tokenizer_merge_rows(tokenizer, limit=merges)
    return _box(
        f"<h4>BPE tokenizer{': ' + html.escape(tokenizer.name) if tokenizer.name else ''}</h4>"
        f'<p class="bpe-legend">{html.escape(rules)}</p>' + stats_html(stats)
        + "<h4>First merges</h4>" + _rows_table(rows, ["rank", "left", "right", "token", "id"])
        + _more(merge_count - merges, "merges")
    )


def tokens_html(tokenizer: Tokenizer, text: str, *, allowed_special: SpecialSet = "all") -> Html:
    """``text`` (its first :data:`TEXT_SHOWN` characters) as token chips, and how many tokens."""
    shown = text[:TEXT_SHOWN]
    ids = tokenizer.encode(shown, allowed_special=allowed_special)
    pieces = pieces_for(ids, tokenizer.tokens, special_ids=list(tokenizer.special_tokens.values()))
    cut = f" (the first {len(shown):,} of {len(text):,})" if len(shown) < len(text) else ""
    legend = f"{len(ids):,} token{'s' if len(ids) != 1 else ''} for {len(shown):,} characters{cut}."
    return _box(
        chips_html(pieces, end_of_word=tokenizer.end_of_word)
        + f'<p class="bpe-legend">{legend} Hover a token for its id and bytes; · is a space, ↵ a newline.</p>'
    )


def pair_chart(trace: Trace, step: int) -> "altair.LayerChart":
    """The app's pair-count chart: the top pairs just before merge ``step``, the winner labelled.

    Altair decides how a notebook draws it: its default renderer loads Vega from a CDN, and
    ``altair.renderers.enable("mimetype")`` leaves drawing to the frontend (JupyterLab, VS Code).
    """
    try:
        from .charts import pair_chart as chart
    except ImportError as error:
        raise ImportError(
            f"drawing the pair counts needs altair and pandas ({error.name} is missing): "
            "pip install 'bpe-lab[app]', or pip install altair pandas"
        ) from error
    # A notebook has no page width to fit: give the bars room (the app's chart fits its column).
    return chart(trace, trace.check_step(step)).properties(width=480)
