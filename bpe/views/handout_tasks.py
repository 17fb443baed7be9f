"""A lesson's handout as data: for each stop, what the class does by hand and the answers.

Each stop's task is built by the engine calls its page makes, so a handout cannot teach other
tokens, another notation or other numbers than the screens: the Train page's run
(``train(preset.corpus(), preset.settings)``) and its pairs counted on the training text
(:func:`~bpe.teaching.counting.symbols_at_step`, as the Counting lab counts them), the quiz's and
the class room's questions (:func:`~bpe.teaching.quiz.make_question`) and their reveal
(:func:`~bpe.teaching.quiz.reveal`), the Counting lab's tally, the Byte inspector's bytes, the
Tie-break lab's runs and the Encode page's text and tokens. Tokens are spelled by
:mod:`bpe.notation.spelling` (a space is ``·``), pairs as ``'s' + 't'``.

    >>> from bpe.app.lessons import lesson_named
    >>> tasks = lesson_tasks(lesson_named("first-class"))
    >>> train = tasks[3]
    >>> train.heading, [row[0] for row in train.tables[1].rows][:3]
    ("Page 4 of 8: Train on Sennrich's corpus", ["'·' + 'l'", "'l' + 'o'", "'o' + 'w'"])
    >>> train.tables[1].answers[:2], train.asks[0].answer.split(":")[0]
    ((("'·' + 'l'", '7'), ("'l' + 'o'", '7')), "Merge 1 joins 's' + 't' (making 'st')")

A stop with no task of its own (the Why page, Compare...) gets room to write what it showed.
Out of scope: HTML (:mod:`bpe.views.handout`) and pretrained tokenizers (Compare's counts and the
room's "Guess the tokens" need a pretrained table read; the handout leaves those as guesses to
write, their answers on the screen).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache

from ..app.lessons import Lesson, LessonStop
from ..app import pages
from ..encoding.tokenizer import Tokenizer
from ..notation.spelling import quote, spell, spelled
from ..registry import Registry
from ..teaching.byte_inspector import inspect_text
from ..teaching.counting import count_pair, pairs_present, symbols_at_step
from ..teaching.quiz import make_question, reveal
from ..teaching.tie_lab import tie_lab_for_preset
from ..training.presets import PRESETS
from ..training.trace import Trace
from ..training.trainer import train
from .encoding import sample_text

HAND_MERGES = 3
"""Merges a class works by hand on a Train or quiz stop (Sennrich's third is a three-way tie)."""
WRITE_LINES = 3
"""Lines left to write on for an open question."""


@dataclass(frozen=True)
class Ask:
    """One question: its text, where to answer (lines, or choices to circle) and its answer."""

    prompt: str
    answer: str
    lines: int = 1
    choices: tuple[str, ...] = ()


@dataclass(frozen=True)
class Table:
    """A table to fill in: ``rows`` as the class gets them ("" is a cell to fill), ``answers`` filled."""

    caption: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    answers: tuple[tuple[str, ...], ...]
    given: bool = False
    """Nothing to fill in (the corpus): printed once, not again in the answer key."""


@dataclass(frozen=True)
class Task:
    heading: str
    """``Page k of n: <the stop's title>``."""
    teaches: str
    page: str
    """The app page the stop opens (the class finds it in the sidebar)."""
    tables: tuple[Table, ...] = ()
    asks: tuple[Ask, ...] = ()


@lru_cache(maxsize=16)
def preset_run(name: str) -> Trace:
    """The Train page's run of a preset (presets never change within a process, and a trace is immutable)."""
    preset = PRESETS.lookup(name)
    return train(preset.corpus(), preset.settings)


def _pairs_to_count(name: str, step: int) -> Table:
    """Every pair of the training words after ``step`` merges, in the order they first occur (so the
    blank table gives nothing away), with the count each has in the answer key."""
    symbols = symbols_at_step(preset_run(name), step, PRESETS[name].corpus_text)
    counts = {(pair.left, pair.right): pair.count for pair in pairs_present(symbols)}
    order: dict[tuple[int, int], str] = {}
    for left, right in zip(symbols, symbols[1:]):
        if left.chunk == right.chunk and left.counted and right.counted:
            order.setdefault((left.id, right.id), f"{quote(left.text)} + {quote(right.text)}")
    return Table(
        "Count each pair of neighbours in the corpus (a word's count is how often it occurs)",
        ("Pair", "Count"), tuple((label, "") for label in order.values()),
        tuple((label, str(counts[pair])) for pair, label in order.items()),
    )


def _corpus_table(name: str, step: int) -> Table:
    trace = preset_run(name)
    rows = tuple(
        (" ".join(symbol.text for symbol in symbols_at_step(trace, step, word)), str(count))
        for word, count in PRESETS[name].corpus().words
    )
    return Table("The corpus, as the trainer sees it before merge 1 (· is a space)", ("Word, as symbols", "Times"),
                 rows, rows, given=True)


def _merges_table(trace: Trace, first: int, count: int) -> Table:
    steps = trace.steps[first:first + count]
    return Table(
        f"Merges {first + 1} to {first + len(steps)}: the pair, how often it occurs, the new token",
        ("Merge", "Pair", "Count", "New token"),
        tuple((str(step.step), "", "", "") for step in steps),
        tuple((str(step.step), f"{quote(spelled(trace, step.left))} + {quote(spelled(trace, step.right))}",
               str(step.count), quote(spelled(trace, step.new_id))) for step in steps),
    )


def _merge_asks(trace: Trace, first: int, count: int, *, choices: bool) -> tuple[Ask, ...]:
    """The quiz's (and the class room's) questions about merges ``first + 1`` on, answered as its reveal."""
    asks = []
    for step in range(first, min(first + count, len(trace.steps))):
        question = make_question(trace, step)
        asks.append(Ask(question.prompt, reveal(question).explanation,
                        choices=tuple(c.label for c in question.candidates) if choices else ()))
    return tuple(asks)


def _train(stop: LessonStop) -> dict:
    name, step = stop.link["preset"], int(stop.link.get("step", "0"))
    trace = preset_run(name)
    return {"tables": (_corpus_table(name, step), _pairs_to_count(name, step), _merges_table(trace, step, HAND_MERGES)),
            "asks": (Ask(f"Which pair does merge {step + 1} join? If pairs tie, which does the rule "
                         f"({trace.settings.tie_break}) pick, and why?", reveal(make_question(trace, step)).explanation,
                         lines=2),)}


def _quiz(stop: LessonStop) -> dict:
    name, step = stop.link["preset"], int(stop.link.get("step", "0"))
    asks = _merge_asks(preset_run(name), step, HAND_MERGES, choices=True)
    if stop.room:  # the room's second kind of question: the phrase and tokenizer are the teacher's, on the projector
        asks += (Ask("Guess the tokens: how many tokens does the tokenizer on the projector make of its phrase? "
                     "Your guess, then the real count:", "On the projector after the reveal.", lines=2),)
    return {"tables": (_corpus_table(name, step),), "asks": asks}


def _counting(stop: LessonStop) -> dict:
    text, pair = stop.link["text"], (stop.link["left"], stop.link["right"])
    tally = count_pair(text, pair, unit="char")  # the Counting lab's unit when opened
    label = f"{quote(tally.pair_text[0])} + {quote(tally.pair_text[1])}"
    return {"asks": (
        Ask(f"How many times is {label} counted in {quote(text)}, overlaps included?", str(tally.count)),
        Ask(f"How many times does one merge of {label} replace it, left to right? What is left?",
            f"{tally.replacements}: {' '.join(map(quote, tally.merged_texts()))}"),
    )}


def _bytes(stop: LessonStop) -> dict:
    rows = {row.char: row for row in inspect_text(stop.link["text"])}  # each character once, in order
    return {"tables": (Table(
        "Write each character's UTF-8 bytes in hex (a byte is two hex digits)", ("Character", "Code point", "UTF-8 bytes"),
        tuple((spell(row.char), row.codepoint, "") for row in rows.values()),
        tuple((spell(row.char), row.codepoint, row.hex) for row in rows.values()),
    ),), "asks": (Ask(f"How many bytes is the whole text {quote(stop.link['text'])}?",
                      f"{len(stop.link['text'].encode('utf-8'))} bytes"),)}


def _tie_lab(stop: LessonStop) -> dict:
    lab = tie_lab_for_preset(stop.link["preset"])
    at = lab.first_disagreement
    if at is None:
        return {}
    row = lab.rows[at - 1]
    return {"tables": (Table(
        f"Merge {at} is a tie: which pair does each rule merge?", ("Rule", f"Merge {at}"),
        tuple((rule, "") for rule in row.merged), tuple((rule, merged or "(stopped)") for rule, merged in row.merged.items()),
    ),), "asks": (Ask("Which tokens do the rules end with? Why does that matter for a model?", lab.explanation(), lines=2),)}


def _encode(stop: LessonStop) -> dict:
    name, step = stop.link["preset"], int(stop.link.get("step", "0"))
    trace = preset_run(name)
    text = stop.link.get("text") or sample_text(name, PRESETS[name].corpus_text, trace.settings.special_tokens)
    ids = Tokenizer.from_trace(trace, step=step).encode(text, allowed_special="all")
    tokens = " | ".join(spelled(trace, token_id) for token_id in ids)
    learned = _merges_table(trace, 0, step)
    given = Table(f"The merges learned, in order (the first {step})", learned.columns, learned.answers, learned.answers, given=True)
    return {"tables": (given,), "asks": (Ask(f"Encode {quote(text)} with the first {step} merges, in the order they were learned: "
                         "write its tokens, one box each (· is a space)", f"{len(ids)} tokens: {tokens}", lines=2),)}


@dataclass(frozen=True)
class TaskMaker:
    """What a page's stop asks on paper: ``build(stop)`` gives its ``tables`` and ``asks``."""

    page: str
    """The page's file (:data:`bpe.app.pages.PAGES`)."""
    build: Callable[[LessonStop], Mapping[str, tuple]]


TASKS: Registry[TaskMaker] = Registry("handout task", (
    TaskMaker(pages.TRAIN.file, _train), TaskMaker(pages.QUIZ.file, _quiz), TaskMaker(pages.COUNTING_LAB.file, _counting),
    TaskMaker(pages.BYTE_INSPECTOR.file, _bytes), TaskMaker(pages.TIE_LAB.file, _tie_lab), TaskMaker(pages.ENCODE.file, _encode),
), key=lambda maker: maker.page)
"""One entry per page with a task of its own (a page without one gets an open question)."""


def stop_task(stop: LessonStop, number: int, of: int) -> Task:
    built = TASKS[stop.page.file].build(stop) if stop.page.file in TASKS else {}
    asks = built.get("asks") or (Ask("What did this page show? Write it in your own words.", "", lines=WRITE_LINES),)
    return Task(f"Page {number} of {of}: {stop.title}", stop.teaches, stop.page.title, built.get("tables", ()), asks)


def lesson_tasks(lesson: Lesson) -> tuple[Task, ...]:
    return tuple(stop_task(stop, number, len(lesson.stops)) for number, stop in enumerate(lesson.stops, start=1))
