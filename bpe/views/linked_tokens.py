"""Tokens and their ids drawn together and linked both ways, as tiktokenizer does.

Hovering a token marks its id, and hovering an id marks its token. Byte-level tokens may split a
character ("🙂" is two GPT-2 tokens, neither of them a character): such neighbours are drawn as
one chip of whole characters, and each of their ids still gets its own place in the id list.

How the link works without JavaScript: each chip and each of its ids carry the same ``data-g``
(the chip's number), and a CSS rule per chip, ``.bpe-linked:has([data-g="3"]:hover)
[data-g="3"]``, outlines everything with that number while any of it is hovered. Streamlit's
``st.html`` keeps ``<style>`` but drops scripts, so CSS is what a page can rely on. Only the first
``MAX_LINKED`` tokens are drawn (one rule each), so a long text stays light.

    >>> from bpe.views.token_html import Piece
    >>> pieces = [Piece(1, b"a"), Piece(2, b"\\xf0\\x9f"), Piece(3, b"\\x99\\x82")]   # "a", then "🙂" in two halves
    >>> [group.data for group in whole_characters(pieces)], whole_characters(pieces)[1].joined
    ([b'a', b'\\xf0\\x9f\\x99\\x82'], (2, 3))
"""

from __future__ import annotations

import codecs
import html
from collections.abc import Sequence

from .token_html import Piece, chips_html

MAX_LINKED = 400
"""Tokens drawn with links; the id list below the page's chips always has them all."""

LINKED_CSS = """
.bpe-ids { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .95rem;
  line-height: 1.9; margin-top: .4em; color: #222; }
.bpe-id { padding: 0 .15em; border-radius: 3px; }
"""
_MARK = "outline: 2px solid #111; outline-offset: 1px; background: #FFE08A;"


def whole_characters(pieces: Sequence[Piece]) -> list[Piece]:
    """Join neighbours until their bytes end on a character boundary; a joined chip lists its ids.

    Bytes that never complete a character (decoding arbitrary ids) end the chip where UTF-8 says
    they are broken, so nothing is swallowed.
    """
    groups: list[Piece] = []
    members: list[Piece] = []
    decoder = codecs.getincrementaldecoder("utf-8")("replace")
    for piece in pieces:
        if piece.special:  # whole by definition: never drawn inside another chip
            groups.extend([_join(members), piece] if members else [piece])
            members, decoder = [], codecs.getincrementaldecoder("utf-8")("replace")
            continue
        members.append(piece)
        decoder.decode(piece.data)
        if decoder.getstate()[0]:  # bytes still waiting for the rest of their character
            continue
        groups.append(_join(members))
        members = []
    if members:
        groups.append(_join(members))
    return groups


def _join(members: list[Piece]) -> Piece:
    if len(members) == 1:
        return members[0]
    return Piece(
        members[0].token_id, b"".join(piece.data for piece in members), ends_word=members[-1].ends_word,
        joined=tuple(piece.token_id for piece in members),
    )


def linked_html(pieces: Sequence[Piece], *, end_of_word: str | None = None) -> str:
    """Chips of whole characters above the ids, each chip and its ids marked together on hover."""
    groups = whole_characters(pieces[:MAX_LINKED])
    ids: list[str] = []
    for index, group in enumerate(groups):
        for token_id in group.joined or (group.token_id,):
            ids.append(f'<span class="bpe-id" data-g="{index}" title="token {index + 1}">{html.escape(str(token_id))}</span>')
    rules = "\n".join(
        f'.bpe-linked:has([data-g="{index}"]:hover) [data-g="{index}"] {{ {_MARK} }}' for index in range(len(groups))
    )
    return (
        f'<div class="bpe-linked"><style>{LINKED_CSS}{rules}</style>'
        f'{chips_html(groups, end_of_word=end_of_word, link=True)}'
        f'<div class="bpe-ids">{", ".join(ids)}</div></div>'
    )
