"""A small class room still takes a few retries a minute: its join budget counts at least 15 seats.

(Written against today's ``bpe/teaching/room_seats.py``, which issue 48's owner may move.)
"""

from __future__ import annotations

import pytest

from bpe.limits import JOIN_ATTEMPTS_PER_SEAT_OF_ROOM
from bpe.teaching.room_seats import MIN_ROOM_BUDGET_SEATS, join_budgets


@pytest.mark.parametrize("size, seats_counted", [(1, MIN_ROOM_BUDGET_SEATS), (2, MIN_ROOM_BUDGET_SEATS), (60, 60)])
def test_a_rooms_join_budget_counts_at_least_the_minimum_seats(size, seats_counted):
    budgets = {budget.key.split(":")[0]: budget.limit for budget in join_budgets(
        session="s", browser="b", client="c", code="K7QX3M", size=size)}
    assert budgets["room"] == JOIN_ATTEMPTS_PER_SEAT_OF_ROOM * seats_counted
