"""Resident memory of every pretrained tokenizer held in one process, ours beside their owners' libraries.

A script, not a test: ``.venv/bin/python benchmarks/app_memory.py [--compare-with CHECKOUT] [--server]``.

**One process** (the default; what an app server's process holds once every page has loaded its
tokenizers): a fresh child loads every registry entry in turn (``load_pretrained``, its merge
cache warm) and reports its resident memory (Linux ``VmRSS``) after each; a second child does the
same with each entry's owner library (``tests/owners.py``: tiktoken's ``Encoding``, Hugging Face
``tokenizers``, ``sentencepiece``, mistral-common, Meta's and Qwen's wrappers), the peer in the same
run. ``--compare-with`` adds a column for another checkout (e.g. ``../main``: the figures before
a change), measured in the same run. Target (issue 52): all of ours together at most 500 MiB.

**``--server``**: ``streamlit run`` (``tests/app_server.py``) and Debian's Chromium: the server's
memory after the first page, after Compare's first lesson, after the Vocabulary of every other
entry, then after a second session doing the same (tokenizers and tables are shared, not loaded
per session).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bpe.pretrained.registry import PRETRAINED, load_pretrained  # noqa: E402

TARGET_MIB = 500

HOLD_ALL = """
import json, sys
from pathlib import Path
def rss_mib():
    return next(int(l.split()[1]) for l in Path("/proc/self/status").read_text().splitlines() if l.startswith("VmRSS:")) / 1024
from bpe.pretrained.registry import PRETRAINED, load_pretrained
if sys.argv[1] == "owner":
    from tests.owners import OWNERS
    build = lambda name: OWNERS[PRETRAINED[name].format](PRETRAINED[name])
else:
    build = load_pretrained
held, after = [], {"start": rss_mib()}
for name in PRETRAINED:
    held.append(build(name))
    after[name] = rss_mib()
print(json.dumps(after))
"""


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS line")


VOCABULARIES = [f"{entry.title} ({entry.n_vocab:,} tokens)" for name, entry in PRETRAINED.items() if name != "gpt2"]


def session(browser, url: str, server_pid: int) -> list[float]:
    """One learner: Compare's first lesson, then each vocabulary but GPT-2's (Compare loaded it);
    the server's memory after each page."""
    from playwright.sync_api import expect

    expect.set_options(timeout=120_000)
    context = browser.new_context(viewport={"width": 1400, "height": 1600})
    page = context.new_page()
    page.goto(f"{url}/Compare")
    expect(page.get_by_text("GPT-4o (200,000 tokens) ·")).to_be_visible()
    after = [rss_mib(server_pid)]
    for title in VOCABULARIES:
        page.goto(f"{url}/Vocabulary")
        page.get_by_role("combobox", name="Vocabulary of", exact=True).click()
        page.get_by_role("option", name=title, exact=True).click()
        expect(page.get_by_role("heading", name=f"How {title.split(' (')[0]} began")).to_be_visible()
        expect(page.locator('[data-testid="stGraphVizChart"] svg').first).to_be_visible()
        after.append(rss_mib(server_pid))
    context.close()
    return after


def hold_all(who: str, checkout: Path) -> dict[str, float]:
    """Resident MiB of a fresh process after it holds each entry in turn (``who``: ours or the owner's)."""
    env = {**os.environ, "PYTHONPATH": str(checkout), "RAYON_NUM_THREADS": "1", "TOKENIZERS_PARALLELISM": "false"}
    done = subprocess.run([sys.executable, "-c", HOLD_ALL, who], env=env, capture_output=True, text=True, cwd=checkout)
    if done.returncode:
        raise SystemExit(f"{who} in {checkout} failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout)


def one_process(compare_with: Path | None) -> None:
    for name in PRETRAINED:
        load_pretrained(name)  # the disk cache warm, as on any server after its first day
    columns = {"ours": hold_all("ours", ROOT), "owners": hold_all("owner", ROOT)}
    if compare_with is not None:
        hold_all("ours", compare_with)  # its own cache files warm first (another version may name them otherwise)
        columns[str(compare_with)] = hold_all("ours", compare_with)
    print(f"{'held, in turn':16}" + "".join(f"{title:>16}" for title in columns) + "   (resident MiB of one process)")
    for name in ["start", *PRETRAINED]:
        print(f"{name:16}" + "".join(f"{after[name]:16.0f}" for after in columns.values()))
    ours = columns["ours"][list(PRETRAINED)[-1]]
    print(f"all {len(PRETRAINED)}: ours {ours:.0f} MiB, their owners {columns['owners'][list(PRETRAINED)[-1]]:.0f} MiB"
          + "".join(f", {title} {after[list(PRETRAINED)[-1]]:.0f} MiB" for title, after in list(columns.items())[2:])
          + f" (target <= {TARGET_MIB} MiB: {'met' if ours <= TARGET_MIB else 'NOT met'}); load average "
          f"{os.getloadavg()[0]:.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--compare-with", type=Path, metavar="CHECKOUT", help="another checkout measured in the same run")
    parser.add_argument("--server", action="store_true", help="the app server's memory through a browser instead")
    args = parser.parse_args()
    if args.server:
        server_sessions()
    else:
        one_process(args.compare_with)


def server_sessions() -> None:
    from playwright.sync_api import expect, sync_playwright

    from tests.app_server import running_app
    from tests.conftest import CHROMIUM, CHROMIUM_ARGS

    with open("/tmp/bpe-app-memory.log", "w") as log, running_app(log) as (url, server), sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            context = browser.new_context()
            home = context.new_page()
            home.goto(url)
            expect(home.get_by_role("heading", name="BPE Lab: byte-pair encoding, step by step")).to_be_visible()
            started = rss_mib(server.pid)
            context.close()
            compare, *vocabularies = session(browser, url, server.pid)
            second = session(browser, url, server.pid)[-1]
        finally:
            browser.close()
    steps = "; ".join(f"{mib:.0f} after {title.split(' (')[0]}'s vocabulary" for title, mib in zip(VOCABULARIES, vocabularies))
    print(f"server resident memory, MiB: {started:.0f} after the home page; {compare:.0f} after Compare's first lesson "
          f"(GPT-2 and GPT-4o loaded); {steps} (each loaded, its table indexed); {second:.0f} after a second session "
          f"did the same (+{second - vocabularies[-1]:.0f}: tokenizers and tables are shared)")


if __name__ == "__main__":
    main()
