"""A real corpus against the toy, in Chromium: does a Train step cost the browser more on python-docs?

One app server (``--app-dir``: any checkout, e.g. the commit before a change, for "before" figures),
one Debian Chromium, and for each screen (a 1366x768 laptop; a 1280x720 projector in presenter mode)
two tabs: Sennrich's toy (10 merges) and python-docs (465 KB, 2,000 merges, from merge
``--python-docs-step``). The tabs take turns: one click on Next (or Previous, to bounce inside the
toy's ten merges) in one, then in the other, so both are measured under the same load on a shared
machine. Each step is timed inside the page, from the click's input event to the first frame drawn
after the narration *and* the corpus show the new merge (``requestAnimationFrame``, then a task), so
the driver's round trips are not counted. The main area's elements (``stMain``'s descendants,
the chart's SVG included) are counted at the last step of each tab.

It prints, per screen: each example's median and p95, the ratio of the medians (python-docs /
Sennrich, measured in the same run: the figure to compare across machines and runs), both element
counts, and the load average before and after. Targets: ratio <= 1.5, python-docs elements
<= 3,000. Exit code 0 when both are met on every screen, 2 when not.

    .venv/bin/python benchmarks/browser_step_latency.py                        # this checkout
    .venv/bin/python benchmarks/browser_step_latency.py --app-dir ../checkout-before --steps 20
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import Error as PlaywrightError, sync_playwright  # noqa: E402

from load_common import percentile  # noqa: E402
from load_test import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.app_server import running_app  # noqa: E402

TARGET_RATIO = 1.5
TARGET_ELEMENTS = 3_000
SCREENS = {
    "laptop 1366x768": ({"width": 1366, "height": 768}, ""),
    "projector 1280x720, presenter mode": ({"width": 1280, "height": 720}, "&present=1"),
}
WAIT_MS = 10_000
"""Longest wait for a step before its click counts as lost (steps take well under a second)."""
SETUP_MS = 180_000

PROBE_JS = r"""
() => {
  // From the click's input event (its timeStamp: when the browser received it) to the first frame
  // after the narration names merge k and the corpus shows "After merge k" (rAF, then a task).
  document.addEventListener('click', event => {
    if (event.target.closest('button')) window.__bpeClickedAt = event.timeStamp;
  }, true);
  const shows = (step) => {
    const narration = document.querySelector('.bpe-narration')?.textContent || '';
    const corpus = document.querySelector('.bpe-merge-view')?.textContent || '';
    return step === 0 ? narration.includes('Before any merge')
      : narration.includes(`Merge ${step.toLocaleString('en-US')} of`) && corpus.includes(`After merge ${step.toLocaleString('en-US')}`);
  };
  window.__bpeStepShown = (step, timeoutMs) => new Promise((resolve, reject) => {
    const done = () => requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - window.__bpeClickedAt), 0));
    if (shows(step)) return done();
    const watcher = new MutationObserver(() => { if (shows(step)) { watcher.disconnect(); clearTimeout(timer); done(); } });
    watcher.observe(document.body, {childList: true, subtree: true, characterData: true, attributes: true});
    const timer = setTimeout(() => { watcher.disconnect(); reject(new Error(`merge ${step} not shown within ${timeoutMs} ms`)); }, timeoutMs);
  });
  window.__bpeMainElements = () => document.querySelector('[data-testid="stMain"]').querySelectorAll('*').length;
}
"""


@dataclass
class Tab:
    """One example in one tab: where it stands and what its steps cost."""

    preset: str
    step: int
    total: int = 0
    page: object = None
    latencies_ms: list[float] = field(default_factory=list)
    elements: int = 0
    lost_clicks: int = 0

    def target(self) -> int:
        """The next step to show: forward, bouncing back from the last merge (the toy has ten)."""
        return self.step + 1 if self.step < self.total else self.step - 1


def open_tab(browser, url: str, tab: Tab, viewport: dict, query: str) -> None:
    context = browser.new_context(viewport=viewport)
    tab.page = context.new_page()
    tab.page.set_default_timeout(SETUP_MS)
    tab.page.goto(f"{url}/Train?preset={tab.preset}&step={tab.step}{query}", timeout=SETUP_MS)
    tab.page.evaluate(PROBE_JS)
    tab.page.evaluate("([step, timeout]) => window.__bpeStepShown(step, timeout)", [tab.step, SETUP_MS])
    headline = tab.page.locator(".bpe-headline").first.text_content()
    tab.total = int(headline.split(" of ")[1].split(":")[0].replace(",", ""))
    tab.page.set_default_timeout(WAIT_MS)


def step_once(tab: Tab) -> None:
    """One click, timed; a click the page never answers (it landed while Streamlit was replacing
    the button) is counted as lost and made again, and only the answered one is timed."""
    goal = tab.target()
    key = "w-next-main" if goal > tab.step else "w-prev-main"  # the stepper's buttons (ui/stepper.py)
    for attempt in range(3):
        button = tab.page.locator(f'[class*="st-key-{key}"] button')
        found = button.bounding_box()
        # armed before the click, awaited after it (an evaluate returns only once its promise settles)
        tab.page.evaluate("([step, timeout]) => { window.__bpePending = window.__bpeStepShown(step, timeout); }", [goal, WAIT_MS])
        tab.page.mouse.click(found["x"] + found["width"] / 2, found["y"] + found["height"] / 2)
        try:
            tab.latencies_ms.append(tab.page.evaluate("() => window.__bpePending"))
            break
        except PlaywrightError:
            tab.lost_clicks += 1
    else:
        raise RuntimeError(f"{tab.preset}: merge {goal} never shown after three clicks")
    tab.step = goal


def measure_screen(browser, url: str, name: str, args) -> tuple[Tab, Tab, tuple[float, float]]:
    viewport, query = SCREENS[name]
    toy, real = Tab("sennrich", 3), Tab("python-docs", args.python_docs_step)
    load_before = os.getloadavg()[0]
    for tab in (toy, real):
        open_tab(browser, url, tab, viewport, query)
    for _ in range(args.warmup):  # the first steps of a tab load code and fonts: not what a class sees
        for tab in (toy, real):
            step_once(tab)
    for tab in (toy, real):
        tab.latencies_ms.clear()
    for _ in range(args.steps):
        for tab in (toy, real):
            step_once(tab)
    for tab in (toy, real):
        tab.elements = tab.page.evaluate("() => window.__bpeMainElements()")
        tab.page.context.close()
    return toy, real, (load_before, os.getloadavg()[0])


def summary(tab: Tab) -> str:
    values = tab.latencies_ms
    return (f"{tab.preset:<12} median {statistics.median(values):6.0f} ms, p95 {percentile(values, 0.95):6.0f} ms, "
            f"{tab.elements:,} elements in the main area" + (f", {tab.lost_clicks} lost clicks" if tab.lost_clicks else ""))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--app-dir", type=Path, default=ROOT, help="the checkout whose app.py to serve (default: this one)")
    parser.add_argument("--steps", type=int, default=15, help="steps measured per example and screen (default 15)")
    parser.add_argument("--warmup", type=int, default=2, help="steps taken first and not measured (default 2)")
    parser.add_argument("--python-docs-step", type=int, default=500, help="the merge python-docs starts from (default 500)")
    parser.add_argument("--screens", nargs="+", choices=["laptop", "projector"], default=["laptop", "projector"])
    args = parser.parse_args()
    if not (1 <= args.steps <= 200):
        parser.error("use 1-200 steps")
    app_dir = args.app_dir.resolve()
    run = (sys.executable, "-m", "streamlit", "run", str(app_dir / "app.py"))
    log_path = ROOT / "test-artifacts" / "browser-step-latency-server.log"
    log_path.parent.mkdir(exist_ok=True)
    print(f"app: {app_dir}; {os.cpu_count()} CPUs; {args.steps} steps per example and screen after {args.warmup} unmeasured")
    met = True

    with open(log_path, "w") as log, running_app(log, run=run, cwd=app_dir, startup_s=60) as (url, _server):
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                for screen in args.screens:
                    name = next(name for name in SCREENS if name.startswith(screen))
                    toy, real, (load_before, load_after) = measure_screen(browser, url, name, args)
                    ratio = statistics.median(real.latencies_ms) / statistics.median(toy.latencies_ms)
                    print(f"{name} (load average {load_before:.2f} -> {load_after:.2f}):")
                    print(f"  {summary(toy)}")
                    print(f"  {summary(real)}  (from merge {args.python_docs_step:,})")
                    print(f"  ratio of the medians, python-docs / sennrich: {ratio:.2f} (target <= {TARGET_RATIO})")
                    met &= ratio <= TARGET_RATIO and real.elements <= TARGET_ELEMENTS
            finally:
                browser.close()
    print("targets met" if met else "targets NOT met")
    return 0 if met else 2


if __name__ == "__main__":
    sys.exit(main())
