"""The class-room stores keep one contract: the same tests run over the in-process store and over
a real Redis (``redis-server`` started by the test on a free port with a password, stopped after).

Redis alone: it is stopped and started again mid-question (cleanly and by SIGKILL) and the room
and its answers are still there, and while it is down the store says so at once.
"""

from __future__ import annotations

import signal
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import redis

from bpe.limits import JOIN_ATTEMPTS_PER_MINUTE
from bpe.teaching.room import ASKING, CLOSED, REVEALED, AlreadyAnswered, Room, RoomRefused
from bpe.teaching.room_seats import new_seat
from bpe.teaching.room_questions import MergeAsk
from ui.redis_room_store import RedisRoomStore
from ui.room_store import MemoryRoomStore, RoomStoreUnavailable

from .machine_speed import scaled
from .redis_server import RedisServer, running_redis

pytestmark = pytest.mark.servers

TOKEN = "teacher-key"
CHOICES = ((97, 98), (256, 97), (98, 97), (97, 99))
AB, AAA, BA, AC = CHOICES


def new_room(code: str = "K7QX3M", step: int = 1, size: int = 60) -> Room:
    return Room.open(code, teacher_token=TOKEN, lesson=(("preset", "wikipedia"),), step=step, question=MergeAsk(CHOICES),
                     now=0.0, size=size)


class Clock:
    """A clock the memory store reads, moved on by the test (Redis keeps its own time)."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(scope="module")
def redis_server(tmp_path_factory):
    with running_redis(tmp_path_factory.mktemp("redis")) as server:
        yield server


@pytest.fixture(params=["memory", "redis"])
def store(request):
    if request.param == "memory":
        return MemoryRoomStore()
    server: RedisServer = request.getfixturevalue("redis_server")
    redis_store = RedisRoomStore(server.url)
    redis_store._redis.flushall()
    return redis_store


def seated(store, count: int, code: str = "K7QX3M") -> list[str]:
    seats = [new_seat() for _ in range(count)]
    for number, seat in enumerate(seats):
        store.join(code, seat, f"student {number}", "school")
    return seats


# -- the contract, over both stores ---------------------------------------------------------------
def test_a_new_room_is_read_back_whole_and_its_code_cannot_be_taken_twice(store):
    room = new_room()
    assert store.create(room)
    assert not store.create(new_room(step=5))
    view = store.view("K7QX3M")
    assert view.room == room and view.joined == 0 and view.answered == 0
    assert store.view("ZZZZZZ") is None


def test_students_join_with_optional_nicknames_and_a_rejoin_keeps_one_seat(store):
    store.create(new_room())
    ana, anon = new_seat(), new_seat()
    store.join("K7QX3M", ana, "Ana", "school")
    store.join("K7QX3M", anon, "", "school")
    store.join("K7QX3M", ana, "Ana B", "school")
    view = store.view("K7QX3M")
    assert view.joined == 2 and view.nicknames() == ["Ana B"] and view.has_seat(anon)


def test_each_seat_answers_once_and_its_first_answer_stands(store):
    store.create(new_room())
    ana, bo = seated(store, 2)
    store.answer("K7QX3M", ana, round=1, answer=AB)
    with pytest.raises(AlreadyAnswered, match="your first answer counts"):
        store.answer("K7QX3M", ana, round=1, answer=AAA)
    store.answer("K7QX3M", bo, round=1, answer=AAA)
    view = store.view("K7QX3M")
    assert view.answer_of(ana) == AB and view.answered == 2
    assert dict(view.tally()) == {AB: 1, AAA: 1, BA: 0, AC: 0}


@pytest.mark.parametrize("attempt, refusal", [
    (dict(round=1, answer=(1, 2)), "not one of this question's choices"),
    (dict(round=2, answer=AB), "moved on to question 1"),
])
def test_an_answer_outside_the_question_is_refused(store, attempt, refusal):
    store.create(new_room())
    seat, = seated(store, 1)
    with pytest.raises(RoomRefused, match=refusal):
        store.answer("K7QX3M", seat, **attempt)
    assert store.view("K7QX3M").answered == 0


def test_a_seat_that_never_joined_cannot_answer(store):
    store.create(new_room())
    with pytest.raises(RoomRefused, match="join the room before answering"):
        store.answer("K7QX3M", new_seat(), round=1, answer=AB)


def test_only_the_teachers_key_reveals_moves_on_or_closes(store):
    store.create(new_room())
    for forged in (lambda room: room.revealed_by("guess"), lambda room: room.revealed_by(None),
                   lambda room: room.next_question("", step=2, question=MergeAsk(CHOICES)), lambda room: room.closed_by("K7QX3M")):
        with pytest.raises(RoomRefused, match="only the teacher can"):
            store.change("K7QX3M", forged)
    assert store.view("K7QX3M").room.phase == ASKING
    assert store.change("K7QX3M", lambda room: room.revealed_by(TOKEN)).phase == REVEALED


def test_after_the_reveal_no_answer_lands_and_next_question_starts_a_fresh_round(store):
    store.create(new_room())
    ana, bo = seated(store, 2)
    store.answer("K7QX3M", ana, round=1, answer=AB)
    store.change("K7QX3M", lambda room: room.revealed_by(TOKEN))
    with pytest.raises(RoomRefused, match="answers are revealed"):
        store.answer("K7QX3M", bo, round=1, answer=AAA)
    store.change("K7QX3M", lambda room: room.next_question(TOKEN, step=2, question=MergeAsk((AC, BA))))
    view = store.view("K7QX3M")
    assert (view.room.round, view.room.step, view.room.phase, view.answered) == (2, 2, ASKING, 0)
    store.answer("K7QX3M", bo, round=2, answer=AC)
    assert dict(store.view("K7QX3M").tally()) == {AC: 1, BA: 0}


def test_a_closed_room_takes_no_one_and_no_answer(store):
    store.create(new_room())
    seat, = seated(store, 1)
    assert store.change("K7QX3M", lambda room: room.closed_by(TOKEN)).phase == CLOSED
    with pytest.raises(RoomRefused, match="closed this room"):
        store.join("K7QX3M", new_seat(), "late", "school")
    with pytest.raises(RoomRefused, match="closed this room"):
        store.answer("K7QX3M", seat, round=1, answer=AB)


def test_a_class_answering_at_once_with_double_taps_is_counted_once_each(store):
    """60 students on 60 threads, every third tapping twice: 60 answers, none lost, none doubled."""
    store.create(new_room())
    seats = seated(store, 60)
    picks = {seat: CHOICES[number % 4] for number, seat in enumerate(seats)}
    taps = [(seat, choice) for seat, choice in picks.items()]
    taps += [(seat, CHOICES[(CHOICES.index(choice) + 1) % 4]) for seat, choice in list(picks.items())[::3]]
    refused = []

    def tap(seat_choice):
        try:
            store.answer("K7QX3M", seat_choice[0], round=1, answer=seat_choice[1])
        except AlreadyAnswered:
            refused.append(seat_choice[0])

    with ThreadPoolExecutor(16) as pool:
        list(pool.map(tap, taps))
    view = store.view("K7QX3M")
    assert view.answered == 60 and len(refused) == 20
    assert dict(view.answers) == {seat: view.answer_of(seat) for seat in seats}
    assert sum(count for _, count in view.tally()) == 60
    # Whichever tap of a double landed first counts, and only one of them does.
    assert all(view.answer_of(seat) in (picks[seat], CHOICES[(CHOICES.index(picks[seat]) + 1) % 4]) for seat in seats)


def test_an_answer_checked_just_before_the_reveal_but_written_after_it_is_refused(store, monkeypatch):
    """The race, staged: the answer has read the room (still asking) and passed the check when the
    teacher reveals. Redis must then refuse it (its WATCH sees the room change and checks again); the
    memory store's lock holds the reveal back until the answer is in. Never: an answer stored after
    the reveal."""
    store.create(new_room())
    seat, = seated(store, 1)
    checked, revealed = threading.Event(), threading.Event()
    check = Room.check_answer

    def slow_check(room, **answer):
        check(room, **answer)
        if not checked.is_set():  # the first check only: hold the answer between its read and its write
            checked.set()
            revealed.wait(timeout=0.5)  # the memory store's lock keeps the reveal out: go on after a moment

    monkeypatch.setattr(Room, "check_answer", slow_check)
    outcome = []

    def answer():
        try:
            store.answer("K7QX3M", seat, round=1, answer=AB)
            outcome.append(("landed", revealed.is_set()))
        except RoomRefused as refusal:
            outcome.append(("refused", str(refusal)))

    student = threading.Thread(target=answer)
    student.start()
    assert checked.wait(timeout=scaled(10))
    store.change("K7QX3M", lambda room: room.revealed_by(TOKEN))
    revealed.set()
    student.join(timeout=scaled(10))
    assert outcome in ([("landed", False)], [("refused", "the answers are revealed: this question takes no more answers")])
    assert store.view("K7QX3M").answered == (outcome[0][0] == "landed")


def test_join_attempts_past_the_limit_are_refused(store):
    allowed = [store.allow("client-a", limit=JOIN_ATTEMPTS_PER_MINUTE, per_s=60) for _ in range(1_000)]
    assert allowed.count(True) == JOIN_ATTEMPTS_PER_MINUTE and allowed[:JOIN_ATTEMPTS_PER_MINUTE] == [True] * JOIN_ATTEMPTS_PER_MINUTE
    assert store.allow("client-b", limit=JOIN_ATTEMPTS_PER_MINUTE, per_s=60)  # another client is not held up


# -- expiry: each store's own clock ---------------------------------------------------------------------
def test_the_memory_store_forgets_a_room_idle_for_two_hours_and_a_closed_one_sooner():
    clock = Clock()
    store = MemoryRoomStore(clock=clock)
    store.create(new_room("K7QX3M"))
    store.create(new_room("AAAAAA"))
    seat, = seated(store, 1)
    clock.now += 2 * 3600 - 1
    store.answer("K7QX3M", seat, round=1, answer=AB)  # a write keeps it alive for two more hours
    clock.now += 2 * 3600 - 1
    assert store.view("K7QX3M") is not None and store.view("AAAAAA") is None
    store.change("K7QX3M", lambda room: room.closed_by(TOKEN))
    clock.now += 10 * 60 + 1
    assert store.view("K7QX3M") is None


def test_the_memory_stores_limit_slides_with_the_clock():
    clock = Clock()
    store = MemoryRoomStore(clock=clock)
    assert [store.allow("c", limit=2, per_s=60) for _ in range(3)] == [True, True, False]
    clock.now += 30
    assert not store.allow("c", limit=2, per_s=60)  # a window that slides: no fresh start on the minute
    clock.now += 30
    assert store.allow("c", limit=2, per_s=60) and store.allow("c", limit=2, per_s=60)
    assert not store.allow("c", limit=2, per_s=60)


def test_redis_expires_a_room_and_all_its_keys_after_its_idle_time(redis_server):
    store = RedisRoomStore(redis_server.url, idle_s=1)
    store._redis.flushall()
    store.create(new_room())
    seat, = seated(store, 1)
    store.answer("K7QX3M", seat, round=1, answer=AB)
    assert 0 < store._redis.ttl("bpe-lab:room:K7QX3M:seats") <= 1
    deadline = time.monotonic() + 20
    while store._redis.keys("bpe-lab:room:*") and time.monotonic() < deadline:  # waits on the keys, not a sleep
        time.sleep(0.1)
    assert store._redis.keys("bpe-lab:room:*") == [] and store.view("K7QX3M") is None


def test_redis_lets_a_refused_client_in_again_as_its_attempts_age_out(redis_server):
    store = RedisRoomStore(redis_server.url)
    store._redis.flushall()
    assert [store.allow("c", limit=3, per_s=1) for _ in range(5)] == [True, True, True, False, False]
    assert store._redis.zcard("bpe-lab:limit:c") == 3  # refused attempts are not kept
    deadline = time.monotonic() + 10
    while not store.allow("c", limit=3, per_s=1):  # waits on the window, not a sleep
        assert time.monotonic() < deadline
        time.sleep(0.05)


def test_a_class_answering_at_once_never_makes_redis_retry(redis_server, monkeypatch):
    """Students only refresh expiries, never what an answer WATCHes: 60 answers at once, no EXEC aborted."""
    store = RedisRoomStore(redis_server.url)
    store._redis.flushall()
    store.create(new_room())
    seats = seated(store, 60)
    aborted = []
    execute = redis.client.Pipeline.execute

    def counted(pipe, *args, **kwargs):
        try:
            return execute(pipe, *args, **kwargs)
        except redis.WatchError:
            aborted.append(1)
            raise

    monkeypatch.setattr(redis.client.Pipeline, "execute", counted)
    with ThreadPoolExecutor(30) as pool:
        list(pool.map(lambda seat: store.answer("K7QX3M", seat, round=1, answer=AB), seats))
    assert store.view("K7QX3M").answered == 60 and aborted == []


def test_redis_gives_a_room_two_hours(redis_server):
    store = RedisRoomStore(redis_server.url)
    store._redis.flushall()
    store.create(new_room())
    seated(store, 1)
    assert 2 * 3600 - 5 <= store._redis.ttl("bpe-lab:room:K7QX3M") <= 2 * 3600
    assert 2 * 3600 - 5 <= store._redis.ttl("bpe-lab:room:K7QX3M:seats") <= 2 * 3600


# -- Redis stopped mid-question ---------------------------------------------------------------------
@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL], ids=["stopped", "killed"])
def test_a_redis_restart_mid_question_keeps_the_room_and_its_answers(tmp_path, how):
    with running_redis(tmp_path) as server:
        store = RedisRoomStore(server.url)
        store.create(new_room())
        ana, bo, cy = seated(store, 3)
        store.answer("K7QX3M", ana, round=1, answer=AB)
        store.answer("K7QX3M", bo, round=1, answer=AAA)

        server.stop(how)
        with pytest.raises(RoomStoreUnavailable, match="Redis at 127.0.0.1"):
            store.view("K7QX3M")
        with pytest.raises(RoomStoreUnavailable):
            store.answer("K7QX3M", cy, round=1, answer=AB)

        server.start()
        view = store.view("K7QX3M")  # the same store object: its pooled connections died with Redis
        assert view.joined == 3 and dict(view.answers) == {ana: AB, bo: AAA}
        store.answer("K7QX3M", cy, round=1, answer=BA)
        with pytest.raises(AlreadyAnswered):
            store.answer("K7QX3M", ana, round=1, answer=BA)
        assert dict(store.view("K7QX3M").tally()) == {AB: 1, AAA: 1, BA: 1, AC: 0}


def test_a_wrong_password_is_unavailable_not_a_crash(redis_server):
    store = RedisRoomStore(redis_server.url.replace(redis_server.password, "wrong"))
    with pytest.raises(RoomStoreUnavailable, match="Redis at 127.0.0.1"):
        store.view("K7QX3M")
