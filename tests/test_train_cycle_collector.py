"""Training pauses Python's cycle collector (it makes no cycles) and always leaves it as it was."""

import gc

import pytest

from bpe import Corpus, TrainSettings, train
from bpe.errors import BpeError
from bpe.training.objectives import OBJECTIVES
from bpe.training.objectives import objective as objective_entry
from bpe.training.presets import python_docs_text
from bpe.training.tiebreak import TIE_BREAK_RULES, tie_break_rule

CORPUS_TEXT = python_docs_text()[:20_000]
CORPUS = Corpus.from_text(CORPUS_TEXT)
HUNDRED_MERGES = TrainSettings(merges=100, min_frequency=1)  # progress is reported once, at 100


@pytest.fixture
def collector_restored():
    was_enabled = gc.isenabled()
    yield
    (gc.enable if was_enabled else gc.disable)()


def test_the_collector_is_paused_while_training_and_resumed_after(collector_restored):
    gc.enable()
    seen = []
    train(CORPUS, HUNDRED_MERGES, progress=lambda done, wanted: seen.append(gc.isenabled()))
    assert seen == [False] and gc.isenabled()


def test_an_error_in_training_resumes_the_collector(collector_restored):
    gc.enable()

    def fail(done, wanted):
        raise BpeError("stopped by the caller")

    with pytest.raises(BpeError, match="stopped by the caller"):
        train(CORPUS, HUNDRED_MERGES, progress=fail)
    assert gc.isenabled()


def test_a_collector_the_caller_paused_stays_paused(collector_restored):
    gc.disable()
    train(CORPUS, HUNDRED_MERGES)
    assert not gc.isenabled()


def _runs_alive() -> int:
    from bpe.training.trainer import _Run

    return sum(isinstance(thing, _Run) for thing in gc.get_objects())


def _settings(rule: str, objective: str) -> TrainSettings:
    if tie_break_rule(rule).candidates is not None:  # its own candidates: SentencePiece's split, characters
        return TrainSettings(unit="char", pretokenizer="sentencepiece", tie_break=rule, merges=50, min_frequency=0)
    return TrainSettings(tie_break=rule, merges=50, min_frequency=1, objective=objective)


@pytest.mark.parametrize("objective", list(OBJECTIVES))
@pytest.mark.parametrize("rule", list(TIE_BREAK_RULES))
def test_a_finished_run_leaves_no_cycle_so_its_state_is_freed_at_once(collector_restored, rule, objective):
    """What the pause relies on: a run's words, counts and index go with reference counting when it returns.
    A cycle would keep them until the collector's next pass walked them all (a chooser holding a method of
    the run was one: a SentencePiece run's last 15 % went to that pass)."""
    if tie_break_rule(rule).candidates is not None and objective != "classic":
        pytest.skip("a rule with candidates of its own trains with the classic objective only")
    settings = _settings(rule, objective)
    corpus = (Corpus.from_languages({"en": CORPUS_TEXT, "de": CORPUS_TEXT[::-1]}) if objective_entry(objective).by_language
              else Corpus.from_text(CORPUS_TEXT, pretokenizer=settings.pretokenizer))
    gc.collect()
    gc.disable()
    trace = train(corpus, settings)
    assert trace.steps and _runs_alive() == 0
