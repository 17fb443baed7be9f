"""The app server's resident memory with every pretrained tokenizer loaded (once per process, shared).

A script, not a test: ``.venv/bin/python benchmarks/app_memory.py``. It starts ``streamlit run``
(``tests/app_server.py``), reads the server's resident memory (Linux ``/proc``) after the first
page, then after a browser session (Debian's Chromium via Playwright) has opened the pages that load
each pretrained tokenizer: Compare (ours, GPT-2, GPT-4o), then the Vocabulary of every other one in
the registry (GPT-4, GPT-4o, Qwen2.5, Qwen3.6, DeepSeek: each also indexes its token table), then a
second session doing the same, to show that the tokenizers are shared, not loaded per session.
Load each once first (``python -m bpe encode --pretrained NAME --text hi``), so that the disk cache
of merges is warm as on any server after its first start.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import expect, sync_playwright  # noqa: E402

from bpe.pretrained.registry import PRETRAINED  # noqa: E402
from tests.app_server import running_app  # noqa: E402
from tests.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS line")


VOCABULARIES = [f"{entry.title} ({entry.n_vocab:,} tokens)" for name, entry in PRETRAINED.items() if name != "gpt2"]


def session(browser, url: str, server_pid: int) -> list[float]:
    """One learner: Compare's first lesson, then each vocabulary but GPT-2's (Compare loaded it);
    the server's memory after each page."""
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


def main() -> None:
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
