"""Seats in a class room, over both stores (the contract of tests/test_room_stores.py): a room's
size, the teacher's removal, away seats giving way in a full room, seats per network address, the
last place taken twice at once, and a "Guess the tokens" question's answers."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from bpe.limits import SEAT_LAPSE_S
from bpe.teaching.room import AlreadyAnswered, RoomRefused
from bpe.teaching.room_questions import CountAsk
from bpe.teaching.room_seats import Seat, new_seat
from ui.room_store import MemoryRoomStore, view_of

from .test_room_stores import AB, TOKEN, Clock, new_room, redis_server, seated, store  # noqa: F401  (fixtures)

pytestmark = pytest.mark.servers


def test_a_full_room_refuses_a_new_student_but_not_one_already_seated(store):
    store.create(new_room(size=2))
    ana, bo = seated(store, 2)
    with pytest.raises(RoomRefused, match=r"this room is full \(2 students\)"):
        store.join("K7QX3M", new_seat(), "late", "school")
    store.join("K7QX3M", ana, "Ana again", "school")  # a seated student's rejoin is not a new seat
    assert store.view("K7QX3M").joined == 2


def test_the_teacher_sizes_the_room_and_only_the_teacher(store):
    store.create(new_room(size=1))
    seated(store, 1)
    with pytest.raises(RoomRefused, match="only the teacher can change the room's size"):
        store.change("K7QX3M", lambda room: room.resized_by("guess", 5))
    store.change("K7QX3M", lambda room: room.resized_by(TOKEN, 2))
    seated(store, 1)
    assert store.view("K7QX3M").joined == 2


def test_the_teacher_removes_a_seat_with_its_answer_and_a_student_cannot(store):
    store.create(new_room())
    ana, bo = seated(store, 2)
    store.answer("K7QX3M", ana, round=1, answer=AB)
    store.answer("K7QX3M", bo, round=1, answer=AB)
    with pytest.raises(RoomRefused, match="only the teacher can remove a seat"):
        store.remove("K7QX3M", [ana], credential=bo)
    store.remove("K7QX3M", [ana], credential=TOKEN)
    view = store.view("K7QX3M")
    assert (view.joined, view.answered, view.has_seat(ana)) == (1, 1, False)
    assert dict(view.tally())[AB] == 1  # the chart never holds more answers than seated students
    with pytest.raises(RoomRefused, match="join the room before answering"):
        store.answer("K7QX3M", ana, round=1, answer=AB)


def test_a_pages_look_keeps_its_seat_here_and_a_full_room_gives_away_seats_to_newcomers(store, monkeypatch):
    """Time moves on for both stores alike: the store's clock and the seats' are patched together."""
    clock = Clock()
    monkeypatch.setattr(time, "time", clock)
    if isinstance(store, MemoryRoomStore):
        store._clock = clock
    store.create(new_room(size=2))
    gone, here = seated(store, 2)
    store.answer("K7QX3M", gone, round=1, answer=AB)
    clock.now += SEAT_LAPSE_S - 1
    store.view("K7QX3M", seen=here)  # the student's page polls: here
    clock.now += 2
    view = store.view("K7QX3M")
    assert view.away(clock.now) == 1 and view.joined == 2  # away, its answer still counted
    newcomer = new_seat()
    store.join("K7QX3M", newcomer, "new", "school")
    view = store.view("K7QX3M")
    assert {seat.id for seat in view.seats} == {here, newcomer} and view.answered == 0
    with pytest.raises(RoomRefused, match="this room is full"):  # both are here now
        store.join("K7QX3M", new_seat(), "late", "school")


def test_an_answer_that_lands_for_a_seat_removed_meanwhile_is_never_counted():
    """Redis: an answer checks its seat, then writes; a removal between the two leaves an answer
    of no seat. Whatever a store holds, what it reads counts seated seats only."""
    seats = [Seat("a" * 16, "Ana", "school", 0.0)]
    view = view_of(new_room(), seats, {"a" * 16: AB, "ghost-seat-00000": AB})
    assert (view.joined, view.answered, dict(view.tally())[AB]) == (1, 1, 1)


def test_a_look_from_a_removed_seat_does_not_seat_it_again(store):
    store.create(new_room())
    ana, = seated(store, 1)
    store.remove("K7QX3M", [ana], credential=TOKEN)
    assert store.view("K7QX3M", seen=ana).joined == 0


def test_the_teacher_sees_seats_per_network_address(store):
    store.create(new_room())
    for number, client in enumerate(["school"] * 3 + ["home"]):
        store.join("K7QX3M", new_seat(), f"s{number}", client)
    assert store.view("K7QX3M").per_client() == [("school", 3), ("home", 1)]


def test_two_students_taking_a_rooms_last_place_at_once_cannot_both_get_it(store):
    store.create(new_room(size=20))
    outcomes = []

    def join(seat):
        try:
            store.join("K7QX3M", seat, "", "school")
            outcomes.append("seated")
        except RoomRefused:
            outcomes.append("full")

    with ThreadPoolExecutor(8) as pool:
        list(pool.map(join, [new_seat() for _ in range(40)]))
    assert outcomes.count("seated") == 20 and store.view("K7QX3M").joined == 20


def test_a_guess_the_tokens_question_takes_whole_numbers_once_per_seat(store):
    store.create(new_room())
    ana, bo = seated(store, 2)
    store.change("K7QX3M", lambda room: room.next_question(TOKEN, step=1, question=CountAsk("Hello world", "gpt2", 2)))
    with pytest.raises(RoomRefused, match="a guess is a whole number of tokens"):
        store.answer("K7QX3M", ana, round=2, answer=AB)
    store.answer("K7QX3M", ana, round=2, answer=3)
    with pytest.raises(AlreadyAnswered):
        store.answer("K7QX3M", ana, round=2, answer=2)
    store.answer("K7QX3M", bo, round=2, answer=2)
    view = store.view("K7QX3M")
    assert dict(view.answers) == {ana: 3, bo: 2} and view.room.question.count == 2
