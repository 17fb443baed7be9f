"""The suite of learners' trainers and encoders (tests/learner_suite): each, run through the command line
as a learner runs it, gets the verdict its case expects, every registered mistake has a learner in the
suite, and docs/checkers.md's table lists every case with that verdict (scripts/checker_table.py
writes it from the same runs).

A case's verdict is checked whole: its kind (correct or explained), the codes of its causes, the
re-training it names, the mistakes it says cannot be told apart, and that the named re-training
reproduces every merge or id. A wrong verdict (a cause missing, one too many, a partial one named)
fails the case.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bpe.checking.encode_rules import ENCODER_MISTAKES
from bpe.checking.mistakes import MISTAKES

from .learner_suite.cases import CASES, ENCODERS, TRAINERS, Edit, SuiteCase
from .learner_suite.run import edited, run_case
from .learner_suite.table import TABLE_FILE, expected_cells, read_table

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("learners")


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_each_learners_program_gets_the_verdict_its_mistakes_call_for(case: SuiteCase, folder: Path):
    outcome = run_case(case, folder)
    report = outcome.report
    assert outcome.kind == ("explained" if case.expect else "correct"), report["verdict"]
    assert sorted(outcome.codes) == sorted(case.expect), report["verdict"]
    assert case.label in outcome.label, (outcome.label, report["verdict"])
    assert set(case.also) <= set(outcome.also), report["cannot_tell_apart"]
    if case.kind == "trainer" and case.expect:
        assert report["best_match"]["matching"] == report["total"]  # the cause reproduces every merge
    if case.kind == "encoder":  # the verdict's re-encoding gives every id (correct: the tokenizer itself does)
        assert report["verdict"].startswith("Your encoder") or report["verdict"].startswith("Two mistakes at once")


def test_the_suite_holds_at_least_thirty_trainers_and_thirty_encoders_with_every_registered_mistake():
    assert len(TRAINERS) >= 30 and len(ENCODERS) >= 30
    assert {code for case in TRAINERS for code in case.expect} == set(MISTAKES)
    assert {code for case in ENCODERS for code in case.expect} == set(ENCODER_MISTAKES)
    assert len({case.name for case in CASES}) == len(CASES)
    assert any(len(case.expect) == 2 for case in TRAINERS) and any(len(case.expect) == 2 for case in ENCODERS)


def test_an_edit_whose_passage_is_not_in_the_program_once_is_refused():
    with pytest.raises(ValueError, match="occurs 2 times, not once"):
        edited("x = 1\nx = 1\n", (Edit("x = 1", "x = 2"),))


def test_the_checkers_table_lists_every_case_with_its_verdict():
    rows = read_table((ROOT / TABLE_FILE).read_text(encoding="utf-8"))
    assert [row[:4] for row in rows] == [expected_cells(case) for case in CASES], (
        f"{TABLE_FILE} is not current: run .venv/bin/python scripts/checker_table.py")
    assert all(re.fullmatch(r"\d+\.\d s", row[5]) for row in rows)
