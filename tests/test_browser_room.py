"""A class room in real browsers: a teacher on a projector (1280x720, presenter mode) and three
students on phones (390x844), each on a different replica, over two replicas behind HAProxy and a
real Redis (started by the test on a free port, with a password and persistence on; stopped after)
and, with ``--screenshots``, the same lesson over one process with the in-process store (its
pictures; in the regular run the in-process store passes the same room tests without a browser:
tests/test_room_stores.py runs every store test on both stores, and tests/test_app_room.py runs a
teacher and students as sessions of one process, which fails if each session had a store of its own).

The lesson: the teacher opens a room; the students join (one nickname is HTML, shown as text);
two answer (one taps twice); Redis is stopped mid-question (every page says so in one line; the
projector is the quiz alone meanwhile, the third phone keeps its question and keeps the tap it
gets) and started again (the room and both answers are back, and the kept tap is sent, without a
click); the teacher's count reaches 3 without a click; a reloaded phone shows its one answer;
PageDown reveals the chart on the projector and a verdict on every phone; a guessed teacher link
gets no control; PageDown moves every phone on. Then "Guess the tokens": the teacher opens the
controls in a new tab (from the projector, by a link without a key) and makes a teacher link for
a phone; two more phones join; the controls ask about a Why card's phrase; five phones guess;
PageDown reveals the histogram and the chips; Esc twice closes the room. Every projected view's
address, title, links and HTML are read for the teacher key at each step, before, during and after
closing. axe-core audits every view; with ``--screenshots`` the projector and a phone are saved at
each step in test-artifacts/.

Waits are on content (Playwright's ``expect``), never on time.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from playwright.sync_api import expect

from .conftest import FIRST_LOAD_MS, PHONE, PROJECTOR
from .redis_server import RedisServer, running_redis
from .replica_set import ReplicaSet
from .streamlit_widgets import choose, seen_texts
from .app_server import free_port
from .test_browser_a11y import axe_violations, report

pytestmark = [pytest.mark.browser, pytest.mark.servers]

HOSTILE = "<svg onload=alert(1)>"


@dataclass
class Setup:
    name: str
    """For the pictures' names: ``replicas`` or ``one-process``."""
    url: str
    replicas: tuple[str, ...]
    """The replica each browser is sent to (teacher first), by its stickiness cookie; empty for one process."""
    redis: RedisServer | None = None


@pytest.fixture(scope="module")
def over_replicas(tmp_path_factory):
    port = free_port()
    with running_redis(tmp_path_factory.mktemp("redis")) as redis_server, ReplicaSet(port=port, env={
        "BPE_LAB_REDIS_URL": redis_server.url,
        "BPE_LAB_PUBLIC_URL": f"http://127.0.0.1:{port}",  # what serve.sh sets to the machine's network address
    }) as replicas:
        yield Setup("replicas", replicas.url, ("r1", "r2", "r1", "r2"), redis_server)


def setup_for(request) -> Setup:
    if request.param == "one process":
        return Setup("one-process", request.getfixturevalue("app_url"), ())
    return request.getfixturevalue("over_replicas")


@pytest.fixture(params=["two replicas and Redis", pytest.param("one process", marks=pytest.mark.screenshots)])
def setup(request):
    return setup_for(request)


@pytest.fixture(params=["two replicas and Redis", "one process"])
def either_setup(request):
    """Both set-ups in the regular run (``setup`` makes pictures of one process only with --screenshots)."""
    return setup_for(request)


class Browsers:
    """Each person's own browser (a context: its own cookies), every JavaScript dialog recorded."""

    def __init__(self, browser, setup: Setup) -> None:
        self.browser, self.setup, self.contexts, self.dialogs = browser, setup, [], []

    def open(self, viewport: dict, person: int):
        context = self.browser.new_context(viewport=viewport, is_mobile=viewport == PHONE, has_touch=viewport == PHONE)
        self.contexts.append(context)
        if self.setup.replicas:
            context.add_cookies([{"name": "BPE_REPLICA", "value": self.setup.replicas[person], "url": self.setup.url}])
        return self.watched(context.new_page())

    def another_tab(self, page):
        """A new tab in ``page``'s browser (its cookies, a session of its own), as a person opens a
        second link."""
        return self.watched(page.context.new_page())

    def watched(self, page):
        page.set_default_timeout(30_000)
        page.on("dialog", lambda dialog: (self.dialogs.append(dialog.message), dialog.dismiss()))
        return page

    def close(self) -> None:
        for context in self.contexts:
            context.close()


def people_of(browser, setup: Setup):
    people = Browsers(browser, setup)
    try:
        yield people
    finally:
        people.close()


@pytest.fixture
def browsers(browser, setup):
    yield from people_of(browser, setup)


@pytest.fixture
def people(browser, either_setup):
    yield from people_of(browser, either_setup)


def audit(page, name: str) -> None:
    expect(page.locator('[data-testid="stSkeleton"]')).to_have_count(0)
    violations = axe_violations(page)
    assert not violations, f"{name}:\n{report(violations)}"


def answer_button(page, pair: str):
    return page.get_by_role("button", name=re.compile(rf"^\d\. {re.escape(pair)}"))


def counts(page):
    return page.locator(".bpe-room-counts")


def unreachable(page):
    return page.get_by_text(re.compile(r"Class room \w{6} cannot be reached just now"))


def holds_no_key(page, keys: list[str]) -> None:
    """The projected page: its address, title, every link and its whole HTML hold no teacher key."""
    page.wait_for_load_state()
    shown = " ".join([page.url, page.title(), page.content(),
                      *page.locator("a[href]").evaluate_all("links => links.map(link => link.href)")])
    assert "teacher=" not in shown and not [key for key in keys if key in shown]


def test_a_class_answers_on_phones_and_the_projector_shows_the_room(setup, browsers, picture):
    teacher = browsers.open(PROJECTOR, 0)
    teacher.goto(f"{setup.url}/Predict_the_next_merge?preset=wikipedia&step=1&present=1")
    teacher.get_by_role("button", name="Start a class room").click(timeout=FIRST_LOAD_MS)
    expect(teacher.get_by_role("button", name="Reveal the answers")).to_be_visible()
    # The address bar takes the room's link a moment after the page is drawn (a loaded machine showed
    # the Reveal button first): wait for it rather than read it once.
    expect(teacher).to_have_url(re.compile(r"room=\w{6}"))
    code = re.search(r"room=(\w{6})", teacher.url).group(1)
    link = teacher.locator(".bpe-room-link")
    expect(link).to_have_text(f"{setup.url}/Predict_the_next_merge?room={code}")
    expect(teacher.locator("img.bpe-qr")).to_be_visible()
    holds_no_key(teacher, [])
    assert 0 <= teacher.locator("h1").bounding_box()["y"] < 60  # opened at its top, not scrolled down to "Start"
    audit(teacher, "teacher, asking")

    students = []
    for person, nickname in enumerate(["Ana", HOSTILE, ""], start=1):
        student = browsers.open(PHONE, person)
        student.goto(f"{setup.url}/Predict_the_next_merge?room={code}")
        student.get_by_label("Nickname (optional)").fill(nickname)
        if person == 1:
            audit(student, "student, join form")
        student.get_by_role("button", name="Join").click()
        expect(student.get_by_text("have answered")).to_be_visible(timeout=FIRST_LOAD_MS)
        students.append(student)
    ana, sly, cy = students
    if setup.replicas:
        assert [c["value"] for ctx in browsers.contexts for c in ctx.cookies() if c["name"] == "BPE_REPLICA"] == list(setup.replicas)
    expect(counts(teacher)).to_contain_text("3 joined")
    expect(teacher.locator(".bpe-room-names")).to_contain_text(HOSTILE)  # as text
    expect(sly.get_by_text(f"· {HOSTILE}")).to_be_visible()
    assert teacher.locator(".bpe-room-names svg").count() == 0 and sly.locator("main svg[onload]").count() == 0
    audit(ana, "student, asking")

    answer_button(ana, "'a' + 'b'").dblclick()  # a double tap
    expect(ana.get_by_text("Your answer is in")).to_be_visible()
    answer_button(sly, "'aa' + 'a'").click()
    expect(counts(teacher)).to_contain_text("2 of 3 answered")  # without a click on the projector

    if setup.redis is not None:  # Redis stopped mid-question, then back
        setup.redis.stop()
        for page in (teacher, cy):
            expect(unreachable(page)).to_be_visible()
        expect(teacher.get_by_role("button", name="Show the answer")).to_be_visible()  # the projector: the quiz alone
        expect(cy.get_by_text("A tap is kept on this phone")).to_be_visible()  # the phone keeps its question
        expect(cy.get_by_role("button", name="Show the answer")).to_have_count(0)
        answer_button(cy, "'a' + 'c'").click()
        expect(cy.get_by_text("your answer is kept on this page")).to_be_visible()
        setup.redis.start()
        expect(counts(teacher)).to_contain_text("3 of 3 answered")  # the kept tap was sent, without a click
        expect(cy.get_by_text("the answer you tapped meanwhile is in")).to_be_visible()
        expect(unreachable(teacher)).to_have_count(0)
    else:
        answer_button(cy, "'a' + 'c'").click()
    expect(counts(teacher)).to_contain_text("3 of 3 answered")
    picture(teacher, f"room-projector-asking-1280x720-{setup.name}")
    picture(ana, f"room-phone-answered-390x844-{setup.name}")
    ana.reload()  # a phone that reloads (or whose replica died): the same question, its one answer
    expect(ana.locator(".bpe-room-choices li.bpe-picked")).to_have_text("'a' + 'b' ◀ your answer")
    expect(ana.get_by_role("button", name=re.compile(r"^\d\. "))).to_have_count(0)  # nothing left to press
    expect(ana.get_by_text("Your answer is in")).to_be_visible()

    teacher.keyboard.press("PageDown")  # the clicker: reveal
    chart = teacher.locator(".bpe-answers")
    expect(chart).to_be_visible()
    for row, (pair, count) in enumerate([("'a' + 'b'", "1"), ("'aa' + 'a'", "1"), ("'a' + 'c'", "1"), ("'b' + 'a'", "0")]):
        expect(chart.locator("tr").filter(has_text=pair)).to_contain_text(count)
    expect(chart.locator("tr.bpe-chosen")).to_contain_text("'a' + 'b'")
    expect(chart.locator("tr.bpe-chosen")).to_contain_text("merged next")
    expect(teacher.get_by_text("lexicographic-min rule picks 'a' + 'b'")).to_be_visible()
    for student, verdict in ((ana, "Right: 'a' + 'b' occurs 2 times"), (sly, "Right count, but the tie-break picks"),
                             (cy, "Not this one: 'a' + 'c' occurs 1 time")):
        expect(student.locator(".bpe-answers tr.bpe-chosen")).to_contain_text("merged next")  # without a click
        expect(student.get_by_text(verdict)).to_be_visible()
    expect(cy.locator(".bpe-room-choices li.bpe-picked")).to_have_text("'a' + 'c' ✗ your answer")  # no tick beside it
    audit(teacher, "teacher, revealed")
    audit(ana, "student, revealed")
    picture(teacher, f"room-projector-revealed-1280x720-{setup.name}")
    picture(ana, f"room-phone-revealed-390x844-{setup.name}")

    guesser = browsers.another_tab(cy)  # a student trying a teacher link with a guessed key
    guesser.goto(f"{setup.url}/Predict_the_next_merge?room={code}&teacher=AAAAAAAAAAAAAAAAAAAAAAAA")
    expect(guesser.get_by_text(f"This link does not open room {code}'s teacher's controls")).to_be_visible()
    expect(guesser.get_by_role("button", name="Join")).to_be_visible()
    expect(guesser.get_by_role("button", name="Next question")).to_have_count(0)

    holds_no_key(teacher, [])
    teacher.keyboard.press("PageDown")  # the clicker again: every phone moves on
    for student in students:
        expect(student.get_by_text("After 2 merges, which pair does merge 3 join?")).to_be_visible()
        expect(student.get_by_role("button", name=re.compile(r"^1\. "))).to_be_enabled()
    guess_the_tokens(setup, browsers, teacher, students, code, picture)
    assert browsers.dialogs == []


def test_a_seat_link_opened_in_another_browser_joins_as_a_seat_of_its_own(either_setup, people):
    """Ana's address bar (her seat) shared in the class chat and opened in Bo's browser (a context of
    its own: its own cookies; on the other replica when there are two): the page says the seat is
    hers and offers Bo the join form; his tap is his own seat's; her reload still asks her."""
    setup = either_setup
    teacher = people.open(PROJECTOR, 0)
    teacher.goto(f"{setup.url}/Predict_the_next_merge?preset=wikipedia&step=1&present=1")
    teacher.get_by_role("button", name="Start a class room").click(timeout=FIRST_LOAD_MS)
    expect(teacher).to_have_url(re.compile(r"room=\w{6}"))
    code = re.search(r"room=(\w{6})", teacher.url).group(1)
    ana = people.open(PHONE, 1)
    ana.goto(f"{setup.url}/Predict_the_next_merge?room={code}")
    ana.get_by_label("Nickname (optional)").fill("Ana")
    ana.get_by_role("button", name="Join").click()
    expect(ana.get_by_text("have answered")).to_be_visible(timeout=FIRST_LOAD_MS)
    expect(ana).to_have_url(re.compile(r"student=[\w-]{16}"))
    shared = ana.url

    bo = people.open(PHONE, 2)
    bo.goto(shared)
    expect(bo.get_by_text("This link is another student's seat")).to_be_visible(timeout=FIRST_LOAD_MS)
    expect(bo.get_by_role("button", name=re.compile(r"^\d\. "))).to_have_count(0)
    bo.get_by_label("Nickname (optional)").fill("Bo")
    bo.get_by_role("button", name="Join").click()
    answer_button(bo, "'a' + 'b'").click()
    expect(bo.get_by_text("Your answer is in")).to_be_visible()
    expect(counts(teacher)).to_contain_text("1 of 2 answered")
    seats = {re.search(r"student=([\w-]{16})", page.url).group(1) for page in (ana, bo)}
    cookies = {c["value"] for page in (ana, bo) for c in page.context.cookies() if c["name"] == "bpe_lab_browser"}
    assert len(seats) == 2 and len(cookies) == 2

    ana.reload()  # her own browser: her seat, still unanswered
    expect(answer_button(ana, "'a' + 'b'")).to_be_visible()
    expect(ana.locator("main")).to_contain_text("· Ana")
    expect(ana.get_by_text("Your answer is in")).to_have_count(0)
    expect(ana.get_by_text("another student's seat")).to_have_count(0)
    assert people.dialogs == []


def guess_the_tokens(setup: Setup, browsers: Browsers, teacher, students: list, code: str, picture) -> None:
    """The room's second kind of question, asked from the teacher's controls to five phones."""
    with teacher.context.expect_page() as opened:  # the projector's way to the controls: a new tab, no key in its link
        teacher.get_by_role("link", name=re.compile("Teacher's controls")).click()
    controls = browsers.watched(opened.value)
    expect(controls.get_by_text("Keep this screen off the projector")).to_be_visible(timeout=FIRST_LOAD_MS)
    controls.get_by_role("button", name="Make a teacher link for my phone").click()
    phone_link = controls.locator(".bpe-room-link")
    expect(phone_link).to_contain_text("teacher=")
    keys = [seen_texts(phone_link)[0].split("teacher=")[1].strip()]
    audit(controls, "teacher's controls")
    holds_no_key(teacher, keys)
    for person in (4, 5):  # two more phones: five in all
        student = browsers.open(PHONE, person % 2)
        student.goto(f"{setup.url}/Predict_the_next_merge?room={code}")
        student.get_by_role("button", name="Join").click()
        expect(student.get_by_text("have answered")).to_be_visible(timeout=FIRST_LOAD_MS)
        students.append(student)
    expect(counts(teacher)).to_contain_text("5 joined")

    # From the keyboard, as the other tests pick (a list opened by a click under load was not drawn in 30 s).
    choose(controls, "A Why card's case, or your own phrase", "Spelling: ' strawberry'")
    controls.get_by_role("button", name="Ask the class").click()
    expect(teacher.get_by_text("how many tokens does GPT-2 make of this?")).to_be_visible()
    expect(teacher.locator(".bpe-phrase")).to_have_text(" strawberry")
    holds_no_key(teacher, keys)
    for student, guess in zip(students, (1, 1, 2, 5, 3)):
        expect(student.get_by_label("Your guess (tokens)")).to_be_visible()
        student.get_by_label("Your guess (tokens)").fill(str(guess))
        student.get_by_role("button", name="Send my guess").click()
        expect(student.get_by_text(f"Your guess: {guess} token")).to_be_visible()
    expect(counts(teacher)).to_contain_text("5 of 5 answered")
    audit(students[0], "student, guessing")
    picture(teacher, f"room-projector-guess-asking-1280x720-{setup.name}")
    picture(students[2], f"room-phone-guess-answered-390x844-{setup.name}")

    teacher.keyboard.press("PageDown")  # reveal: the histogram against the real count, and the chips
    chart = teacher.locator(".bpe-answers")
    expect(chart.locator("tr.bpe-chosen")).to_contain_text("the real count")
    expect(chart.locator("tr.bpe-chosen th")).to_have_text("1")
    expect(chart.locator("tr.bpe-chosen")).to_contain_text("2")  # two guessed 1
    expect(teacher.locator('.bpe-splits [data-id="41236"]')).to_be_visible()  # GPT-2's " strawberry", one token
    # 2 for a count of 1 is not within a fifth of it: red, as 5 and 3 are (the README: amber within a fifth)
    for student, kind in zip(students, ("stAlertContentSuccess", "stAlertContentSuccess", "stAlertContentError",
                                        "stAlertContentError", "stAlertContentError")):
        expect(student.get_by_test_id(kind).filter(has_text="costs 1 token")).to_be_visible()
    audit(teacher, "teacher, guesses revealed")
    audit(students[2], "student, guess revealed")
    holds_no_key(teacher, keys)
    picture(teacher, f"room-projector-guess-revealed-1280x720-{setup.name}")
    picture(students[2], f"room-phone-guess-revealed-390x844-{setup.name}", full_page=True)

    teacher.keyboard.press("Escape")  # the clicker's Esc: the first press asks
    expect(teacher.get_by_role("button", name=f"Press Esc again to close room {code} for everyone")).to_be_visible()
    teacher.keyboard.press("Escape")
    expect(teacher.get_by_text(f"Room {code} is closed")).to_be_visible()
    for student in students:
        expect(student.get_by_text(f"The teacher closed room {code}")).to_be_visible()
    holds_no_key(teacher, keys)
    picture(teacher, f"room-projector-closed-1280x720-{setup.name}")
