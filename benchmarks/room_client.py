"""A class room's Predict page as a client without a browser reads it (Streamlit's own protocol,
``server_load_test.ProtocolSession``): opening it as a browser does (its cookies kept), and what its
texts, timers and address bar say, for the room's load, latency and adversary benchmarks and the
replica tests.
"""

from __future__ import annotations

import asyncio
import re
import urllib.parse
from contextlib import AsyncExitStack

from server_load_test import ProtocolSession, connect, page_cookies

PAGE = "Predict_the_next_merge"
LESSON = "preset=sennrich&step=0"
"""Sennrich's example trains 10 merges: 10 questions, about merges 1 to 10."""

QUESTION_NO = re.compile(r"question \*\*(\d+)\*\*")
ANSWERED = re.compile(r"<b>(\d+)</b> of (\d+) answered")
ANSWER_ROW = re.compile(r'<tr class="bpe-(\w+)"><th scope="row">(\d+)\.? .*?</th><td>.*?<b>(\d+)</b>')
REVEALED = re.compile("◀ merged next|◀ the real count")
"""What a phone shows once the answers are revealed (a merge's chart, a guess's histogram)."""
GUESS_ROW = re.compile(r'<tr class="bpe-(\w+)"><th scope="row">(\d+)</th><td>.*?<b>(\d+)</b>')
REPLICA = re.compile(r"BPE_REPLICA=(\w+)")
BROWSER_COOKIE = re.compile(r"bpe_lab_browser=([\w-]{22})")
"""The id the page's one script writes into the browser's cookie (ui/browser.py): a client that
keeps its cookies, as a browser does, sends it with its next page."""


def shown(client: ProtocolSession) -> str:
    return "\n".join(client.texts)


def timer(client: ProtocolSession) -> tuple[str, float]:
    """The page's one fragment timer: ``(fragment id, seconds)`` (it moves when the page is redrawn)."""
    (fragment, every), = client.timers.items()
    return fragment, every


def room_of(client: ProtocolSession) -> dict[str, str]:
    """The parameters the page wrote into its address bar (``room``, ``teacher`` or ``seat``)."""
    return dict(urllib.parse.parse_qsl(client.query_string))


def tally_shown(client: ProtocolSession) -> dict[int, int]:
    """``{choice number (or count guessed): answers}`` from the revealed bar chart, zeros left out."""
    page = shown(client)
    rows = GUESS_ROW.findall(page) or ANSWER_ROW.findall(page)
    return {int(number): int(count) for _, number, count in rows if int(count)}


def browser_cookie(client: ProtocolSession, cookie: str) -> str:
    """``cookie`` with the browser id the page set, as a browser keeps it."""
    found = BROWSER_COOKIE.search(shown(client))
    return f"{cookie}; bpe_lab_browser={found.group(1)}" if found else cookie


async def open_page(stack: AsyncExitStack, url: str, query: str, cookie: str = "") -> tuple[ProtocolSession, str]:
    """A browser at ``url`` (a new one, or one holding ``cookie``) opening the page with ``query``:
    its session, and its replica."""
    cookie = await asyncio.to_thread(page_cookies, url, cookie=cookie)
    client = await connect(stack, url, cookie, page=PAGE)
    await client.run(query_string=query)
    client.cookie = browser_cookie(client, cookie)
    found = REPLICA.search(cookie)
    return client, found.group(1) if found else "one process"

