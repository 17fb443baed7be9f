"""Class rooms on Predict the next merge, page by page, in one process (Streamlit's AppTest): the
in-process store, as ``streamlit run app.py`` uses it. A teacher's session and students' sessions
share it, as sessions of one server do.

The browser tests (tests/test_browser_room.py) run the same lesson over two replicas and Redis, and
over one process; the store's own rules are tests/test_room_stores.py.
"""

from __future__ import annotations

import html
import re

import pytest

import bpe.teaching.room_seats
import ui.browser
import ui.classroom
from bpe.limits import JOIN_ATTEMPTS_PER_BROWSER, JOIN_ATTEMPTS_PER_MINUTE, MAX_NICKNAME_CHARS
from bpe.teaching.room import REVEALED
from ui.classroom import MEMBERSHIP, room_store
from ui.redis_room_store import RedisRoomStore

from .apptest_support import open_page, page_markup, plain, unescape_markdown
from .app_server import free_port

QUIZ = "pages/4_Predict_the_next_merge.py"
HOSTILE = "<svg onload=alert(1)>"
FLOODER = "F" * 22
"""A browser id as its cookie holds it."""
"""Within the 24 characters a nickname keeps, so all of it reaches the page."""


def everything(at) -> str:
    """What the page drew as text (HTML, Markdown and alerts), tags and entities as the reader sees them."""
    parts = [plain(element.value) for element in at.html] + [element.value for element in (*at.title, *at.header)]
    # Markdown is shown as its text (a "<b>" in it is escaped, so a reader sees it)
    parts += [unescape_markdown(e.value) for kind in (at.markdown, at.error, at.warning, at.info, at.success) for e in kind]
    return "\n".join(parts)


COOKIE_SCRIPT = re.compile(r'<script>document\.cookie = "bpe_lab_browser=[\w-]{22}; [^"<]*";</script>')
"""The one script the page draws: a browser without the cookie gets its id (ui/browser.py)."""


def raw_html(at) -> str:
    """The page's HTML elements, less the cookie script (checked once, in its own test) and the clicker's."""
    return "\n".join(markup for markup in page_markup(at) if not COOKIE_SCRIPT.fullmatch(markup))


def button(at, key: str):
    return at.button(key=key)


def labelled(at, pattern: str):
    """The answer button whose label matches ``pattern`` (the room's order is the teacher's page's)."""
    found = [b for b in at.button if b.key and b.key.startswith("w.room.answer.") and re.search(pattern, b.label)]
    assert len(found) == 1, [b.label for b in at.button]
    return found[0]


def answer_keys(at) -> list[str]:
    return [b.key for b in at.button if b.key and b.key.startswith("w.room.answer.")]


def teacher_opens_room(preset: str = "wikipedia", step: int = 1):
    at = open_page(QUIZ, preset=preset, step=str(step))
    button(at, "w.room.start").click().run()
    assert not at.exception
    membership = at.session_state[MEMBERSHIP.key]
    assert membership is not None and membership.token
    return at, membership.code


def student_joins(code: str, nickname: str = ""):
    at = open_page(QUIZ, room=code)
    assert "Join class room" in everything(at)
    # Set as a client may send it: the browser's input stops at 24 characters, a script's does not.
    at.session_state["w.room.nickname"] = nickname
    at.button(key="w.room.join").click().run()
    assert not at.exception
    return at


def test_the_teacher_opens_a_room_with_its_code_qr_code_and_a_link_without_the_teacher_key():
    at, code = teacher_opens_room()
    assert re.fullmatch(r"[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{6}", code)
    shown = raw_html(at)
    link = re.search(r'<p class="bpe-room-link">([^<]+)</p>', shown).group(1)
    assert html.unescape(link).endswith(f"/Predict_the_next_merge?room={code}")
    qr = re.search(r'<img class="bpe-qr" src="(data:image/svg\+xml[^"]+)"', shown)
    assert qr and "teacher" not in html.unescape(qr.group(1)) and "teacher" not in link
    token = at.session_state[MEMBERSHIP.key].token
    assert token not in shown and token not in everything(at)  # the projector never shows the key
    assert dict(at.query_params) == {"room": code}  # nor its address bar
    controls = [b for b in at.get("link_button") if "controls" in b.proto.url]
    assert [b.proto.url for b in controls] == [f"?room={code}&controls=1"]  # its way to the controls holds no key
    assert "Question 1: After 1 merge, which pair does merge 2 join?" in at.title[0].value
    assert "0 joined" in everything(at)


def test_students_join_answer_once_and_the_teacher_sees_the_count_and_then_the_reveal():
    teacher, code = teacher_opens_room()
    ana = student_joins(code, "Ana")
    bo = student_joins(code)
    assert ana.query_params["room"] == code and "student" in ana.query_params
    assert f"Room **{code}** · question **1** · Ana" in everything(ana)

    labelled(ana, r"'a' \+ 'b'").click().run()
    assert "Your answer is in" in everything(ana)
    assert answer_keys(ana) == [] and "'a' + 'b' ◀ your answer" in everything(ana)  # nothing left to press
    labelled(bo, r"'aa' \+ 'a'").click().run()
    teacher.run()
    assert "2 joined" in everything(teacher) and "2 of 2 answered" in everything(teacher)
    assert "merged next" not in everything(ana)  # no answer is shown before the reveal

    button(teacher, "w.room.reveal").click().run()
    chart = raw_html(teacher)
    rows = dict(re.findall(r'<th scope="row">\d\. ([^<]+)</th><td>.*?<b>(\d+)</b>', chart))
    assert {html.unescape(k): int(v) for k, v in rows.items()} == {"'a' + 'b'": 1, "'aa' + 'a'": 1, "'a' + 'c'": 0, "'b' + 'a'": 0}
    assert "◀ merged next" in chart and "lexicographic-min rule picks 'a' + 'b'" in everything(teacher)
    ana.run()
    bo.run()
    assert "Right: 'a' + 'b' occurs 2 times" in everything(ana) and "merged next" in everything(ana)
    assert "'a' + 'b' ◀ merged next ✓ your answer" in everything(ana)
    assert "Right count, but the tie-break picks" in everything(bo) and "'aa' + 'a' ⚖ your answer" in everything(bo)

    button(teacher, "w.room.next").click().run()
    ana.run()
    assert "After 2 merges, which pair does merge 3 join?" in everything(ana)
    assert len(answer_keys(ana)) == 4


def projector_choices(at) -> list[str]:
    listed = re.search(r'<ol class="bpe-room-choices"[^>]*>(.*?)</ol>', raw_html(at)).group(1)
    return [html.unescape(item) for item in re.findall(r"<li[^>]*>([^<]+)</li>", listed)]


def test_every_phone_numbers_the_answers_as_the_projector_does_whatever_order_the_room_drew():
    orders = set()
    for _ in range(6):  # the room's code seeds its order: rooms differ, a room's phones never do
        teacher, code = teacher_opens_room("sennrich", step=2)  # a 3-way tie: 4 answers
        shown = projector_choices(teacher)
        for phone in (student_joins(code), student_joins(code)):
            labels = [unescape_markdown(b.label) for b in phone.button if b.key and b.key.startswith("w.room.answer.")]
            assert labels == [f"{number}. {label}" for number, label in enumerate(shown, start=1)]
        orders.add(tuple(shown))
        button(teacher, "w.room.end").click().run()
        button(teacher, "w.room.end").click().run()  # Esc twice closes
    assert len(orders) > 1


def test_a_students_reload_comes_back_to_the_same_question_with_its_answer(monkeypatch):
    teacher, code = teacher_opens_room()
    monkeypatch.setattr(ui.browser, "cookie_id", lambda: "A" * 22)  # Ana's browser, from here on
    ana = student_joins(code, "Ana")
    labelled(ana, r"'a' \+ 'b'").click().run()
    seat = ana.query_params["student"]
    # A new session of her browser (its cookie): the replica died, or the phone reloaded
    again = open_page(QUIZ, room=code, student=seat)
    assert "Your answer is in" in everything(again) and "Ana" in everything(again)
    assert answer_keys(again) == [] and "'a' + 'b' ◀ your answer" in everything(again)


def test_join_pressed_before_the_address_bar_took_the_pages_rewrite_still_seats_the_student():
    """The page rewrites its address as it runs (the example first, then the room's own link); a
    phone that presses Join before its address bar has the last rewrite sends an earlier one, which
    the page cannot tell from a link just opened. The room's bare link keeps the seat just taken."""
    _, code = teacher_opens_room()
    at = open_page(QUIZ, room=code)
    assert dict(at.query_params) == {"room": code}
    at.query_params.clear()
    at.query_params.update({"room": code, "preset": "wikipedia", "step": "1"})  # the page's first rewrite
    at.button(key="w.room.join").click().run()
    assert "Join class room" not in everything(at)
    assert at.session_state[MEMBERSHIP.key].seat is not None and answer_keys(at)


def test_a_forged_teacher_link_gives_no_control_and_the_room_is_not_revealed():
    teacher, code = teacher_opens_room()
    forged = open_page(QUIZ, room=code, teacher="guessed-key")
    assert "does not open room" in everything(forged)
    assert not [b for b in forged.button if b.key in ("w.room.reveal", "w.room.next", "w.room.close")]
    assert "Join class room" in everything(forged)  # a student's join form instead
    teacher.run()
    assert room_store().view(code).room.phase != REVEALED and teacher.button(key="w.room.reveal")


@pytest.mark.parametrize("typed, message", [
    ("ZZZZZZ", "There is no open room ZZZZZZ: check the code on the projector"),
    ("K7QX0M", "room codes never use 0"),
    ("<script>", "a room code is 6 letters and digits"),
    ("x" * 10_000, "got 10,000 characters"),
])
def test_a_wrong_or_odd_code_says_so_and_the_quiz_goes_on_alone(typed, message):
    at = open_page(QUIZ, room=typed)
    assert message in everything(at)
    assert typed[:40] in everything(at)  # what the link held, as text (cut short)
    assert at.button(key="w.quiz.answer.1")  # the quiz alone, below the message
    assert "<script>" not in raw_html(at) and "x" * 100 not in everything(at)


def test_hostile_and_overlong_nicknames_are_cut_and_shown_as_text():
    teacher, code = teacher_opens_room()
    student_joins(code, HOSTILE)
    long = student_joins(code, "y" * 10_000)
    assert f"· {'y' * MAX_NICKNAME_CHARS}\n" in everything(long)
    teacher.run()
    shown = raw_html(teacher)
    assert "<span>&lt;svg onload=alert(1)&gt;</span>" in shown and "<svg" not in shown
    names = room_store().view(code).nicknames()
    assert HOSTILE in names and "y" * MAX_NICKNAME_CHARS in names and max(map(len, names)) <= MAX_NICKNAME_CHARS


def test_join_attempts_past_the_limit_get_a_clear_message(monkeypatch):
    monkeypatch.setattr(bpe.teaching.room_seats, "JOIN_ATTEMPTS_PER_MINUTE", 3)
    teacher, code = teacher_opens_room()
    for _ in range(3):  # each a new browser: only the address's budget is shared
        assert "Join class room" in everything(open_page(QUIZ, room=code))
    refused = open_page(QUIZ, room=code)
    assert "Too many attempts to join a class room from your network" in everything(refused)
    assert not [w for w in refused.text_input if w.key == "w.room.nickname"] and refused.button(key="w.quiz.answer.1")
    assert JOIN_ATTEMPTS_PER_MINUTE == 300


def test_one_browser_opening_the_join_link_again_and_again_is_slowed_and_its_class_is_not(monkeypatch):
    teacher, code = teacher_opens_room()
    monkeypatch.setattr(ui.browser, "cookie_id", lambda: FLOODER)
    outcomes = ["joined" if "Join class room" in everything(page) else "slowed" if
                "Too many attempts to join from this browser" in everything(page) else "?"
                for page in (open_page(QUIZ, room=code) for _ in range(JOIN_ATTEMPTS_PER_BROWSER + 3))]
    assert outcomes == ["joined"] * JOIN_ATTEMPTS_PER_BROWSER + ["slowed"] * 3
    monkeypatch.setattr(ui.browser, "cookie_id", lambda: None)  # a classmate behind the same address
    assert "Join class room" in everything(open_page(QUIZ, room=code))


def test_a_closed_room_tells_its_students_and_they_carry_on_alone():
    teacher, code = teacher_opens_room()
    ana = student_joins(code, "Ana")
    button(teacher, "w.room.end").click().run()
    assert room_store().view(code).room.phase != "closed"  # one Esc asks
    assert f"Press Esc again to close room {code} for everyone" in [b.label for b in teacher.button]
    button(teacher, "w.room.end").click().run()
    assert f"Room {code} is closed" in everything(teacher) and teacher.session_state[MEMBERSHIP.key] is None
    ana.run()
    assert f"The teacher closed room {code}" in everything(ana) and ana.button(key="w.quiz.answer.1")


def test_a_room_cannot_carry_the_teachers_own_text():
    at = open_page(QUIZ, preset="own-text")
    assert at.button(key="w.room.start").disabled


def test_an_unreachable_redis_is_one_line_and_the_quiz_goes_on(monkeypatch):
    teacher, code = teacher_opens_room()
    monkeypatch.setattr(ui.classroom, "room_store", lambda: RedisRoomStore(f"redis://:pw@127.0.0.1:{free_port()}/0"))
    teacher.run()
    warnings = [w.value for w in teacher.warning]
    assert len(warnings) == 1 and f"Class room {code} cannot be reached just now" in warnings[0]
    assert teacher.button(key="w.quiz.answer.1") and not teacher.exception


def test_the_home_page_takes_a_typed_code_to_the_room():
    teacher, code = teacher_opens_room()
    home = open_page()
    home.text_input(key="w.join_code").input(f" {code[:3].lower()} {code[3:]} ")
    next(b for b in home.button if b.label == "Join").click().run()
    assert "Join class room" in everything(home) and home.text_input(key="w.room.nickname")
