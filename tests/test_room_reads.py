"""One read of a room for all its phones on a process (``ui.room_reads``), over both stores: the
polls of a quarter second share one store read, which stamps every seat that polled as here; a
whole page reads the store and leaves its read for the polls; a read that fails keeps the seats
seen for the next; many sessions polling at once make one read."""

from __future__ import annotations

import doctest
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

import ui.room_reads
import ui.room_store
from bpe.limits import SEAT_LAPSE_S
from ui.room_reads import SHARED_READ_S, SharedReads
from ui.room_store import MemoryRoomStore, RoomStoreUnavailable

from .test_room_stores import AB, Clock, new_room, redis_server, seated, store  # noqa: F401  (fixtures)

pytestmark = pytest.mark.servers


def moving_clock(store, monkeypatch) -> Clock:
    """One clock for the seats' "last seen" and the store's (Redis stamps with time.time)."""
    clock = Clock()
    monkeypatch.setattr(time, "time", clock)
    if isinstance(store, MemoryRoomStore):
        store._clock = clock
    return clock


class Counted:
    """A store that counts its reads (and can be made unreachable)."""

    def __init__(self, store, *, read_s: float = 0.0) -> None:
        self.store, self.reads, self.down, self.read_s = store, 0, False, read_s
        self._lock = threading.Lock()

    def view(self, code, *, seen=None):
        with self._lock:
            self.reads += 1
        time.sleep(self.read_s)  # a store a moment away: the other sessions' polls arrive meanwhile
        if self.down:
            raise RoomStoreUnavailable("stopped")
        return self.store.view(code, seen=seen)


@pytest.mark.parametrize("module", [ui.room_reads, ui.room_store], ids=lambda module: module.__name__)
def test_the_examples_in_the_modules_hold(module):
    assert doctest.testmod(module).failed == 0


def test_a_classes_polls_in_a_quarter_second_share_one_read_and_the_next_read_marks_them_all_here(store, monkeypatch):
    clock = moving_clock(store, monkeypatch)
    store.create(new_room())
    seats = seated(store, 30)
    counted, reads = Counted(store), SharedReads(clock=clock)
    clock.now += SEAT_LAPSE_S + 1
    assert store.view("K7QX3M").away(clock.now) == 30
    for seat in seats:
        assert reads.view(counted, "K7QX3M", seen=seat).joined == 30
    assert counted.reads == 1 and store.view("K7QX3M").away(clock.now) == 29  # the first poll's read stamped its own seat
    clock.now += SHARED_READ_S  # the next poll reads again, and sends the 29 seats that polled meanwhile
    reads.view(counted, "K7QX3M", seen=seats[0])
    assert counted.reads == 2 and store.view("K7QX3M").away(clock.now) == 0


def test_a_whole_page_reads_the_store_and_the_polls_after_it_get_that_read(store):
    clock = Clock()
    store.create(new_room())
    ana, = seated(store, 1)
    counted, reads = Counted(store), SharedReads(clock=clock)
    assert reads.view(counted, "K7QX3M", seen=ana).answered == 0  # a poll
    store.answer("K7QX3M", ana, round=1, answer=AB)
    assert reads.view(counted, "K7QX3M", seen=ana, max_age=0).answered == 1  # her page after her tap
    assert reads.view(counted, "K7QX3M", seen=ana).answered == 1  # the poll after it: never older than the page
    assert counted.reads == 2


def test_a_read_that_fails_keeps_the_seats_seen_for_the_next(store, monkeypatch):
    clock = moving_clock(store, monkeypatch)
    store.create(new_room())
    ana, bo = seated(store, 2)
    counted, reads = Counted(store), SharedReads(clock=lambda: 0.0)  # the reads' clock stands: only max_age=0 reads
    reads.view(counted, "K7QX3M")
    clock.now += SEAT_LAPSE_S + 1
    reads.view(counted, "K7QX3M", seen=bo)  # given the read of the moment: bo waits for the next read
    counted.down = True
    with pytest.raises(RoomStoreUnavailable):
        reads.view(counted, "K7QX3M", seen=ana, max_age=0)
    assert store.view("K7QX3M").away(clock.now) == 2
    counted.down = False
    reads.view(counted, "K7QX3M", max_age=0)
    assert store.view("K7QX3M").away(clock.now) == 0  # both sent by the read that got through


def test_sixty_sessions_polling_at_once_make_one_read(store):
    store.create(new_room())
    seats = seated(store, 60)
    counted, reads = Counted(store, read_s=0.2), SharedReads()
    with ThreadPoolExecutor(16) as pool:
        views = list(pool.map(lambda seat: reads.view(counted, "K7QX3M", seen=seat, max_age=60), seats))
    assert counted.reads == 1 and {view.joined for view in views} == {60}
