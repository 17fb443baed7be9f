"""A trained run of each kind a file format can hold, for tests that go over every format of the
registry (``bpe.formats.FORMATS``): each format gets the first run it can hold, so a new format is
tested with no edit, and one that holds none of them fails, naming itself.

The kinds: bytes (Wikipedia's example, what minbpe, Hugging Face, tiktoken and GPT-2's files hold),
characters with the end-of-word marker glued to the last one (subword-nmt's codes), and
SentencePiece's characters with ``▁`` for a space (its ``.model``).
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

from bpe import PRESETS, Corpus, Tokenizer, Trace, TrainSettings, train
from bpe.formats.common import TokenizerFormat


@lru_cache(maxsize=None)
def sample_runs() -> tuple[Trace, ...]:
    paper = PRESETS["sennrich-paper"]
    return (
        train(PRESETS["wikipedia"].corpus(), PRESETS["wikipedia"].settings),
        train(paper.corpus(), replace(paper.settings, pretokenizer="space", end_of_word_mode="attached")),
        train(Corpus.from_text("low lower lowest newest", pretokenizer="sentencepiece"), TrainSettings(
            unit="char", pretokenizer="sentencepiece", tie_break="sentencepiece", merges=5)),
    )


def run_held_by(entry: TokenizerFormat) -> Trace:
    """The first of :func:`sample_runs` that ``entry`` can hold."""
    for run in sample_runs():
        if entry.export_problem(Tokenizer.from_trace(run)) is None:
            return run
    raise AssertionError(f"format {entry.name!r} holds none of the runs in tests/format_samples.py: add one it can hold")
