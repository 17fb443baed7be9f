"""A live class room under load: one teacher and N students in one room, over two replicas and
Redis, speaking Streamlit's own protocol (no browsers: on a real class each phone draws its own page).

It starts ``scripts/serve.sh --replicas 2`` (HAProxy, two app replicas and Redis; or drives one
running at ``--url``), then, as browsers would: the teacher opens Predict the next merge on the
Sennrich example and presses "Start a class room"; every student loads the page (HAProxy's cookie
keeps each on the replica it was given), opens the join link and joins with a nickname; then for
each of ``--questions`` questions:

* each student's page notices the new question through its fragment's timer (the interval the
  server asked for), thinks for a random 1 to ``--think`` seconds, and answers a random choice; one
  student in five taps twice;
* the teacher's page runs its counts fragment on its timer until it shows every student answered;
* the teacher reveals (the answers' bar chart is read and compared with what the students sent),
  then moves everyone on.

``--kind guess`` asks "Guess the tokens" instead: the teacher's controls (a second session of the
teacher's browser, as the projector's "Teacher's controls" link opens it) ask each question on a
phrase of their own, and each student types a guess of 1 to 10 tokens and sends it; the revealed
histogram is compared with what the students sent.

Targets (exit code 0 only if all are met): every student answers within 10 s of the question
opening, the teacher's count reaches N within 2 s of the last answer, no answer lost or counted
twice, and p95 of an answer's round trip (click sent to the page redrawn with "Your answer is in")
under 1 s.

    .venv/bin/python benchmarks/room_load_test.py --students 60 --questions 10
    .venv/bin/python benchmarks/room_load_test.py --students 60 --questions 10 --kind guess

The adversary's cases (a class behind one address with a flooding client; a client that leaves
and joins again and again) are ``benchmarks/room_adversary_test.py``.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import statistics
import sys
import tempfile
import time
import urllib.parse
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from pathlib import Path

from load_common import cpu_seconds, percentile
from server_load_test import ProtocolSession, connect, page_cookies

from tests.apptest_support import plain  # noqa: E402  (load_common put the project root on sys.path)
from tests.replica_set import ReplicaSet  # noqa: E402

PAGE = "Predict_the_next_merge"
LESSON = "preset=sennrich&step=0"
"""Sennrich's example trains 10 merges: 10 questions, about merges 1 to 10."""
ANSWER_WITHIN_S = 10.0
COUNT_WITHIN_S = 2.0
TARGET_P95_S = 1.0
QUESTION_LIMIT_S = 60.0
"""Longest a question may take before the run gives up on it (a bound, never a target)."""

QUESTION_NO = re.compile(r"question \*\*(\d+)\*\*")
ANSWERED = re.compile(r"<b>(\d+)</b> of (\d+) answered")
ANSWER_ROW = re.compile(r'<tr class="bpe-(\w+)"><th scope="row">(\d+)\.? .*?</th><td>.*?<b>(\d+)</b>')
GUESS_ROW = re.compile(r'<tr class="bpe-(\w+)"><th scope="row">(\d+)</th><td>.*?<b>(\d+)</b>')
REPLICA = re.compile(r"BPE_REPLICA=(\w+)")
BROWSER_COOKIE = re.compile(r"bpe_lab_browser=([\w-]{22})")
"""The id the page's one script writes into the browser's cookie (ui/browser.py): a client that
keeps its cookies, as a browser does, sends it with its next page."""
MAX_GUESS = 10


def shown(client: ProtocolSession) -> str:
    return "\n".join(client.texts)


def timer(client: ProtocolSession) -> tuple[str, float]:
    """The page's one fragment timer: ``(fragment id, seconds)`` (it moves when the page is redrawn)."""
    (fragment, every), = client.timers.items()
    return fragment, every


def room_of(client: ProtocolSession) -> dict[str, str]:
    """The parameters the page wrote into its address bar (``room``, ``teacher`` or ``seat``)."""
    return dict(urllib.parse.parse_qsl(client.query_string))


def tally_shown(client: ProtocolSession) -> dict[int, int]:
    """``{choice number (or count guessed): answers}`` from the revealed bar chart, zeros left out."""
    page = shown(client)
    rows = GUESS_ROW.findall(page) or ANSWER_ROW.findall(page)
    return {int(number): int(count) for _, number, count in rows if int(count)}


def browser_cookie(client: ProtocolSession, cookie: str) -> str:
    """``cookie`` with the browser id the page set, as a browser keeps it."""
    found = BROWSER_COOKIE.search(shown(client))
    return f"{cookie}; bpe_lab_browser={found.group(1)}" if found else cookie


async def open_page(stack: AsyncExitStack, url: str, query: str, cookie: str = "") -> tuple[ProtocolSession, str]:
    """A browser at ``url`` (a new one, or one holding ``cookie``) opening the page with ``query``:
    its session, and its replica."""
    cookie = await asyncio.to_thread(page_cookies, url, cookie=cookie)
    client = await connect(stack, url, cookie, page=PAGE)
    await client.run(query_string=query)
    client.cookie = browser_cookie(client, cookie)
    found = REPLICA.search(cookie)
    return client, found.group(1) if found else "one process"


@dataclass
class Student:
    index: int
    replica: str = ""
    picks: dict[int, int] = field(default_factory=dict)
    """question number -> the choice (1-based) this student's first tap sent."""
    answered_at: dict[int, float] = field(default_factory=dict)
    round_trips: list[float] = field(default_factory=list)
    reveal_seen_after: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


@dataclass
class Question:
    number: int
    opened_at: float
    all_counted_at: float | None = None
    revealed_at: float | None = None
    tally: dict[int, int] = field(default_factory=dict)
    choices: int = 0


class Lesson:
    """What the teacher's page has announced, for the students to wait on."""

    def __init__(self) -> None:
        self.code = ""
        self.opened = asyncio.Event()
        self.questions: dict[int, Question] = {}
        self.changed = asyncio.Condition()
        self.over = False

    async def announce(self, question: Question | None = None) -> None:
        async with self.changed:
            if question is not None:
                self.questions[question.number] = question
            self.changed.notify_all()


async def student_lesson(stack, url: str, code: str, student: Student, lesson: Lesson, seated: asyncio.Event,
                         think_s: float, rng: random.Random) -> None:
    try:
        client, student.replica = await open_page(stack, url, f"room={code}")
        await client.click("w.room.join", ("w.room.nickname", "string_value", f"student {student.index}"))
        if "have answered" not in shown(client):
            raise AssertionError(f"joining did not show the room: {plain(shown(client))[:160]}")
        seated.set()
        number, revealed = int(QUESTION_NO.search(shown(client)).group(1)), False
        while not lesson.over:
            page = shown(client)
            if (found := QUESTION_NO.search(page)) and int(found.group(1)) != number:
                number, revealed = int(found.group(1)), False
            guessing = "w.room.send_guess" in client.drawn
            if number not in student.picks and number in lesson.questions and ("w.room.answer.1" in client.drawn or guessing):
                await asyncio.sleep(rng.uniform(1.0, think_s))
                if guessing:
                    pick = rng.randint(1, MAX_GUESS)
                    tap = ("w.room.send_guess", ("w.room.guess", "int_value", pick))
                else:
                    choices = sum(1 for key in client.drawn if key.startswith("w.room.answer."))
                    pick = rng.randint(1, choices)
                    tap = (f"w.room.answer.{pick}",)
                student.picks[number] = pick
                student.round_trips.append(await client.click(*tap))
                student.answered_at[number] = time.monotonic()
                if "Your answer is in" not in shown(client):
                    student.errors.append(f"question {number}: no 'Your answer is in' after answering")
                if student.index % 5 == 0:  # a double tap: the second one must change nothing
                    await client.click(*tap)
            question = lesson.questions.get(number)
            if not revealed and question and question.revealed_at and "merged next" in plain(shown(client)):
                student.reveal_seen_after.append(time.monotonic() - question.revealed_at)
                revealed = True
            fragment, every = timer(client)
            await asyncio.sleep(every)
            await client.tick(fragment)
    except Exception as error:  # noqa: BLE001 (any failure is this student's error, reported)
        student.errors.append(f"{type(error).__name__}: {str(error)[:160]}")
        seated.set()


async def teacher_lesson(stack, url: str, students: list[Student], questions: int, lesson: Lesson,
                         arrived: list[asyncio.Event], kind: str = "merge") -> list[str]:
    errors: list[str] = []
    try:
        client, _ = await open_page(stack, url, LESSON)
        await client.click("w.room.start")
        lesson.code = room_of(client)["room"]
        lesson.opened.set()
        await asyncio.gather(*(event.wait() for event in arrived))
        controls = None
        if kind == "guess":  # the teacher's controls: the projector's browser, another tab
            controls, _ = await open_page(stack, url, f"room={lesson.code}&controls=1", cookie=client.cookie)
            if "w.room.ask" not in controls.drawn:
                raise AssertionError(f"the controls did not open: {plain(shown(controls))[:160]}")
        for number in range(1, questions + 1):
            if controls is not None:  # a new round: its number is the room's (the first round was a merge)
                await controls.click("w.room.ask", ("w.room.phrase", "string_value", f"Question {number}: how many tokens?"))
                number += 1
            question = Question(number, time.monotonic())
            while "w.room.reveal" not in client.drawn:  # the projector notices the new round on its own timer
                fragment, every = timer(client)
                await asyncio.sleep(every)
                await client.tick(fragment)
            await lesson.announce(question)
            deadline = time.monotonic() + QUESTION_LIMIT_S
            while (found := ANSWERED.search(shown(client))) is None or int(found.group(1)) < len(students):
                if time.monotonic() > deadline:
                    errors.append(f"question {number}: the teacher's count stopped at {found.group(1) if found else '?'}")
                    break
                fragment, every = timer(client)
                await asyncio.sleep(every)
                await client.tick(fragment)
            question.all_counted_at = time.monotonic()
            await client.click("w.room.reveal")
            question.revealed_at = time.monotonic()
            question.tally = tally_shown(client)
            await lesson.announce()
            await asyncio.sleep(3.0)  # the class looks at the chart (and every phone shows it)
            if number < questions and controls is None:
                await client.click("w.room.next")
    except Exception as error:  # noqa: BLE001 (reported, and the class is dismissed)
        errors.append(f"teacher: {type(error).__name__}: {str(error)[:160]}")
    finally:
        lesson.over = True
        lesson.opened.set()
        await lesson.announce()
    return errors


async def lesson_run(url: str, args) -> tuple[list[Student], dict[int, Question], list[str]]:
    rng = random.Random(args.seed)
    students = [Student(index) for index in range(args.students)]
    lesson = Lesson()
    async with AsyncExitStack() as stack:
        arrived = [asyncio.Event() for _ in students]
        teacher = asyncio.create_task(teacher_lesson(stack, url, students, args.questions, lesson, arrived, args.kind))
        await lesson.opened.wait()
        classes = [
            student_lesson(stack, url, lesson.code, student, lesson, event, args.think, random.Random(rng.random()))
            for student, event in zip(students, arrived)
        ] if lesson.code else []
        *_, teacher_errors = await asyncio.gather(*classes, teacher)
    return students, lesson.questions, teacher_errors


def report(students: list[Student], questions: dict[int, Question], errors: list[str]) -> bool:
    spread = {replica: sum(s.replica == replica for s in students) for replica in sorted({s.replica for s in students})}
    print(f"students {len(students)} on {spread}; questions {len(questions)}")
    met = not errors
    lost = doubled = 0
    slowest_answer = slowest_count = 0.0
    for number, question in sorted(questions.items()):
        sent = [s.picks[number] for s in students if number in s.picks]
        expected = {choice: sent.count(choice) for choice in set(sent)}
        lost += sum(max(0, count - question.tally.get(choice, 0)) for choice, count in expected.items())
        doubled += sum(max(0, count - expected.get(choice, 0)) for choice, count in question.tally.items())
        answered = [s.answered_at[number] for s in students if number in s.answered_at]
        last = max(answered, default=question.opened_at)
        within = last - question.opened_at
        count_lag = (question.all_counted_at or last) - last
        slowest_answer, slowest_count = max(slowest_answer, within), max(slowest_count, count_lag)
        print(f"  question {number}: {len(answered)} answered, the last {within:.1f} s after it opened; "
              f"the teacher's count showed all {count_lag:.2f} s after the last answer; chart {dict(sorted(question.tally.items()))}")
    trips = [t for s in students for t in s.round_trips]
    seen = [t for s in students for t in s.reveal_seen_after]
    problems = [f"student {s.index}: {e}" for s in students for e in s.errors] + errors
    print(f"answers sent {sum(len(s.picks) for s in students)}, lost {lost}, counted twice {doubled}")
    if trips:
        print(f"answer round trip: p50 {statistics.median(trips) * 1000:.0f} ms, p95 {percentile(trips, 0.95) * 1000:.0f} ms, "
              f"max {max(trips) * 1000:.0f} ms (target p95 < {TARGET_P95_S * 1000:.0f} ms)")
    if seen:
        print(f"reveal reached the phones: p50 {statistics.median(seen):.2f} s, p95 {percentile(seen, 0.95):.2f} s, max {max(seen):.2f} s")
    print(f"slowest question: all answered within {slowest_answer:.1f} s (target {ANSWER_WITHIN_S:g} s); "
          f"teacher's count complete {slowest_count:.2f} s after the last answer (target {COUNT_WITHIN_S:g} s)")
    print(f"errors: {len(problems)}")
    for problem in problems[:10]:
        print(f"  {problem}")
    met = (met and not problems and lost == 0 and doubled == 0 and trips and percentile(trips, 0.95) < TARGET_P95_S
           and slowest_answer <= ANSWER_WITHIN_S and slowest_count <= COUNT_WITHIN_S
           and all(len(s.picks) == len(questions) for s in students))
    print("targets met" if met else "targets NOT met")
    return bool(met)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=60)
    parser.add_argument("--questions", type=int, default=10, help="at most 10 (the Sennrich example's merges)")
    parser.add_argument("--think", type=float, default=5.0, help="longest a student thinks before answering (s)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--kind", choices=("merge", "guess"), default="merge",
                        help="the questions: Predict the next merge, or Guess the tokens (asked from the teacher's controls)")
    parser.add_argument("--url", help="drive this running scripts/serve.sh instead of starting one")
    args = parser.parse_args()
    if not (1 <= args.students <= 200 and 1 <= args.questions <= 10 and 1 <= args.think <= 8):
        parser.error("use 1-200 students, 1-10 questions and a think time of 1-8 s")
    if args.url:
        return 0 if report(*asyncio.run(lesson_run(args.url.rstrip("/"), args))) else 2
    with tempfile.TemporaryDirectory(prefix="bpe-room-load-") as redis_dir, ReplicaSet(redis_dir=Path(redis_dir)) as replicas:
        print("".join(replicas.output), end="")
        before, started = {name: cpu_seconds(pid) for name, pid in replicas.pids.items()}, time.monotonic()
        met = report(*asyncio.run(lesson_run(replicas.url, args)))
        used = {name: cpu_seconds(pid) - before[name] for name, pid in replicas.pids.items()}
        print(f"server CPU over the lesson's {time.monotonic() - started:.0f} s: "
              + ", ".join(f"{name} {seconds:.1f} s" for name, seconds in used.items()))
        return 0 if met else 2


if __name__ == "__main__":
    sys.exit(main())
