"""The adversary's uploads against an import's budget, and what they cost another learner and the server.

A script, not a test: ``.venv/bin/python benchmarks/import_budget.py [--longest 20] [--seconds 30]``.

The files (issue 42): the tokens a, aa, aaaa, ... up to ``2**longest`` bytes, as a tiktoken rank
file (2.8 MB at 2^20) and as a SentencePiece ``.model`` (2.1 MB). Owner's merge loop: 4x per
doubling (0.69 / 2.21 / 8.95 / 39.7 s, about 45 hours for a 2.8 MB file).

1. **Each file through each door**: the app's (``import_tokenizer_bounded``: a worker at nice 19
   with the budget of ``bpe.limits``) and the command line's (``python -m bpe import``, in its own
   process within the same budget). Printed: done or refused (and the message), the CPU seconds and
   the peak memory of the process that did the work.
2. **Another learner meanwhile**: a fresh app server; one learner steps python-docs on the Train
   page (Streamlit's protocol, as ``server_load_test.py`` speaks it) for ``--seconds`` alone, then
   as long again while a browser session uploads the two files on the Import page again and again.
   Printed: the learner's step p50 / p95 / max in both phases, and the imports done meanwhile.
3. **A replica set** (``scripts/serve.sh --replicas 2``): a browser on one replica imports the
   adversary's files again and again; meanwhile new learners arrive, one every half second. Printed:
   how many HAProxy sent to the importing replica while it was busy (its agent drains it) and after.
4. **Memory**: two sessions each import a 4.7 MB ``.model`` of 245,000 pieces (built from Qwen3.6's
   tokens, as big as an upload may be) three times; the server's memory before and after (the
   issue: six such imports took a server from 54 to 800 MiB).
"""

from __future__ import annotations

import argparse
import asyncio
import re
import resource
import statistics
import struct
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import AsyncExitStack
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from load_common import percentile, rss_mib  # noqa: E402
from load_test import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from server_load_test import connect, page_cookies  # noqa: E402

from bpe.formats.merge_recovery import split_tokens  # noqa: E402
from bpe.formats.sentencepiece_proto import _BPE, _NORMALIZER_DEFAULTS, CONTROL, NORMAL, UNKNOWN, _bytes_field, _int_field, _key  # noqa: E402
from bpe.pretrained.registry import load_pretrained  # noqa: E402
from tests.app_server import running_app  # noqa: E402
from tests.test_bounded_import import doubling_model, doubling_rank_file  # noqa: E402

PROBE = """
import resource, sys, time
from bpe.errors import FormatError
from bpe.formats.bounded_import import import_tokenizer_bounded
path, format = sys.argv[1], sys.argv[2]
started = time.perf_counter()
try:
    tokenizer = import_tokenizer_bounded(format=format, files={path: open(path, "rb").read()})
    outcome = f"done: {tokenizer.n_vocab:,} tokens, {len(tokenizer.merges):,} merges"
except FormatError as error:
    outcome = f"refused: {error}"
worker = resource.getrusage(resource.RUSAGE_CHILDREN)
print(f"{worker.ru_utime + worker.ru_stime:.2f}|{worker.ru_maxrss / 1024:.0f}|{time.perf_counter() - started:.1f}|{outcome}")
"""


def through_each_door(folder: Path, longest: int) -> None:
    files = {"rank file": (folder / "doubling.tiktoken", "tiktoken"), ".model": (folder / "doubling.model", "sentencepiece")}
    files["rank file"][0].write_bytes(doubling_rank_file(longest))
    files[".model"][0].write_bytes(doubling_model(longest))
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    for label, (path, format) in files.items():
        cpu, peak, wall, outcome = subprocess.run(
            [sys.executable, "-c", PROBE, str(path), format], env=env, cwd=ROOT, capture_output=True, text=True, check=True,
        ).stdout.strip().split("|", 3)
        print(f"app   {label:9} ({path.stat().st_size / 1e6:.1f} MB, tokens up to 2^{longest} bytes): {outcome[:110]}; "
              f"worker {cpu} s CPU, peak {peak} MiB, {wall} s wall")
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        result = subprocess.run([sys.executable, "-m", "bpe", "import", "--format", format, "--in", str(path), "--out",
                                 str(folder / "out.json")], env=env, cwd=ROOT, capture_output=True, text=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        said = (result.stdout or result.stderr).strip()[:110]
        print(f"CLI   {label:9}: exit {result.returncode}, {said}; "
              f"{after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime:.2f} s CPU, "
              f"peak {after.ru_maxrss / 1024:.0f} MiB (the largest child so far), {time.perf_counter() - started:.1f} s wall")


def big_model(path: Path) -> None:
    """A SentencePiece BPE ``.model`` of Qwen3.6's text tokens (spaces as ▁) that recover by characters."""
    qwen = load_pretrained("qwen3.6")
    texts = []
    for token_id, token in qwen.tokens.items():
        try:
            text = token.data.decode("utf-8").replace(" ", "\u2581")
        except UnicodeDecodeError:
            continue
        if text and not qwen.is_special(token_id) and not any(char in text for char in "\t\n\r\x00"):
            texts.append(text)
    texts = list(dict.fromkeys(texts))
    multi = [text for text in texts if len(text) > 1]
    while True:  # keep the pieces two kept pieces make
        splits = split_tokens({text: rank for rank, text in enumerate(multi)})
        if len(splits) == len(multi):
            break
        multi = [text for text in multi if text in splits]
    characters = sorted({char for text in texts for char in text})
    pieces = [("<unk>", 0.0, UNKNOWN), ("<s>", 0.0, CONTROL), ("</s>", 0.0, CONTROL),
              *((text, -float(rank), NORMAL) for rank, text in enumerate(multi + characters))]
    records = b"".join(
        _bytes_field(1, _bytes_field(1, text.encode()) + _key(2, 5) + struct.pack("<f", score) + _int_field(3, kind))
        for text, score, kind in pieces
    )
    normalizer = _bytes_field(1, b"identity") + b"".join(_int_field(number, 1) for number in _NORMALIZER_DEFAULTS)
    path.write_bytes(records + _bytes_field(2, _int_field(3, _BPE) + _int_field(4, len(pieces))) + _bytes_field(3, normalizer))


async def learner(url: str, seconds: float, every_s: float) -> list[float]:
    """Train-page steps of python-docs, one every ``every_s``, for ``seconds``: each step's seconds."""
    async with AsyncExitStack() as stack:
        client = await connect(stack, url, await asyncio.to_thread(page_cookies, url))
        await client.run(query_string="preset=python-docs")
        times, deadline = [], time.monotonic() + seconds
        while time.monotonic() < deadline:
            times.append(await client.press("w.next.main" if not client.next_disabled else "w.first.main"))
            await asyncio.sleep(every_s)
        return times


def upload(page, url: str, path: Path, format_title: str) -> str:
    from playwright.sync_api import expect

    from tests.streamlit_widgets import choose

    page.goto(f"{url}/Import_and_export")
    choose(page, "Format", format_title)
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(str(path))
    expect(page.get_by_test_id("stFileChipName")).to_have_count(1)
    page.get_by_role("button", name="Import").click()
    note = page.locator('[data-testid="stAlert"]').filter(has_text=re.compile(r"Imported .*: [0-9,]+ tokens|Cannot import:"))
    expect(note).to_have_count(1, timeout=180_000)
    return note.inner_text().strip().splitlines()[-1][:100]


def importer(url: str, files: list[tuple[Path, str]], stop_at: float, log: list[str]) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1366, "height": 768})
        while time.monotonic() < stop_at:
            for path, title in files:
                started = time.perf_counter()
                said = upload(page, url, path, title)
                log.append(f"{path.name}: {said} ({time.perf_counter() - started:.1f} s)")
        browser.close()


def meanwhile(folder: Path, seconds: float) -> None:
    """The learner alone, then beside a browser importing a small file (the page's and the browser's
    own work), then beside the same browser importing the adversary's files."""
    small = folder / "small.tiktoken"
    small.write_bytes(doubling_rank_file(4))
    phases = {
        "alone": [],
        "beside small imports": [(small, "tiktoken rank file")],
        "beside the adversary's": [(folder / "doubling.tiktoken", "tiktoken rank file"),
                                   (folder / "doubling.model", "SentencePiece .model")],
    }
    with tempfile.TemporaryFile("w+") as log, running_app(log) as (url, server):
        for label, files in phases.items():
            imports: list[str] = []

            async def phase() -> list[float]:
                steps = asyncio.create_task(learner(url, seconds, 0.5))
                if files:
                    await asyncio.to_thread(importer, url, files, time.monotonic() + seconds, imports)
                return await steps

            times = asyncio.run(phase())
            print(f"learner's steps {label:24}: {len(times)} steps, p50 {statistics.median(times) * 1000:.0f} ms, "
                  f"p95 {percentile(times, 0.95) * 1000:.0f} ms, max {max(times) * 1000:.0f} ms"
                  + (f"; {len(imports)} imports meanwhile, e.g. {imports[-1]}" if imports else ""))
        print(f"server memory at the end: {rss_mib(server.pid):.0f} MiB")


def memory(folder: Path) -> None:
    from playwright.sync_api import sync_playwright

    path = folder / "big.model"
    big_model(path)
    with tempfile.TemporaryFile("w+") as log, running_app(log) as (url, server), sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        sessions = [browser.new_page(viewport={"width": 1366, "height": 768}) for _ in range(2)]
        sessions[0].goto(f"{url}/Import_and_export")
        before = rss_mib(server.pid)
        for _ in range(3):
            for page in sessions:
                said = upload(page, url, path, "SentencePiece .model")
        print(f"six imports of {path.stat().st_size / 1e6:.1f} MB .model ({said}) in two sessions: server "
              f"{before:.0f} MiB before, {rss_mib(server.pid):.0f} MiB after")
        browser.close()


def replicas(folder: Path, seconds: float) -> None:
    """New learners' placement before, during and after imports on one replica. A learner sits idle
    on the other replica, so that each holds one WebSocket and HAProxy's leastconn splits new
    learners evenly unless the agent drains one."""
    from playwright.sync_api import sync_playwright

    from tests.replica_set import ReplicaSet

    replica_set = ReplicaSet()
    try:
        url = replica_set.url
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            importer_page = browser.new_page(viewport={"width": 1366, "height": 768})
            importer_page.goto(f"{url}/Import_and_export")
            busy = next(cookie["value"] for cookie in importer_page.context.cookies() if cookie["name"] == "BPE_REPLICA")
            for _ in range(20):  # an idle learner on the other replica
                idle = browser.new_page()
                idle.goto(f"{url}/Train?preset=sennrich")
                if next(cookie["value"] for cookie in idle.context.cookies() if cookie["name"] == "BPE_REPLICA") != busy:
                    break
                idle.context.close()
            placed: list[tuple[float, str]] = []
            done = threading.Event()

            def arrivals() -> None:
                while not done.is_set():
                    placed.append((time.monotonic(), re.search(r"BPE_REPLICA=(\w+)", page_cookies(url)).group(1)))
                    time.sleep(0.5)

            watcher = threading.Thread(target=arrivals)
            watcher.start()
            time.sleep(10)  # before: both replicas idle
            started, imports = time.monotonic(), 0
            while time.monotonic() < started + seconds:
                for path, title in [(folder / "doubling.tiktoken", "tiktoken rank file"), (folder / "doubling.model", "SentencePiece .model")]:
                    upload(importer_page, url, path, title)
                    imports += 1
            stopped = time.monotonic()
            time.sleep(15)  # after: the agent's 3 s window, then HAProxy's next checks
            done.set()
            watcher.join()
            browser.close()
        phases = {"before": [r for at, r in placed if at < started], "while importing (from 5 s in)": [
            r for at, r in placed if started + 5 < at < stopped], "from 5 s after": [r for at, r in placed if at > stopped + 5]}
        print(f"replica set: {busy} imported {imports} files in {stopped - started:.0f} s; new learners HAProxy placed on {busy}: "
              + "; ".join(f"{label} {sum(r == busy for r in got)} of {len(got)}" for label, got in phases.items()))
    finally:
        replica_set.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--longest", type=int, default=20, help="the longest token is 2**LONGEST bytes")
    parser.add_argument("--seconds", type=float, default=30.0, help="each phase of the learner's steps")
    parser.add_argument("--skip", default="", help="comma-separated parts to skip: meanwhile, replicas, memory (the files go through each door first)")
    args = parser.parse_args()
    skip = set(args.skip.split(","))
    with tempfile.TemporaryDirectory() as folder:
        through_each_door(Path(folder), args.longest)
        if "meanwhile" not in skip:
            meanwhile(Path(folder), args.seconds)
        if "replicas" not in skip:
            replicas(Path(folder), args.seconds)
        if "memory" not in skip:
            memory(Path(folder))


if __name__ == "__main__":
    main()
