"""A class on one server: N browser sessions, each on its own text, stepping through training.

Starts ``streamlit run app.py`` on a free loopback port (headless, like tests/conftest.py), opens
``--sessions`` contexts of one Debian Chromium (Playwright's async API; each context is its own
Streamlit session), and in each one pastes a unique text holding a unique marker word, trains on
it. Once every session is trained, all of them click Next about every ``--interval`` seconds
(each at its own random phase) for ``--seconds`` seconds, as students clicking along with a
lecture would. It reports:

* errors: an exception shown on a page, or a wait that timed out;
* cross-talk: a session whose page ever shows another session's marker word;
* step latency: from the click on Next (a real mouse click; the input event's own timestamp) to
  the first frame drawn after the narration names the new merge, timed inside the page with a
  MutationObserver, so the driver's own round trips are not counted (they are reported beside it);
  p50 / p95 / max;
* the server's memory (VmRSS from /proc/<pid>/status): before the sessions, peak, and at the end;
* where the CPU went while the class stepped: how busy the machine was, and CPU per step of the
  server and of all Chromium processes (browsers stay open until the whole class has stopped, so
  their figures are still in /proc). When the browsers' share alone approaches the machine's
  cores, the latency measures this machine, not the server: ``server_load_test.py`` measures the
  server alone with the same class.

Targets: 0 errors, 0 cross-talk, p95 < 1 s, memory bounded. Exit code 0 when met, 2 when not.
Only loopback traffic; every loop and wait is bounded, and the server is always stopped.

    .venv/bin/python benchmarks/load_test.py --sessions 20 --seconds 60
"""

from __future__ import annotations

import asyncio
import sys
import time

from load_common import MARKER, Roll, Session, attend, corpus_for, parse_class_args, report, run_class

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-sync",
    "--disable-background-networking", "--disable-component-update", "--disable-dev-shm-usage",
    "--disable-renderer-backgrounding", "--disable-background-timer-throttling",
]
WAIT_MS = 15_000
"""Longest wait for one step (counted as an error past it)."""
SETUP_MS = 90_000
"""Longest wait for opening the page and training (not measured: a class arrives over minutes)."""
TEXT_LABEL = "Your text (Ctrl+Enter to train on it)"


async def narration_contains(page, text: str) -> None:
    await page.wait_for_function(
        "text => (document.querySelector('.bpe-narration')?.textContent || '').includes(text)",
        arg=text, polling=50, timeout=WAIT_MS,
    )


PROBE_JS = r"""
() => {
  // The step latency a student sees: from the click's input event (event.timeStamp: when the
  // browser received it, before any queueing in this busy page) to the first frame after the
  // narration names the new merge (requestAnimationFrame, then a task: the frame has been drawn).
  document.addEventListener('click', event => {
    if (event.target.closest('button')) window.__bpeClickedAt = event.timeStamp;
  }, true);
  window.__bpeStepShown = (text, timeoutMs, markerPattern) => new Promise((resolve, reject) => {
    const narrationHas = () => (document.querySelector('.bpe-narration')?.textContent || '').includes(text);
    const done = () => requestAnimationFrame(() => setTimeout(() => {
      const main = document.querySelector('[data-testid="stMain"]');
      resolve({
        ms: performance.now() - window.__bpeClickedAt,
        // textContent needs no layout, unlike innerText: the check must not load the page it measures
        markers: [...new Set((main?.textContent || '').match(new RegExp(markerPattern, 'g')) || [])],
        exception: document.querySelector('[data-testid="stException"]') !== null,
        nextDisabled: [...document.querySelectorAll('button')].find(b => b.textContent.includes('Next'))?.disabled ?? null,
      });
    }, 0));
    if (narrationHas()) return done();
    const watcher = new MutationObserver(() => {
      if (narrationHas()) { watcher.disconnect(); clearTimeout(timer); done(); }
    });
    watcher.observe(document.body, {childList: true, subtree: true, characterData: true});
    const timer = setTimeout(() => { watcher.disconnect(); reject(new Error('step not shown within ' + timeoutMs + ' ms')); }, timeoutMs);
  });
}
"""


async def click_and_wait(page, button, text: str, session: Session) -> dict:
    """Click ``button`` as a user would (a real mouse click at its centre), wait in the page until
    the narration contains ``text``, and check the page: exception, other sessions' markers."""
    box = await button.bounding_box()
    waiting = asyncio.ensure_future(page.evaluate(
        "([text, timeout, pattern]) => window.__bpeStepShown(text, timeout, pattern)",
        [text, WAIT_MS, MARKER.pattern],
    ))
    await page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    shown = await waiting
    if shown["exception"]:
        session.errors.append("exception shown on the page")
    session.foreign_markers.update(set(shown["markers"]) - {session.marker})
    return shown


async def run_session(
    browser, url: str, session: Session, roll: Roll, start_at: float, seconds: float, interval: float,
) -> None:
    context = await browser.new_context(viewport={"width": 1280, "height": 1600})
    page = await context.new_page()
    page.set_default_timeout(SETUP_MS)

    async def set_up() -> None:
        await page.goto(f"{url}/Train?preset=own-text", timeout=SETUP_MS)
        editor = page.get_by_label(TEXT_LABEL)
        await editor.fill(corpus_for(session))
        await editor.press("Control+Enter")
        await page.wait_for_function(
            "marker => [...document.querySelectorAll('.bpe-tokens')].some(e => e.textContent.includes(marker))",
            arg=session.marker, polling=50, timeout=SETUP_MS,
        )
        await narration_contains(page, "Before any merge")
        await page.evaluate(PROBE_JS)
        page.set_default_timeout(WAIT_MS)

    async def next_step(merge: int) -> bool:
        started = time.perf_counter()
        shown = await click_and_wait(page, page.get_by_role("button", name="Next"), f"Merge {merge} of ", session)
        session.driver_latencies.append(time.perf_counter() - started)
        session.latencies.append(shown["ms"] / 1000)
        return shown["nextDisabled"] is True

    async def first_step() -> None:
        await click_and_wait(page, page.get_by_role("button", name="First"), "Before any merge", session)

    async def describe_failure() -> str:
        try:  # what the page showed instead (a lost click leaves the old step; a slow one, "running")
            return f"page showed {(await page.locator('.bpe-narration').first.inner_text(timeout=2_000))[:40]!r}"
        except Exception:
            return "page showed ?"

    try:
        await attend(
            session, roll, start_at=start_at, seconds=seconds, interval=interval, set_up=set_up,
            next_step=next_step, first_step=first_step, describe_failure=describe_failure,
        )
        await roll.dismissed.wait()  # a closed browser takes its CPU figures with it
    finally:
        await context.close()


async def drive(url: str, sessions: list[Session], roll: Roll, args) -> None:
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            now = time.monotonic()
            await asyncio.gather(*(
                run_session(browser, url, session, roll, now + args.ramp * session.index / len(sessions),
                            args.seconds, args.interval)
                for session in sessions
            ))
        finally:
            await browser.close()


def main() -> int:
    args = parse_class_args(__doc__)
    sessions, server = run_class(drive, args, log_name="load-test-server.log")
    return report(
        sessions, server, args,
        latency_label="step latency, click to the new step drawn, timed in the page",
        driver_label="as this script saw it (plus the driver's round trips)",
    )


if __name__ == "__main__":
    sys.exit(main())
