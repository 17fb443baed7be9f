"""What both load scripts share: the class (sessions, texts, the roll call), the server's memory
and CPU, and the report.

``load_test.py`` drives real browsers; ``server_load_test.py`` speaks Streamlit's protocol
directly. Each supplies only ``drive(url, sessions, roll, args)``, a coroutine that runs every
session; :func:`run_class` starts the server (or, with ``--url``, drives one already running, such
as a replica set from ``scripts/serve.sh``), watches its memory and CPU while ``drive`` runs, and
:func:`report` prints the figures and decides the exit code.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.app_server import running_app  # noqa: E402

TARGET_P95_S = 1.0
MARKER = re.compile(r"mk\d{3}q")
"""Every session's text holds its own marker word; seeing another's is cross-talk."""
FILLER = (
    "the students read the notes and the teacher reads them the rules of the game; then they "
    "write their own words, then they count the pairs and merge the most frequent pair again. "
)


@dataclass
class Session:
    index: int
    marker: str
    latencies: list[float] = field(default_factory=list)
    """Seconds per step, as the script's main measure defines it."""
    driver_latencies: list[float] = field(default_factory=list)
    """A second view of the same steps, where a script has one (the browser driver's own timing)."""
    errors: list[str] = field(default_factory=list)
    foreign_markers: set[str] = field(default_factory=set)
    steps: int = 0


class Roll:
    """The lesson starts when the whole class is seated: every session has trained (or failed)
    before any starts stepping, so the steps measure a class clicking along together, not late
    arrivals loading the app (the heaviest thing a browser does here) beside early steppers.
    Likewise nobody leaves (closes a browser) until everyone has stopped stepping.
    ``on_seated`` and ``on_dismissed`` run at those two moments, before anyone moves on."""

    def __init__(self, size: int, *, on_seated: Callable[[], None] = lambda: None,
                 on_dismissed: Callable[[], None] = lambda: None) -> None:
        self.to_arrive = self.to_leave = size
        self.seated, self.dismissed = asyncio.Event(), asyncio.Event()
        self._on_seated, self._on_dismissed = on_seated, on_dismissed

    def arrived(self) -> None:
        self.to_arrive -= 1
        if self.to_arrive == 0:
            self._on_seated()
            self.seated.set()

    def left(self) -> None:
        self.to_leave -= 1
        if self.to_leave == 0:
            self._on_dismissed()
            self.dismissed.set()


async def attend(
    session: Session, roll: Roll, *, start_at: float, seconds: float, interval: float,
    set_up: Callable[[], Awaitable[None]],
    next_step: Callable[[int], Awaitable[bool]],
    first_step: Callable[[], Awaitable[None]],
    describe_failure: Callable[[], Awaitable[str]] | None = None,
) -> None:
    """One student's lesson. Arrive at ``start_at`` and ``set_up`` (open the page, train on the
    session's text), wait for the whole class, then every ``interval`` seconds (at this session's
    own random phase) call ``next_step(k)`` for merge k, which records its latency and returns
    True at the last merge; there ``first_step()`` starts again, as a teacher would. Any failure
    is counted as an error and ends the session (``describe_failure`` adds what the page showed);
    the session always leaves the roll, so nobody waits for it."""
    seated = False
    try:
        await asyncio.sleep(max(0.0, start_at - time.monotonic()))
        await set_up()
        seated = True
        roll.arrived()
        await roll.seated.wait()
        stop_at = time.monotonic() + seconds
        step, at_end, rng = 0, False, random.Random(session.index)
        next_click = time.monotonic() + rng.uniform(0, interval)
        while time.monotonic() + interval < stop_at:
            await asyncio.sleep(max(0.0, next_click - time.monotonic()))
            next_click += interval
            if at_end:
                await first_step()
                step, at_end = 0, False
                continue
            at_end = await next_step(step + 1)
            step += 1
            session.steps += 1
    except Exception as error:  # a failed wait, a broken page, a closed socket
        detail = str(error).splitlines()[0][:120] if str(error) else ""
        shown = f" ({await describe_failure()})" if describe_failure else ""
        session.errors.append(f"{type(error).__name__}: {detail}{shown}")
    finally:
        if not seated:
            roll.arrived()
        roll.left()


@dataclass
class ServerMeasures:
    elapsed_s: float
    cpu_s: float
    rss_before_mib: float
    rss_peak_mib: float
    rss_end_mib: float
    stepping: StepCosts | None = None
    processes: int = 1
    """Server processes measured (the replicas with ``--url``; 0 when none was named)."""


@dataclass(frozen=True)
class CpuSnapshot:
    at: float
    steps: int
    server_s: float
    browsers_s: float
    busy_s: float
    """CPU seconds the whole machine spent busy (all cores, from /proc/stat)."""

    @classmethod
    def take(cls, server_pids: tuple[int, ...], sessions: list[Session]) -> CpuSnapshot:
        return cls(time.monotonic(), sum(s.steps for s in sessions), sum(map(cpu_seconds, server_pids)),
                   cpu_of_processes(b"chromium"), machine_busy_seconds())


@dataclass(frozen=True)
class StepCosts:
    """Where the CPU went while the class was stepping (from the roll call to the end)."""

    start: CpuSnapshot
    end: CpuSnapshot

    def lines(self) -> list[str]:
        steps = max(self.end.steps - self.start.steps, 1)
        wall = self.end.at - self.start.at
        per_step = lambda field: 1000 * (getattr(self.end, field) - getattr(self.start, field)) / steps  # noqa: E731
        busy = (self.end.busy_s - self.start.busy_s) / wall
        browsers = f", browsers {per_step('browsers_s'):.0f} ms" if self.end.browsers_s > self.start.browsers_s else ""
        server = f"server {per_step('server_s'):.0f} ms" if self.end.server_s else "server not measured"
        return [
            f"while stepping ({steps} steps in {wall:.0f} s): the machine was busy {busy:.2f} of {os.cpu_count()} cores; "
            f"CPU per step: {server}{browsers}",
        ]


def cpu_of_processes(name: bytes) -> float:
    """User + system CPU seconds of every process whose command line contains ``name``."""
    total = 0.0
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as cmdline:
                    if name not in cmdline.read():
                        continue
            except OSError:
                continue
            total += cpu_seconds(int(entry))
    return total


def machine_busy_seconds() -> float:
    """CPU seconds all cores spent not idle since boot (the first line of /proc/stat)."""
    with open("/proc/stat") as stat:
        ticks = [int(value) for value in stat.readline().split()[1:]]
    idle = ticks[3] + (ticks[4] if len(ticks) > 4 else 0)  # idle + iowait
    return (sum(ticks[:8]) - idle) / os.sysconf("SC_CLK_TCK")


MARKER_EVERY_WORDS = 6
"""The session's marker comes back this often: the Train page draws a window of the corpus (200
tokens around the merge's first place, ``bpe.views.corpus_window``), never all of it, and the
session checks its own marker in what is drawn, wherever the window falls."""


def corpus_for(session: Session) -> str:
    """A text only this session has: the filler, shuffled its own way in the middle, with its marker
    word every :data:`MARKER_EVERY_WORDS` words."""
    rng = random.Random(session.index)
    shuffled = FILLER.split()
    rng.shuffle(shuffled)
    words = [f"{session.marker} says hello.", *FILLER.split(), *shuffled, *FILLER.split()]
    return " ".join(
        word + (f" {session.marker}" if index % MARKER_EVERY_WORDS == MARKER_EVERY_WORDS - 1 else "")
        for index, word in enumerate(words)
    )


def rss_mib(pid: int) -> float | None:
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def cpu_seconds(pid: int) -> float:
    """User + system CPU time the process has used (from /proc/<pid>/stat)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def parse_class_args(doc: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--hostile", action="store_true",
                        help="add one hostile session (regex-bomb links, 200,000-character walkthroughs); server_load_test only")
    parser.add_argument("--sessions", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=60, help="how long the class keeps stepping")
    parser.add_argument("--interval", type=float, default=3.0, help="seconds between clicks in a session")
    parser.add_argument("--ramp", type=float, default=10.0, help="seconds over which sessions arrive")
    parser.add_argument("--url", help="drive this running server or replica set (scripts/serve.sh) instead of starting one")
    parser.add_argument("--server-pid", type=int, action="append", default=[],
                        help="with --url: a server process to measure (each replica and HAProxy; scripts/serve.sh prints them)")
    args = parser.parse_args()
    if not (1 <= args.sessions <= 100 and 1 <= args.seconds <= 600):
        parser.error("use 1-100 sessions and 1-600 seconds")
    return args


Drive = Callable[[str, list[Session], Roll, argparse.Namespace], Awaitable[None]]

SETUP_LIMIT_S = 90.0
"""Longest a class may take to arrive and train before stepping (a bound, never a target)."""


def run_class(drive: Drive, args: argparse.Namespace, *, log_name: str) -> tuple[list[Session], ServerMeasures]:
    """Start the app (unless ``args.url`` names a running one), run ``drive`` over a fresh class
    while sampling the server's memory and CPU, stop."""
    sessions = [Session(index, f"mk{index:03d}q") for index in range(args.sessions)]
    if args.url:
        return sessions, _measure(drive, args.url.rstrip("/"), tuple(args.server_pid), sessions, args)
    log_path = ROOT / "test-artifacts" / log_name
    log_path.parent.mkdir(exist_ok=True)
    with open(log_path, "w") as log, running_app(log) as (url, server):
        return sessions, _measure(drive, url, (server.pid,), sessions, args)


def _measure(drive: Drive, url: str, pids: tuple[int, ...], sessions: list[Session], args) -> ServerMeasures:
    """Run ``drive`` against ``url``; memory and CPU are the sums over ``pids`` (the replicas)."""
    rss = lambda: sum(rss_mib(pid) or 0.0 for pid in pids)  # noqa: E731
    started, cpu_before, before = time.monotonic(), sum(map(cpu_seconds, pids)), rss()
    peak, stepping = asyncio.run(_drive_watching_memory(drive, url, pids, rss, sessions, args))
    end = rss()
    return ServerMeasures(
        time.monotonic() - started, sum(map(cpu_seconds, pids)) - cpu_before, before, max(peak, end), end, stepping,
        len(pids),
    )


async def _drive_watching_memory(
    drive: Drive, url: str, pids: tuple[int, ...], rss: Callable[[], float], sessions: list[Session], args,
) -> tuple[float, StepCosts | None]:
    peak = rss()
    done = asyncio.Event()
    snapshots: list[CpuSnapshot] = []
    snapshot = lambda: snapshots.append(CpuSnapshot.take(pids, sessions))  # noqa: E731
    roll = Roll(len(sessions), on_seated=snapshot, on_dismissed=snapshot)

    async def watch() -> None:
        nonlocal peak
        while not done.is_set():
            peak = max(peak, rss())
            try:
                await asyncio.wait_for(done.wait(), timeout=0.25)
            except asyncio.TimeoutError:
                pass

    watcher = asyncio.create_task(watch())
    try:  # bounded: arrivals, setup, stepping, and a last wait
        limit = args.ramp + SETUP_LIMIT_S + args.seconds + 60
        await asyncio.wait_for(drive(url, sessions, roll, args), timeout=limit)
    finally:
        done.set()
        await watcher
    return peak, (StepCosts(*snapshots) if len(snapshots) == 2 else None)


def report(sessions: list[Session], server: ServerMeasures, args, *, latency_label: str, driver_label: str = "") -> int:
    """Print the class's figures; 0 when every target is met, 2 when not."""
    latencies = [value for session in sessions for value in session.latencies]
    errors = [f"session {s.index}: {error}" for s in sessions for error in s.errors]
    crosstalk = [f"session {s.index} saw {sorted(s.foreign_markers)}" for s in sessions if s.foreign_markers]
    print(f"sessions {args.sessions}, stepping together for {args.seconds:g} s at one click per {args.interval:g} s "
          f"(arrivals over {args.ramp:g} s); wall time {server.elapsed_s:.0f} s; {os.cpu_count()} CPUs")
    print(f"steps measured: {len(latencies)} (per session: min {min(s.steps for s in sessions)}, "
          f"max {max(s.steps for s in sessions)})")
    print(f"errors: {len(errors)}")
    for error in errors[:10]:
        print(f"  {error}")
    print(f"cross-talk: {len(crosstalk)}")
    for line in crosstalk[:10]:
        print(f"  {line}")
    if latencies:
        print(f"{latency_label}: p50 {statistics.median(latencies) * 1000:.0f} ms, "
              f"p95 {percentile(latencies, 0.95) * 1000:.0f} ms, max {max(latencies) * 1000:.0f} ms "
              f"(target p95 < {TARGET_P95_S * 1000:.0f} ms)")
    driver = [value for session in sessions for value in session.driver_latencies]
    if driver and driver_label:
        print(f"  {driver_label}: p50 {statistics.median(driver) * 1000:.0f} ms, p95 {percentile(driver, 0.95) * 1000:.0f} ms")
    if server.processes:
        summed = f", {server.processes} processes together" if server.processes > 1 else ""
        print(f"server memory (VmRSS{summed}): before sessions {server.rss_before_mib:.0f} MiB, peak "
              f"{server.rss_peak_mib:.0f} MiB, end {server.rss_end_mib:.0f} MiB")
        print(f"server CPU{summed}: {server.cpu_s:.0f} s over {server.elapsed_s:.0f} s "
              f"({100 * server.cpu_s / server.elapsed_s:.0f} % of one core)")
    else:
        print("server memory and CPU: not measured (with --url, name each replica with --server-pid)")
    for line in server.stepping.lines() if server.stepping else []:
        print(line)
    met = not errors and not crosstalk and latencies and percentile(latencies, 0.95) < TARGET_P95_S
    print("targets met" if met else "targets NOT met")
    return 0 if met else 2
