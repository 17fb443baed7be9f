"""Presses lost on a busy machine: a clicker's PageDown / PageUp over the lesson pages, with every
core kept busy by background loops, counting the presses that did nothing and the places skipped.

One app server (``--app-dir``: any checkout, e.g. main before a change, for "before" figures), one
Debian Chromium at 1280x720 in presenter mode, and ``--busy`` background loops (``while True: pass``,
one per core by default, at the server's priority: a busy shared server). The presses go over the
lesson pages one after another, each opened at its first place by the link a lesson opens it with;
on each page PageDown walks on to the last place and PageUp walks back, as a teacher who went too
far does, until the page's share of ``--presses`` is used. Presses come at a teacher's pace: one,
then a pause of 0.2-1.5 s once the page shows it; and every fifth time a *pair*, the second
``--burst-ms`` after the first (a teacher pressing twice while the page is still busy with the
first, which must be acted on in order, not lost).

After each press (or pair), the page's own lesson marker (``data-at`` of ``data-count``, drawn by
the server) must reach the place the presses lead to within ``--wait-s``. It counts:

* **lost**: a press after which the lesson stayed behind where the presses lead (at the wait's end);
* **skipped**: places the lesson went past it;
* **link off**: the address bar read after the lesson settled, reopened in a second tab, shows
  another place (``--check-links``: every press, slower);

and prints them with the load average, and the browser-side trace of the first few losses (each
rerun's query string against the address bar's, from the page's messages). Exit code 0 when
nothing was lost or skipped, 2 otherwise.

    .venv/bin/python benchmarks/clicker_presses.py                                # this checkout
    .venv/bin/python benchmarks/clicker_presses.py --app-dir /tmp/main-copy       # before a change
    .venv/bin/python benchmarks/clicker_presses.py --presses 40 --busy 0          # a quick look, quiet
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import Error as PlaywrightError, sync_playwright  # noqa: E402

from load_test import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.app_server import STREAMLIT_RUN, running_app  # noqa: E402

PROJECTOR = {"width": 1280, "height": 720}
SETUP_MS = 180_000
PAGES = (
    # (page address, the link a lesson opens it with): pages in the built-in lesson's order, then the rest
    ("Why_tokenization_matters", "card=strawberry"),
    ("Byte_inspector", ""),
    ("Counting_lab", "text=aaabdaaabac&left=a&right=a"),
    ("Train", "preset=sennrich&step=0"),
    ("Tie_break_lab", "preset=wikipedia"),
    ("Predict_the_next_merge", "preset=sennrich&step=0"),
    ("Encode_and_decode", "preset=sennrich&step=10"),
    ("Compare", "preset=sennrich"),
    ("Vocabulary", "preset=sennrich&step=10"),
    ("Pre-tokenization_lab", ""),
    ("Parity-aware_lab", "merge=0"),
)
PROBE_JS = r"""() => {
  if (window.bpeTrace) return;
  const trace = window.bpeTrace = [];
  const t0 = performance.now();
  const fields = (bytes) => {  // a protobuf message's top fields: number -> [values] (varints, or bytes)
    const found = new Map(); let i = 0;
    const varint = () => { let value = 0, shift = 0, byte; do { byte = bytes[i++]; value += (byte & 0x7f) * 2 ** shift; shift += 7; } while (byte & 0x80); return value; };
    while (i < bytes.length) {
      const tag = varint(), wire = tag & 7, field = Math.floor(tag / 8); let value;
      if (wire === 0) value = varint();
      else if (wire === 2) { const n = varint(); value = bytes.subarray(i, i + n); i += n; }
      else if (wire === 1) { i += 8; continue; } else if (wire === 5) { i += 4; continue; } else break;
      if (!found.has(field)) found.set(field, []);
      found.get(field).push(value);
    }
    return found;
  };
  const text = (bytes) => bytes ? new TextDecoder().decode(bytes) : '';
  const note = (kind, query) => trace.push([Math.round(performance.now() - t0), kind, query, location.search.slice(1),
    document.querySelector('.bpe-clicker')?.dataset.at ?? '-']);
  const heard = new WeakSet();
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    const rerun = fields(data instanceof ArrayBuffer ? new Uint8Array(data) : new Uint8Array(data.buffer, data.byteOffset, data.byteLength)).get(11);  // BackMsg.rerun_script: ClientState
    if (rerun) note('rerun', text(fields(rerun[0]).get(1)?.[0]));       // ClientState.query_string
    if (!heard.has(this)) {
      heard.add(this);
      this.addEventListener('message', (event) => {
        if (!(event.data instanceof ArrayBuffer)) return;
        const message = fields(new Uint8Array(event.data));
        const info = message.get(12);  // ForwardMsg.page_info_changed: PageInfo
        if (info) note('page_info', text(fields(info[0]).get(1)?.[0]));
        const finished = message.get(6);  // ForwardMsg.script_finished
        if (finished) note('finished', String(finished[0]));
      });
    }
    return send.call(this, data);
  };
  addEventListener('click', (event) => {  // the clicker clicks the lesson's button (it stops the key itself)
    const keyed = event.target.closest('button')?.closest('[class*="st-key-"]');
    if (keyed) note('click', keyed.className.match(/st-key-\S+/)[0]);
  }, true);
}"""
"""The browser's side of each press, for the report of a loss: ``[ms, kind, query, address bar, marker's place]``."""
WHERE_JS = """() => { const m = document.querySelector('.bpe-clicker');
  return m ? [location.pathname.split('/').pop(), +m.dataset.at, +m.dataset.count] : null; }"""


@dataclass
class Tally:
    presses: int = 0
    lost: int = 0
    skipped: int = 0
    links_off: int = 0
    traces: list[str] = field(default_factory=list)


def where(page) -> tuple[str, int, int] | None:
    return tuple(page.evaluate(WHERE_JS) or ()) or None


def settle(page, path: str, goal: int, wait_s: float) -> tuple[str, int, int] | None:
    """Wait until the marker on ``path`` shows ``goal``; return where the lesson is at the end of the wait."""
    try:
        page.wait_for_function(
            "([path, goal]) => { const m = document.querySelector('.bpe-clicker');"
            " return m && location.pathname.endsWith('/' + path) && +m.dataset.at === goal; }",
            arg=[path, goal], timeout=wait_s * 1000, polling=50,
        )
    except PlaywrightError:
        pass
    return where(page)


def walk_page(page, path: str, presses: int, args, tally: Tally, rng: random.Random) -> None:
    """``presses`` presses on the page shown: on to its last place, back to its first, and so on."""
    page.locator("h1").first.click()  # the focus in the page, on no control
    forward = True
    done = 0
    while done < presses:
        _, at, count = where(page)
        if count < 2:
            return
        if forward and at >= count - 1 or not forward and at <= 0:
            forward = not forward
        room = (count - 1 - at) if forward else at
        pair = done % 5 == 4 and room >= 2 and presses - done >= 2
        key, goal = ("PageDown", 1) if forward else ("PageUp", -1)
        page.evaluate("() => { window.bpeTrace.length = 0; }")
        page.keyboard.press(key)
        if pair:
            time.sleep(args.burst_ms / 1000)
            page.keyboard.press(key)
        sent = 2 if pair else 1
        done += sent
        tally.presses += sent
        expected = at + goal * sent
        shown = settle(page, path, expected, args.wait_s)
        reached = shown[1] if shown and shown[0] == path else at
        behind = (expected - reached) * goal
        if behind > 0:
            tally.lost += behind
        elif behind < 0:
            tally.skipped += -behind
        if behind and len(tally.traces) < args.show_traces:
            trace = page.evaluate("() => window.bpeTrace")
            tally.traces.append(f"{path}: {key} x{sent} from {at} of {count}, reached {reached}:\n" + "\n".join(
                f"    {ms:>6} ms {kind:<10} query={query!r} bar={bar!r} marker={marker}" for ms, kind, query, bar, marker in trace))
        if args.check_links and not behind:
            tally.links_off += link_off(page, path, reached)
        time.sleep(rng.uniform(0.2, 1.5))


def link_off(page, path: str, at: int) -> int:
    """1 when the address bar, opened in a new tab, shows another place than ``at``."""
    other = page.context.browser.new_context(viewport=PROJECTOR).new_page()
    try:
        other.goto(page.url, timeout=SETUP_MS)
        other.wait_for_selector(".bpe-clicker", state="attached", timeout=SETUP_MS)
        shown = where(other)
        return int(shown is None or shown[1] != at)
    finally:
        other.context.close()


def busy_loops(count: int) -> list[subprocess.Popen]:
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--app-dir", type=Path, default=ROOT, help="the checkout whose app is served")
    parser.add_argument("--presses", type=int, default=200)
    parser.add_argument("--busy", type=int, default=os.cpu_count() or 2, help="background loops keeping cores busy")
    parser.add_argument("--burst-ms", type=int, default=150, help="the gap inside a pair of presses")
    parser.add_argument("--wait-s", type=float, default=20.0, help="how long a press may take before it counts as lost")
    parser.add_argument("--check-links", action="store_true", help="reopen the address bar after every press")
    parser.add_argument("--show-traces", type=int, default=3)
    parser.add_argument("--seed", type=int, default=48)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    tally = Tally()
    share = -(-args.presses // len(PAGES))
    log_path = Path("/tmp") / f"clicker_presses_{os.getpid()}.log"
    loops: list[subprocess.Popen] = []
    with open(log_path, "w") as log, running_app(log, run=(sys.executable, "-m", "streamlit", "run", str(args.app_dir / "app.py")),
                                                  cwd=args.app_dir) as (url, _server), sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_context(viewport=PROJECTOR).new_page()
        load_before = os.getloadavg()
        loops = busy_loops(args.busy)
        try:
            for path, link in PAGES:
                if tally.presses >= args.presses:
                    break
                page.goto(f"{url}/{path}?{link}&present=1".replace("?&", "?"), timeout=SETUP_MS)
                page.wait_for_selector(".bpe-clicker", state="attached", timeout=SETUP_MS)
                page.evaluate(PROBE_JS)
                walk_page(page, path, min(share, args.presses - tally.presses), args, tally, rng)
        finally:
            load_during = os.getloadavg()
            for loop in loops:
                loop.kill()
                loop.wait()
            browser.close()
    print(f"app: {args.app_dir}  busy loops: {args.busy}  pair gap: {args.burst_ms} ms  wait: {args.wait_s:g} s")
    print(f"load average before: {load_before[0]:.2f}  at the end: {load_during[0]:.2f} {load_during[1]:.2f} {load_during[2]:.2f}")
    print(f"presses: {tally.presses}  lost: {tally.lost}  places skipped: {tally.skipped}"
          + (f"  links off: {tally.links_off}" if args.check_links else ""))
    for trace in tally.traces:
        print(trace)
    return 0 if tally.lost == tally.skipped == tally.links_off == 0 else 2


if __name__ == "__main__":
    sys.exit(main())
