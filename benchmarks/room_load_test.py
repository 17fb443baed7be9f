"""A live class room under load: one teacher and N students in one room, over two replicas and
Redis, speaking Streamlit's own protocol (no browsers: on a real class each phone draws its own page).

It starts ``scripts/serve.sh --replicas 2`` (HAProxy, two app replicas and Redis; ``--replicas 1``
for the same class on one process; or drives one running at ``--url``), then, as browsers would: the teacher opens Predict the next merge on the
Sennrich example and presses "Start a class room"; every student loads the page (HAProxy's cookie
keeps each on the replica it was given), opens the join link and joins with a nickname (all at once,
as a class told "join now" does; the time from the link to the room is printed); one more phone then
joins the seated class, as a latecomer would (its time printed; it stays silent after); then for
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
twice, p95 of an answer's round trip (click sent to the page redrawn with "Your answer is in")
under 1 s, every student sees "Your answer is in", every phone shows every reveal within 2 s, and
no error.

Before the first question the class only polls for ten of the phones' timer periods; the
server's CPU in that window, while answering and while revealing gives the CPU per answer and per
reveal (``room_cpu.py``), printed with the load average at the start and the end (the machine is
shared: run it alone, e.g. under ``flock`` with a lock file the other heavy runs share).

    .venv/bin/python benchmarks/room_load_test.py --students 60 --questions 10
    .venv/bin/python benchmarks/room_load_test.py --students 60 --questions 10 --replicas 1
    .venv/bin/python benchmarks/room_load_test.py --students 60 --questions 10 --kind guess

The adversary's cases (a class behind one address with a flooding client; a client that leaves
and joins again and again) are ``benchmarks/room_adversary_test.py``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import resource
import time
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from pathlib import Path

from load_common import cpu_seconds, percentile
from room_cpu import Meter
from room_client import ANSWERED, LESSON, QUESTION_NO, REVEALED, open_page, room_of, shown, tally_shown, timer

from tests.apptest_support import plain  # noqa: E402  (load_common put the project root on sys.path)
from tests.replica_set import ReplicaSet  # noqa: E402
from ui.room_polling import STUDENT_POLL_S  # noqa: E402

ANSWER_WITHIN_S = 10.0
COUNT_WITHIN_S = 2.0
REVEAL_WITHIN_S = 2.0
"""Longest from the teacher's Reveal to its verdict on any phone."""
TARGET_P95_S = 1.0
QUESTION_LIMIT_S = 60.0
"""Longest a question may take before the run gives up on it (a bound, never a target)."""

SETTLE_S = 2 * STUDENT_POLL_S
"""How long the seated class polls before the polling window opens: the joins' own work (the last
pages, the latecomer) ends in it."""
POLLING_WINDOW_S = 10 * STUDENT_POLL_S
"""How long the seated class only polls before the first question (ten of the phones' periods): each
reveal's CPU is a small difference from the polling's in as long a time (with three periods, right
after the joins, a class of 60 on one process once measured -31 ms a reveal)."""

MAX_GUESS = 10


@dataclass
class Student:
    index: int
    replica: str = ""
    joined_after: float | None = None
    """Seconds from opening the join link (a new browser) to the room drawn on the phone after Join."""
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
    """When the teacher pressed Reveal (the click sent): a phone may show it before the click's own page is back."""
    tally: dict[int, int] = field(default_factory=dict)
    choices: int = 0


class Lesson:
    """What the teacher's page has announced, for the students to wait on."""

    def __init__(self, meter: Meter) -> None:
        self.meter = meter
        self.code = ""
        self.late_join_s: float | None = None
        """Seconds a phone took from opening the join link to the room drawn, the class seated and polling."""
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
        opened = time.monotonic()
        client, student.replica = await open_page(stack, url, f"room={code}")
        await client.click("w.room.join", ("w.room.nickname", "string_value", f"student {student.index}"))
        if "have answered" not in shown(client):
            raise AssertionError(f"joining did not show the room: {plain(shown(client))[:160]}")
        student.joined_after = time.monotonic() - opened
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
                student.round_trips.append(await client.tap(*tap))
                student.answered_at[number] = time.monotonic()
                if "Your answer is in" not in shown(client):
                    page = plain(shown(client))
                    student.errors.append(f"question {number}: no 'Your answer is in' after answering; the page: "
                                          + page[page.find("Room **"):][:240].replace("\n", " | "))
                if student.index % 5 == 0:  # a double tap: the second one must change nothing
                    await client.tap(*tap)
            question = lesson.questions.get(number)
            if not revealed and question and question.revealed_at and REVEALED.search(plain(shown(client))):
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
        opened = time.monotonic()  # one more phone joins the seated class, as a latecomer does
        late, _ = await open_page(stack, url, f"room={lesson.code}")
        await late.click("w.room.join", ("w.room.nickname", "string_value", "latecomer"))
        if "have answered" not in shown(late):
            raise AssertionError(f"the latecomer's join did not show the room: {plain(shown(late))[:160]}")
        lesson.late_join_s = time.monotonic() - opened
        await asyncio.sleep(SETTLE_S)
        started = lesson.meter.reading()  # the seated class only polls: what that costs alone
        await asyncio.sleep(POLLING_WINDOW_S)
        lesson.meter.close("polling", started)
        for number in range(1, questions + 1):
            answering = lesson.meter.reading()
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
            lesson.meter.close("answering", answering)
            revealing = lesson.meter.reading()
            question.revealed_at = time.monotonic()
            await client.click("w.room.reveal")
            question.tally = tally_shown(client)
            await lesson.announce()
            await asyncio.sleep(3.0)  # the class looks at the chart (and every phone shows it)
            lesson.meter.close("revealing", revealing)
            if number < questions and controls is None:
                await client.click("w.room.next")
    except Exception as error:  # noqa: BLE001 (reported, and the class is dismissed)
        errors.append(f"teacher: {type(error).__name__}: {str(error)[:160]}")
    finally:
        lesson.over = True
        lesson.opened.set()
        await lesson.announce()
    return errors


async def lesson_run(url: str, args, meter: Meter) -> tuple[list[Student], dict[int, Question], list[str]]:
    rng = random.Random(args.seed)
    students = [Student(index) for index in range(args.students)]
    lesson = Lesson(meter)
    async with AsyncExitStack() as stack:
        arrived = [asyncio.Event() for _ in students]
        teacher = asyncio.create_task(teacher_lesson(stack, url, students, args.questions, lesson, arrived, args.kind))
        await lesson.opened.wait()
        classes = [
            student_lesson(stack, url, lesson.code, student, lesson, event, args.think, random.Random(rng.random()))
            for student, event in zip(students, arrived)
        ] if lesson.code else []
        *_, teacher_errors = await asyncio.gather(*classes, teacher)
    if lesson.late_join_s is not None:
        print(f"a phone joining the seated class (a latecomer; silent after): {lesson.late_join_s:.2f} s")
    return students, lesson.questions, teacher_errors


def report(students: list[Student], questions: dict[int, Question], errors: list[str]) -> bool:
    spread = {replica: sum(s.replica == replica for s in students) for replica in sorted({s.replica for s in students})}
    print(f"students {len(students)} on {spread}; questions {len(questions)}")
    if joins := [s.joined_after for s in students if s.joined_after is not None]:
        print(f"a phone joining (the link opened to the room drawn after Join, the whole class at once): "
              f"p50 {statistics.median(joins):.2f} s, p95 {percentile(joins, 0.95):.2f} s, max {max(joins):.2f} s")
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
        print(f"reveal reached the phones: p50 {statistics.median(seen):.2f} s, p95 {percentile(seen, 0.95):.2f} s, "
              f"max {max(seen):.2f} s (target: every phone within {REVEAL_WITHIN_S:g} s)")
    unrevealed = sum(len(questions) - len(s.reveal_seen_after) for s in students)
    if unrevealed:
        problems.append(f"{unrevealed} reveals never reached a phone")
    print(f"slowest question: all answered within {slowest_answer:.1f} s (target {ANSWER_WITHIN_S:g} s); "
          f"teacher's count complete {slowest_count:.2f} s after the last answer (target {COUNT_WITHIN_S:g} s)")
    print(f"errors: {len(problems)}")
    for problem in problems[:10]:
        print(f"  {problem}")
    met = (met and not problems and lost == 0 and doubled == 0 and trips and percentile(trips, 0.95) < TARGET_P95_S
           and slowest_answer <= ANSWER_WITHIN_S and slowest_count <= COUNT_WITHIN_S and max(seen, default=0.0) <= REVEAL_WITHIN_S
           and all(len(s.picks) == len(questions) for s in students))
    print("targets met" if met else "targets NOT met")
    return bool(met)


def load_average() -> str:
    """What ``uptime`` says of the machine's load (1, 5 and 15 minutes)."""
    return ", ".join(f"{value:.2f}" for value in os.getloadavg())


def measured(url: str, args, meter: Meter) -> bool:
    """Run the lesson and report it, with the server's CPU (when its processes are known) and the load average."""
    print(f"load average at the start: {load_average()}")
    before, started = {name: cpu_seconds(pid) for name, pid in meter.pids.items()}, time.monotonic()
    own = resource.getrusage(resource.RUSAGE_SELF)
    students, questions, errors = asyncio.run(lesson_run(url, args, meter))
    met = report(students, questions, errors)
    if meter.pids:
        used = {name: cpu_seconds(pid) - before[name] for name, pid in meter.pids.items()}
        print(f"server CPU over the lesson's {time.monotonic() - started:.0f} s: "
              + ", ".join(f"{name} {seconds:.1f} s" for name, seconds in used.items()))
    for line in meter.lines(phones=len(students), answers=sum(len(s.picks) for s in students), reveals=len(questions)):
        print(line)
    end = resource.getrusage(resource.RUSAGE_SELF)
    print(f"this load generator (the {len(students) + 1} browsers' sessions in one process) used "
          f"{end.ru_utime + end.ru_stime - own.ru_utime - own.ru_stime:.1f} s of CPU")
    print(f"load average at the end: {load_average()}")
    return met


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=60)
    parser.add_argument("--questions", type=int, default=10, help="at most 10 (the Sennrich example's merges)")
    parser.add_argument("--think", type=float, default=5.0, help="longest a student thinks before answering (s)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--kind", choices=("merge", "guess"), default="merge",
                        help="the questions: Predict the next merge, or Guess the tokens (asked from the teacher's controls)")
    parser.add_argument("--replicas", type=int, default=2, help="app processes behind HAProxy (1: the class on one process)")
    parser.add_argument("--url", help="drive this running scripts/serve.sh instead of starting one")
    args = parser.parse_args()
    if not (1 <= args.students <= 200 and 1 <= args.questions <= 10 and 1 <= args.think <= 8 and 1 <= args.replicas <= 8):
        parser.error("use 1-200 students, 1-10 questions, a think time of 1-8 s and 1-8 replicas")
    if args.url:
        return 0 if measured(args.url.rstrip("/"), args, Meter({})) else 2
    with tempfile.TemporaryDirectory(prefix="bpe-room-load-") as redis_dir, \
            ReplicaSet(replicas=args.replicas, redis_dir=Path(redis_dir)) as replicas:
        print("".join(replicas.output), end="")
        started = len(replicas.output)
        met = measured(replicas.url, args, Meter(dict(replicas.pids)))
        # HAProxy's word on the replicas meanwhile (a health check that timed out, a drain): where a class went
        for line in replicas.output[started:]:
            if "Server replicas/" in line:
                print("haproxy:", line.strip()[:160])
        return 0 if met else 2


if __name__ == "__main__":
    sys.exit(main())
