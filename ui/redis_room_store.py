"""Class rooms in Redis, shared by every replica of the app (``BPE_LAB_REDIS_URL``).

Keys, each expiring :data:`~bpe.limits.ROOM_IDLE_S` after the room's last write::

    bpe-lab:room:K7QX3M              the room (bpe.teaching.room.Room as JSON), written by the teacher only
    bpe-lab:room:K7QX3M:changes      how many times the teacher changed it (what every write WATCHes)
    bpe-lab:room:K7QX3M:seats        hash seat -> {"n": nickname, "c": address hash} as JSON
    bpe-lab:room:K7QX3M:seen         sorted set: seat by when its page last looked at the room
    bpe-lab:room:K7QX3M:answers:3    hash seat -> the answer to round 3, as its question encodes it
    bpe-lab:limit:<budget key>        sorted set: the times of its allowed join attempts in the last minute

Why WATCH and not a Lua script: the rules stay in Python, in one place (:mod:`bpe.teaching.room`).
An answer WATCHes the room's ``changes``, checks the rules on the room it read, and writes with
HSETNX inside MULTI: if the teacher revealed or moved on in between, EXEC fails and the answer is
checked again (and refused); two answers from one seat race on HSETNX, and only the first lands.
A join WATCHes the seats too, so two students taking a room's last place at once cannot both get it.
Subtle: students only refresh expiries, and an EXPIRE counts as a change to WATCH, so they never
touch ``changes``; WATCHing the room's own key instead made a class answering at once retry
(measured: 478 retries for 60 simultaneous answers, now none).

Timeouts are short and there is one retry (a pooled connection that died with a Redis restart is
replaced at once): a page never hangs on a stopped Redis, it says so and carries on solo.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from urllib.parse import urlsplit

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from bpe.limits import ROOM_IDLE_S
from bpe.teaching.room import Room, RoomView
from bpe.teaching.room_seats import Seat, seats_to_free
from bpe.teaching.room_questions import Answer

from .room_store import RoomStoreUnavailable, already_answered, expiry_s, no_such_room, not_seated, seats_seen, view_of

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

    def _seen_key(self, code: str) -> str:
        return f"{self._room_key(code)}:seen"

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
        for key in (self._changes_key(room.code), self._seats_key(room.code), self._seen_key(room.code),
                    self._answers_key(room.code, room.round)):
            pipe.expire(key, ttl)

    @contextmanager
    def _reachable(self) -> Iterator[None]:
        try:
            yield
        except redis.RedisError as error:
            raise RoomStoreUnavailable(f"{self.where}: {type(error).__name__}: {error}") from error

    def _transaction(self, code: str, work: Callable, *, watch_seats: bool = False) -> object:
        """Run ``work(pipe, room)`` WATCHing the room's changes (and its seats: ``watch_seats``),
        again until nothing watched changed meanwhile.

        ``work`` reads with ``pipe`` (immediate commands), then calls ``pipe.multi()`` and queues
        its writes; its return value (or what ``pipe.execute()`` returned, if it returns nothing)
        comes back."""
        with self._reachable(), self._redis.pipeline() as pipe:
            while True:
                try:
                    pipe.watch(self._changes_key(code), *([self._seats_key(code)] if watch_seats else []))
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

    def _seats(self, reader, code: str) -> list[Seat]:
        """Every seat of room ``code`` with when it was last seen, read with ``reader`` (a client or a pipe)."""
        stored, seen = reader.hgetall(self._seats_key(code)), dict(reader.zrange(self._seen_key(code), 0, -1, withscores=True))
        return [self._seat(seat, data, seen.get(seat, 0.0)) for seat, data in stored.items()]

    @staticmethod
    def _seat(seat: str, data: str, seen: float) -> Seat:
        fields = json.loads(data)
        return Seat(seat, fields["n"], fields["c"], seen)

    def view(self, code: str, *, seen: str | Iterable[str] | None = None) -> RoomView | None:
        seats_here = seats_seen(seen)
        with self._reachable():
            raw = self._redis.get(self._room_key(code))
            if raw is None:
                return None
            room = Room.from_json(raw)
            with self._redis.pipeline(transaction=False) as pipe:
                if seats_here:  # only seated seats (XX): a removed one does not come back
                    now = time.time()
                    pipe.zadd(self._seen_key(code), dict.fromkeys(seats_here, now), xx=True)
                pipe.hgetall(self._seats_key(code))
                pipe.zrange(self._seen_key(code), 0, -1, withscores=True)
                pipe.hgetall(self._answers_key(code, room.round))
                *_, stored, times, answers = pipe.execute()
        seen_at = dict(times)
        seats = [self._seat(seat, data, seen_at.get(seat, 0.0)) for seat, data in stored.items()]
        return view_of(room, seats, {seat: room.question.decode(text) for seat, text in answers.items()})

    def join(self, code: str, seat: str, nickname: str, client: str) -> None:
        def work(pipe, room: Room):
            now = time.time()
            # Only a full room needs every seat read (which are away, to give way): a class joining
            # at once retries once per join that beat it, and each retry read all the seats.
            full = not pipe.hexists(self._seats_key(code), seat) and pipe.hlen(self._seats_key(code)) >= room.size
            freed = seats_to_free(room, self._seats(pipe, code) if full else (), seat, now=now)
            pipe.multi()
            if freed:
                pipe.hdel(self._seats_key(code), *freed)
                pipe.zrem(self._seen_key(code), *freed)
                pipe.hdel(self._answers_key(code, room.round), *freed)
            pipe.hset(self._seats_key(code), seat, json.dumps({"n": nickname, "c": client}, ensure_ascii=False))
            pipe.zadd(self._seen_key(code), {seat: now})
            self._touch(pipe, room)

        self._transaction(code, work, watch_seats=True)

    def answer(self, code: str, seat: str, *, round: int, answer: Answer) -> None:
        def work(pipe, room: Room):
            if not pipe.hexists(self._seats_key(code), seat):
                raise not_seated()
            room.check_answer(round=round, answer=answer)
            pipe.multi()
            pipe.hsetnx(self._answers_key(code, round), seat, room.question.encode(answer))
            self._touch(pipe, room)

        if not self._transaction(code, work)[0]:  # HSETNX found an answer there: the first stands
            raise already_answered()

    def remove(self, code: str, seats, *, credential: str | None) -> None:
        seats = list(seats)

        def work(pipe, room: Room):
            room.check_teacher(credential, "remove a seat")
            pipe.multi()
            if seats:
                pipe.hdel(self._seats_key(code), *seats)
                pipe.zrem(self._seen_key(code), *seats)
                pipe.hdel(self._answers_key(code, room.round), *seats)
            self._touch(pipe, room)

        self._transaction(code, work, watch_seats=True)

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
