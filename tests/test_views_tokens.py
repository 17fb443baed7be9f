"""Token HTML: escaped, bordered, one colour per token, whitespace and bytes visible."""

import html
import re

import pytest

from bpe.views.palette import TINTS, assign_colors
from bpe.views.token_html import (
    TOKEN_CSS, Piece, chips_html, pieces_for, segmentation_text, visible_parts, visible_text, word_table_html,
)

HOSTILE = [
    b"<script>alert(1)</script>",
    b"<img src=x onerror=alert(2)>",
    b'" onmouseover="alert(3)',
    b"&lt;already escaped&gt;",
]
ID_SEQUENCES = {
    "all-equal": [5] * 12,
    "same-colour-class": [0, 6, 12, 18, 24],
    "alternating": [1, 7, 1, 7, 1],
    "counting": list(range(40)),
    "mixed": [256, 256, 97, 98, 262, 100, 256, 256],
}


def background_colours(markup: str) -> list[str]:
    """Each chip's tint, read from its colour class and the stylesheet that defines it."""
    defined = dict(re.findall(r"\.(bpe-c\d+) \{ background: (#[0-9A-F]{6}); \}", TOKEN_CSS))
    return [defined[name] for name in re.findall(r'class="bpe-tok (bpe-c\d+)', markup)]


@pytest.mark.parametrize("data", HOSTILE, ids=lambda d: d.decode()[:12])
def test_hostile_token_text_is_escaped_in_body_and_title(data):
    markup = chips_html([Piece(1, data), Piece(2, b"x")])
    assert "<script" not in markup and "<img" not in markup
    assert html.escape(visible_text(data)).replace("·", '<span class="bpe-ws">·</span>') in markup
    # The only tags left are the ones the builder writes itself.
    assert set(re.findall(r"<(/?[a-z]+)", markup)) <= {"div", "/div", "span", "/span", "br"}


def test_an_attribute_breakout_stays_inside_the_title():
    markup = chips_html([Piece(1, b'" onmouseover="alert(3)')])
    assert 'title="id 1 · bytes' in markup
    assert ' onmouseover="alert' not in markup
    assert "&quot;·onmouseover=&quot;alert(3)" in markup  # in the title, escaped as a whole


def test_word_table_escapes_words_too():
    markup = word_table_html([("<b>bold</b>", 3, [Piece(1, b"<b>")])])
    assert "<b>" not in markup
    assert "&lt;b&gt;bold&lt;/b&gt;" in markup


@pytest.mark.parametrize("ids", ID_SEQUENCES.values(), ids=ID_SEQUENCES.keys())
def test_a_token_has_one_colour_wherever_it_is_drawn(ids):
    rendered = background_colours(chips_html([Piece(token_id, b"a") for token_id in ids]))
    assert len(rendered) == len(ids)
    by_id = {}
    for token_id, colour in zip(ids, rendered):
        assert by_id.setdefault(token_id, colour) == colour, f"token {token_id} drawn in two colours"
    alone = {token_id: background_colours(chips_html([Piece(token_id, b"a")]))[0] for token_id in set(ids)}
    assert by_id == alone  # the same as when it is drawn on its own (a headline, a walkthrough row)


def test_colours_are_deterministic_and_from_the_palette():
    ids = ID_SEQUENCES["mixed"]
    assert assign_colors(ids) == assign_colors(list(ids))
    assert set(background_colours(chips_html([Piece(i, b"a") for i in ids]))) <= set(TINTS)


def test_every_token_has_a_border_so_boundaries_show_without_colour():
    markup = chips_html([Piece(1, b"a"), Piece(2, b"b")])
    assert markup.count('class="bpe-tok ') == 2
    assert re.search(r"\.bpe-tok \{[^}]*border: 1px solid", TOKEN_CSS)


@pytest.mark.parametrize(
    "data, shown",
    [(b" the", "·the"), (b"a\tb", "a→b"), (b"line\n", "line↵"), (b"\r\n", "␍↵"), (b"  ", "··"), (b"\x00\x1b", "‹NUL›‹ESC›")],
)
def test_whitespace_is_made_visible(data, shown):
    assert visible_text(data) == shown


def test_a_newline_token_also_breaks_the_line():
    markup = chips_html([Piece(10, b"\n\n"), Piece(97, b"a")])
    assert "↵↵" in markup
    assert "</span><br><br><span" in markup


@pytest.mark.parametrize(
    "data, shown",
    [
        (b"\xe2\x82", "‹e2 82›"),            # two thirds of "€"
        (b"\xac", "‹ac›"),                   # its last third
        (b" \xe2\x82", "·‹e2 82›"),
        (b"\xe2\x82a\xff", "‹e2 82›a‹ff›"),
        ("€".encode(), "€"),                 # whole characters stay characters
    ],
)
def test_partial_utf8_is_shown_as_hex_never_dropped(data, shown):
    assert visible_text(data) == shown


def test_partial_utf8_is_marked_up_as_hex():
    assert visible_parts(b"a\xe2\x82") == [("text", "a"), ("hex", "‹e2 82›")]
    assert '<span class="bpe-hex">‹e2 82›</span>' in chips_html([Piece(300, b"\xe2\x82")])


def test_hover_title_shows_id_and_bytes():
    markup = chips_html([Piece(258, b"ow", new=True)])
    assert 'title="id 258 · bytes 6f 77 · ow · new at this step"' in markup
    assert "bpe-new" in markup


def test_end_of_word_marker_is_spelled_out_dimmed():
    markup = chips_html([Piece(20, b"est", ends_word=True)], end_of_word="</w>")
    assert '<span class="bpe-eow">&lt;/w&gt;</span>' in markup


def test_names_replace_the_bytes_and_read_like_wikipedia():
    pieces = [Piece(256, b"aa", name="Z"), Piece(97, b"a"), Piece(98, b"b")]
    assert segmentation_text(pieces) == "Zab"
    assert '<span class="bpe-name">Z</span>' in chips_html(pieces)


def test_pieces_for_marks_new_and_special_tokens():
    from bpe.tokens.vocab import Token

    tokens = {1: Token(b"a"), 2: Token(b"<|e|>")}
    pieces = pieces_for([1, 2], tokens, special_ids=[2], new_id=1)
    assert [(p.new, p.special) for p in pieces] == [(True, False), (False, True)]


def test_corpus_block_escapes_its_reading_and_its_names():
    from bpe.views.merge_html import Layer, merge_view_html
    from bpe.views.occurrences import Chunk

    pieces = [Piece(300, b"<b>", name="<i>"), Piece(97, b"a")]
    layer = Layer([Chunk((300, 97))], pieces, "legend")
    body = merge_view_html(before=None, after=layer, step=1, reading=True)
    assert "<i>" not in body and "&lt;i&gt; = &lt;b&gt;" in body  # the name, and the bytes in the hover
    assert "Reads as <b><code>&lt;i&gt;a</code></b>" in body
    assert "Reads as" not in merge_view_html(before=None, after=layer, step=1)
