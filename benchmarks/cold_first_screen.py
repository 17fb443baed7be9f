"""How soon the Why page and Compare draw their first screen on a server that has just started.

A script, not a test: ``.venv/bin/python benchmarks/cold_first_screen.py [--runs N]``.

Each run starts a fresh ``streamlit run app.py`` (the merge cache on disk warm, as on any server
after its first day; nothing in the server's memory), opens one page in Debian's Chromium at
1366x768 and times, from the navigation:

* **first screen**: the page's own content is drawn: on the Why page the card's question and its
  table of splits with at least one pretrained tokenizer's chips (the others may say "loading…");
  on Compare the chips of ours and at least one pretrained tokenizer;
* **complete**: no tokenizer says "loading…" any more (every row or column has its chips).

Home is timed too, for scale: Streamlit's own start and the app's first script run, no tokenizer.

The first navigation also pays for Streamlit's own start (its static files, the first script run
importing the app), as a learner's first visit does. Target (issue 38): first screen <= 3 s.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from load_test import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

from bpe.pretrained.registry import PRETRAINED, load_pretrained  # noqa: E402
from tests.app_server import running_app  # noqa: E402

PAGES = {
    # page path: (JavaScript true once the first screen is drawn, JavaScript true once nothing is loading)
    "": (  # Home, for scale: Streamlit's own start and the app's first script run, no tokenizer
        "() => !!document.querySelector('h1') && document.querySelectorAll('[data-testid=stPageLink]').length > 3",
        "() => !!document.querySelector('h1')",
    ),
    "Why_tokenization_matters?card=numbers": (
        "() => [...document.querySelectorAll('.bpe-splits tbody tr')].some(row => row.querySelector('.bpe-id')"
        " && !row.querySelector('th').textContent.startsWith('Ours')) && !!document.querySelector('h2, h3')",
        "() => document.querySelectorAll('.bpe-splits tbody tr').length > 0"
        " && !document.querySelector('.bpe-loading') && !document.body.innerText.includes('loading…')",
    ),
    "Compare": (  # opens on ours after all its merges, GPT-2 and GPT-4o: ours and one of them
        "() => document.querySelectorAll('.bpe-tokens').length >= 2",
        "() => document.querySelectorAll('.bpe-tokens').length >= 3 && !document.body.innerText.includes('loading…')",
    ),
}
LIMIT_MS = 120_000


SCREENS = {  # what --screenshots takes at the first screen, one cold server each
    "laptop": ({"width": 1366, "height": 768}, ""), "presenter": ({"width": 1280, "height": 720}, "present=1"),
    "phone": ({"width": 390, "height": 844}, ""),
}


def one_run(playwright, page_path: str, checkout: Path, *, screen: str = "laptop", picture: Path | None = None) -> tuple[float, float]:
    first_js, complete_js = PAGES[page_path]
    run = (sys.executable, "-m", "streamlit", "run", str(checkout / "app.py"))
    viewport, query = SCREENS[screen]
    with tempfile.TemporaryFile("w+") as log, running_app(log, run=run, cwd=checkout) as (url, _server):
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport=viewport, is_mobile=screen == "phone", has_touch=screen == "phone")
            started = time.perf_counter()
            page.goto(f"{url}/{page_path}" + (("&" if "?" in page_path else "?") + query if query else ""), wait_until="commit")
            page.wait_for_function(first_js, polling=50, timeout=LIMIT_MS)
            first = time.perf_counter() - started
            if picture is not None:
                page.screenshot(path=str(picture))
            page.wait_for_function(complete_js, polling=50, timeout=LIMIT_MS)
            return first, time.perf_counter() - started
        finally:
            browser.close()


def main() -> None:
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--compare-with", type=Path, metavar="CHECKOUT",
                        help="another checkout (e.g. /work/main) measured in the same run, turn about")
    parser.add_argument("--screenshots", type=Path, metavar="DIR",
                        help="only save each page's first screen on a laptop, a projector in presenter mode and a phone")
    args = parser.parse_args()
    checkouts = {"this checkout": ROOT, **({str(args.compare_with): args.compare_with} if args.compare_with else {})}
    for name in PRETRAINED:
        load_pretrained(name)  # the disk cache warm: a server's first day is not what is timed
    with sync_playwright() as playwright:
        if args.screenshots:
            args.screenshots.mkdir(parents=True, exist_ok=True)
            for page_path in PAGES:
                for screen in SCREENS:
                    if not page_path:
                        continue
                    picture = args.screenshots / f"cold-{page_path.split('?')[0].lower()}-{screen}.png"
                    first, _ = one_run(playwright, page_path, ROOT, screen=screen, picture=picture)
                    print(f"{picture}: first screen after {first:.2f} s")
            return
        for page_path in PAGES:
            times: dict[str, list[tuple[float, float]]] = {name: [] for name in checkouts}
            for _ in range(args.runs):
                for name, checkout in checkouts.items():  # turn about: a busy minute hits both
                    times[name].append(one_run(playwright, page_path, checkout))
            for name, runs in times.items():
                firsts, completes = [first for first, _ in runs], [complete for _, complete in runs]
                print(f"{page_path.split('?')[0] or 'Home':26} {name}: first screen median {statistics.median(firsts):.2f} s, worst "
                      f"{max(firsts):.2f} s; complete median {statistics.median(completes):.2f} s, worst {max(completes):.2f} s "
                      f"({args.runs} cold servers)")
    print("target: first screen <= 3 s")


if __name__ == "__main__":
    main()
