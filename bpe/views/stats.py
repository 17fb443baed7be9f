"""A row of headline numbers (label, value, change) drawn as one block of HTML.

Streamlit's ``st.metric`` makes each number an element of its own, and the browser redraws every
element of the step view on every step; one row of HTML looks the same and costs one element.
A change is green when it is good news and red when it is bad, whatever its sign: fewer tokens
in the corpus is good, so "-4" there is green.

    >>> print(stats_html([Stat("Step", "3 of 9"), Stat("Tokens", "120", change="-4", good=True)]))
    <div class="bpe-stats"><div class="bpe-stat"><div class="bpe-stat-label">Step</div>...
    >>> "bpe-good" in stats_html([Stat("Tokens", "120", change="-4", good=True)])
    True

:func:`step_stats` gives the Train page's four numbers for a step of a trace:

    >>> from bpe.training.presets import PRESETS
    >>> from bpe.training.trainer import train
    >>> trace = train(PRESETS["sennrich"].corpus(), PRESETS["sennrich"].settings)
    >>> [(stat.label, stat.value, stat.change) for stat in step_stats(trace, 3)]  # doctest: +NORMALIZE_WHITESPACE
    [('Step', '3 of 10', None), ('Vocabulary', '259', '+1'), ('Tokens in corpus', '70', '-7'),
     ('Bytes per token', '1.36', None)]
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass

from ..training.trace import STOP_MERGES, STOP_VOCAB_SIZE, Trace

STATS_CSS = """
<style>
.bpe-stats { display: flex; flex-wrap: wrap; gap: .4em 2.5em; margin: .2em 0 .8em 0; }
.bpe-stat-label { font-size: .875rem; color: #555; }
.bpe-stat-value { font-size: 2rem; line-height: 1.25; }
.bpe-stat-change { font-size: .875rem; font-weight: 600; }
.bpe-stat-change.bpe-good { color: #0B7A3E; }
.bpe-stat-change.bpe-bad { color: #B3261E; }
.bpe-stat-change.bpe-neutral { color: #555; }
</style>
"""


@dataclass(frozen=True, slots=True)
class Stat:
    label: str
    value: str
    change: str | None = None
    """Shown under the value, e.g. ``"+1"``; ``None`` for no change line."""
    good: bool | None = None
    """Colours the change: ``True`` green, ``False`` red, ``None`` grey."""


def stats_html(stats: Sequence[Stat]) -> str:
    """One flex row of stats; every string is escaped."""
    cells = []
    for stat in stats:
        change = ""
        if stat.change is not None:
            tone = {True: "bpe-good", False: "bpe-bad", None: "bpe-neutral"}[stat.good]
            change = f'<div class="bpe-stat-change {tone}">{html.escape(stat.change)}</div>'
        cells.append(
            f'<div class="bpe-stat"><div class="bpe-stat-label">{html.escape(stat.label)}</div>'
            f'<div class="bpe-stat-value">{html.escape(stat.value)}</div>{change}</div>'
        )
    return f'<div class="bpe-stats">{"".join(cells)}</div>'


def per_token(trace: Trace, step: int) -> tuple[str, float]:
    """``("bytes per token", 1.36)``: the starting symbols each token stands for after ``step`` merges.

    A char run counts characters, a byte run bytes. An end-of-word marker is one more starting
    symbol per word, so it counts as one character (or byte): at step 0 the figure is then exactly
    1.00 rather than the 0.83 that bytes over tokens gave with ``</w>``, unexplained.

    >>> from bpe.training.presets import PRESETS
    >>> from bpe.training.trainer import train
    >>> per_token(train(PRESETS["hf-course"].corpus(), PRESETS["hf-course"].settings), 0)
    ('characters per token', 1.0)
    """
    after = trace.tokens_after(step)
    if trace.start is not None:  # a continued run starts from the old tokens, not from one per symbol
        return "bytes per token", (trace.corpus_bytes / after if after else 0.0)
    unit = "byte" if trace.settings.unit == "byte" else "character"
    return f"{unit}s per token", (trace.initial_tokens / after if after else 0.0)


def marker_note(trace: Trace) -> str | None:
    """What the per-token figure counts the end-of-word marker as, if there is one."""
    marker = trace.settings.end_of_word
    unit = "byte" if trace.settings.unit == "byte" else "character"
    return f"each {marker} counts as one {unit}" if marker else None


def early_stop(trace: Trace) -> str | None:
    """``"stopped after 12 of the 30 merges asked for: ..."`` when training ended before the
    requested merges (or vocabulary size); ``None`` when it got them all."""
    if trace.stop_reason in (STOP_MERGES, STOP_VOCAB_SIZE):
        return None
    asked = trace.settings.target_merges(len(trace.base))
    done = len(trace.steps)
    return f"Training stopped after {done:,} of the {asked:,} merges asked for: {trace.stop_detail}."


def step_stats(trace: Trace, step: int) -> list[Stat]:
    """Step, vocabulary size, tokens in the corpus and symbols per token after ``step`` merges,
    with the change the step made (fewer tokens is good news).

    "Tokens in corpus" has one definition on the page: the tokens of the words training counted
    pairs in (each word times its count). The drawn corpus says how its own count differs
    (:func:`drawn_tokens_note`)."""
    before, after = trace.tokens_before(step) if step else trace.initial_tokens, trace.tokens_after(step)
    label, value = per_token(trace, step)
    asked = trace.settings.target_merges(len(trace.base))
    stopped = f"stopped early: {asked:,} merges were asked for" if early_stop(trace) else None
    return [
        Stat("Step", f"{step:,} of {len(trace.steps):,}", change=stopped, good=None),
        Stat("Vocabulary", f"{trace.vocab_size(step):,}", change="+1" if step else None),
        Stat("Tokens in corpus", f"{after:,}", change=f"{after - before:+,}" if step else None, good=after <= before),
        Stat(label.capitalize(), f"{value:.2f}" if after else "–", change=marker_note(trace)),
    ]


def drawn_tokens_note(
    *, drawn: int, trained: int, special: int, tokens_in_corpus: int, whole: bool, word_table: bool, moment: str = "",
) -> str:
    """How the drawn corpus's token count relates to "Tokens in corpus" (the training words).
    ``moment`` (e.g. ``"Before merge 3: "``) says which step the count belongs to.

    >>> drawn_tokens_note(drawn=41, trained=39, special=2, tokens_in_corpus=39, whole=True, word_table=False)
    '41 tokens drawn: 39 in the training words (the "Tokens in corpus" figure) + 2 special tokens.'
    >>> drawn_tokens_note(drawn=95, trained=16, special=0, tokens_in_corpus=16, whole=True, word_table=False)
    '95 tokens drawn: 16 in the training words (the "Tokens in corpus" figure) + 79 in text the pre-tokenizer leaves out (never trained on).'
    """
    return moment + _drawn_note(drawn, trained, special, tokens_in_corpus, whole, word_table)


def _drawn_note(drawn: int, trained: int, special: int, tokens_in_corpus: int, whole: bool, word_table: bool) -> str:
    if word_table:
        return (
            f"{drawn:,} tokens drawn: each distinct word once. \"Tokens in corpus\" ({tokens_in_corpus:,}) "
            "counts every word as often as the table says."
        )
    parts = []
    if special:
        parts.append(f"{special:,} special token{'s' if special != 1 else ''}")
    if drawn - trained - special:
        parts.append(f"{drawn - trained - special:,} in text the pre-tokenizer leaves out (never trained on)")
    where = (
        '(the "Tokens in corpus" figure)' if whole
        else f'(of the {tokens_in_corpus:,} of the whole corpus, the "Tokens in corpus" figure)'
    )
    if not parts and whole:
        return f'{drawn:,} tokens drawn, as "Tokens in corpus" counts them.'
    return f"{drawn:,} tokens drawn: {trained:,} in the training words {where}" + "".join(f" + {part}" for part in parts) + "."
