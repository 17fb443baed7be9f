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
* the server's memory (VmRSS from /proc/<pid>/status): before the sessions, peak, and at the end.

Targets: 0 errors, 0 cross-talk, p95 < 1 s, memory bounded. Exit code 0 when met, 2 when not.
Only loopback traffic; every loop and wait is bounded, and the server is always stopped.

    .venv/bin/python benchmarks/load_test.py --sessions 20 --seconds 60
"""

from __future__ import annotations

import asyncio
import random
import sys
import time

from load_common import MARKER, Roll, Session, corpus_for, parse_class_args, report, run_class

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
    seated = False
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
        await page.evaluate(PROBE_JS)
        page.set_default_timeout(WAIT_MS)
        next_button = page.get_by_role("button", name="Next")
        first_button = page.get_by_role("button", name="First")
        seated = True
        roll.arrived()
        await roll.seated.wait()
        stop_at = time.monotonic() + seconds
        step, at_end, rng = 0, False, random.Random(session.index)
        next_click = time.monotonic() + rng.uniform(0, interval)
        while time.monotonic() + interval < stop_at:
            await asyncio.sleep(max(0.0, next_click - time.monotonic()))
            next_click += interval
            if at_end:  # the last merge: start again, as a teacher would
                await click_and_wait(page, first_button, "Before any merge", session)
                step, at_end = 0, False
                continue
            started = time.perf_counter()
            shown = await click_and_wait(page, next_button, f"Merge {step + 1} of ", session)
            session.driver_latencies.append(time.perf_counter() - started)
            session.latencies.append(shown["ms"] / 1000)
            step += 1
            session.steps += 1
            at_end = shown["nextDisabled"] is True
    except Exception as error:  # a failed wait or a broken page: count it, end this session
        try:  # what the page showed instead (a lost click leaves the old step; a slow one, "running")
            shown = (await page.locator(".bpe-narration").first.inner_text(timeout=2_000))[:40]
        except Exception:
            shown = "?"
        session.errors.append(f"{type(error).__name__}: {str(error).splitlines()[0][:120]} (page showed {shown!r})")
    finally:
        if not seated:  # a session that failed to set up must not hold the class back
            roll.arrived()
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
