"""The handout of a lesson, built without Streamlit: golden numbers from the sources, the same
numbers as the screens for every stop, every lesson printable on every paper, the key after the tasks.

Sennrich's example (low 5, lower 2, newest 6, widest 3), byte-level with GPT-2's split as the
lesson's Train stop trains it (the first-class lesson), counted by hand from the pre-tokenized
table of the seed (CS336's assignment: (' ', l, o, w): 5, (' ', l, o, w, e, r): 2, (' ', n, e, w,
e, s, t): 6, (' ', w, i, d, e, s, t): 3):

* e+s: 6 (newest) + 3 (widest) = 9, s+t: 9, w+e: 2 (lower) + 6 (newest) = 8, ·+l, l+o, o+w: 5 + 2 = 7,
  ·+n, n+e, e+w: 6, ·+w, w+i, i+d, d+e: 3, e+r: 2 (14 pairs);
* its merges (the seed's list): s+t, e+st, o+w, l+ow, ·+low, w+est, n+e, ne+west, ·+newest, w+i;
  merge 1 is a tie at 9 that the greater pair wins: ('s', 't') > ('e', 's').

The paper's own setting (characters and </w>: Sennrich et al. 2016, Figure 1) merges e+s, es+t,
est+</w> first, each 9 times.
"""

from __future__ import annotations

import re

import pytest

from bpe.app import pages
from bpe.app.lessons import LESSONS, STOPS, Lesson, LessonStop, lesson_named
from bpe.notation.spelling import quote, spelled
from bpe.teaching.quiz import make_question
from bpe.views.handout import ANSWER_KEY, PAPERS, handout_html
from bpe.views.handout_tasks import HAND_MERGES, TASKS, lesson_tasks, preset_run, stop_task

SENNRICH_PAIRS = {
    "'e' + 's'": 9, "'s' + 't'": 9, "'w' + 'e'": 8, "'·' + 'l'": 7, "'l' + 'o'": 7, "'o' + 'w'": 7,
    "'·' + 'n'": 6, "'n' + 'e'": 6, "'e' + 'w'": 6, "'·' + 'w'": 3, "'w' + 'i'": 3, "'i' + 'd'": 3,
    "'d' + 'e'": 3, "'e' + 'r'": 2,
}
SENNRICH_MERGES = [
    ("'s' + 't'", "'st'"), ("'e' + 'st'", "'est'"), ("'o' + 'w'", "'ow'"), ("'l' + 'ow'", "'low'"),
    ("'·' + 'low'", "'·low'"), ("'w' + 'est'", "'west'"), ("'n' + 'e'", "'ne'"), ("'ne' + 'west'", "'newest'"),
    ("'·' + 'newest'", "'·newest'"), ("'w' + 'i'", "'wi'"),
]
FIRST_CLASS = lesson_named("first-class")


def task_of(lesson: Lesson, stop_name: str):
    return next(task for stop, task in zip(lesson.stops, lesson_tasks(lesson)) if stop.name == stop_name)


def test_sennrichs_pairs_are_counted_as_by_hand_and_the_class_gets_them_blank():
    corpus, pairs, merges = task_of(FIRST_CLASS, "train-sennrich").tables
    assert {pair: int(count) for pair, count in pairs.answers} == SENNRICH_PAIRS
    assert [count for _, count in pairs.rows] == [""] * len(SENNRICH_PAIRS)
    assert dict(corpus.rows) == {"· l o w": "5", "· l o w e r": "2", "· w i d e s t": "3", "· n e w e s t": "6"}
    assert [(pair, count, token) for _, pair, count, token in merges.answers] == [
        ("'s' + 't'", "9", "'st'"), ("'e' + 'st'", "9", "'est'"), ("'o' + 'w'", "7", "'ow'")]
    assert all(cell == "" for row in merges.rows for cell in row[1:])


def test_sennrichs_first_merge_is_the_tie_the_greater_pair_wins():
    ask = task_of(FIRST_CLASS, "train-sennrich").asks[0]
    assert ask.answer.startswith("Merge 1 joins 's' + 't' (making 'st'): it occurs 9 times")
    assert "('s', 't') > ('e', 's')" in ask.answer


def test_the_encode_stop_gives_the_seeds_ten_merges_and_encodes_with_them():
    task = task_of(FIRST_CLASS, "encode-walk")
    assert [(pair, token) for _, pair, _, token in task.tables[0].rows] == SENNRICH_MERGES
    assert task.asks[0].answer == "12 tokens: ·low | est | · | ne | w | e | r | · | wi | d | e | r"


def test_the_papers_setting_merges_e_s_then_es_t_then_est_end_of_word():
    stop = LessonStop("paper", pages.TRAIN, {"preset": "sennrich-paper", "step": "0"}, "The paper")
    merges = stop_task(stop, 1, 1).tables[2]
    assert [(pair, count) for _, pair, count, _ in merges.answers] == [
        ("'e' + 's'", "9"), ("'es' + 't'", "9"), ("'est' + '</w>'", "9")]


@pytest.mark.parametrize("stop", [stop for stop in STOPS.values() if stop.page == pages.TRAIN], ids=lambda stop: stop.name)
def test_a_train_stops_counts_are_the_train_pages_chart(stop):
    """The chart of the Train page draws the step's top pairs (the trace's counts): each is in the key."""
    trace, step = preset_run(stop.link["preset"]), int(stop.link["step"])
    counts = dict(stop_task(stop, 1, 1).tables[1].answers)
    chart = {f"{quote(spelled(trace, pair.left))} + {quote(spelled(trace, pair.right))}": str(pair.count)
             for pair in trace.steps[step].top_pairs}
    assert chart and {label: counts[label] for label in chart} == chart


@pytest.mark.parametrize("stop", [stop for stop in STOPS.values() if stop.page == pages.QUIZ], ids=lambda stop: stop.name)
def test_a_quiz_stops_questions_are_the_quizs(stop):
    trace, step = preset_run(stop.link["preset"]), int(stop.link["step"])
    asks = stop_task(stop, 1, 1).asks
    for offset in range(HAND_MERGES):
        question = make_question(trace, step + offset)
        assert (asks[offset].prompt, asks[offset].choices) == (question.prompt, tuple(c.label for c in question.candidates))
    assert len(asks) == HAND_MERGES + stop.room  # a class room also asks "Guess the tokens"
    assert all(ask.prompt.startswith("Guess the tokens") for ask in asks[HAND_MERGES:])


@pytest.mark.parametrize("stop", STOPS.values(), ids=lambda stop: stop.name)
def test_every_stop_has_something_to_do_on_paper_and_a_task_maker_where_its_page_has_one(stop):
    task = stop_task(stop, 2, 5)
    assert task.heading == f"Page 2 of 5: {stop.title}" and task.asks
    if stop.page.file in TASKS:
        assert any(ask.answer for ask in task.asks) or task.tables


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("lesson", [*LESSONS.values(), lesson_named(".".join(STOPS))], ids=lambda lesson: lesson.name)
def test_every_lesson_prints_on_every_paper_with_the_key_after_its_tasks(lesson, paper):
    page = handout_html(lesson, paper=paper)
    assert f"@page {{ size: {PAPERS[paper].size};" in page
    tasks, key = page.split(f"<h1>{ANSWER_KEY}</h1>")
    assert tasks.count('class="bpe-task"') == len(lesson.stops) == key.count('class="bpe-task"')
    blanks = sum(row.count("") for task in lesson_tasks(lesson) for table in task.tables for row in table.rows)
    assert tasks.count('<td class="bpe-fill">') == blanks and 'class="bpe-fill"' not in key  # tables to fill, filled in the key
    for task in lesson_tasks(lesson):
        for ask in task.asks:
            if ask.answer and len(ask.answer) > 3:  # a bare number could be anywhere
                assert ask.answer not in tasks, f"{ask.answer!r} is given away before the key"


def test_the_key_numbers_its_answers_as_the_tasks_number_their_questions():
    page = handout_html(FIRST_CLASS)
    tasks, key = page.split(f"<h1>{ANSWER_KEY}</h1>")
    assert re.findall(r'<ol class="bpe-asks" start="(\d+)"', tasks) == re.findall(r'<ol start="(\d+)"', key)


def test_every_text_is_escaped_and_the_footer_is_a_css_string():
    stop = LessonStop("hostile", pages.WHY, {}, '<script>alert(1)</script>"}', "<b>bold</b>")
    page = handout_html(Lesson("own", 'x" } body { display: none', "<i>about</i>", (stop,)))
    assert "<script>alert" not in page and "<b>bold" not in page and "<i>about" not in page
    assert "&lt;script&gt;" in page
    footer = re.search(r"@bottom-left \{ content: (\"[^\"]*\");", page)
    assert footer and "body { display" in footer.group(1) and '\\22 ' in footer.group(1)


def test_an_unknown_paper_names_the_papers():
    with pytest.raises(Exception, match="unknown paper size 'a5': use one of a4, letter"):
        handout_html(FIRST_CLASS, paper="a5")
