"""The Encode page's lessons on applying merges: one text cut three ways, where each token starts,
what left to right would make of a chunk, and ids decoded one at a time as a model streams them.

Scope: pure builders (escaped HTML and DataFrames) from the engine's records:
:func:`~bpe.encoding.segmentation.segment` (BPE's own, fewest tokens, longest match), ``decode_with_offsets``,
the left-to-right merge loop of :mod:`bpe.checking.encode_rules`, and
:func:`~bpe.encoding.offsets.stream_steps`. Out of scope: computing them, and Streamlit (``ui.encode_lessons``
and ``ui.decoding`` compose these).

    >>> from bpe.pretrained.registry import load_pretrained
    >>> from bpe.encoding.segmentation import segment
    >>> gpt2 = load_pretrained("gpt2")
    >>> page = segmentations_html(gpt2, segment(gpt2, " recursively"))
    >>> "3 tokens" in page, "2 tokens (1 fewer)" in page, page.count('class="bpe-differs"')   # ·recursive, ly twice
    (True, True, 4)
"""

from __future__ import annotations

import html
from collections.abc import Sequence

import pandas as pd

from ..checking.encode_rules import merge_left_to_right
from ..encoding.offsets import stream_steps
from ..encoding.segmentation import SEGMENTATIONS, ChunkCut, TokenPieces, token_counts
from ..encoding.tokenizer import ChunkWalk, Tokenizer
from ..errors import BpeError
from ..notation.spelling import visible_text
from .palette import assign_colors
from .token_html import chip_html, chips_html, pieces_for

SEGMENT_CSS = """
<style>
.bpe-segments { border-collapse: collapse; width: 100%; }
.bpe-segments th, .bpe-segments td { text-align: left; vertical-align: top; padding: .35em .6em; border-bottom: 1px solid #ddd; }
.bpe-segments th { width: 15em; font-weight: 600; }
.bpe-segments th span { display: block; font-weight: 400; color: #444; font-size: .9em; }
.bpe-differs > .bpe-tok { outline: 2.5px dashed #B34700; outline-offset: 1px; }
@media (max-width: 640px) {  /* a phone: each way's name above its tokens */
  .bpe-segments th, .bpe-segments td { display: block; width: auto; border-bottom: none; padding-bottom: 0; }
}
</style>
"""
SHOWN_SEGMENT_TOKENS = 400
"""Tokens drawn per segmentation (all of them are counted)."""
WHY_BPE = (
    "Why a model must be fed BPE's own: it learned from text cut by exactly these merges, so it has seen each "
    "word cut one way. A cut with fewer tokens is shorter, but the model never saw those ids in that order and "
    "reads it worse; fewest-token encoding was proposed to tiktoken, minbpe and nanochat (about 0.5 % fewer "
    "tokens) and refused for that reason. Longest match is what a dictionary-based tokenizer (WordPiece) does; "
    "with BPE's merges it can even need more tokens."
)
LEFT_TO_RIGHT = "left to right would give"
WALK_RULE = (
    "The pre-tokenizer cuts the text into chunks. Inside each chunk the rule is: the merge learned earliest "
    "(the lowest rank) first, at every place it occurs, left to right; then the next one; until no pair of the "
    "chunk was ever merged. Not the first pair met from the left: that makes other tokens (show it below)."
)
STREAM_COLUMNS = ("id", "its bytes", "decoded alone", "the buffered decoder adds", "held back")


def _spans(pieces: TokenPieces, ids: Sequence[int]) -> list[tuple[int, int]]:
    spans, position = [], 0
    for token_id in ids:
        length = pieces.length.get(token_id, 1)
        spans.append((position, position + length))
        position += length
    return spans


def segmentations_html(tokenizer: Tokenizer, chunks: Sequence[ChunkCut], *, limit: int = SHOWN_SEGMENT_TOKENS) -> str:
    """One row of chips per segmentation, each with its token count; a token BPE does not make at that
    place has a dashed outline (and says so on hover)."""
    pieces = TokenPieces.of(tokenizer)
    tokens, specials = tokenizer.tokens, list(tokenizer.special_tokens.values())
    counts = token_counts(chunks)
    rows = []
    for name, entry in SEGMENTATIONS.items():
        marked: list[tuple[int, bool]] = []  # (token id, BPE does not make it here), the first ``limit``
        for chunk in chunks:
            own = set(_spans(pieces, chunk.ids["bpe"]))
            marked += [(token_id, span not in own) for token_id, span in zip(chunk.ids[name], _spans(pieces, chunk.ids[name]))]
            if len(marked) >= limit:
                break
        marked = marked[:limit]
        chips = []
        for (token_id, differs), piece, color in zip(marked, pieces_for([t for t, _ in marked], tokens, special_ids=specials),
                                                      assign_colors([t for t, _ in marked])):
            chip = chip_html(piece, color, end_of_word=tokenizer.end_of_word,
                             title=" · BPE does not make this token here" if differs else "")
            chips.append(f'<span class="bpe-differs">{chip}</span>' if differs else chip)
        shown = len(chips)
        more = counts[name] - counts["bpe"]
        delta = "" if name == "bpe" or not more else f" ({abs(more):,} {'fewer' if more < 0 else 'more'})"
        cut = f'<p class="bpe-legend">… the first {shown:,} tokens of {counts[name]:,}</p>' if shown < counts[name] else ""
        rows.append(f'<tr><th scope="row">{html.escape(entry.title)}<span>{counts[name]:,} tokens{delta}: '
                    f"{html.escape(entry.summary)}</span></th>"
                    f'<td><div class="bpe-tokens">{"".join(chips)}</div>{cut}</td></tr>')
    return f'{SEGMENT_CSS}<table class="bpe-segments"><tbody>{"".join(rows)}</tbody></table>'


def left_to_right_row(tokenizer: Tokenizer, walk: ChunkWalk) -> str:
    """One walkthrough row: what merging the first known pair met, again and again, makes of the
    chunk, and whether that is what BPE made (escaped)."""
    if walk.kind == "special" or not walk.merges:
        return ""  # no pair of the chunk has a merge: left to right finds none either
    ids = merge_left_to_right(TokenPieces.of(tokenizer), list(walk.initial))
    same = tuple(ids) == walk.ids
    verdict = "the same tokens" if same else f"{len(ids)} tokens, not BPE's {len(walk.ids)}"
    chips = chips_html(pieces_for(ids, tokenizer.tokens, special_ids=list(tokenizer.special_tokens.values())),
                       end_of_word=tokenizer.end_of_word, wrap=False)
    return (f'<tr class="bpe-left-to-right"><td class="bpe-what">{LEFT_TO_RIGHT} ({html.escape(verdict)})</td>'
            f'<td class="bpe-tokens">{chips}</td></tr>')


def offsets_frame(tokenizer: Tokenizer, ids: Sequence[int], *, limit: int = 200) -> pd.DataFrame:
    """Each token, its id and the character it starts at (``decode_with_offsets``), with the text from
    there; a token that starts inside a character shares that character's offset."""
    ids = list(ids[:limit])
    while ids:
        try:
            text, offsets = tokenizer.decode_with_offsets(ids)
            break
        except BpeError:  # the first ``limit`` ids end inside a character: one fewer
            ids.pop()
    else:
        text, offsets = "", []
    tokens = tokenizer.tokens
    rows = [{"token": visible_text(tokens[token_id].data, tokenizer.end_of_word, tokens[token_id].ends_word), "id": token_id,
             "starts at character": offset, "the text from there": visible_text(text[offset:offset + 16].encode("utf-8"))}
            for token_id, offset in zip(ids, offsets)]
    return pd.DataFrame(rows, columns=["token", "id", "starts at character", "the text from there"])


def stream_frame(tokenizer: Tokenizer, ids: Sequence[int], *, limit: int = 40) -> pd.DataFrame:
    """The first ``limit`` ids streamed one at a time: each decoded alone (``�`` for part of a
    character) and what a buffered decoder adds (nothing while it holds the bytes)."""
    rows = [{"id": step.token_id, "its bytes": step.data.hex(" "), "decoded alone": visible_text(step.naive.encode("utf-8")),
             "the buffered decoder adds": visible_text(step.shown.encode("utf-8")) if step.shown else "(nothing yet)",
             "held back": step.held.hex(" ") or "—"}
            for step in stream_steps(tokenizer, ids[:limit])]
    return pd.DataFrame(rows, columns=list(STREAM_COLUMNS))


def splits_a_character(tokenizer: Tokenizer, ids: Sequence[int], *, limit: int = 40) -> bool:
    """Whether streaming the first ``limit`` ids makes the naive decoder show a ``�`` the text does not hold."""
    return any(step.held for step in stream_steps(tokenizer, ids[:limit]))
