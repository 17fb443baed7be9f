"""Class rooms in Redis, shared by every replica of the app (``BPE_LAB_REDIS_URL``).

Keys, each expiring :data:`~bpe.limits.ROOM_IDLE_S` after the room's last write::

    bpe-lab:room:K7QX3M              the room (bpe.teaching.room.Room as JSON), written by the teacher only
    bpe-lab:room:K7QX3M:changes      how many times the teacher changed it (what every write WATCHes)
    bpe-lab:room:K7QX3M:seats        hash seat -> nickname
    bpe-lab:room:K7QX3M:answers:3    hash seat -> "left,right", the answers to round 3
    bpe-lab:limit:<client hash>       sorted set: the times of its allowed join attempts in the last minute

Why WATCH and not a Lua script: the rules stay in Python, in one place (:mod:`bpe.teaching.room`).
An answer WATCHes the room's ``changes``, checks the rules on the room it read, and writes with
HSETNX inside MULTI: if the teacher revealed or moved on in between, EXEC fails and the answer is
checked again (and refused); two answers from one seat race on HSETNX, and only the first lands.
Subtle: students only refresh expiries, and an EXPIRE counts as a change to WATCH, so they never
touch ``changes``; WATCHing the room's own key instead made a class answering at once retry
(measured: 478 retries for 60 simultaneous answers, now none).

Timeouts are short and there is one retry (a pooled connection that died with a Redis restart is
replaced at once): a page never hangs on a stopped Redis, it says so and carries on solo.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from urllib.parse import urlsplit

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from bpe.limits import MAX_ROOM_SEATS, ROOM_IDLE_S
from bpe.teaching.room import Pair, Room, RoomView, decode_choice, encode_choice

from .room_store import RoomStoreUnavailable, already_answered, expiry_s, no_such_room, not_seated, seats_full

TIMEOUT_S = 1.0
"""Longest wait for Redis on one command (it answers in well under a millisecond on loopback)."""
PREFIX = "bpe-lab:"


class RedisRoomStore:
    def __init__(self, url: str, *, idle_s: float = ROOM_IDLE_S) -> None:
        parts = urlsplit(url)
        self.where = f"Redis at {parts.hostname}:{parts.port or 6379}"  # never the password
        self.idle_s = idle_s
        self._redis = redis.Redis.from_url(
            url, decode_responses=True, socket_timeout=TIMEOUT_S, socket_connect_timeout=TIMEOUT_S,
            retry=Retry(NoBackoff(), 1), health_check_interval=0,
        )

    # -- keys -----------------------------------------------------------------------------------
    @staticmethod
    def _room_key(code: str) -> str:
        return f"{PREFIX}room:{code}"

    def _seats_key(self, code: str) -> str:
        return f"{self._room_key(code)}:seats"

    def _answers_key(self, code: str, round: int) -> str:
        return f"{self._room_key(code)}:answers:{round}"

    def _changes_key(self, code: str) -> str:
        return f"{self._room_key(code)}:changes"

    def _touch(self, pipe, room: Room, *, changed: bool = False) -> None:
        """Queue a fresh expiry on all the room's keys (inside MULTI); ``changed``: the teacher's
        new room too, counted in ``changes`` so that every write in flight is checked again."""
        ttl = max(1, round(expiry_s(room, self.idle_s)))
        if changed:
            pipe.set(self._room_key(room.code), room.to_json(), ex=ttl)
            pipe.incr(self._changes_key(room.code))
        else:
            pipe.expire(self._room_key(room.code), ttl)
        for key in (self._changes_key(room.code), self._seats_key(room.code), self._answers_key(room.code, room.round)):
            pipe.expire(key, ttl)

    @contextmanager
    def _reachable(self) -> Iterator[None]:
        try:
            yield
        except redis.RedisError as error:
            raise RoomStoreUnavailable(f"{self.where}: {type(error).__name__}: {error}") from error

    def _transaction(self, code: str, work: Callable) -> object:
        """Run ``work(pipe, room)`` WATCHing the room's changes, again until the teacher changed nothing meanwhile.

        ``work`` reads with ``pipe`` (immediate commands), then calls ``pipe.multi()`` and queues
        its writes; its return value (or what ``pipe.execute()`` returned, if it returns nothing)
        comes back."""
        with self._reachable(), self._redis.pipeline() as pipe:
            while True:
                try:
                    pipe.watch(self._changes_key(code))
                    raw = pipe.get(self._room_key(code))
                    if raw is None:
                        raise no_such_room(code)
                    kept = work(pipe, Room.from_json(raw))
                    executed = pipe.execute()
                    return executed if kept is None else kept
                except redis.WatchError:
                    continue
                finally:
                    pipe.reset()

    # -- the RoomStore interface -------------------------------------------------------------------
    def create(self, room: Room) -> bool:
        with self._reachable():
            ttl = max(1, round(expiry_s(room, self.idle_s)))
            return bool(self._redis.set(self._room_key(room.code), room.to_json(), nx=True, ex=ttl))

    def view(self, code: str) -> RoomView | None:
        with self._reachable():
            raw = self._redis.get(self._room_key(code))
            if raw is None:
                return None
            room = Room.from_json(raw)
            with self._redis.pipeline(transaction=False) as pipe:
                pipe.hgetall(self._seats_key(code))
                pipe.hgetall(self._answers_key(code, room.round))
                seats, answers = pipe.execute()
        return RoomView(room, tuple(seats.items()), tuple((seat, decode_choice(a)) for seat, a in answers.items()))

    def join(self, code: str, seat: str, nickname: str) -> None:
        def work(pipe, room: Room):
            room.check_open()
            if not pipe.hexists(self._seats_key(code), seat) and pipe.hlen(self._seats_key(code)) >= MAX_ROOM_SEATS:
                raise seats_full()
            pipe.multi()
            pipe.hset(self._seats_key(code), seat, nickname)
            self._touch(pipe, room)

        self._transaction(code, work)

    def answer(self, code: str, seat: str, *, round: int, choice: Pair) -> None:
        def work(pipe, room: Room):
            if not pipe.hexists(self._seats_key(code), seat):
                raise not_seated()
            room.check_answer(round=round, choice=choice)
            pipe.multi()
            pipe.hsetnx(self._answers_key(code, round), seat, encode_choice(choice))
            self._touch(pipe, room)

        if not self._transaction(code, work)[0]:  # HSETNX found an answer there: the first stands
            raise already_answered()

    def change(self, code: str, transition: Callable[[Room], Room]) -> Room:
        def work(pipe, room: Room):
            changed = transition(room)
            pipe.multi()
            self._touch(pipe, changed, changed=True)
            return changed

        return self._transaction(code, work)

    def allow(self, key: str, *, limit: int, per_s: float) -> bool:
        """The sliding window as a sorted set of the allowed attempts' times (at most ``limit`` of
        them): add this one, and take it out again if it is one too many."""
        now, attempt = time.time(), secrets.token_hex(8)
        window = f"{PREFIX}limit:{key}"
        with self._reachable(), self._redis.pipeline() as pipe:
            pipe.zremrangebyscore(window, "-inf", now - per_s)
            pipe.zadd(window, {attempt: now})
            pipe.zcard(window)
            pipe.expire(window, max(1, round(per_s)))
            count = pipe.execute()[2]
            if count > limit:
                self._redis.zrem(window, attempt)
        return count <= limit
