"""How soon should a "try your own" box count while the learner types? Streamlit's ``live`` pause, measured.

The "Why tokenization matters" page counts the tokens of the learner's own text under every
tokenizer as they type: ``st.text_input(live=PAUSE)`` commits the text after a pause in typing
(Streamlit 1.67; no component, no Enter), inside a fragment, so only the box and its counts
rerun. This runs the real page with each pause in turn (``streamlit run`` of a wrapper that only
overrides ``live``), types a sentence into the first card's box in Debian's Chromium at a steady
pace, and reports per pause:

* commits: the messages the browser sent the server while typing (each is a rerun of the box);
* latency: from the last key to the counts of the whole sentence drawn, timed inside the page
  (the last ``keydown`` to the ``MutationObserver`` seeing the final counts): what the learner waits;
* server CPU per commit (``/proc/<pid>/stat``), so the cost of typing for a class can be read off.

``False`` (Streamlit's default) commits only on Enter or leaving the box: the counts do not follow
the typing at all, which is what the page must not do. Only loopback traffic; every wait is bounded,
and the servers are always stopped.

    .venv/bin/python benchmarks/live_typing.py                       # every pause, 110 and 250 ms per key
    .venv/bin/python benchmarks/live_typing.py --pauses 300ms --key-ms 180
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bpe.pretrained.registry import PRETRAINED, load_pretrained  # noqa: E402
from bpe.teaching.why_tokenization import PHENOMENA, one_per_split  # noqa: E402
from load_common import cpu_seconds  # noqa: E402
from tests.app_server import running_app  # noqa: E402
from tests.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

SENTENCE = "How many r's are in raspberry?"
PAUSES = ("False", "0ms", "150ms", "250ms", "300ms", "500ms")
WRAPPER = """
import runpy, sys
import streamlit as st

PAUSE = {pause!r}
if not getattr(st.text_input, "overridden", False):  # the page's own live= becomes PAUSE
    original = st.text_input
    def text_input(*args, **kwargs):
        if "live" in kwargs:
            kwargs["live"] = False if PAUSE == "False" else PAUSE
        return original(*args, **kwargs)
    text_input.overridden = True
    st.text_input = text_input
runpy.run_path({app!r}, run_name="__main__")
"""
WATCH = """(expected) => {
  window.lastKey = 0; window.drawn = 0;
  document.addEventListener("keydown", () => { window.lastKey = performance.now(); }, true);
  new MutationObserver(() => {
    if (!window.drawn && document.body.innerText.includes(expected)) window.drawn = performance.now();
  }).observe(document.body, {subtree: true, childList: true, characterData: true});
}"""


def expected_counts() -> str:
    """The counts line for the whole sentence under the pretrained tokenizers the page shows (one per
    split, as the page picks them: ``one_per_split``); ours, last on the line, is left out."""
    return " · ".join(
        f"{PRETRAINED[name].title}: {len(load_pretrained(name).encode(SENTENCE)):,} tokens" for name in one_per_split()
    )


def measure(browser, url: str, pid: int, key_ms: int, expected: str) -> tuple[int, float | None, float]:
    """``(commits, latency in ms or None, server CPU ms per commit)`` for one typing of the sentence."""
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    sent = []
    page.on("websocket", lambda socket: socket.on("framesent", lambda frame: sent.append(time.perf_counter())))
    try:
        page.goto(url)  # the wrapper runs once: every later run in this server sees the override
        page.get_by_role("heading", name="BPE Lab").first.wait_for()
        page.goto(f"{url}/Why_tokenization_matters?card={next(iter(PHENOMENA))}")
        box = page.get_by_role("textbox", name="Try your own text")
        box.wait_for()
        page.get_by_text(expected.split(" · ")[0].split(":")[0]).first.wait_for()
        box.fill("")
        box.press("Enter")
        page.wait_for_timeout(1500)  # the cleared box's rerun is not counted
        page.evaluate(WATCH, expected)
        before_frames, before_cpu = len(sent), cpu_seconds(pid)
        box.press_sequentially(SENTENCE, delay=key_ms)
        try:
            page.wait_for_function("() => window.drawn > 0", timeout=5000)
            latency = page.evaluate("() => window.drawn - window.lastKey")
        except Exception:  # nothing commits until Enter or blur
            latency = None
        page.wait_for_timeout(1000)
        commits = len(sent) - before_frames
        cpu_ms = (cpu_seconds(pid) - before_cpu) * 1000 / max(commits, 1)
        return commits, latency, cpu_ms
    finally:
        page.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pauses", nargs="+", default=list(PAUSES))
    parser.add_argument("--key-ms", nargs="+", type=int, default=[110, 250], help="milliseconds between keys")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    expected = expected_counts()
    print(f"typing {SENTENCE!r} ({len(SENTENCE)} keys); final counts: {expected}")
    print(f"{'pause':>7} {'ms/key':>6} {'commits':>8} {'latency ms (median)':>20} {'server CPU ms/commit':>21}")
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        (Path(folder) / "pages").symlink_to(ROOT / "pages")
        try:
            for pause in args.pauses:
                script = Path(folder) / "app.py"
                script.write_text(textwrap.dedent(WRAPPER.format(pause=pause, app=str(ROOT / "app.py"))))
                with open(Path(folder) / f"server-{pause}.log", "w") as log, running_app(
                    log, run=(sys.executable, "-m", "streamlit", "run", str(script)), env={"PYTHONPATH": str(ROOT)},
                ) as (url, server):
                    for key_ms in args.key_ms:
                        runs = [measure(browser, url, server.pid, key_ms, expected) for _ in range(args.repeats)]
                        latencies = sorted(latency for _, latency, _ in runs if latency is not None)
                        shown = f"{latencies[len(latencies) // 2]:.0f}" if len(latencies) == len(runs) else "never (Enter/blur)"
                        commits = "/".join(str(commits) for commits, _, _ in runs)
                        cpu = sorted(cpu for _, _, cpu in runs)[len(runs) // 2]
                        print(f"{pause:>7} {key_ms:>6} {commits:>8} {shown:>20} {cpu:>21.0f}", flush=True)
        finally:
            browser.close()


if __name__ == "__main__":
    main()
