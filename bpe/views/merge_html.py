"""The corpus around one merge, as one block of HTML: before it (the pair marked), then after it.

The block holds both moments, stacked in one place, and switches between them in the browser
alone (CSS, no rerun, no script): a learner who presses Next sees the chosen pair's occurrences
marked for a moment, then the corpus after the merge with the new tokens outlined. Two radio
buttons hold either moment ("Before merge 3" / "After merge 3"): a click, a tap, or one arrow
key once the buttons have the focus.

Marks in the "before" corpus (see :mod:`bpe.views.occurrences`):

* a numbered badge between the two tokens of each occurrence of the chosen pair, as in the
  counting lab (``LABS_CSS``): solid (``bpe-join-replaced``) where the merge replaces it, dashed
  (``bpe-join-overlap``) where training counts it but the merge cannot replace it, because it
  overlaps the one before ("aaa");
* ``data-l="3"`` / ``data-r="3"`` on a token: the left / right half of an occurrence of the
  chart's third pair. Hovering that bar (its SVG mark's ``aria-label`` is ``bpe-pair-3``) or a
  tied pair in the narration (``data-pair="3"``) outlines them, through :data:`MERGE_CSS`'s
  ``:has()`` rules: the chart and the corpus are separate Streamlit elements, linked by CSS.

Each chunk of the pre-tokenizer of two tokens or more is one ``bpe-word`` span that never breaks
inside (a chip never breaks anyway), so lines break only between words.

    >>> from bpe.views.occurrences import Chunk, mark_pairs
    >>> from bpe.views.token_html import Piece
    >>> chunk = Chunk((97, 97, 97, 97))
    >>> pieces = [Piece(97, b"a")] * 4
    >>> (body,) = layer_html([chunk], pieces, mark_pairs([chunk], chosen=(97, 97), ranked=[(97, 97)]))
    >>> body.count('class="bpe-join bpe-join-replaced"'), body.count('class="bpe-join bpe-join-overlap"')
    (2, 1)
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .occurrences import Chunk, PairMarks
from .palette import assign_colors
from .token_html import Piece, chip_html, line_breaks, segmentation_text, word_cells_html

LINKED_RANKS = 20
"""Chart ranks the hover rules cover (the chart shows ``top_k`` pairs, 10 by default)."""


def _hover_rules() -> str:
    rules = []
    for rank in range(1, LINKED_RANKS + 1):
        hovered = f':root:has([aria-label="bpe-pair-{rank}"]:hover, [data-pair="{rank}"]:is(:hover, :focus))'
        rules.append(
            f'{hovered} .bpe-before [data-l="{rank}"], {hovered} .bpe-before [data-r="{rank}"] '
            "{ box-shadow: 0 0 0 3px #111; background: #FFD84D; }"
        )
    return "\n".join(rules)


MERGE_CSS = f"""
<style>
.bpe-merge-view {{ position: relative; }}
.bpe-pick {{ position: absolute; opacity: 0; width: 1px; height: 1px; }}
.bpe-pick + label {{ display: inline-block; padding: .1em .7em; border: 1px solid #888; cursor: pointer;
  font-size: .9rem; margin: 0 0 .35em 0; background: #fff; color: #333; }}
.bpe-pick + label.bpe-pick-first {{ border-radius: 6px 0 0 6px; }}
.bpe-pick + label.bpe-pick-last {{ border-radius: 0 6px 6px 0; margin-left: -1px; }}
.bpe-pick:checked + label {{ background: #0072B2; border-color: #0072B2; color: #fff; font-weight: 600; }}
.bpe-pick:focus-visible + label {{ outline: 3px solid #E69F00; outline-offset: 1px; }}
.bpe-layers {{ display: grid; max-height: var(--bpe-corpus-height, max(10rem, calc(100vh - 36rem))); overflow-y: auto;
  overscroll-behavior: contain; padding: 3px 2px 0 3px; }}
.bpe-layers:focus-visible {{ outline: 3px solid #E69F00; outline-offset: 1px; }}
.bpe-layers > .bpe-layer {{ grid-area: 1 / 1; min-width: 0; }}
.bpe-word {{ display: inline-flex; flex-wrap: wrap; max-width: 100%; vertical-align: top; }}
/* Pressing Next shows the pair's places for a moment, then the corpus after the merge. One swap,
   not a fade: a fade repaints the whole corpus every frame, on every learner's machine, each step. */
.bpe-animate .bpe-before {{ animation: bpe-leave 0s linear 1.2s both; }}
.bpe-animate .bpe-after {{ animation: bpe-arrive 0s linear 1.2s both; }}
@keyframes bpe-leave {{ from {{ visibility: visible; }} to {{ visibility: hidden; }} }}
@keyframes bpe-arrive {{ from {{ visibility: hidden; }} to {{ visibility: visible; }} }}
.bpe-merge-view:has(.bpe-pick-before:checked) .bpe-before,
:root:has([aria-label^="bpe-pair-"]:hover, [data-pair]:is(:hover, :focus)) .bpe-merge-view .bpe-before {{
  animation: none; visibility: visible; }}
.bpe-merge-view:has(.bpe-pick-before:checked) .bpe-after,
:root:has([aria-label^="bpe-pair-"]:hover, [data-pair]:is(:hover, :focus)) .bpe-merge-view .bpe-after {{
  animation: none; visibility: hidden; }}
.bpe-pairref {{ cursor: help; border-bottom: 2px dotted #555; }}
.bpe-pairref:focus-visible {{ outline: 3px solid #E69F00; outline-offset: 2px; }}
.bpe-merge-view .bpe-join::after {{ content: attr(data-n); }}
{_hover_rules()}
</style>
"""


def layer_html(
    chunks: Sequence[Chunk], pieces: Sequence[Piece], marks: PairMarks | None = None, *,
    end_of_word: str | None = None, origins: Mapping[int, str] | None = None,
) -> list[str]:
    """One HTML string per chunk: its chips, a chunk of several a ``bpe-word`` that never breaks inside.

    ``pieces`` are the chunks' ids, flattened. With ``marks``, the chosen pair's occurrences
    are numbered, and every token of a chart pair's occurrence carries the pair's rank for the
    hover rules. ``origins``: more hover text per token id (e.g. the merge that made it).
    """
    marks = marks or PairMarks()
    origins = origins or {}
    colors = assign_colors([piece.token_id for piece in pieces])
    numbers = {position: number for number, position in enumerate(sorted(marks.counted), start=1)}
    drawn: dict[tuple[Piece, int, str], str] = {}
    out: list[str] = []
    start = 0
    for chunk in chunks:
        # A chip never breaks inside, so a one-token chunk needs no word box: on real text that is
        # most chunks, and the boxes were a fifth of the elements a step redraws.
        single = len(chunk.ids) == 1
        parts = [] if single else ['<span class="bpe-word">']
        for position in range(start, start + len(chunk.ids)):
            attrs = ""
            if position in marks.rank_at:
                attrs += f' data-l="{marks.rank_at[position]}"'
            if position > start and position - 1 in marks.rank_at:
                attrs += f' data-r="{marks.rank_at[position - 1]}"'
            piece = pieces[position]
            key = (piece, colors[position], attrs)
            if key not in drawn:  # a corpus repeats its tokens: draw each look once
                drawn[key] = chip_html(
                    piece, colors[position], end_of_word=end_of_word, attrs=attrs, title=origins.get(piece.token_id, ""),
                    breaks=False, data_id=False,
                )
            parts.append(drawn[key])
            if position in numbers:  # the counting lab's badges: solid replaced, dashed counted only
                kind, what = (
                    ("replaced", "counted and replaced by the merge") if position in marks.replaced
                    else ("overlap", "counted, but overlaps the one before, so not replaced")
                )
                # subtle: the number is drawn by CSS (data-n), so the corpus's text stays the corpus's
                parts.append(
                    f'<span class="bpe-join bpe-join-{kind}" title="occurrence {numbers[position]}: {what}" '
                    f'data-n="{numbers[position]}"></span>'
                )
            if breaks := line_breaks(piece):
                # subtle: outside the word's inline-flex box, where a <br> would stretch the chip to
                # two lines tall over the next line instead of ending the line
                parts.append(breaks if single else f'</span>{breaks}<span class="bpe-word">')
        start += len(chunk.ids)
        if not single:
            parts.append("</span>")
        out.append("".join(parts))
    return out


@dataclass(frozen=True, slots=True)
class Layer:
    """One moment of the corpus: chunks with their pieces, the marks, and its legend."""

    chunks: Sequence[Chunk]
    pieces: Sequence[Piece]
    legend: str
    """HTML (the builder escapes what it puts in)."""
    marks: PairMarks | None = None
    origins: Mapping[int, str] | None = None
    """More hover text per token id."""


def _layer_body(layer: Layer, words: Sequence[tuple[str, int]] | None, total_words: int, eow: str | None) -> str:
    cells = layer_html(layer.chunks, layer.pieces, layer.marks, end_of_word=eow, origins=layer.origins)
    if words is not None:  # a word table: one row per word, its segmentation in the last cell
        return word_cells_html([(word, count, cell) for (word, count), cell in zip(words, cells)], rows=total_words)
    return f'<div class="bpe-tokens">{"".join(cells)}</div>'


def merge_view_html(
    *, before: Layer | None, after: Layer | None, step: int, end_of_word: str | None = None,
    words: Sequence[tuple[str, int]] | None = None, total_words: int = 0, reading: bool = False,
    hold_before: bool = False,
) -> str:
    """The corpus block: the "before" layer, the "after" layer, or both with a switch between them.

    With both, "before" shows for a moment and then "after" (``hold_before``: "before" stays).

    ``words``: for a word table, the ``(word, count)`` of each chunk (one chunk per word).
    ``reading``: add a "Reads as" line (Wikipedia-style names) under each layer.
    """
    layers = [(name, layer) for name, layer in (("before", before), ("after", after)) if layer is not None]
    body = []
    for name, layer in layers:
        reads = (
            f'<p class="bpe-reads-as">Reads as <b><code>{html.escape(segmentation_text(layer.pieces))}</code></b></p>'
            if reading else ""
        )
        body.append(
            f'<div class="bpe-layer bpe-{name}">{_layer_body(layer, words, total_words, end_of_word)}{reads}'
            f'<p class="bpe-legend">{layer.legend}</p></div>'
        )
    switch = ""
    checked = (" checked", "") if hold_before else ("", " checked")
    if len(layers) == 2:
        switch = (
            f'<input type="radio" class="bpe-pick bpe-pick-before" name="bpe-moment" id="bpe-moment-before"{checked[0]}>'
            f'<label for="bpe-moment-before" class="bpe-pick-first">Before merge {step:,}</label>'
            f'<input type="radio" class="bpe-pick bpe-pick-after" name="bpe-moment" id="bpe-moment-after"{checked[1]}>'
            f'<label for="bpe-moment-after" class="bpe-pick-last">After merge {step:,}</label>'
        )
    animate = " bpe-animate" if len(layers) == 2 and not hold_before else ""
    # The corpus scrolls inside its panel on a small screen: a focusable, named region lets a
    # keyboard user scroll it with the arrow keys (only some browsers make scrollers focusable).
    region = 'role="region" aria-label="The corpus" tabindex="0"'
    return f'<div class="bpe-merge-view{animate}">{switch}<div class="bpe-layers" {region}>{"".join(body)}</div></div>'


def before_legend(marks: PairMarks, pair: str, merge: int) -> str:
    """The "before" layer's key, with the counts of what is drawn (HTML, ``pair`` escaped here).

    >>> from bpe.views.occurrences import mark_pairs
    >>> legend = before_legend(mark_pairs([Chunk((97, 97, 97, 97))], chosen=(97, 97), ranked=[]), "a + a", 1)
    >>> "the 2 places merge 1 replaces" in legend, "1 more counted but not replaced" in legend
    (True, True)
    """
    counted, replaced = len(marks.counted), len(marks.replaced)
    spelled = html.escape(pair)
    legend = (
        f'<span class="bpe-join bpe-join-replaced" data-n="1"></span> {spelled}: the {replaced:,} places merge {merge:,} replaces'
    )
    if counted > replaced:
        legend += (
            f' · <span class="bpe-join bpe-join-overlap" data-n="2"></span> {counted - replaced:,} more counted but not '
            f"replaced (each overlaps the one before): {counted:,} counted in all"
        )
    return legend + ". Hover a bar of the chart, or hover or tap a tied pair, to mark its places."
