"""Which part of a long corpus a Train step draws: whole chunks around where the merge happened.

Why: the browser redraws the corpus at every step, so drawing a fixed excerpt made a step of a real
corpus cost what the excerpt cost (a real corpus's excerpt drew several times the toy's elements,
and drawing them was most of the click's time), and the excerpt was the corpus's first page whether or not merge k happened
there. A window of about :data:`WINDOW_CHARS` characters around the merge's first place costs the
same at every step of every corpus, and always shows the merge at work. The rest of the corpus is
a "show more" away (a wider window) on the page.

The window is cut between chunks of the run's own split (pre-tokenizer pieces and special tokens,
:func:`chunk_starts`), so its chips are exactly the whole corpus's chips there: merges never cross
a chunk. Under the ``none`` split the corpus is one chunk and a window is an approximation at its
two edges, as any excerpt of it is.

    >>> from bpe.text.pretokenize import Pretokenizer
    >>> text = "low lower newest widest " * 100
    >>> starts = chunk_starts(text, Pretokenizer.parse("gpt2"), ())
    >>> starts[:4]
    [0, 3, 9, 16]
    >>> window = merge_window(text, starts, "est", chars=40, is_place=lambda start, end: True)
    >>> window, text[window[0]:window[1]]      # "est" is first in " newest": the window opens a chunk before
    ((3, 47), ' lower newest widest low lower newest widest')

Scope: where to cut. Out of scope: drawing (``train_step``) and how wide a window the page asks for.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Sequence

from ..encoding.tokenizer import Tokenizer
from ..text.pretokenize import Pretokenizer, special_token_pattern, split_special
from ..training.trace import Trace

WINDOW_TOKENS = 200
"""Tokens a step draws by default, per moment (before and after the merge): more than the corpus
panel shows at once on a laptop or a projector, so it is full and scrolls. Every drawn token costs
elements (its chip, a word box, a whitespace mark), each sanitised, laid out and painted at every
step: the window is what keeps a real corpus's step near the toy's cost
(``benchmarks/browser_step_latency.py`` measures both)."""
MAX_WINDOW_TOKENS = 6_400
"""The widest window "show more" offers (four times wider at each press): a few pages of text."""
WINDOW_CHARS = 1_000
"""The characters of a window where no step says how long its tokens are."""

MAX_TRIES = 40
"""Text matches of the new token checked for a real place of the pair before giving up (a match
can be inside a longer token made earlier); each check encodes one chunk."""


def chunk_starts(text: str, pretokenizer: Pretokenizer, special_tokens: Sequence[str]) -> list[int]:
    """The offset where each chunk of ``text`` starts: pre-tokenizer pieces (gaps included) and
    special tokens, as encoding cuts the text. A page computes it once per run."""
    starts, position = [], 0
    for piece, is_special in split_special(text, special_token_pattern(list(special_tokens))):
        for chunk, _ in [(piece, True)] if is_special else pretokenizer.split(piece):
            starts.append(position)
            position += len(chunk)
    return starts


def run_chunk_starts(text: str, trace: Trace) -> list[int]:
    """The offsets where a window of ``trace``'s corpus may be cut: chunk starts of every split the run
    used (both of a two-stage run's: SuperBPE's second split is not a coarser first one, it cuts
    digits in threes), so a window's chips are the whole corpus's at every step."""
    settings = trace.settings
    specs = dict.fromkeys((settings.pretokenizer, settings.split_after(len(trace.steps))))
    found = [chunk_starts(text, Pretokenizer.parse(spec), settings.special_tokens) for spec in specs]
    return sorted(set(found[0]).intersection(*found[1:]))


def merge_window(
    text: str, starts: Sequence[int], needle: str, *, chars: int = WINDOW_CHARS,
    is_place: Callable[[int, int], bool],
) -> tuple[int, int]:
    """``(start, end)`` of about ``chars`` characters of whole chunks, opening a little before the
    first chunk where ``needle`` (the merged token's text) stands and ``is_place(chunk start,
    chunk end)`` confirms the pair is really there; the start of the text if none is found."""
    if len(text) <= chars:
        return 0, len(text)
    place = _first_place(text, starts, needle, is_place) if needle else None
    # a few words before the first place: the place is on the first lines of the panel
    begin = 0 if place is None else starts[bisect_right(starts, max(place - chars // 25, 0)) - 1]
    after = bisect_right(starts, begin + chars)
    end = starts[after] if after < len(starts) else len(text)
    if end - begin > 2 * chars:  # one giant chunk (the ``none`` split): cut it, at a space if one is near
        space = text.rfind(" ", begin + chars // 2, begin + chars)
        end = space if space > begin else begin + chars
    return begin, end


def _first_place(text: str, starts: Sequence[int], needle: str, is_place: Callable[[int, int], bool]) -> int | None:
    found = text.find(needle)
    for _ in range(MAX_TRIES):
        if found < 0:
            return None
        index = bisect_right(starts, found) - 1
        end = starts[index + 1] if index + 1 < len(starts) else len(text)
        if found + len(needle) <= end and (end - starts[index] > 2 * WINDOW_CHARS or is_place(starts[index], end)):
            return starts[index] if end - starts[index] <= 2 * WINDOW_CHARS else found  # a giant chunk: the match
        found = text.find(needle, max(end, found + 1))
    return None


def step_window(
    trace: Trace, text: str, starts: Sequence[int], step: int, *, tokens: int = WINDOW_TOKENS,
    tokenizer_before: Tokenizer | None = None,
) -> tuple[int, int]:
    """The window for step ``step`` of the Train page: about ``tokens`` tokens around the first
    place of merge ``step`` (of merge 1 at step 0), where the "before" moment numbers the pair's
    places. Its length in characters follows the corpus's characters per token at that step, so
    a step draws about as many chips at merge 1 as at merge 2,000. ``tokenizer_before``: the tokenizer
    before merge ``step`` (``Tokenizer.from_trace(trace, step=max(step - 1, 0))``), if the caller has it.

    >>> from bpe.training.presets import PRESETS
    >>> from bpe.training.trainer import train
    >>> from dataclasses import replace
    >>> preset = PRESETS["python-docs"]
    >>> trace = train(preset.corpus(), replace(preset.settings, merges=40))
    >>> starts = chunk_starts(preset.corpus_text, Pretokenizer.parse(trace.settings.pretokenizer), ())
    >>> start, end = step_window(trace, preset.corpus_text, starts, 40)
    >>> trace.token_text(trace.steps[39].new_id) in preset.corpus_text[start:end], 250 < end - start < 550
    (True, True)
    """
    before = trace.tokens_after(max(step - 1, 0))
    chars = round(tokens * trace.initial_tokens / before) if before else WINDOW_CHARS
    if not trace.steps:
        return merge_window(text, starts, "", chars=chars, is_place=lambda start, end: False)
    merge = trace.steps[max(step, 1) - 1]
    tokenizer = tokenizer_before or Tokenizer.from_trace(trace, step=merge.step - 1)
    pair = (merge.left, merge.right)

    def is_place(start: int, end: int) -> bool:
        ids = tokenizer.encode(text[start:end], allowed_special="all")
        return any(two == pair for two in zip(ids, ids[1:]))

    needle = trace.tokens[merge.new_id].data.decode("utf-8", errors="ignore")
    return merge_window(text, starts, needle, chars=chars, is_place=is_place)
