"""The handout, where a teacher prepares the lesson (AppTest): Home's lesson chooser and the class
room's teacher's controls offer it for each paper, its file is the view builder's page for the lesson
chosen (a built-in one or the teacher's own), and "Show the handout" shows it in a frame."""

from __future__ import annotations

import pytest
from streamlit.runtime.memory_media_file_storage import _calculate_file_id

from bpe.app.lessons import LESSONS, lesson_named
from bpe.views.handout import PAPERS, handout_html

from .apptest_support import open_page
from .test_app_room_seats import TEACHER, cookies, opened_as  # noqa: F401 (cookies: a fixture)


def downloads(at, key: str) -> dict[str, str]:
    """``paper -> media file id`` of the handout's download buttons drawn under ``key``."""
    return {button.proto.id.rsplit(".", 1)[1]: button.proto.url.rsplit("/", 1)[1].split(".")[0]
            for button in at.get("download_button") if f"-w.{key}.handout." in button.proto.id}


def file_id(lesson_link: str, paper: str) -> str:
    """The id Streamlit's media store gives the file (a hash of its bytes, type and name)."""
    data = handout_html(lesson_named(lesson_link), paper=paper).encode("utf-8")
    return _calculate_file_id(data, "text/html", f"bpe-lab-handout-{lesson_link}-{paper}.html")


@pytest.mark.parametrize("lesson", [*LESSONS, "bytes.train-sennrich.quiz-room"])
def test_homes_lesson_plan_offers_the_chosen_lessons_handout_on_every_paper(lesson):
    at = open_page(lesson=lesson)
    at.button(key="w.clicker.next").click().run()  # Home's second place: the lesson's plan
    assert not at.exception
    assert downloads(at, "home") == {paper: file_id(lesson, paper) for paper in PAPERS}


def test_show_the_handout_draws_it_in_a_frame_with_its_downloads():
    at = open_page()
    at.button(key="w.clicker.next").click().run()
    at.button(key="w.home.handout.show").click().run()
    assert not at.exception
    assert [frame.proto.srcdoc for frame in at.get("iframe")] == [handout_html(lesson_named("first-class"), paper="a4")]
    assert downloads(at, "dialog") == {paper: file_id("first-class", paper) for paper in PAPERS}


def test_the_teachers_controls_offer_the_handout_of_the_lesson_walked(cookies):  # noqa: F811
    at, code = opened_as(cookies)
    controls = cookies.open(TEACHER, room=code, controls="1", lesson="bpe-in-three-merges")
    assert not controls.exception
    assert downloads(controls, "controls") == {paper: file_id("bpe-in-three-merges", paper) for paper in PAPERS}
