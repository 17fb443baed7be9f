"""How soon every page draws its first screen on a server that has just started, Home beside it.

A script, not a test: ``.venv/bin/python benchmarks/cold_first_screen.py [--runs N] [--pages Train,Compare]``.

Every page in :data:`bpe.app.pages.PAGES` is timed (a new page is timed with no edit here). Each
measurement starts a fresh ``streamlit run app.py`` (the merge cache on disk warm, as on any server
after its first day; nothing in the server's memory), opens one page in Debian's Chromium at
1366x768 and times, from the navigation:

* **first screen**, one rule for every page: the page's title (its ``h1``) is drawn, and what the
  learner sees below it is drawn too: either the page's content already reaches the bottom of the
  window, or the page's run has ended; no spinner or progress bar is inside the window, and every
  chart inside it has drawn its marks. A row or column that says "loading…" counts as drawn: it is
  the rest, arriving as it is ready;
* **complete**: the page's run has ended, no spinner, progress bar or "loading…" is left anywhere
  on the page, and every chart has drawn its marks.

Home is the yardstick, timed in the same rounds (turn about with every page, so a busy minute hits
both): Streamlit's own start and the app's first script run, no tokenizer. Each page's ratio to
Home's first screen is printed beside it. The first navigation also pays for Streamlit's own start
(its static files, the first script run importing the app), as a learner's first visit does.
Target (issue 52 item 3): every first screen within 2 s of navigation.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from load_test import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

from bpe.app.pages import HOME, PAGES, Page  # noqa: E402
from bpe.pretrained.registry import PRETRAINED, load_pretrained  # noqa: E402
from tests.app_server import running_app  # noqa: E402

TARGET_S = 2.0
LIMIT_MS = 120_000

_DRAWN = """
const main = document.querySelector('[data-testid=stMain]');
const title = main && main.querySelector('h1');
const ended = document.querySelector('[data-testid=stApp]')?.getAttribute('data-test-script-state') === 'notRunning';
const inWindow = el => { const box = el.getBoundingClientRect(); return box.bottom > 0 && box.top < innerHeight && box.height > 0; };
const busy = el => el.matches('[data-testid=stSpinner], [data-testid=stProgress]');
const chartUndrawn = el => el.matches('[data-testid=stVegaLiteChart]') && !el.querySelector('svg.marks, canvas');
"""
"""What both rules read: the main area, its title, whether the page's run has ended."""

FIRST_SCREEN_JS = "() => {" + _DRAWN + """
if (!title) return false;
const below = [...main.querySelectorAll('[data-testid=stElementContainer]')]
  .filter(el => !el.contains(title) && (title.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING));
const shown = [...main.querySelectorAll('[data-testid=stSpinner], [data-testid=stProgress], [data-testid=stVegaLiteChart]')].filter(inWindow);
if (shown.some(el => busy(el) || chartUndrawn(el))) return false;
return ended || below.some(el => el.getBoundingClientRect().bottom >= innerHeight);
}"""
"""True once the page's first screen is drawn (the module's docstring says the rule in words)."""

COMPLETE_JS = "() => {" + _DRAWN + """
if (!title || !ended) return false;
const left = [...main.querySelectorAll('[data-testid=stSpinner], [data-testid=stProgress], [data-testid=stVegaLiteChart]')];
return !left.some(el => busy(el) || chartUndrawn(el)) && !main.innerText.includes('loading…');
}"""
"""True once nothing on the page is still coming."""

SCREENS = {  # what --screenshots takes at the first screen, one cold server each
    "laptop": ({"width": 1366, "height": 768}, ""), "presenter": ({"width": 1280, "height": 720}, "present=1"),
    "phone": ({"width": 390, "height": 844}, ""),
}


def page_path(page: Page) -> str:
    """The page's URL path under the server (Home is the root)."""
    return "" if page == HOME else page.url_name


def one_run(playwright, page: Page, checkout: Path, *, screen: str = "laptop", picture: Path | None = None) -> tuple[float, float]:
    """(first screen, complete) in seconds from the navigation, on a server started for this run alone."""
    run = (sys.executable, "-m", "streamlit", "run", str(checkout / "app.py"))
    viewport, query = SCREENS[screen]
    with tempfile.TemporaryFile("w+") as log, running_app(log, run=run, cwd=checkout) as (url, _server):
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            tab = browser.new_page(viewport=viewport, is_mobile=screen == "phone", has_touch=screen == "phone")
            started = time.perf_counter()
            tab.goto(f"{url}/{page_path(page)}" + (f"?{query}" if query else ""), wait_until="commit")
            tab.wait_for_function(FIRST_SCREEN_JS, polling=50, timeout=LIMIT_MS)
            first = time.perf_counter() - started
            if picture is not None:
                tab.screenshot(path=str(picture))
            tab.wait_for_function(COMPLETE_JS, polling=50, timeout=LIMIT_MS)
            return first, time.perf_counter() - started
        finally:
            browser.close()


def chosen_pages(names: str | None) -> list[Page]:
    """Home first (the yardstick), then the pages named (titles or URL names, comma-separated), or all."""
    if not names:
        return list(PAGES)
    wanted = {name.strip().lower() for name in names.split(",")}
    found = [page for page in PAGES if page.title.lower() in wanted or page.url_name.lower() in wanted]
    unknown = wanted - {name for page in found for name in (page.title.lower(), page.url_name.lower())}
    if unknown:
        raise SystemExit(f"no page called {', '.join(sorted(unknown))}: give a title or URL name from bpe/app/pages.py")
    return [HOME, *(page for page in found if page != HOME)]


def main() -> None:
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--pages", metavar="NAMES", help="only these pages (titles or URL names, comma-separated); Home is always timed")
    parser.add_argument("--compare-with", type=Path, metavar="CHECKOUT",
                        help="another checkout (e.g. ../main) measured in the same run, turn about")
    parser.add_argument("--screenshots", type=Path, metavar="DIR",
                        help="only save each page's first screen on a laptop, a projector in presenter mode and a phone")
    parser.add_argument("--cache-as-is", action="store_true",
                        help="skip warming the disk cache of every pretrained tokenizer (a quick check that the script runs)")
    args = parser.parse_args()
    pages = chosen_pages(args.pages)
    checkouts = {"this checkout": ROOT, **({str(args.compare_with): args.compare_with} if args.compare_with else {})}
    for name in () if args.cache_as_is else PRETRAINED:
        load_pretrained(name)  # the disk cache warm: a server's first day is not what is timed
    print("load average before:", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
    with sync_playwright() as playwright:
        if args.screenshots:
            args.screenshots.mkdir(parents=True, exist_ok=True)
            for page in pages:
                for screen in SCREENS:
                    picture = args.screenshots / f"cold-{page.url_name.lower()}-{screen}.png"
                    first, _ = one_run(playwright, page, ROOT, screen=screen, picture=picture)
                    print(f"{picture}: first screen after {first:.2f} s")
            return
        times = {(page, name): [] for page in pages for name in checkouts}
        for _ in range(args.runs):
            for page in pages:
                for name, checkout in checkouts.items():  # turn about: a busy minute hits every page and checkout
                    times[page, name].append(one_run(playwright, page, checkout))
    print(f"{'page':28} {'checkout':16} {'first screen':>20} {'x Home':>7} {'complete':>20}  ({args.runs} cold servers each)")
    over = []
    for page in pages:
        for name in checkouts:
            firsts, completes = [first for first, _ in times[page, name]], [done for _, done in times[page, name]]
            home = statistics.median(first for first, _ in times[HOME, name])
            first = statistics.median(firsts)
            print(f"{page.title[:28]:28} {name[:16]:16} {first:6.2f} s (worst {max(firsts):5.2f}) {first / home:6.2f}x "
                  f"{statistics.median(completes):6.2f} s (worst {max(completes):5.2f})")
            if name == "this checkout" and first > TARGET_S:
                over.append(page.title)
    print("load average after:", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
    print(f"pages over {TARGET_S:.0f} s (median first screen, this checkout): {', '.join(over) or 'none'}")


if __name__ == "__main__":
    main()
