"""A class room against the adversary of issue 42: one client that stuffs the ballot, one that
floods the join link. Speaks Streamlit's protocol over ``scripts/serve.sh --replicas 2`` (HAProxy,
two replicas, Redis) or a running one (``--url``), as ``room_load_test.py`` does. Every client
behaves as a browser: it loads the page, sends the cookies it holds, and keeps the one the page
sets (``bpe_lab_browser``, ui/browser.py). Through HAProxy every client has one address, this
machine's: a school behind one NAT.

``--case flood``: a teacher opens a room; 60 students each open the join link and join, spread
over ``--spread`` seconds; meanwhile one flooding client opens the join link and presses Join as
fast as its connection allows until the class is in (or 60 s). Targets: all 60 seated within 30 s
of the first one opening the link, the flood's extra seats 0 (one browser, one seat).

``--case rejoin``: a teacher opens a room; one client joins and answers, then Leaves, opens the
join link again, joins and taps an answer, 60 times. Target: answers counted for that question 1
(the chart after the reveal), seats 1.

    .venv/bin/python benchmarks/room_adversary_test.py --case flood
    .venv/bin/python benchmarks/room_adversary_test.py --case rejoin
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from contextlib import AsyncExitStack
from pathlib import Path

from room_client import ANSWERED, LESSON, open_page, room_of, shown, tally_shown, timer

from tests.apptest_support import plain  # noqa: E402  (load_common put the project root on sys.path)
from tests.replica_set import ReplicaSet  # noqa: E402

STUDENTS = 60
JOIN_WITHIN_S = 30.0
FLOOD_LIMIT_S = 60.0
"""Longest the flood runs (a bound, never a target)."""
REJOINS = 60


async def teacher_room(stack, url: str):
    client, _ = await open_page(stack, url, LESSON)
    await client.click("w.room.start")
    return client, room_of(client)["room"]


async def joined_count(teacher) -> tuple[int, int]:
    """``(joined, answered)`` as the projector shows them, after one tick of its counts."""
    fragment, _ = timer(teacher)
    await teacher.tick(fragment)
    found = ANSWERED.search(shown(teacher))
    return (int(found.group(2)), int(found.group(1))) if found else (0, 0)


async def student(url: str, code: str, delay: float, seated_at: list[float], errors: list[str]) -> None:
    await asyncio.sleep(delay)
    async with AsyncExitStack() as stack:
        try:
            client, _ = await open_page(stack, url, f"room={code}")
            await client.click("w.room.join", ("w.room.nickname", "string_value", "student"))
            if "have answered" in shown(client):
                seated_at.append(time.monotonic())
            else:
                errors.append(plain(shown(client))[-200:])
        except Exception as error:  # noqa: BLE001 (reported)
            errors.append(f"{type(error).__name__}: {error}")


async def flood(url: str, code: str, stop: asyncio.Event, tally: dict[str, int]) -> None:
    """One browser opening the join link and pressing Join again and again, its cookie kept."""
    cookie = ""
    deadline = time.monotonic() + FLOOD_LIMIT_S
    while not stop.is_set() and time.monotonic() < deadline:
        async with AsyncExitStack() as stack:
            try:
                client, _ = await open_page(stack, url, f"room={code}", cookie=cookie)
                cookie = client.cookie
                if "w.room.join" in client.drawn:
                    await client.click("w.room.join", ("w.room.nickname", "string_value", "flood"))
                page = plain(shown(client))
                tally["attempts"] += 1
                tally["slowed" if "Too many attempts" in page else "seated" if "have answered" in page else "other"] += 1
            except Exception:  # noqa: BLE001 (a refused connection is a slowed flood too)
                tally["errors"] += 1


async def flood_case(url: str, spread: float, seed: int) -> bool:
    rng = random.Random(seed)
    async with AsyncExitStack() as stack:
        teacher, code = await teacher_room(stack, url)
        seated_at: list[float] = []
        errors: list[str] = []
        tally = dict.fromkeys(("attempts", "seated", "slowed", "other", "errors"), 0)
        stop = asyncio.Event()
        started = time.monotonic()
        flooding = asyncio.create_task(flood(url, code, stop, tally))
        await asyncio.gather(*(student(url, code, rng.uniform(0, spread), seated_at, errors) for _ in range(STUDENTS)))
        stop.set()
        await flooding
        joined, _ = await joined_count(teacher)
    last = max(seated_at, default=started) - started
    extra = joined - len(seated_at) - 1
    print(f"flood: {STUDENTS} students spread over {spread:g} s behind one address, one flooding browser")
    print(f"  students seated {len(seated_at)} of {STUDENTS}, the last {last:.1f} s after the first opened the link "
          f"(target {JOIN_WITHIN_S:g} s); refused: {len(errors)}")
    print(f"  flood: {tally['attempts']} attempts ({tally['seated']} shown the room, {tally['slowed']} slowed, "
          f"{tally['other']} other, {tally['errors']} connection errors); room seats {joined} = "
          f"{len(seated_at)} students + flood's {joined - len(seated_at)}; the flood's extra seats: {extra}")
    for error in errors[:5]:
        print(f"  refused: {error}")
    met = len(seated_at) == STUDENTS and last <= JOIN_WITHIN_S and extra <= 0
    print("targets met" if met else "targets NOT met")
    return met


async def rejoin_case(url: str) -> bool:
    async with AsyncExitStack() as stack:
        teacher, code = await teacher_room(stack, url)
        cookie, taps, slowed, seats = "", 0, 0, set()
        for attempt in range(REJOINS + 1):  # joins once, then Leave and Join again 60 times
            async with AsyncExitStack() as tab:
                client, _ = await open_page(tab, url, f"room={code}", cookie=cookie)
                cookie = client.cookie
                if "w.room.join" in client.drawn:
                    await client.click("w.room.join", ("w.room.nickname", "string_value", "stuffer"))
                if "w.room.leave" not in client.drawn:  # its budget spent: refused, and it tries again
                    slowed += 1
                    continue
                seats.add(room_of(client).get("student"))
                if "w.room.answer.1" in client.drawn:
                    await client.click(f"w.room.answer.{attempt % 2 + 1}")
                    taps += 1
                await client.click("w.room.leave")
        joined, answered = await joined_count(teacher)
        await teacher.click("w.room.reveal")
        counted = sum(tally_shown(teacher).values())
    print(f"rejoin: one browser joined, answered, then left and joined {REJOINS} times: {taps} taps on an answer button, "
          f"{slowed} attempts refused by its join budgets")
    print(f"  seats in the link {len(seats)}; room seats {joined}; answers counted for that question {counted} "
          f"(the projector said {answered} answered)")
    met = counted == 1 and joined == 1 and len(seats) == 1
    print("targets met" if met else "targets NOT met")
    return met


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", choices=("flood", "rejoin"), required=True)
    parser.add_argument("--spread", type=float, default=20.0, help="the students open the link over this many seconds")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--url", help="drive this running scripts/serve.sh instead of starting one")
    args = parser.parse_args()

    def run(url: str) -> bool:
        return asyncio.run(flood_case(url, args.spread, args.seed) if args.case == "flood" else rejoin_case(url))

    if args.url:
        return 0 if run(args.url.rstrip("/")) else 2
    with tempfile.TemporaryDirectory(prefix="bpe-room-adversary-") as redis_dir, ReplicaSet(redis_dir=Path(redis_dir)) as replicas:
        return 0 if run(replicas.url) else 2


if __name__ == "__main__":
    sys.exit(main())
