"""Class rooms across browsers in one process (AppTest), each session's browser named by the cookie
it sends (``ui.browser.cookie_id``, replaced here): one seat per browser whatever Leave, Join, reloads
and tabs do; the projector's reload and its controls in its own browser only; the teacher's phone
link; removal and room size; "Guess the tokens" from the controls to the phones; a tap kept through
an outage."""

from __future__ import annotations

import html
import re

import pytest

import ui.browser
import ui.classroom
from ui.classroom import MEMBERSHIP, room_store
from ui.redis_room_store import RedisRoomStore

from .app_server import free_port
from .apptest_support import open_page
from .test_app_room import QUIZ, answer_keys, everything, labelled, raw_html


class Cookies:
    """Which browser the next page run comes from: its cookie's id (``None``: a browser without one)."""

    def __init__(self, monkeypatch) -> None:
        self.current: str | None = None
        monkeypatch.setattr(ui.browser, "cookie_id", lambda: self.current)

    def run(self, at, browser: str | None, widget=None):
        """Run ``at`` (or click ``widget`` of it) as ``browser``."""
        self.current = browser
        (widget.click() if widget is not None else at).run()
        return at

    def open(self, browser: str | None, **params):
        self.current = browser
        return open_page(QUIZ, **params)


@pytest.fixture
def cookies(monkeypatch):
    return Cookies(monkeypatch)


TEACHER, ANA, BO = "T" * 22, "A" * 22, "B" * 22


def opened_as(cookies: Cookies, browser: str = TEACHER):
    at = cookies.open(browser, preset="wikipedia", step="1")
    cookies.run(at, browser, at.button(key="w.room.start"))
    return at, at.session_state[MEMBERSHIP.key].code


def test_leave_join_reloads_and_a_second_tab_are_one_seat_and_one_answer(cookies):
    teacher, code = opened_as(cookies)
    ana = cookies.open(ANA, room=code)
    cookies.run(ana, ANA, ana.button(key="w.room.join"))
    seat = ana.session_state[MEMBERSHIP.key].seat
    labelled(ana, r"'a' \+ 'b'").click().run()
    again = ana
    for _ in range(5):  # Leave, open the join link again, Join: the same seat, its answer kept
        cookies.run(again, ANA, again.button(key="w.room.leave"))
        again = cookies.open(ANA, room=code)
        cookies.run(again, ANA, again.button(key="w.room.join"))
        assert again.session_state[MEMBERSHIP.key].seat == seat and answer_keys(again) == []
    tab = cookies.open(ANA, room=code)  # a second tab of the same browser
    cookies.run(tab, ANA, tab.button(key="w.room.join"))
    assert "Your answer is in" in everything(tab)
    view = room_store().view(code)
    assert (view.joined, view.answered) == (1, 1)
    cookies.run(teacher, TEACHER)
    assert "1 of 1 answered" in everything(teacher)


def test_a_seat_link_opened_in_another_browser_never_answers_for_that_seat(cookies):
    """Ana's link (``student=`` her seat, what her address bar shows) shared in the class chat: Bo's
    browser sees the join form and joins as a seat of his own, his tap is his; Ana's phone still asks
    her, her own reload keeps her seat; her opening Bo's link finds her own seat again."""
    teacher, code = opened_as(cookies)
    ana = cookies.open(ANA, room=code)
    cookies.run(ana, ANA, ana.button(key="w.room.join"))
    ana_link = dict(ana.query_params)
    ana_seat = ana_link["student"]
    bo = cookies.open(BO, **ana_link)
    assert "This link is another student's seat" in everything(bo) and "Join class room" in everything(bo)
    assert answer_keys(bo) == [] and "student" not in dict(bo.query_params)
    cookies.run(bo, BO, bo.button(key="w.room.join"))
    bo_seat = bo.session_state[MEMBERSHIP.key].seat
    assert bo_seat not in (None, ana_seat)
    labelled(bo, r"'a' \+ 'b'").click().run()
    assert "Your answer is in" in everything(bo)
    view = room_store().view(code)
    assert (view.joined, view.answered, view.answer_of(ana_seat)) == (2, 1, None) and view.answer_of(bo_seat) is not None
    cookies.run(ana, ANA)
    assert "Your answer is in" not in everything(ana) and answer_keys(ana)
    again = cookies.open(ANA, **ana_link)  # Ana's own reload: her seat, no warning
    assert again.session_state[MEMBERSHIP.key].seat == ana_seat and "another student's seat" not in everything(again)
    bo_link = dict(bo.query_params)
    mixed = cookies.open(ANA, **bo_link)  # Bo's link on Ana's phone: her own seat, Bo's answer stays his
    assert mixed.session_state[MEMBERSHIP.key].seat == ana_seat and "You are back in your own seat" in everything(mixed)
    assert answer_keys(mixed) and dict(mixed.query_params)["student"] == ana_seat


def test_the_projector_reloads_as_the_projector_and_its_controls_open_in_its_browser_only(cookies):
    teacher, code = opened_as(cookies)
    token = teacher.session_state[MEMBERSHIP.key].token
    again = cookies.open(TEACHER, room=code, present="1")  # the projector's tab reloaded: no key in its link
    assert again.button(key="w.room.reveal") and dict(again.query_params) == {"room": code, "present": "1"}
    controls = cookies.open(TEACHER, room=code, controls="1")
    assert "Teacher's controls · room" in everything(controls) and controls.button(key="w.room.close")
    student = cookies.open(ANA, room=code, controls="1")  # the same link in a student's browser
    assert "does not open room" in everything(student) and "Join class room" in everything(student)
    assert not [b for b in student.button if b.key in ("w.room.reveal", "w.room.close", "w.room.phone")]
    cookies.run(controls, TEACHER, controls.button(key="w.room.phone"))
    link = re.search(r'<p class="bpe-room-link">([^<]+)</p>', raw_html(controls)).group(1)
    phone_key = html.unescape(link).split("teacher=")[1]
    assert phone_key != token and token not in raw_html(controls)
    phone = cookies.open("P" * 22, room=code, teacher=phone_key)  # the teacher's phone
    assert phone.button(key="w.room.close") and dict(phone.query_params) == {"room": code, "teacher": phone_key}
    for page in (teacher, again):
        cookies.run(page, TEACHER)
        assert phone_key not in everything(page) + raw_html(page) and token not in everything(page) + raw_html(page)
        assert "teacher" not in dict(page.query_params)


def test_the_teacher_removes_a_seat_and_sizes_the_room_from_the_controls(cookies):
    teacher, code = opened_as(cookies)
    for browser, name in ((ANA, "Ana"), ("B" * 22, "Bo")):
        student = cookies.open(browser, room=code)
        student.session_state["w.room.nickname"] = name
        cookies.run(student, browser, student.button(key="w.room.join"))
    controls = cookies.open(TEACHER, room=code, controls="1")
    assert "network 1: **2**" in everything(controls)
    ana_seat = next(seat.id for seat in room_store().view(code).seats if seat.nickname == "Ana")
    controls.multiselect(key="w.room.remove").set_value([ana_seat])
    cookies.run(controls, TEACHER, controls.button(key="FormSubmitter:bpe-room-remove-Remove these seats"))
    assert [seat.nickname for seat in room_store().view(code).seats] == ["Bo"] and "Removed 1 seat" in everything(controls)
    controls.number_input(key="w.room.size").set_value(1)
    cookies.run(controls, TEACHER, controls.button(key="FormSubmitter:bpe-room-size-Set the size"))
    late = cookies.open("C" * 22, room=code)
    cookies.run(late, "C" * 22, late.button(key="w.room.join"))
    assert "This room is full (1 students)" in everything(late)


def test_guess_the_tokens_from_the_controls_to_every_phone_and_the_reveal(cookies):
    teacher, code = opened_as(cookies)
    phones = {}
    for browser in (ANA, "B" * 22, "C" * 22):
        phone = cookies.open(browser, room=code)
        cookies.run(phone, browser, phone.button(key="w.room.join"))
        phones[browser] = phone
    controls = cookies.open(TEACHER, room=code, controls="1")
    controls.selectbox(key="w.room.case").set_value("Spelling: ' strawberry'")
    controls.selectbox(key="w.room.tokenizer").set_value("gpt2")
    cookies.run(controls, TEACHER, controls.button(key="w.room.ask"))
    question = room_store().view(code).room.question
    assert (question.text, question.tokenizer, question.count) == (" strawberry", "gpt2", 1)
    cookies.run(teacher, TEACHER)
    assert "how many tokens does GPT-2 make of this?" in everything(teacher) and "counted by GPT-2" in everything(teacher)
    for (browser, phone), guess in zip(phones.items(), (1, 2, 5)):
        cookies.run(phone, browser)
        assert "How many tokens does GPT-2 make of this phrase?" in everything(phone)
        phone.number_input(key="w.room.guess").set_value(guess)
        cookies.run(phone, browser, phone.button(key="w.room.send_guess"))
        assert f"Your guess: **{guess}** token" in everything(phone) and "Your answer is in" in everything(phone)
    cookies.run(teacher, TEACHER, teacher.button(key="w.room.reveal"))
    chart = raw_html(teacher)
    assert re.search(r'<tr class="bpe-chosen"><th scope="row">1</th>.*?<b>1</b> <span class="bpe-answer-mark">◀ the real count', chart)
    assert 'data-id="41236"' in chart  # the chips: GPT-2's " strawberry"
    verdicts = []
    for browser, phone in phones.items():
        cookies.run(phone, browser)
        verdicts.append(next(kind for kind in ("success", "warning", "error") for alert in getattr(phone, kind)
                             if "it costs 1 token" in alert.value.lower()))
    assert verdicts == ["success", "error", "error"]  # exact; 2 and 5 for 1 are not within a fifth of it
    cookies.run(teacher, TEACHER, teacher.button(key="w.room.next"))  # back to merges: the next one
    assert "After 2 merges, which pair does merge 3 join?" in everything(teacher)


def test_a_tap_while_the_store_is_out_of_reach_is_kept_and_sent_when_it_is_back(cookies, monkeypatch):
    teacher, code = opened_as(cookies)
    ana = cookies.open(ANA, room=code)
    cookies.run(ana, ANA, ana.button(key="w.room.join"))
    working = room_store()
    monkeypatch.setattr(ui.classroom, "room_store", lambda: RedisRoomStore(f"redis://:pw@127.0.0.1:{free_port()}/0"))
    cookies.run(ana, ANA)
    assert "A tap is kept on this phone" in everything(ana) and "w.quiz.answer.1" not in [b.key for b in ana.button]
    labelled(ana, r"'a' \+ 'b'").click().run()
    assert "your answer is kept on this page" in everything(ana).lower()
    assert working.view(code).answered == 0
    monkeypatch.setattr(ui.classroom, "room_store", lambda: working)
    cookies.run(ana, ANA)
    assert "the answer you tapped meanwhile is in" in everything(ana) and working.view(code).answered == 1
