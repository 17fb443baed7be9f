"""Shared fixtures: fresh Streamlit caches per test, a live app for browsers, pictures on request,
and clocks and budgets that make time limits independent of the machine's speed (the wall-clock
limits that remain are scaled by the run's measured slowdown: ``tests/machine_speed.py``).

The ``app_url`` fixture starts ``streamlit run app.py`` once per run (shared by the pytest-xdist workers)
on a free loopback port (stdin closed, so it can never block on a prompt), waits for
``/_stcore/health``; the last worker to finish stops it, even when tests fail. Browser tests
need Debian's Chromium at ``/usr/bin/chromium``; without it they fail with a clear message rather
than skip (CI installs it).
"""

from __future__ import annotations

import functools
import itertools
import os
import shutil
import sys
import tempfile
from pathlib import Path
from types import SimpleNamespace

import pytest

from .app_server import locked, shared_app
from .machine_speed import ENV as SLOWDOWN_ENV
from .machine_speed import scaled, scaled_ms, slowdown
from .tiers import COLLECTED, slow_entry

# A run starts about a hundred Python processes (pytest-xdist workers, CLI runs, app servers). With
# PYTHONDONTWRITEBYTECODE set, as on this machine, each compiled the project's modules (and pytest
# rewrote the test modules' asserts) from source again: about 2 s of each worker's start alone. The
# compiled files go to the project's __pycache__ folders, which git ignores.
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-sync",
    "--disable-background-networking", "--disable-component-update", "--disable-dev-shm-usage",
]
ARTIFACTS = ROOT / "test-artifacts"


def pytest_addoption(parser):
    parser.addoption(
        "--screenshots", action="store_true",
        help="also save the pictures for people (test-artifacts/*.png) and run the tests marked "
             "screenshots, which only make pictures; the regular run skips both to stay fast",
    )


@pytest.hookimpl(tryfirst=True)
def pytest_itemcollected(item):
    """Mark the tests of :data:`SLOW_FILES` and :data:`SLOW_TESTS` ``slow`` as they are collected,
    before ``-m`` deselects any; what was collected is kept in :data:`COLLECTED`."""
    collected = item.config.stash.setdefault(COLLECTED, {"tests": set(), "slow keys": set()})
    collected["tests"].add(f"{item.path.name}::{getattr(item, 'originalname', item.name)}")
    key = slow_entry(item)
    if key:
        item.add_marker(pytest.mark.slow)
        collected["slow keys"].add(key)


def pytest_report_header(config):
    return f"time limits x{slowdown():.2f}: the machine's measured slowdown ({SLOWDOWN_ENV}; tests/machine_speed.py)"


def pytest_collection_modifyitems(config, items):
    """Tests that only make pictures are deselected (not skipped: nothing to report) without
    --screenshots; the files are put in the order the workers take them (:func:`file_order`); each
    test's hang guard (pytest-timeout's ``timeout`` in pytest.ini) is scaled as every other limit."""
    if config.pluginmanager.hasplugin("timeout") and config.getini("timeout"):
        guard = pytest.mark.timeout(scaled(float(config.getini("timeout"))))
        for item in items:
            if item.get_closest_marker("timeout") is None:
                item.add_marker(guard)
    if not config.getoption("--screenshots"):
        pictures = [item for item in items if item.get_closest_marker("screenshots")]
        if pictures:
            config.hook.pytest_deselected(items=pictures)
            items[:] = [item for item in items if not item.get_closest_marker("screenshots")]
    rank = {path: index for index, path in enumerate(file_order(items))}
    items.sort(key=lambda item: rank[item.path])  # stable: a file's tests keep their order


def file_order(items) -> list[Path]:
    """The test files in the order pytest-xdist hands them out (``--dist loadscope``, a file to a
    worker): the files marked ``servers`` each beside a browser file, then the other browser files,
    then the rest, each group in name order.

    A ``servers`` file spends much of its time waiting on servers of its own (replica sets, Redis)
    while a browser file keeps the cores busy (Chromium, the app server and the worker), so paired
    the two use the machine fully; the many quick files at the end let the workers finish together.
    With the waiting files last, as name order had them, one worker waited alone at the end.
    """
    group_of: dict[Path, str] = {}
    for item in items:  # a file's group is its first test's (pytestmark marks them all)
        group_of.setdefault(item.path, next((name for name in ("servers", "browser") if item.get_closest_marker(name)), "rest"))
    servers, browser, rest = (sorted(path for path, group in group_of.items() if group == name) for name in ("servers", "browser", "rest"))
    paired = [path for pair in itertools.zip_longest(servers, browser[: len(servers)]) for path in pair if path]
    return paired + browser[len(servers):] + rest


@pytest.fixture
def picture(request):
    """``picture(page, name, **options)`` saves ``test-artifacts/<name>.png`` when the run was asked
    for pictures (``--screenshots``); otherwise it does nothing, so no check may depend on it."""
    wanted = request.config.getoption("--screenshots")

    def save(page, name: str, **options) -> None:
        if wanted:
            ARTIFACTS.mkdir(exist_ok=True)
            screen = page.viewport_size
            # full_page stops at the viewport (Streamlit scrolls inside its own container)
            grow = options.get("full_page") and screen["height"] < TALL["height"]
            if grow:
                page.set_viewport_size({"width": screen["width"], "height": TALL["height"]})
            page.screenshot(path=str(ARTIFACTS / f"{name}.png"), **options)
            if grow:
                page.set_viewport_size(screen)

    return save


@pytest.fixture(autouse=True, scope="session")
def _pretrained_read_once_per_session():
    """A server reads each pretrained tokenizer once (``st.cache_resource``) and indexes its
    vocabulary once, and shares both read-only with every session; the per-test cache clearing
    below would have every page test read GPT-4o and index its 200,000 tokens again (seconds each).
    So the app's loader and indexer run once per name per test session, as a server does. A test
    that needs a fresh read (a package gone missing) uses ``fresh_pretrained``."""
    import ui.pretrained_vocab
    import ui.tokenizers

    patch = pytest.MonkeyPatch()
    patch.setattr(ui.tokenizers, "load_pretrained", functools.cache(ui.tokenizers.load_pretrained))
    # A page waits a moment for the tokenizers it shows, then draws the late ones as loading; an
    # AppTest runs a page once, so here it waits for all (test_app_why checks the loading rows).
    patch.setattr(ui.tokenizers, "FIRST_SCREEN_WAIT_S", 600.0)
    patch.setattr(ui.pretrained_vocab, "_tables", functools.cache(ui.pretrained_vocab._tables.__wrapped__))
    yield
    patch.undo()


@pytest.fixture
def fresh_pretrained(monkeypatch):
    """The app reads pretrained tokenizers from their files again in this test (see above)."""
    import ui.tokenizers
    from bpe.pretrained.registry import load_pretrained

    monkeypatch.setattr(ui.tokenizers, "load_pretrained", load_pretrained)


@pytest.fixture(autouse=True, scope="session")
def _component_packages_scanned_once():
    """Every ``AppTest`` run asks Streamlit to look for custom components in every installed
    package's metadata (``scan_component_manifests``: about 95 packages here, 0.3 s a run, more than
    half of a page test's time). A server does that once, at start; the installed packages cannot
    change during a test run, so the tests do it once per process too."""
    from streamlit.components.v2 import manifest_scanner

    patch = pytest.MonkeyPatch()
    patch.setattr(manifest_scanner, "scan_component_manifests", functools.cache(manifest_scanner.scan_component_manifests))
    yield
    patch.undo()


@pytest.fixture(autouse=True)
def _fresh_streamlit_caches():
    """Streamlit's caches outlive an AppTest: clear them so no test sees another's training."""
    import streamlit as st

    st.cache_data.clear()
    st.cache_resource.clear()
    yield


@pytest.fixture
def slow_clock(monkeypatch):
    """The trainer's clock reads a minute later at every look, so any time limit is spent at the
    first check: a time-limit test gives the same answer on a fast machine and a loaded one."""
    import bpe.training.trainer

    clock = itertools.count(0, 60)
    monkeypatch.setattr(bpe.training.trainer, "time", SimpleNamespace(perf_counter=lambda: next(clock)))


TINY_REGEX_BUDGET_S = 0.05


@pytest.fixture
def tiny_regex_budget(monkeypatch):
    """Custom regexes get 0.05 s instead of 2 s. A catastrophically backtracking pattern needs
    exponential time in the text's length, so it overruns any budget: the test is as sure, 40x faster."""
    import bpe.text.pretokenize

    monkeypatch.setattr(bpe.text.pretokenize, "REGEX_TIMEOUT_S", TINY_REGEX_BUDGET_S)


def server_log(name: str) -> Path:
    """``test-artifacts/<name>.log``, one per pytest-xdist worker (``-gw0``...): none overwrites another's."""
    ARTIFACTS.mkdir(exist_ok=True)
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    return ARTIFACTS / f"{name}{'-' + worker if worker else ''}.log"


def warm_pretrained_cache() -> None:
    """Load every pretrained tokenizer whose merges are not yet in this run's disk cache
    (:data:`MERGE_CACHE`), which the servers read too: a rank file's first load recovers its merges
    (about 3 s of CPU for GPT-4o), which must not happen inside a page's first content wait. Workers
    take turns (a file lock): the first builds the files, the others then only read them."""
    from bpe.pretrained.registry import PRETRAINED, load_pretrained, merge_cache_file

    with locked(Path(tempfile.gettempdir()) / "bpe-lab-tests-warm-cache.lock"):
        for name in PRETRAINED:
            if not merge_cache_file(name).exists():  # loading from the file costs 2 s of a worker's CPU
                load_pretrained(name)


RUN_DIR = "BPE_LAB_TEST_RUN_DIR"
"""Environment variable naming a folder of this run's, shared by its pytest-xdist workers."""


MERGE_CACHE = "BPE_LAB_CACHE_DIR"
"""The pretrained tables' cache folder (:mod:`bpe.pretrained.merge_cache`): one of this run's own."""


def pytest_configure(config):
    if not hasattr(config, "workerinput"):  # the controller (or a run without workers): workers inherit it
        os.environ[RUN_DIR] = tempfile.mkdtemp(prefix="bpe-lab-tests-")
        # Every table is built from the package files once per run (the first process to need one
        # builds it under a lock; the workers and the app server share the folder), never read from
        # the per-user cache (~/.cache/bpe-lab): a table built there by older reader code would hide a
        # change to the reader. About 24 s of CPU for all 14 (docs/measurements.md, issue 46).
        os.environ[MERGE_CACHE] = str(Path(os.environ[RUN_DIR]) / "merge-cache")


def pytest_unconfigure(config):
    if not hasattr(config, "workerinput"):
        shutil.rmtree(os.environ.pop(RUN_DIR), ignore_errors=True)


@pytest.fixture(scope="session")
def app_url():
    """Base URL of a live BPE Lab server, one for the whole run (all pytest-xdist workers)."""
    ARTIFACTS.mkdir(exist_ok=True)
    with shared_app(Path(os.environ[RUN_DIR]), ARTIFACTS / "streamlit-server.log", before_start=warm_pretrained_cache) as url:
        yield url


@pytest.fixture(scope="session")
def browser():
    """Debian's Chromium driven by Playwright (never ``playwright install``)."""
    if not CHROMIUM.exists():
        pytest.fail(
            f"{CHROMIUM} is missing: browser tests need Debian's Chromium (apt-get install -y chromium). "
            "They are not skipped on purpose, so that CI cannot pass without running them.",
            pytrace=False,
        )
    from playwright.sync_api import expect, sync_playwright

    # expect() has its own 5 s default, which a loaded 2-core CI machine can miss on a first page
    # load with charts; content waits stay the only waits, just with more patience.
    expect.set_options(timeout=scaled_ms(20_000))
    with sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield instance
        finally:
            instance.close()


FIRST_LOAD_MS = scaled_ms(60_000)
"""Patience for a page's first load in a browser test: it may train its example (python-docs: 2,000
merges) or read a pretrained tokenizer (Qwen3.6: 248,077 tokens) while the other worker keeps both
cores busy (a minute on a quiet machine, scaled)."""

LAPTOP = {"width": 1366, "height": 768}
"""The tabs' size: a common laptop screen, what most learners see (a panel that scrolls there is
tested there)."""
TALL = {"width": 1366, "height": 2400}
"""A whole page at once, for an audit of everything or a full-page picture."""
PROJECTOR = {"width": 1280, "height": 720}
"""A classroom projector, where a teacher uses presenter mode."""
PHONE = {"width": 390, "height": 844}
"""A phone held upright, where a student answers a class room's question."""


@pytest.fixture(scope="session")
def browser_context(browser):
    """One browser context per worker, as one learner's browser: its HTTP cache keeps Streamlit's
    scripts (and Chromium's compiled code for them) from one test to the next. A fresh context per
    test cost about 1.4 s of Chromium's CPU more per page load (measured), most of a browser test."""
    context = browser.new_context(viewport=LAPTOP)
    try:
        yield context
    finally:
        context.close()


def open_tab(context, width: int = LAPTOP["width"], height: int = LAPTOP["height"]):
    """A new tab of ``context`` at ``width`` x ``height``, patient as ``expect`` is (see ``browser``)."""
    tab = context.new_page()
    if (width, height) != (LAPTOP["width"], LAPTOP["height"]):
        tab.set_viewport_size({"width": width, "height": height})
    tab.set_default_timeout(scaled_ms(30_000))
    return tab


@pytest.fixture
def new_tab(browser_context):
    """``new_tab(width, height)``: a new tab of that size; each tab is a Streamlit session of its own
    (one websocket each), so no test sees another's state. Tabs close when the test ends."""
    tabs = []

    def open_tracked(width: int = LAPTOP["width"], height: int = LAPTOP["height"]):
        tabs.append(open_tab(browser_context, width, height))
        return tabs[-1]

    try:
        yield open_tracked
    finally:
        for tab in tabs:
            tab.close()


@pytest.fixture(scope="session")
def _worker_tab(browser_context):
    """The tab that :func:`page` lends to one test after another (a list: empty until first lent,
    emptied if a test leaves it unusable)."""
    held = []
    yield held
    for tab in held:
        tab.close()


@pytest.fixture
def dialogs(page):
    """Every JavaScript dialog the page tries to open, each dismissed (there must never be one)."""
    opened = []

    def dismiss(dialog):
        opened.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", dismiss)
    try:
        yield opened
    finally:
        page.remove_listener("dialog", dismiss)  # the tab goes on to the next test (see page)


@pytest.fixture
def page(_worker_tab, browser_context):
    """A fresh Streamlit session in a laptop-sized tab (:data:`LAPTOP`).

    The tab is the worker's one tab, lent to one test after another: a test's first ``goto`` starts
    a new Streamlit session (a new page load, a new websocket), as a new tab would, for about 0.6 s
    less of Chromium's CPU each (measured). What a tab keeps between page loads is reset after each
    test: the viewport, the origin's local and session storage, and the page (``about:blank``).
    A fixture that listens to the page's events removes its listener itself.
    """
    if not _worker_tab:
        _worker_tab.append(open_tab(browser_context))
    tab = _worker_tab[0]
    yield tab
    try:
        if tab.url.startswith("http"):
            tab.evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")
        tab.goto("about:blank")
        tab.set_viewport_size(LAPTOP)
    except Exception:  # a crashed or stuck tab: the next test gets a new one
        _worker_tab.clear()
        tab.close()
