"""A class on one server: N browser sessions, each on its own text, stepping through training.

Starts ``streamlit run app.py`` on a free loopback port (headless, like tests/conftest.py), opens
``--sessions`` contexts of one Debian Chromium (Playwright's async API; each context is its own
Streamlit session), and in each one pastes a unique text holding a unique marker word, trains on
it, then clicks Next about every ``--interval`` seconds for ``--seconds`` seconds, as students
clicking along with a lecture would. It reports:

* errors: an exception shown on a page, or a wait that timed out;
* cross-talk: a session whose page ever shows another session's marker word;
* step latency: from clicking Next to the page showing the new step number (a content wait,
  polled every 20 ms in the page), p50 / p95 / max;
* the server's memory (VmRSS from /proc/<pid>/status): before the sessions, peak, and at the end.

Targets: 0 errors, 0 cross-talk, p95 < 1 s, memory bounded. Exit code 0 when met, 2 when not.
Only loopback traffic; every loop and wait is bounded, and the server is always stopped.

    .venv/bin/python benchmarks/load_test.py --sessions 20 --seconds 60
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
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.app_server import running_app  # noqa: E402
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-sync",
    "--disable-background-networking", "--disable-component-update", "--disable-dev-shm-usage",
    "--disable-renderer-backgrounding", "--disable-background-timer-throttling",
]
TARGET_P95_S = 1.0
WAIT_MS = 15_000
"""Longest wait for one step (counted as an error past it)."""
SETUP_MS = 90_000
"""Longest wait for opening the page and training (not measured: a class arrives over minutes)."""
MARKER = re.compile(r"mk\d{3}q")
TEXT_LABEL = "Your text (Ctrl+Enter to train on it)"
FILLER = (
    "the students read the notes and the teacher reads them the rules of the game; then they "
    "write their own words, then they count the pairs and merge the most frequent pair again. "
)


@dataclass
class Session:
    index: int
    marker: str
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    foreign_markers: set[str] = field(default_factory=set)
    steps: int = 0



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



def corpus_for(session: Session) -> str:
    """A text only this session has: its marker word, and sentences numbered for it."""
    rng = random.Random(session.index)
    words = FILLER.split()
    rng.shuffle(words)
    return (
        f"{session.marker} {session.marker} says hello. " + FILLER
        + " ".join(words) + f" {session.marker} again, {session.marker}s everywhere. " + FILLER
    )


async def narration_contains(page, text: str) -> None:
    await page.wait_for_function(
        "text => (document.querySelector('.bpe-narration')?.textContent || '').includes(text)",
        arg=text, polling=20, timeout=WAIT_MS,
    )


async def check_page(page, session: Session) -> None:
    """Errors shown on the page, and any other session's marker word in it."""
    if await page.locator('[data-testid="stException"]').count():
        session.errors.append("exception shown on the page")
    shown = await page.locator('[data-testid="stMain"]').inner_text(timeout=WAIT_MS)
    session.foreign_markers.update(set(MARKER.findall(shown)) - {session.marker})


async def run_session(browser, url: str, session: Session, start_at: float, seconds: float, interval: float) -> None:
    context = await browser.new_context(viewport={"width": 1280, "height": 1600})
    page = await context.new_page()
    page.set_default_timeout(SETUP_MS)
    try:
        await asyncio.sleep(max(0.0, start_at - time.monotonic()))
        await page.goto(f"{url}/Train?preset=own-text", timeout=SETUP_MS)
        editor = page.get_by_label(TEXT_LABEL)
        await editor.fill(corpus_for(session))
        await editor.press("Control+Enter")
        await page.wait_for_function(
            "marker => [...document.querySelectorAll('.bpe-tokens')].some(e => e.textContent.includes(marker))",
            arg=session.marker, polling=50, timeout=SETUP_MS,
        )
        await narration_contains(page, "Before any merge")
        page.set_default_timeout(WAIT_MS)
        await check_page(page, session)
        stop_at = time.monotonic() + seconds  # each student clicks for the same time once trained
        step, rng = 0, random.Random(session.index)
        next_click = time.monotonic() + rng.uniform(0, interval)
        while time.monotonic() + interval < stop_at:
            await asyncio.sleep(max(0.0, next_click - time.monotonic()))
            next_click += interval
            next_button = page.get_by_role("button", name="Next")
            if await next_button.is_disabled():  # the last merge: start again, as a teacher would
                await page.get_by_role("button", name="First").click()
                await narration_contains(page, "Before any merge")
                step = 0
                continue
            started = time.perf_counter()
            await next_button.click()
            await narration_contains(page, f"Merge {step + 1} of ")
            session.latencies.append(time.perf_counter() - started)
            step += 1
            session.steps += 1
            await check_page(page, session)
    except Exception as error:  # a failed wait or a broken page: count it, end this session
        try:  # what the page showed instead (a lost click leaves the old step; a slow one, "running")
            shown = (await page.locator(".bpe-narration").first.inner_text(timeout=2_000))[:40]
        except Exception:
            shown = "?"
        session.errors.append(f"{type(error).__name__}: {str(error).splitlines()[0][:120]} (page showed {shown!r})")
    finally:
        await context.close()


async def watch_memory(pid: int, peak: list[float], stop: asyncio.Event) -> None:
    while not stop.is_set():
        value = rss_mib(pid)
        if value is not None:
            peak[0] = max(peak[0], value)
        try:
            await asyncio.wait_for(stop.wait(), timeout=0.25)
        except asyncio.TimeoutError:
            pass


async def drive(url: str, pid: int, args) -> tuple[list[Session], float, float, float]:
    from playwright.async_api import async_playwright

    sessions = [Session(index, f"mk{index:03d}q") for index in range(args.sessions)]
    peak = [rss_mib(pid) or 0.0]
    stop = asyncio.Event()
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            before = rss_mib(pid) or 0.0
            watcher = asyncio.create_task(watch_memory(pid, peak, stop))
            now = time.monotonic()
            tasks = [
                run_session(browser, url, session, now + args.ramp * session.index / max(args.sessions, 1),
                            args.seconds, args.interval)
                for session in sessions
            ]
            # bounded: arrivals, setup, stepping, and a last wait
            limit = args.ramp + SETUP_MS / 1000 + args.seconds + WAIT_MS / 1000 + 30
            await asyncio.wait_for(asyncio.gather(*tasks), timeout=limit)
            stop.set()
            await watcher
        finally:
            await browser.close()
    return sessions, before, peak[0], rss_mib(pid) or 0.0


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=60, help="how long each session keeps stepping")
    parser.add_argument("--interval", type=float, default=3.0, help="seconds between clicks in a session")
    parser.add_argument("--ramp", type=float, default=10.0, help="seconds over which sessions arrive")
    args = parser.parse_args()
    if not (1 <= args.sessions <= 100 and 1 <= args.seconds <= 600):
        parser.error("use 1-100 sessions and 1-600 seconds")

    log_path = ROOT / "test-artifacts" / "load-test-server.log"
    log_path.parent.mkdir(exist_ok=True)
    with open(log_path, "w") as log, running_app(log) as (url, server):
        started, cpu_before = time.monotonic(), cpu_seconds(server.pid)
        sessions, before, peak, end = asyncio.run(drive(url, server.pid, args))
        elapsed, server_cpu = time.monotonic() - started, cpu_seconds(server.pid) - cpu_before

    latencies = [value for session in sessions for value in session.latencies]
    errors = [f"session {s.index}: {error}" for s in sessions for error in s.errors]
    crosstalk = [f"session {s.index} saw {sorted(s.foreign_markers)}" for s in sessions if s.foreign_markers]
    print(f"sessions {args.sessions}, stepping for {args.seconds:g} s at one click per {args.interval:g} s "
          f"(arrivals over {args.ramp:g} s); wall time {elapsed:.0f} s; {os.cpu_count()} CPUs")
    print(f"steps measured: {len(latencies)} (per session: min {min(s.steps for s in sessions)}, "
          f"max {max(s.steps for s in sessions)})")
    print(f"errors: {len(errors)}")
    for error in errors[:10]:
        print(f"  {error}")
    print(f"cross-talk: {len(crosstalk)}")
    for line in crosstalk[:10]:
        print(f"  {line}")
    if latencies:
        print(f"step latency: p50 {statistics.median(latencies) * 1000:.0f} ms, "
              f"p95 {percentile(latencies, 0.95) * 1000:.0f} ms, max {max(latencies) * 1000:.0f} ms "
              f"(target p95 < {TARGET_P95_S * 1000:.0f} ms)")
    print(f"server memory (VmRSS): before sessions {before:.0f} MiB, peak {peak:.0f} MiB, end {end:.0f} MiB")
    print(f"server CPU: {server_cpu:.0f} s over {elapsed:.0f} s ({100 * server_cpu / elapsed:.0f} % of one core; "
          "the rest of the machine ran the browsers)")
    met = not errors and not crosstalk and latencies and percentile(latencies, 0.95) < TARGET_P95_S
    print("targets met" if met else "targets NOT met")
    return 0 if met else 2


if __name__ == "__main__":
    sys.exit(main())
