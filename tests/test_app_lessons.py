"""Lessons across pages, headless (AppTest): every stop of the registry opens its page at its first
place with parameters its page declares, Home's walk starts a lesson, and a lesson walks from Home
to its last place and back by the clicker's buttons alone (the marker's next, or the lesson's way
on at a page's end), in a real browser: tests/test_browser_lessons.py."""

from __future__ import annotations

import re

import pytest

from bpe.app.lab_state import lab_params
from bpe.app.lessons import LESSONS, STOPS, lesson_named
from bpe.app.pages import HOME
from bpe.views.clicker import css_class
from ui.links import EVERY_PAGE, PAGE_LINKS

from .apptest_support import html_with, open_page


def marker(at) -> dict[str, str]:
    """The clicker marker's ``data-*`` attributes (ui/clicker.py)."""
    return dict(re.findall(r'data-([a-z]+)="([^"]*)"', html_with(at, 'class="bpe-clicker"')))


def follow(at):
    """Keep AppTest on the page the app switched to (AppTest otherwise reruns the page it opened)."""
    at.switch_page(at.session_state["bpe.lesson_page"].file)
    return at


def press(at, forward: bool = True):
    """What the clicker's PageDown (PageUp) clicks: the page's own button, else the lesson's way on (back)."""
    found = marker(at)
    buttons = {css_class(button.key): button for button in at.button if button.key}
    button = buttons.get(found["next" if forward else "previous"])
    if button is None or button.disabled:
        button = buttons[found["onward" if forward else "backward"]]
    return follow(button.click().run())


@pytest.mark.parametrize("stop", STOPS.values(), ids=list(STOPS))
def test_every_stop_opens_its_page_at_its_first_place_with_parameters_its_page_declares(stop):
    declared = {param.name for param in (*PAGE_LINKS[stop.page.file], *EVERY_PAGE)} | lab_params()
    assert set(stop.link) <= declared, f"{stop.name}: {set(stop.link) - declared} is no parameter of {stop.page.file}"
    at = open_page(stop.page.file, **stop.link)
    assert not at.exception and not at.warning, [warning.value for warning in at.warning]
    assert marker(at)["at"] == "0", f"{stop.name} opens at place {marker(at)['at']} of {marker(at)['count']}"


def test_home_walks_to_the_lessons_plan_and_its_last_place_starts_the_lesson():
    at = open_page()
    assert marker(at)["at"] == "0" and "onward" not in marker(at)
    at.button(key="w.clicker.next").click().run()
    assert at.header[0].value == f"Today's lesson: {lesson_named('first-class').title}"
    assert marker(at)["onward"] == css_class("w.lesson.start")
    press(at)
    first = lesson_named("first-class").stops[0]
    assert at.session_state["bpe.lesson_page"] == first.page and marker(at)["at"] == "0"
    assert at.query_params["lesson"] == "first-class" and at.query_params["stop"] == "1"
    assert any("Lesson · page 1 of 8:" in element.value for element in at.markdown)


def test_a_teachers_own_lesson_is_chosen_on_home_and_carried_in_the_link():
    at = open_page()
    at.selectbox(key="w.lesson.kind").set_value("own").run()
    at.multiselect(key="w.lesson.stops").set_value(["compare", "bytes"]).run()
    assert at.query_params["lesson"] == "compare.bytes"
    again = open_page(lesson="compare.bytes")  # the bookmark
    assert again.multiselect(key="w.lesson.stops").value == ["compare", "bytes"]
    again.button(key="w.lesson.start").click().run()
    assert follow(again).session_state["bpe.lesson_page"] == STOPS["compare"].page


def test_a_lesson_walks_from_home_to_its_last_place_and_back_every_place_reached():
    lesson = LESSONS["bpe-in-three-merges"]
    at = open_page(lesson=lesson.name)
    at.button(key="w.clicker.next").click().run()  # Home's last place: the plan
    seen = []
    for number, stop in enumerate(lesson.stops, start=1):
        press(at)
        assert at.session_state["bpe.lesson_page"] == stop.page and at.query_params["stop"] == str(number)
        count = int(marker(at)["count"])
        places = [int(marker(at)["at"])]
        while places[-1] < count - 1:
            press(at)
            places.append(int(marker(at)["at"]))
        assert places == list(range(count)), f"{stop.name}: {places}"
        seen.append((stop.page, count))
    assert marker(at).get("onward") is None  # the lesson's last place: PageDown says so, goes nowhere
    for stop, (page, count) in reversed(list(zip(lesson.stops, seen))):
        assert at.session_state["bpe.lesson_page"] == page and marker(at)["at"] == str(count - 1), stop.name
        places = [count - 1]
        while places[-1] > 0:
            press(at, forward=False)
            places.append(int(marker(at)["at"]))
        assert places == list(range(count - 1, -1, -1)), f"{stop.name} backwards: {places}"
        press(at, forward=False)
    assert at.session_state["bpe.lesson_page"] == HOME and marker(at)["at"] == "1"  # Home, at the plan


def test_on_the_lessons_class_room_stop_the_clicker_starts_the_room_asks_reveals_and_goes_on():
    lesson = LESSONS["first-class"]
    number, stop = next((number, stop) for number, stop in enumerate(lesson.stops, start=1) if stop.room)
    at = open_page(stop.page.file, **stop.link, lesson=lesson.name, stop=str(number), present="1")
    asked = []
    while marker(at).get("onward") is None:
        place = int(marker(at)["at"])
        press(at)
        assert int(marker(at)["at"]) == place + 1, f"{place} -> {marker(at)['at']}"
        asked += [title.value for title in at.title if title.value.startswith("Question")][:1]
    assert asked[0].startswith("Question 1: Before any merge") and "how many tokens does GPT-4o make" in asked[-1]
    assert marker(at)["at"] == str(int(marker(at)["count"]) - 1)
    press(at)
    assert at.session_state["bpe.lesson_page"] == lesson.stops[number].page  # the lesson's next page
