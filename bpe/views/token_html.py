"""Tokens as HTML: coloured, bordered chips with visible whitespace and honest bytes.

Every piece of text that reaches the HTML passes through :func:`html.escape` here, so a corpus or
a token spelled ``<script>`` is shown, never run. The CSS lives in :data:`TOKEN_CSS`, apart from
the markup, as in Hugging Face's ``EncodingVisualizer``.

A chip shows its token as :mod:`bpe.notation.spelling` spells it (``·`` for a space, ``‹e2 82›`` for part of
a character), the marks and the hex each in a span of their own so they can be dimmed, a newline
followed by a real line break, and the end-of-word marker dimmed: ``est</w>``.

    >>> from bpe.tokens.vocab import Token
    >>> chips_html(pieces_for([0], {0: Token(b" <a\\xe2")}))  # doctest: +ELLIPSIS
    '<div class="bpe-tokens"><span ...><span class="bpe-ws">·</span>&lt;a<span class="bpe-hex">‹e2›</span></span></div>'
"""
from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..formats.subword_nmt_tokenizer import PassedThrough
from ..notation.spelling import visible_parts, visible_text
from ..tokens.vocab import Token
from .palette import SPECIAL_TINT, TINTS, assign_colors


TOKEN_CSS = """
<style>
.bpe-tokens { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  font-size: 1.05rem; line-height: 2.1; white-space: normal; word-break: break-word; }
.bpe-tok { display: inline-block; white-space: pre; border: 1px solid rgba(0,0,0,.45);
  border-radius: 4px; padding: 0 .18em; margin: 0 2px 2px 0; color: #111; line-height: 1.5; vertical-align: top; }
.bpe-tok.bpe-new { outline: 2.5px solid #111; outline-offset: 0; font-weight: 700; }
.bpe-tok.bpe-special { border-style: dashed; font-style: italic; background: {special}; }
.bpe-tok.bpe-passed { border: 2px dotted #111; }
.bpe-ws { color: #595E63; }  /* 4.5:1 or more on every tint (WCAG AA) */
.bpe-hex { color: #7a3b00; font-size: .85em; }
.bpe-eow { color: #777; font-size: .8em; }
.bpe-name { font-weight: 700; }
.bpe-words { border-collapse: collapse; font-size: 1rem; }
.bpe-words th, .bpe-words td { padding: .25em .7em; border-bottom: 1px solid #ddd; text-align: left; }
.bpe-words td.bpe-count { text-align: right; font-variant-numeric: tabular-nums; }
.bpe-legend { color: #555; font-size: .85rem; margin-top: .3em; }
{tints}
</style>
""".replace("{special}", SPECIAL_TINT).replace(
    "{tints}", "\n".join(f".bpe-c{index} {{ background: {tint}; }}" for index, tint in enumerate(TINTS))
)
"""Chip styles. Colours are classes, not inline styles: a page of chips is then a few kilobytes
lighter, and the browser can share one computed style among all chips of a colour instead of
parsing a style attribute per chip, which showed in the browser's time per step."""


@dataclass(frozen=True, slots=True)
class Piece:
    """One token to draw: its id and bytes, and how to mark it."""

    token_id: int
    data: bytes
    ends_word: bool = False
    special: bool = False
    new: bool = False
    """Made by the merge being shown (drawn bold with a thick outline)."""
    name: str | None = None
    """A stand-in name (Wikipedia's Z, Y, X) shown instead of the bytes."""
    joined: tuple[int, ...] = ()
    """The ids drawn as this one chip because each is only part of a character (``linked_tokens``)."""
    passed: bool = False
    """A character the vocabulary never mentions, passed through as itself (a subword-nmt codes file's:
    :mod:`bpe.formats.subword_nmt_tokenizer`); drawn with a dotted border."""


def _chip_body(piece: Piece, end_of_word: str | None) -> str:
    if piece.name is not None:
        return f'<span class="bpe-name">{html.escape(piece.name)}</span>'
    body = []
    for kind, text in visible_parts(piece.data):
        escaped = html.escape(text)
        body.append(escaped if kind == "text" else f'<span class="bpe-{kind}">{escaped}</span>')
    if piece.ends_word and end_of_word:
        body.append(f'<span class="bpe-eow">{html.escape(end_of_word)}</span>')
    return "".join(body) or '<span class="bpe-ws">∅</span>'


def chip_title(piece: Piece, end_of_word: str | None = None) -> str:
    """The hover text: ``id 258 · bytes 6f 77 · "ow"`` (escaped later, with the whole attribute)."""
    spelled = visible_text(piece.data, end_of_word, piece.ends_word)
    kind = " · special token" if piece.special else (" · new at this step" if piece.new else "")
    kind += " · passed through: a character the vocabulary never mentions, left as it is" if piece.passed else ""
    name = f"{piece.name} = " if piece.name else ""
    if piece.joined:
        return f"ids {', '.join(map(str, piece.joined))} · bytes {piece.data.hex(' ')} · {spelled} (whole characters from {len(piece.joined)} tokens)"
    return f"id {piece.token_id} · bytes {piece.data.hex(' ') or '(none)'} · {name}{spelled}{kind}"


def chip_html(
    piece: Piece, color: int, *, end_of_word: str | None = None, attrs: str = "", title: str = "", breaks: bool = True,
    data_id: bool = True,
) -> str:
    """One chip in palette colour ``color``. ``attrs``: extra attributes the caller built (already
    escaped); ``title``: more hover text after the id and bytes (escaped here). ``breaks``: follow a
    chip holding newlines with as many line breaks (:func:`line_breaks`; a caller that groups chips
    into unbreakable words puts them between its groups itself). ``data_id``: the id as an attribute
    too, for scripts and tests (the Train page's corpus leaves it out: Streamlit sanitises every
    attribute of a view redrawn at each step, and the hover text already names the id)."""
    classes = "bpe-tok" + (" bpe-special" if piece.special else f" bpe-c{color}") + (" bpe-new" if piece.new else "")
    classes += " bpe-passed" if piece.passed else ""
    hover = html.escape(chip_title(piece, end_of_word) + title, quote=True)
    token_id = f' data-id="{piece.token_id}"' if data_id else ""
    chip = f'<span class="{classes}" title="{hover}"{token_id}{attrs}>{_chip_body(piece, end_of_word)}</span>'
    return chip + line_breaks(piece) if breaks else chip


def line_breaks(piece: Piece) -> str:
    """A newline inside a token also breaks the line on screen, after its chip (the chip itself
    shows ``↵`` and stays one line tall).

    >>> line_breaks(Piece(1, b"\\n\\n  ")), line_breaks(Piece(2, b"a"))
    ('<br><br>', '')
    """
    return "<br>" * piece.data.count(b"\n") if piece.name is None else ""


def chips_html(pieces: Sequence[Piece], *, end_of_word: str | None = None, wrap: bool = True, link: bool = False) -> str:
    """Pieces -> one HTML fragment of chips, each in its token's colour.

    ``link`` numbers the chips (``data-g="0"``, ``"1"``...) for ``linked_tokens`` to tie each to its ids.
    """
    colors = assign_colors([piece.token_id for piece in pieces])
    body = "".join(
        chip_html(piece, color, end_of_word=end_of_word, attrs=f' data-g="{index}"' if link else "")
        for index, (piece, color) in enumerate(zip(pieces, colors))
    )
    return f'<div class="bpe-tokens">{body}</div>' if wrap else body


def pieces_for(
    ids: Sequence[int],
    tokens: Mapping[int, Token],
    *,
    special_ids: Sequence[int] = (),
    new_id: int | None = None,
    names: Mapping[int, str] | None = None,
) -> list[Piece]:
    """Ids -> :class:`Piece` records (``tokens`` is ``Tokenizer.tokens`` or ``trace.tokens``)."""
    special = set(special_ids)
    names = names or {}
    passes = tokens.passes if isinstance(tokens, PassedThrough) else lambda token_id: False
    return [
        Piece(
            token_id, tokens[token_id].data, tokens[token_id].ends_word, token_id in special,
            token_id == new_id, names.get(token_id), passed=passes(token_id),
        )
        for token_id in ids
    ]


def segmentation_text(pieces: Sequence[Piece], separator: str = "") -> str:
    """The chips as plain text: ``ZabdZabac`` with names, ``·low|·low`` with ``separator="|"``."""
    return separator.join(piece.name or visible_text(piece.data) for piece in pieces)


def word_table_html(
    rows: Sequence[tuple[str, int, Sequence[Piece]]], *, end_of_word: str | None = None, limit: int = 200
) -> str:
    """A word-count table with each word's current segmentation as chips (first ``limit`` rows)."""
    cells = [(word, count, chips_html(pieces, end_of_word=end_of_word, wrap=False)) for word, count, pieces in rows[:limit]]
    return word_cells_html(cells, rows=len(rows))


def word_cells_html(cells: Sequence[tuple[str, int, str]], *, rows: int) -> str:
    """The word table from ``(word, count, segmentation HTML)`` cells (the first of ``rows``)."""
    limit = len(cells)
    body = "".join(
        f'<tr><td>{html.escape(visible_text(word.encode("utf-8")))}</td><td class="bpe-count">{count:,}</td>'
        f'<td class="bpe-tokens">{segmentation}</td></tr>'
        for word, count, segmentation in cells
    )
    more = (
        f'<p class="bpe-legend">… and {rows - limit:,} more words</p>' if rows > limit else ""
    )
    return (
        '<table class="bpe-words"><thead><tr><th>word</th><th>count</th><th>segmentation now</th></tr>'
        f"</thead><tbody>{body}</tbody></table>{more}"
    )
