"""Training pauses Python's cycle collector (it makes no cycles) and always leaves it as it was."""

import gc

import pytest

from bpe import Corpus, TrainSettings, train
from bpe.errors import BpeError
from bpe.training.presets import python_docs_text

CORPUS = Corpus.from_text(python_docs_text()[:20_000])
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
