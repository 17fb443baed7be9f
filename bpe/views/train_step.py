"""The Train page's step, built as plain HTML strings: the corpus around merge k, and what stopped training.

Each builder is a pure function of (trace, corpus, step, names), so a page can cache what a step
draws on those values, and tests need no Streamlit.

At step k (k >= 1) the corpus block holds two moments of the drawn text: *before* merge k (the
tokenizer after k - 1 merges, each occurrence of merge k's pair numbered, the chart's pairs
linked for hover) and *after* it (the new tokens outlined). At step 0 it holds only the first:
the corpus before any merge, with merge 1's pair numbered.

    >>> from bpe.training.presets import PRESETS
    >>> from bpe.training.trainer import train
    >>> trace = train(PRESETS["sennrich"].corpus(), PRESETS["sennrich"].settings)
    >>> block = corpus_block(trace, text=PRESETS["sennrich"].corpus_text, step=0)
    >>> block.count('bpe-join-replaced" title="occurrence'), "bpe-after" in block   # the 9 places of s + t, no "after" yet
    (9, False)
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence

from ..encoding.tokenizer import Tokenizer
from ..notation.spelling import spelled
from ..training.trace import PairCount, Trace
from .corpus_window import WINDOW_TOKENS, step_window
from .merge_html import Layer, before_legend, merge_view_html
from .occurrences import Chunk, chunks_of, mark_pairs, merged
from .pointer import hover_or_tap
from .stats import drawn_tokens_note
from .token_html import pieces_for

AFTER_LEGEND = (
    "Each box is one token; <b>bold with a thick outline</b> = made by this merge. · is a space, ↵ a newline, "
    "→ a tab, ‹e2 82› bytes that are only part of a character. "
    + hover_or_tap("Hover a token for its id, its bytes and the merge that made it.", "")
)


def _chunks(
    trace: Trace, step: int, *, text: str | None, table: Sequence[tuple[str, int]] | None, tokenizer: Tokenizer | None,
) -> list[Chunk]:
    if table is not None:  # a word table: each word whole, as it was trained
        tokenizer = Tokenizer.from_trace(trace, step=step, pretokenizer="none")
        return [Chunk(tuple(tokenizer.encode_ordinary(word))) for word, _ in table]
    return chunks_of(tokenizer or Tokenizer.from_trace(trace, step=step), text or "")


def _pieces(trace: Trace, chunks: Sequence[Chunk], names: Mapping[int, str], *, new_id: int | None = None):
    ids = [token_id for chunk in chunks for token_id in chunk.ids]
    return pieces_for(ids, trace.tokens, special_ids=list(trace.special_ids.values()), new_id=new_id, names=names)


def _origins(trace: Trace, pieces, names: Mapping[int, str]) -> dict[int, str]:
    """`` · made by merge 3: o + w`` for each learned token drawn (base and special tokens: nothing)."""
    origins = {}
    for piece in pieces:
        made = trace.created_at(piece.token_id) if piece.token_id not in origins else None
        if made is not None:
            origins[piece.token_id] = (
                f" · made by merge {made.step:,}: {spelled(trace, made.left, names)} + {spelled(trace, made.right, names)}"
            )
    return origins


def _count_note(
    trace: Trace, step: int, chunks: Sequence[Chunk], *, whole: bool, word_table: bool, moment: str
) -> str:
    special_ids = set(trace.special_ids.values())
    return html.escape(drawn_tokens_note(
        drawn=sum(len(chunk.ids) for chunk in chunks),
        trained=sum(len(chunk.ids) for chunk in chunks if chunk.trained),
        special=sum(1 for chunk in chunks for token_id in chunk.ids if token_id in special_ids),
        tokens_in_corpus=trace.tokens_after(step), whole=whole, word_table=word_table, moment=moment,
    ))


def corpus_block(
    trace: Trace, *, text: str | None = None, table: Sequence[tuple[str, int]] | None = None, step: int,
    names: Mapping[int, str] | None = None, whole: bool = True, hold_before: bool = False,
    tokenizer_before: Tokenizer | None = None,
) -> str:
    """The corpus before and after merge ``step`` (see the module docstring) as one HTML block.

    ``text`` is the drawn text (``whole``: all of the corpus), or ``table`` the word table;
    ``tokenizer_before``: the tokenizer before merge ``step``, for ``text``, if the caller has it.
    ``hold_before``: keep showing "before" (the learner pressed B) instead of moving on to "after".
    """
    names = names or {}
    word_table = table is not None
    before_step = max(step - 1, 0)
    chunks = _chunks(trace, before_step, text=text, table=table, tokenizer=tokenizer_before)
    pieces = _pieces(trace, chunks, names)
    moment = f"Before merge {step:,}: " if step else "Before any merge: "
    note = _count_note(trace, before_step, chunks, whole=whole, word_table=word_table, moment=moment)
    if trace.steps:
        merge = trace.steps[max(step, 1) - 1]
        marks = mark_pairs(
            chunks, chosen=(merge.left, merge.right), ranked=[(pair.left, pair.right) for pair in merge.top_pairs]
        )
        pair = f"{spelled(trace, merge.left, names)} + {spelled(trace, merge.right, names)}"
        before = Layer(
            chunks, pieces, f"{before_legend(marks, pair, merge.step)} {note}", marks, _origins(trace, pieces, names),
        )
    else:
        before = Layer(chunks, pieces, f"{AFTER_LEGEND} {note}")
    after = None
    if step:
        merge = trace.steps[step - 1]
        chunks = merged(chunks, (merge.left, merge.right), merge.new_id)
        note = _count_note(trace, step, chunks, whole=whole, word_table=word_table, moment=f"After merge {step:,}: ")
        pieces = _pieces(trace, chunks, names, new_id=trace.steps[step - 1].new_id)
        after = Layer(chunks, pieces, f"{AFTER_LEGEND} {note}", origins=_origins(trace, pieces, names))
    return merge_view_html(
        before=before, after=after, step=step, end_of_word=trace.settings.end_of_word,
        words=list(table) if word_table else None, total_words=len(table) if word_table else 0, reading=bool(names),
        hold_before=hold_before,
    )


def window_block(
    trace: Trace, text: str, starts: Sequence[int], *, step: int, tokens: int = WINDOW_TOKENS,
    names: Mapping[int, str] | None = None, hold_before: bool = False,
) -> tuple[str, bool]:
    """:func:`corpus_block` of the part of ``text`` around merge ``step``'s first place (about
    ``tokens`` tokens of whole chunks, :mod:`bpe.views.corpus_window`), with a line saying which
    part it is, and whether it is a part (not the whole text). ``starts``:
    :func:`~bpe.views.corpus_window.chunk_starts` of ``text``.

    >>> from bpe.training.presets import PRESETS
    >>> from bpe.text.pretokenize import Pretokenizer
    >>> from bpe.training.trainer import train
    >>> from bpe.views.corpus_window import chunk_starts
    >>> from dataclasses import replace
    >>> preset = PRESETS["python-docs"]
    >>> trace = train(preset.corpus(), replace(preset.settings, merges=30))
    >>> starts = chunk_starts(preset.corpus_text, Pretokenizer.parse(trace.settings.pretokenizer), ())
    >>> block, _ = window_block(trace, preset.corpus_text, starts, step=30)
    >>> "around merge 30&#x27;s first place" in block, 300 < block.count('class="bpe-tok') < 500  # two moments
    (True, True)
    """
    tokenizer_before = Tokenizer.from_trace(trace, step=max(step - 1, 0))  # one build for the window and the block
    start, end = step_window(trace, text, starts, step, tokens=tokens, tokenizer_before=tokenizer_before)
    whole = (start, end) == (0, len(text))
    block = corpus_block(
        trace, text=text[start:end], step=step, names=names, whole=whole, hold_before=hold_before,
        tokenizer_before=tokenizer_before,
    )
    if whole:
        return block, False
    where = f"merge {max(step, 1):,}'s first place" if trace.steps else "the start"
    return block + (
        f'<p class="bpe-legend bpe-window-note">Showing characters {start + 1:,} to {end:,} of {len(text):,}, '
        f"around {html.escape(where)}.</p>"
    ), True


def stop_html(trace: Trace, pairs: Sequence[PairCount], names: Mapping[int, str] | None = None) -> str:
    """What stopped training, with the best pair counts after the last merge (the counts the stop
    rule saw), for the last step.

    >>> from bpe.training.presets import PRESETS
    >>> from bpe.training.trainer import train
    >>> trace = train(PRESETS["wikipedia"].corpus(), PRESETS["wikipedia"].settings)
    >>> print(stop_html(trace, [PairCount(258, 100, 1)]))
    <p class="bpe-stop"><b>After the last merge</b> the best pair is aaab + d (once). Training stopped: ...
    """
    names = names or {}
    counts = ", ".join(
        f"{html.escape(spelled(trace, pair.left, names))} + {html.escape(spelled(trace, pair.right, names))} "
        f"({'once' if pair.count == 1 else f'{pair.count:,} times'})"
        for pair in pairs
    )
    best = (
        f"the best pair{' is' if len(pairs) == 1 else 's are'} {counts}" if pairs else "no pair of tokens is left"
    )
    return (
        f'<p class="bpe-stop"><b>After the last merge</b> {best}. Training stopped: {html.escape(trace.stop_detail)}.</p>'
    )
