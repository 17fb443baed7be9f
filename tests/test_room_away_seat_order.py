"""A full class room gives the seat away from the student away the longest first.

(Written against today's ``bpe/teaching/room_seats.py``, which issue 48's owner may move.)
"""

from __future__ import annotations

from bpe.limits import SEAT_LAPSE_S
from bpe.teaching.room import MergeAsk, Room
from bpe.teaching.room_seats import Seat, seats_to_free


def test_the_seat_away_the_longest_gives_way_first_and_only_as_many_as_needed():
    room = Room.open("K7QX3M", teacher_token="k", lesson=(), step=0, question=MergeAsk(()), now=0.0, size=3)
    now = 10 * SEAT_LAPSE_S
    seats = [Seat("b" * 16, "", "c", seen=now - 2 * SEAT_LAPSE_S), Seat("a" * 16, "", "c", seen=now - 5 * SEAT_LAPSE_S),
             Seat("c" * 16, "", "c", seen=now - 3 * SEAT_LAPSE_S)]  # all three away, "a" the longest, then "c"
    assert seats_to_free(room, seats, "d" * 16, now=now) == ("a" * 16,)
    assert seats_to_free(room, [*seats, Seat("e" * 16, "", "c", seen=now)], "d" * 16, now=now) == ("a" * 16, "c" * 16)
