"""Shared fixtures: fresh Streamlit caches per test, AppTest helpers, and a live app for browsers.

The ``app_url`` fixture starts ``streamlit run app.py`` once per session on a free loopback port
(stdin closed, so it can never block on a prompt), waits for ``/_stcore/health`` and always stops
the server in teardown, even when tests fail. Browser tests need Debian's Chromium at
``/usr/bin/chromium``; without it they fail with a clear message rather than skip (CI installs it).
"""

from __future__ import annotations

import itertools
from pathlib import Path
from types import SimpleNamespace

import pytest

from .app_server import running_app

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


def pytest_collection_modifyitems(config, items):
    """Tests that only make pictures are deselected (not skipped: nothing to report) without --screenshots."""
    if config.getoption("--screenshots"):
        return
    pictures = [item for item in items if item.get_closest_marker("screenshots")]
    if pictures:
        config.hook.pytest_deselected(items=pictures)
        items[:] = [item for item in items if not item.get_closest_marker("screenshots")]


@pytest.fixture
def picture(request):
    """``picture(page, name, **options)`` saves ``test-artifacts/<name>.png`` when the run was asked
    for pictures (``--screenshots``); otherwise it does nothing, so no check may depend on it."""
    wanted = request.config.getoption("--screenshots")

    def save(page, name: str, **options) -> None:
        if wanted:
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / f"{name}.png"), **options)

    return save


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
    import bpe.trainer

    clock = itertools.count(0, 60)
    monkeypatch.setattr(bpe.trainer, "time", SimpleNamespace(perf_counter=lambda: next(clock)))


TINY_REGEX_BUDGET_S = 0.05


@pytest.fixture
def tiny_regex_budget(monkeypatch):
    """Custom regexes get 0.05 s instead of 2 s. A catastrophically backtracking pattern needs
    exponential time in the text's length, so it overruns any budget: the test is as sure, 40x faster."""
    import bpe.pretokenize

    monkeypatch.setattr(bpe.pretokenize, "REGEX_TIMEOUT_S", TINY_REGEX_BUDGET_S)


@pytest.fixture(scope="session")
def app_url():
    """Base URL of a live BPE Lab server for this test session."""
    from bpe.pretrained import PRETRAINED, load_pretrained

    # A rank file's first load ever recovers its merges (about 20 s for GPT-4o) into the per-user
    # disk cache the server reads too: do it here, not inside a page's first content wait.
    for name in PRETRAINED:
        load_pretrained(name)
    ARTIFACTS.mkdir(exist_ok=True)
    with open(ARTIFACTS / "streamlit-server.log", "w") as log, running_app(log) as (url, _):
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
    expect.set_options(timeout=20_000)
    with sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield instance
        finally:
            instance.close()


@pytest.fixture
def page(browser):
    """A fresh browser context (a fresh Streamlit session) with a tall viewport."""
    context = browser.new_context(viewport={"width": 1400, "height": 2400})
    page = context.new_page()
    page.set_default_timeout(30_000)
    try:
        yield page
    finally:
        context.close()
