"""The "Why tokenization matters" cards as HTML and charts: each tokenizer's split of one text, and
what one sentence costs in each language.

Pure builders over :mod:`bpe.teaching.why_tokenization`'s records, tested without Streamlit. Every
text (a token, a tokenizer's name, a note, an error) is escaped here.

    >>> from bpe.teaching.why_tokenization import Tokenized
    >>> from bpe.tokens.vocab import Token
    >>> row = Tokenized("<b>ours</b>", (104, 105), (Token(b"h"), Token(b"i")), frozenset(), "2 tokens")
    >>> html_out = split_rows_html([row])
    >>> "&lt;b&gt;ours&lt;/b&gt;" in html_out, html_out.count('class="bpe-id"')
    (True, 2)
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import NamedTuple

import altair as alt
import pandas as pd

from ..teaching.why_tokenization import LanguageRow, Tokenized
from ..tokens.vocab import Token
from .linked_tokens import linked_html
from .plain_tables import scroll_box
from .token_html import pieces_for

WHY_CSS = """
<style>
.bpe-splits { border-collapse: collapse; width: 100%; }
.bpe-splits th, .bpe-splits td { padding: .15em .7em .25em 0; border-bottom: 1px solid #ddd; text-align: left; vertical-align: top; }
.bpe-splits thead th { font-size: .85rem; color: #333; }
.bpe-splits th[scope="row"] { white-space: nowrap; }
.bpe-splits .bpe-count { display: block; font-weight: 400; font-variant-numeric: tabular-nums; }
.bpe-splits td.bpe-note { color: #333; font-size: .85rem; width: 28%; }
.bpe-splits .bpe-tokens { line-height: 1.8; }
.bpe-splits .bpe-ids { margin-top: 0; font-size: .8rem; line-height: 1.5; }
.bpe-costs { border-collapse: collapse; font-size: .92rem; font-variant-numeric: tabular-nums; }
.bpe-costs th, .bpe-costs td { padding: .15em .55em; border-bottom: 1px solid #ddd; text-align: right; }
.bpe-costs th[scope="row"], .bpe-costs td.bpe-script { text-align: left; }
.bpe-costs th[scope="colgroup"] { text-align: center; border-left: 1px solid #bbb; }
.bpe-costs .bpe-first { border-left: 1px solid #bbb; }
</style>
"""
MAX_ROW_TOKENS = 48
"""Tokens drawn per tokenizer (the count is always whole): a byte-level run at step 0 spends 500
tokens on one Hindi sentence, and its row would push every other tokenizer off the screen."""
WHY_PRESENTER_CSS = """
<style>
/* A projector's first screen holds the chips: the column names are read, not shown (a teacher says them). */
.bpe-splits thead th { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); }
/* Chips a little under the projector's 1.3rem (25 px here, still read from the back), tighter lines. */
.bpe-splits .bpe-tokens { font-size: 1.15rem !important; line-height: 1.6; }
.bpe-splits .bpe-ids { font-size: .75rem; line-height: 1.35; }
</style>
"""
TOKENIZER_COLORS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442")
"""Okabe-Ito at full strength, one per tokenizer in the chart (black before yellow, which is faint on white)."""


class Loading(NamedTuple):
    """A tokenizer whose row is on its way (the page draws the others meanwhile)."""

    name: str
    n_vocab: int


def split_rows_html(rows: Sequence[Tokenized | Loading]) -> str:
    """One table row per tokenizer: its name and token count, its chips and ids, and the card's note.

    Compact on purpose: a projector's first screen holds the chips of ours and three tokenizers.

    >>> "reading its 200,000 tokens" in split_rows_html([Loading("GPT-4o", 200_000)])
    True
    """
    body = []
    for row in rows:
        if isinstance(row, Loading):
            body.append(f'<tr class="bpe-loading"><th scope="row">{html.escape(row.name)}<span class="bpe-count">loading…</span></th>'
                        f'<td colspan="2" class="bpe-note">reading its {row.n_vocab:,} tokens: its row appears when ready</td></tr>')
            continue
        count = "–" if row.error is not None else f"{len(row.ids):,} token{'s' * (len(row.ids) != 1)}"
        name = f'<th scope="row">{html.escape(row.name)}<span class="bpe-count">{count}</span></th>'
        if row.error is not None:
            body.append(f'<tr>{name}<td colspan="2" class="bpe-note">cannot encode this text: {html.escape(row.error)}</td></tr>')
            continue
        shown = row.ids[:_whole_prefix(row.tokens, MAX_ROW_TOKENS)]
        pieces = pieces_for(shown, dict(zip(row.ids, row.tokens)), special_ids=tuple(row.special_ids))
        more = f'<p class="bpe-legend">… and {len(row.ids) - len(shown):,} more tokens</p>' if len(shown) < len(row.ids) else ""
        body.append(
            f"<tr>{name}<td>{linked_html(pieces, end_of_word=row.end_of_word)}{more}</td>"
            f'<td class="bpe-note">{html.escape(row.note)}</td></tr>'
        )
    return scroll_box(
        '<table class="bpe-splits">'
        '<thead><tr><th scope="col">tokenizer</th><th scope="col">tokens and their ids</th><th scope="col">what to see</th>'
        f'</tr></thead><tbody>{"".join(body)}</tbody></table>', "Each tokenizer's tokens",
    )


def _whole_prefix(tokens: Sequence[Token], limit: int) -> int:
    """How many of ``tokens`` to draw: ``limit``, or up to three more so that the last drawn one does
    not end inside a character (byte-level tokens may each hold part of one).

    >>> _whole_prefix([Token(b"a"), Token(b"\\xe2\\x82"), Token(b"\\xac")], 2)
    3
    """
    count = min(limit, len(tokens))
    while count < min(limit + 3, len(tokens)):
        try:
            b"".join(token.data for token in tokens[:count]).decode("utf-8")
            break
        except UnicodeDecodeError as error:
            if error.reason != "unexpected end of data":
                break
            count += 1
    return count


def counts_line(rows: Sequence[Tokenized]) -> str:
    """The counts alone, for the "try your own" box: ``GPT-2: 9 tokens · GPT-4: 7 tokens``.

    >>> counts_line([Tokenized("GPT-2", (1, 2), (), frozenset(), "")])
    'GPT-2: 2 tokens'
    """
    return " · ".join(
        f"{row.name}: cannot encode it" if row.error is not None else f"{row.name}: {len(row.ids):,} token{'s' * (len(row.ids) != 1)}"
        for row in rows
    )


def language_frame(rows: Sequence[LanguageRow]) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=LanguageRow._fields)


def language_chart(rows: Sequence[LanguageRow]) -> alt.LayerChart:
    """Bars of tokens per English token, one group per language, one bar per tokenizer, and a rule at 1."""
    data = language_frame(rows)
    tokenizers = list(dict.fromkeys(data["tokenizer"]))
    languages = list(dict.fromkeys(data["language"]))
    bars = alt.Chart(data).mark_bar(stroke="#222", strokeWidth=0.4).encode(
        y=alt.Y("language:N", sort=languages, title=None, axis=alt.Axis(labelFontSize=13)),
        yOffset=alt.YOffset("tokenizer:N", sort=tokenizers),
        x=alt.X("ratio_to_english:Q", title="tokens, as a multiple of the English sentence's"),
        color=alt.Color(
            "tokenizer:N", title=None, sort=tokenizers,
            scale=alt.Scale(domain=tokenizers, range=list(TOKENIZER_COLORS[: len(tokenizers)])),
            legend=alt.Legend(orient="top", labelFontSize=13),
        ),
        tooltip=[
            alt.Tooltip("language:N"), alt.Tooltip("script:N"), alt.Tooltip("tokenizer:N"),
            alt.Tooltip("tokens:Q", format=","), alt.Tooltip("bytes:Q", format=","),
            alt.Tooltip("bytes_per_token:Q", title="bytes per token", format=".2f"),
            alt.Tooltip("ratio_to_english:Q", title="× English", format=".2f"),
        ],
    )
    one = alt.Chart(pd.DataFrame({"x": [1.0]})).mark_rule(color="#333", strokeDash=[4, 3]).encode(x="x:Q")
    return alt.layer(bars, one).properties(
        height=alt.Step(max(6, 36 // max(len(tokenizers), 1))),
        autosize=alt.AutoSizeParams(type="fit-x", contains="padding"),
        description="Tokens for the first article of the Universal Declaration of Human Rights, per language and tokenizer",
    )


def language_table_html(rows: Sequence[LanguageRow]) -> str:
    """The chart's numbers as a table (for screen readers, and for exact values): per language, each
    tokenizer's tokens, bytes per token and ratio to English."""
    tokenizers = list(dict.fromkeys(row.tokenizer for row in rows))
    by_cell = {(row.language, row.tokenizer): row for row in rows}
    languages = list(dict.fromkeys((row.language, row.script, row.bytes) for row in rows))
    groups = "".join(f'<th scope="colgroup" colspan="3">{html.escape(name)}</th>' for name in tokenizers)
    subheads = '<th scope="col" class="bpe-first">tokens</th><th scope="col">bytes per token</th><th scope="col">× English</th>' * len(tokenizers)
    body = []
    for language, script, size in languages:
        cells = []
        for name in tokenizers:
            row = by_cell.get((language, name))
            cells.append(
                '<td class="bpe-first">–</td><td>–</td><td>–</td>' if row is None else
                f'<td class="bpe-first">{row.tokens:,}</td><td>{row.bytes_per_token:.1f}</td><td>{row.ratio_to_english:.1f}×</td>'
            )
        body.append(
            f'<tr><th scope="row">{html.escape(language)}</th><td class="bpe-script">{html.escape(script)}</td>'
            f'<td>{size:,}</td>{"".join(cells)}</tr>'
        )
    return scroll_box(
        '<table class="bpe-costs"><caption class="bpe-sr-only">The first article of the Universal Declaration of '
        "Human Rights: tokens, bytes per token and tokens as a multiple of English, per language and tokenizer</caption>"
        f'<thead><tr><td></td><td></td><td></td>{groups}</tr>'
        f'<tr><th scope="col">language</th><th scope="col">script</th><th scope="col">bytes</th>{subheads}</tr></thead>'
        f'<tbody>{"".join(body)}</tbody></table>', "Tokens per language, as numbers",
    )
