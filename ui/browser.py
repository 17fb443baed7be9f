"""What the student's (or the teacher's) browser keeps for a class room: its own random id, in a cookie.

A class room needs to know a browser across page loads: a seat is a browser, not a click
(:func:`bpe.teaching.room_seats.seat_for`), and the projector is the teacher's because its browser
opened the room, not because its address bar holds a key (a student could photograph that).
Streamlit reads the cookies a page's WebSocket was opened with (``st.context.cookies``) but sets
none; so the first page of a browser without the cookie mints an id, uses it for this session at
once, and writes it into the cookie with a one-line script (the only script BPE Lab runs, and it
holds nothing but that id). Every later page of that browser, every tab and every reload, sends it.

A browser that refuses cookies, or a client that throws them away, gets a new id per session:
per-session join budgets and the room's size still hold it (``bpe.teaching.room_seats``).
"""

from __future__ import annotations

import streamlit as st

from bpe.teaching.room_seats import is_browser_id, new_browser_id

from .state import SessionValue
from .streamlit_dom import MAIN

COOKIE = "bpe_lab_browser"
COOKIE_DAYS = 30
"""How long the browser keeps its id: a term of lessons (a seat lasts its room, two idle hours at most)."""
MINTED: SessionValue[str | None] = SessionValue("browser_minted", None)
"""The id this session made up when its browser sent none (written into the cookie once)."""
SCROLL_TOP = SessionValue("scroll_top", False)
"""Set by an action whose next page must start at its top (a room opened from the page's foot)."""


def cookie_id() -> str | None:
    """The id the browser sent with this session's WebSocket, if well formed (the tests replace this)."""
    sent = st.context.cookies.get(COOKIE)
    return sent if is_browser_id(sent) else None


def browser_id() -> str:
    """This browser's id: its cookie's, else one made for this session (and kept by :func:`keep`)."""
    return cookie_id() or MINTED.get() or _mint()


def _mint() -> str:
    MINTED.set(new_browser_id())
    return MINTED.get()


def keep() -> None:
    """Write the session's id into the browser's cookie when the browser sent none (drawn once per
    run: a script that does nothing else). ``SameSite=Lax``: sent with the page's own requests only."""
    if cookie_id() is None:
        browser = browser_id()  # subtle: minted here if no action minted it yet, so the cookie and the session agree
        age = COOKIE_DAYS * 24 * 60 * 60
        st.html(f'<script>document.cookie = "{COOKIE}={browser}; path=/; max-age={age}; SameSite=Lax";</script>',
                unsafe_allow_javascript=True)
    if SCROLL_TOP.get():
        SCROLL_TOP.set(False)
        # The room replaces the page the teacher scrolled down to its "Start" button: open it at its top.
        st.html(f'<script>document.querySelector(\'{MAIN}\')?.scrollTo(0, 0); window.scrollTo(0, 0);</script>',
                unsafe_allow_javascript=True)
