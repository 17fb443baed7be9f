"""The pages whose work runs apart (``ui.background``): drawn at once with a progress bar, their results
drawn when the job is done, one job for every learner who asks the same. AppTest, no browser.
"""

from __future__ import annotations

import pytest

from bpe.encoding.tokenizer import Tokenizer
from bpe.formats import FORMATS
from bpe.jobs.board import JobBoard
from bpe.teaching.extension import DEFAULT_TEXT, NEW_TEXTS
from bpe.training.extend import extend
from ui import background

from .apptest_support import APP, errors, settled
from .shared_tokenizers import shared_pretrained

EXTEND = "pages/13_Extend_a_tokenizer.py"
HEALTH = "pages/14_Vocabulary_health.py"


@pytest.fixture(autouse=True)
def fresh_board(monkeypatch):
    """A board of this test's own: the server's keeps finished jobs, so a report another test asked for would
    be drawn at once here."""
    board = JobBoard()
    monkeypatch.setattr(background, "BOARD", board)
    yield board
    board.stop_all()


def opened(page: str, **query):
    """A session on ``page`` from a link, run once: what a learner's browser shows first."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(APP, default_timeout=60)
    for key, value in query.items():
        at.query_params[key] = value
    return at.switch_page(page).run()


def progress_text(at) -> str:
    return " ".join(bar.proto.text for bar in at.get("progress"))


def test_extending_llama3_draws_the_page_at_once_and_its_downloads_when_they_are_written():
    at = opened(EXTEND, **{"from": "llama3", "add": "10"})
    assert not at.exception and not errors(at)
    assert progress_text(at).startswith("Extending Llama 3") and not at.get("download_button")
    assert at.selectbox(key="w.extend_from").value == "llama3"  # the choices are there to change meanwhile
    settled(at)
    expected = extend(shared_pretrained("llama3"), NEW_TEXTS[DEFAULT_TEXT].text, merges=10, min_frequency=2, name="Llama 3")
    assert any(f"{len(expected.steps):,} new merges" in caption.value for caption in at.caption)
    extended = Tokenizer.from_trace(expected)
    held = {name for entry in FORMATS.values() if entry.export_problem(extended) is None for name in entry.file_names}
    assert {button.label for button in at.get("download_button")} == held and not progress_text(at)
    assert "tokenizer.json" in held and "tokenizer.tiktoken" in held  # the byte-level formats that hold Llama 3


def test_two_learners_asking_the_same_report_share_one_job():
    first = opened(HEALTH, of="cl100k_base", sample="udhr", part="0")
    second = opened(HEALTH, of="cl100k_base", sample="udhr", part="0")
    assert progress_text(first).startswith("Checking the vocabulary of GPT-4")
    settled(first), settled(second)
    assert background.BOARD.started == 1
    counts = [{metric.label: metric.value for metric in at.metric} for at in (first, second)]
    assert counts[0] == counts[1] and counts[0]["special"] == "5"
