"""One student cannot take down the class: a regex memory bomb sent by link is refused about as fast
as a harmless link opens, while another session keeps working.

The server runs under a 3 GB address-space cap (its own, not the shared ``app_url`` server): were
the guard in ``bpe/text/pattern_guard.py`` broken, ``(?:a{65535}){65535}`` would end in a MemoryError
page after seconds of a frozen server (and fail this test) instead of eating the machine. Being a
fresh server, it also shows what a page opened by the server's first request draws.
"""

from __future__ import annotations

import time
from urllib.parse import quote

import pytest
from playwright.sync_api import expect

from bpe.app.pages import PAGES

from .app_server import running_app
from .conftest import server_log

pytestmark = pytest.mark.browser

BOMB = "(?:a{65535}){65535}"
HARMLESS = r"(?:\w{1,3}){1,3}|\s+|[^\w\s]+"
ANSWER_WITHIN = 3.0
"""The bomb's answer may take at most this many times a harmless link's (plus a second)."""


@pytest.fixture(scope="module")
def capped_app_url():
    with open(server_log("streamlit-capped-server"), "w") as log, \
            running_app(log, address_space_bytes=3 << 30) as (url, _):
        yield url


def test_a_regex_bomb_link_is_refused_quickly_while_another_session_steps(page, new_tab, capped_app_url):
    classmate = new_tab()
    classmate.goto(f"{capped_app_url}/Train?preset=sennrich")
    expect(classmate.locator(".bpe-narration")).to_contain_text("Before any merge")
    # The server's first request, and by link to a page: the page sets itself up whole, every page's link
    # in its sidebar (a st.navigation router beside pages/ would not have run for it: docs/navigation.md).
    expect(classmate.get_by_test_id("stSidebar").get_by_role("link")).to_contain_text([page.title for page in PAGES])
    page.goto(capped_app_url)  # the student's browser has the app's scripts cached, as after any visit
    expect(page.get_by_role("heading", name="BPE Lab: byte-pair encoding, step by step")).to_be_visible()

    # The peer, measured under the same load: a link with a harmless counted repeat, same page.
    started = time.perf_counter()
    page.goto(f"{capped_app_url}/Train?preset=sennrich&pretok={quote('regex:' + HARMLESS)}", wait_until="commit")
    expect(page.locator(".bpe-narration")).to_contain_text("Before any merge")
    harmless_s = time.perf_counter() - started

    classmate.get_by_role("button", name="Next").click()  # the classmate steps while the bomb is handled
    started = time.perf_counter()
    page.goto(f"{capped_app_url}/Train?preset=sennrich&pretok={quote('regex:' + BOMB)}", wait_until="commit")
    expect(page.get_by_text("counted repeats would compile to about 4,294,836,225 regex steps")).to_be_visible()
    bomb_s = time.perf_counter() - started
    expect(classmate.locator(".bpe-narration")).to_contain_text("Merge 1 of 10")

    # Refused as fast as a harmless link opens (unguarded, compiling it takes many seconds and ends
    # in a MemoryError under the cap): a ratio, so a loaded machine slows both alike.
    assert bomb_s < ANSWER_WITHIN * harmless_s + 1.0, f"the bomb link took {bomb_s:.1f} s, a harmless one {harmless_s:.1f} s"
    expect(page.get_by_text("Use + or * instead of big counts")).to_be_visible()
    expect(page.locator(".bpe-narration")).to_contain_text("Before any merge")  # fell back to a working run
    classmate.get_by_role("button", name="Next").click()
    expect(classmate.locator(".bpe-narration")).to_contain_text("Merge 2 of 10")
