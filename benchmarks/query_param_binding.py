"""Streamlit 1.67's own query-parameter binding, measured in a browser (docs/links.md says what it
replaces of ``ui/url.py``: none of it).

A one-slider app bound to ``?step=`` (``st.slider(..., key="step", bind="query-params")``), moved by
a button with the PageDown shortcut (as a clicker's press moves a lesson), 0.15 s of work a run. It
prints what a bad link shows (``?step=abc``, ``?step=99`` out of range: the value shown, the address
bar left, warnings on the page), then ``--presses`` PageDowns with ``--busy`` background loops: the
presses lost (the value shown did not move within 15 s) and the times the address bar was off the
value a second after a press.

    .venv/bin/python benchmarks/query_param_binding.py --busy 2
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import Error as PlaywrightError, sync_playwright  # noqa: E402

from load_test import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.app_server import running_app  # noqa: E402

APP = '''
import time
import streamlit as st

def forward():
    st.session_state.step = min(st.session_state.step + 1, 40)

st.slider("Step", 0, 40, key="step", bind="query-params")
st.button("Next", key="next", on_click=forward, shortcut="PageDown")
time.sleep(0.15)  # a page that takes a moment to draw, as the lab's do
st.html(f'<div id="shown" data-step="{st.session_state.step}"></div>')
'''


def shown_after_opening(page, url: str) -> tuple[str, str, int]:
    """The value the page shows for a link, the address bar's query after it, the warnings drawn."""
    page.goto(url)
    page.wait_for_selector("#shown", state="attached")
    time.sleep(1.5)  # the frontend rewrites the address bar after the run: let it settle
    return (page.locator("#shown").get_attribute("data-step"), page.url.partition("?")[2],
            page.locator('[data-testid="stAlert"]').count())


def bar_step(page) -> str | None:
    return page.evaluate("() => new URLSearchParams(location.search).get('step')")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--busy", type=int, default=os.cpu_count() or 2, help="background busy loops")
    parser.add_argument("--presses", type=int, default=30)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as app_dir, open(Path(app_dir) / "server.log", "w") as log:
        (Path(app_dir) / "app.py").write_text(APP)
        run = (sys.executable, "-m", "streamlit", "run", f"{app_dir}/app.py")
        with running_app(log, run=run, cwd=app_dir) as (url, _), sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_context().new_page()
            for link in ("?step=abc", "?step=99", "?step=3"):
                value, query, warnings = shown_after_opening(page, f"{url}/{link}")
                print(f"{link}: shown {value}, address bar {query or '(no query)'}, warnings on the page {warnings}")
            loops = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(args.busy)]
            lost = off = 0
            try:
                page.locator("[data-testid=stMain]").click(position={"x": 5, "y": 300})
                expected = int(page.locator("#shown").get_attribute("data-step"))
                for _ in range(args.presses):
                    page.keyboard.press("PageDown")
                    expected += 1
                    try:
                        page.wait_for_function(
                            f"() => +document.querySelector('#shown').dataset.step === {expected}", timeout=15_000)
                    except PlaywrightError:
                        lost += 1
                        expected = int(page.locator("#shown").get_attribute("data-step"))
                    time.sleep(random.uniform(0.05, 0.6))
                    if bar_step(page) != page.locator("#shown").get_attribute("data-step"):
                        time.sleep(1.0)
                        off += bar_step(page) != page.locator("#shown").get_attribute("data-step")
            finally:
                for loop in loops:
                    loop.kill()
            print(f"busy loops {args.busy}: {args.presses} presses, lost {lost}, address bar off the value"
                  f" a second after a press {off}, load average {os.getloadavg()[0]:.2f}")
    return 0 if lost == off == 0 else 2


if __name__ == "__main__":
    sys.exit(main())
