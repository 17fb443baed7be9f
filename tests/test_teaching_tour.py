"""The guided tour: five short steps, each linking to a page set up by its query parameters."""

import re
from pathlib import Path

from bpe.app import pages
from bpe.teaching.tour import TOUR

ROOT = Path(__file__).resolve().parents[1]


def test_the_tour_goes_bytes_pairs_merge_repeat_encode():
    assert len(TOUR) == 5
    assert [step.page for step in TOUR] == [
        pages.BYTE_INSPECTOR.file, pages.COUNTING_LAB.file, pages.TRAIN.file, pages.QUIZ.file, pages.ENCODE.file,
    ]


def test_every_step_is_two_or_three_sentences():
    for step in TOUR:
        assert 2 <= len(re.findall(r"[.!?](?:\s|$)", step.body)) <= 3, step.title


def test_every_target_is_a_page_file_with_string_query_params():
    for step in TOUR:
        assert (ROOT / step.page).is_file() and step.page.startswith("pages/"), step.page
        assert all(isinstance(key, str) and isinstance(value, str) for key, value in step.params.items())


def test_a_url_path_uses_streamlits_page_name_and_the_query():
    assert TOUR[1].url_path() == "Counting_lab?text=aaabdaaabac&left=a&right=a"
