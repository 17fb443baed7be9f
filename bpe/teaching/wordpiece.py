"""WordPiece's lesson on the Hugging Face course's words: its merges by score, in the course's notation.

The course trains WordPiece on ("hug", 10), ("pug", 5), ("pun", 12), ("bun", 4), ("hugs", 5) and
writes a token that continues a word with ``##`` (``h ##u ##g``). A WordPiece run here is the same
trainer with the ``wordpiece`` objective (:mod:`bpe.training.score_choice`, which says why ``##`` is
notation, not a setting); this module writes its tokens as the course does, reading where each
token stands in the training words: ``##g`` if it only ever continues a word, ``g`` if it only
begins one, ``g|##g`` if both (where WordPiece would keep two symbols, this run keeps one).

It also cuts words the two ways an encoder can with the run's vocabulary: BPE's (the merges in the
order learned) and WordPiece's (the longest token that starts here, then on from its end). After
the course's nine merges ``pugs`` is ``pu ##gs`` by the merges and ``pug ##s`` by longest match.

    >>> run = course_run()
    >>> [(step.made, str(step.score.score)) for step in worked_steps(run, 3)]
    [('##gs', '1/20'), ('hu', '1/36'), ('hugs', '1/15')]
    >>> course_splits(run, 1)[-1]
    (('h', '##u', '##gs'), 5)
    >>> encoder_cuts(run, "pugs")
    [('pugs', ('pu', '##gs'), ('pug', '##s'))]
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from typing import NamedTuple

from ..encoding.segmentation import segment
from ..encoding.tokenizer import Tokenizer
from ..training.choice import PairScore
from ..training.presets import PRESETS
from ..training.trace import Trace
from ..training.trainer import train

COURSE_PRESET = "hf-course"
CONTINUES = "##"


@lru_cache(maxsize=1)
def course_run() -> Trace:
    """The course's words trained with WordPiece's score, every merge they allow (shared: a trace is immutable)."""
    preset = PRESETS[COURSE_PRESET]
    return train(preset.corpus(), replace(preset.settings, objective="wordpiece"))


def _split_words(trace: Trace, step: int) -> list[tuple[tuple[int, ...], int]]:
    tokenizer = Tokenizer.from_trace(trace, step=step)
    return [(tokenizer.encode_chunk(word), count) for word, count in trace.corpus.words]


def continuation_names(trace: Trace, step: int) -> dict[int, str]:
    """Each token of the words after ``step`` merges (and each part of the next merge) as the course writes it."""
    begins, continues = set(), set()
    for ids, _ in _split_words(trace, step):
        begins.add(ids[0])
        continues.update(ids[1:])
    names = {}
    for token_id in begins | continues:
        text = trace.token_text(token_id)
        both = token_id in begins and token_id in continues
        names[token_id] = f"{text}|{CONTINUES}{text}" if both else text if token_id in begins else CONTINUES + text
    return names


class WorkedStep(NamedTuple):
    """One merge as the course works it: what WordPiece merged and its score, and what BPE's count would have."""

    step: int
    pair: tuple[str, str]
    made: str
    score: PairScore
    by_count: tuple[str, str]
    by_count_score: PairScore


def worked_steps(trace: Trace, upto: int) -> list[WorkedStep]:
    """The first ``upto`` merges of a WordPiece run, in the course's notation."""
    rows = []
    for merge, scored in zip(trace.steps[:upto], trace.scores):
        names = continuation_names(trace, merge.step - 1)
        made = continuation_names(trace, merge.step)[merge.new_id]
        rows.append(WorkedStep(
            merge.step, (names[merge.left], names[merge.right]), made, scored.chosen,
            (names[scored.by_count[0]], names[scored.by_count[1]]), scored.by_count_score,
        ))
    return rows


def course_splits(trace: Trace, step: int) -> list[tuple[tuple[str, ...], int]]:
    """The training words after ``step`` merges, each split as the course writes it: ``(("h", "##u", "##g"), 10)``."""
    return [
        (tuple(trace.token_text(i) if place == 0 else CONTINUES + trace.token_text(i) for place, i in enumerate(ids)), count)
        for ids, count in _split_words(trace, step)
    ]


def encoder_cuts(trace: Trace, text: str) -> list[tuple[str, tuple[str, ...], tuple[str, ...]]]:
    """``(word, BPE's cut, WordPiece's longest-match cut)`` for each word of ``text``, in the course's notation."""
    tokenizer = Tokenizer.from_trace(trace)
    rows = []
    for cut in segment(tokenizer, text, ways=("bpe", "longest")):
        if not cut.text.strip():
            continue
        spelled = {
            name: tuple(tokenizer.token_text(i) if place == 0 else CONTINUES + tokenizer.token_text(i) for place, i in enumerate(ids))
            for name, ids in cut.ids.items()
        }
        rows.append((cut.text, spelled["bpe"], spelled["longest"]))
    return rows
