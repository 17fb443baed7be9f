"""Live class rooms on Predict the next merge: which room this session is in, as whom, and the
actions it may take there (the views that draw them are :mod:`ui.classroom_views`).

A session is in at most one room (a :class:`Membership`): as its teacher, holding the teacher key,
or as a student, holding a seat once joined. The address bar carries the same
(``room=K7QX3M&teacher=...`` or ``room=K7QX3M&student=<seat>``), so a reload, or a student whose replica
died and who was sent to another, comes back to the same room, question and answer. The students'
join link is ``room=K7QX3M`` alone: the teacher key never leaves the teacher's page. What a link
claims is checked against the store on every run (a forged key is no key).

Each action is an ``on_click`` callback that changes the store and leaves a note for the run
that follows; a store that cannot be reached becomes a note, never an exception.
"""

from __future__ import annotations

import dataclasses
import os
import time
from dataclasses import dataclass
from ipaddress import ip_address
from urllib.parse import urlencode, urlsplit

import segno
import streamlit as st

from bpe.app import pages
from bpe.app.lab_state import LabState
from bpe.limits import JOIN_ATTEMPTS_PER_MINUTE, ROOMS_PER_MINUTE
from bpe.teaching.quiz import Question, make_question
from bpe.teaching.room import (
    Pair, Room, RoomRefused, RoomView, clean_nickname, client_key, is_seat, new_code, new_seat, new_teacher_token,
    parse_code,
)
from bpe.markdown import escape_markdown

from . import state, url
from .redis_room_store import RedisRoomStore
from .room_store import REDIS_URL_SETTING, MemoryRoomStore, RoomStore, RoomStoreUnavailable
from .state import SessionValue, widget_key
from .training import Trained

PUBLIC_URL_SETTING = "BPE_LAB_PUBLIC_URL"
"""The address students' phones reach the app at (``http://192.168.1.20:8501``) when the teacher's
browser runs on the server itself and so shows ``localhost``."""
SHOWN_CODE_CHARS = 40
"""How much of a link's unusable room code the page repeats."""
NICKNAME_KEY = widget_key("room", "nickname")
"""The join form's nickname field (a form's field has no callback of its own: ``join`` reads it)."""


@dataclass(frozen=True)
class Membership:
    code: str
    seat: str | None = None
    """A student's seat (``None`` until they join)."""
    token: str | None = None
    """The teacher key (only the teacher's session and the teacher link hold it)."""

    def link_params(self) -> dict[str, str]:
        """What the address bar holds for this member."""
        own = {"teacher": self.token} if self.token else {"student": self.seat} if self.seat else {}
        return {"room": self.code, **own}


MEMBERSHIP: SessionValue[Membership | None] = SessionValue("room", None)
"""This session's :class:`Membership`, or ``None`` outside any room."""
NOTES: SessionValue[list[tuple[str, str]]] = SessionValue("room_notes", factory=list)
"""``[(kind, Markdown)]`` left by the last action (``kind``: ``error``, ``warning``, ``info``), shown once."""


@st.cache_resource(show_spinner=False)
def room_store() -> RoomStore:
    """The one store of this process: Redis when ``BPE_LAB_REDIS_URL`` names one, else this process."""
    redis_url = os.environ.get(REDIS_URL_SETTING, "")
    return RedisRoomStore(redis_url) if redis_url else MemoryRoomStore()


def member() -> Membership | None:
    return MEMBERSHIP.get()


def note(kind: str, text: str) -> None:
    NOTES.set([*NOTES.get(), (kind, text)])


def show_notes() -> None:
    icons = {"error": "⛔", "warning": "⚠️", "info": "ℹ️"}
    for kind, text in NOTES.get():
        getattr(st, kind)(text, icon=icons[kind])
    NOTES.set([])


def _unreachable(store: RoomStore) -> str:
    return f"The class room's store ({store.where}) is not answering"


def client_address() -> str:
    """The student's address as the rate limit counts it. Behind ``scripts/serve.sh`` every
    connection comes from HAProxy on loopback, which names the real client last in
    X-Forwarded-For; a direct connection from elsewhere is taken as it is (its own header could lie)."""
    direct = st.context.ip_address  # None for a loopback peer
    if isinstance(direct, str):
        return direct
    forwarded = [value for value in st.context.headers.get_all("X-Forwarded-For") if isinstance(value, str)]
    return ",".join(forwarded).split(",")[-1].strip() or "loopback"


# -- arriving by a link ------------------------------------------------------------------------------
def apply_link() -> None:
    """A just-opened link with ``room=`` makes this session a member of that room (what it claims
    is checked when the room is drawn), unless it is in that room already and the link names no
    seat or teacher key. Every such link counts against the join rate limit."""
    code_text = url.new_param("room")
    if code_text is None:
        return
    store = room_store()
    try:
        if not store.allow(client_key(client_address()), limit=JOIN_ATTEMPTS_PER_MINUTE, per_s=60):
            note("error", f"**Too many attempts to join a class room from your network** (more than "
                          f"{JOIN_ATTEMPTS_PER_MINUTE} in a minute). Wait a minute, then open the link again.")
            return
    except RoomStoreUnavailable:
        pass  # nothing to count with; the room view says the store is down
    try:
        code = parse_code(code_text)
    except RoomRefused as refusal:  # the code as text, cut short: a 10,000-character "code" shows 40
        shown = code_text[:SHOWN_CODE_CHARS] + ("…" if len(code_text) > SHOWN_CODE_CHARS else "")
        url.warn_link(f"“{shown}” is not a room code: {refusal}")
        return
    seat, token = url.new_param("student"), url.new_param("teacher") or None
    held = MEMBERSHIP.get()
    if held is not None and held.code == code and not (seat or token):
        # Already in this room: its bare link keeps the seat. A phone that presses Join before its
        # address bar has taken the page's last rewrite sends the link it opened, as if new.
        return
    MEMBERSHIP.set(Membership(code, seat=seat if seat and is_seat(seat) else None, token=token))


def checked(membership: Membership, view: RoomView) -> Membership:
    """``membership`` with what the room does not recognise taken away: a key that is not the
    teacher's, a seat that is not in the room."""
    if membership.token and not view.room.is_teacher(membership.token):
        note("error", f"**This link's teacher key does not open room {view.room.code}**: you are in it as a student.")
        membership = dataclasses.replace(membership, token=None)
    if membership.seat and not view.has_seat(membership.seat):
        membership = dataclasses.replace(membership, seat=None)
    MEMBERSHIP.set(membership)
    return membership


def follow(room: Room) -> None:
    """Show the room's example, settings and step in this session (the room decides them)."""
    params = {key: list(value) if isinstance(value, tuple) else value for key, value in room.lesson}
    wanted, _ = LabState.from_query({**params, "step": str(room.step)})
    if state.lab() != wanted:
        state.LAB.set(wanted)


def room_choices(trained: Trained, step: int, code: str) -> tuple[Pair, ...]:
    """The answers a room offers for merge ``step + 1``, in one order for the whole room (its code
    seeds it, as a learner's seat seeds the quiz alone): the projector's "2." is every phone's "2.",
    so the teacher can talk about the answers by number. Answers are stored and counted by pair."""
    return tuple(candidate.pair for candidate in make_question(trained.trace, step, seed=code).candidates)


def offered(question: Question, room: Room) -> list:
    """The question's candidates in the order the room offers them (the teacher's page chose it)."""
    by_pair = {candidate.pair: candidate for candidate in question.candidates}
    return [by_pair[pair] for pair in room.choices if pair in by_pair]


# -- the join link -----------------------------------------------------------------------------------
def public_base() -> tuple[str, str]:
    """``(base URL students open, a warning or "")``: the address the teacher's browser shows;
    when that names this computer itself (no use to a phone), ``BPE_LAB_PUBLIC_URL`` (which
    ``scripts/serve.sh`` sets to the machine's network address), else that address and a warning."""
    page_url = st.context.url or f"http://{st.context.headers.get('Host', 'localhost:8501')}"
    parts = urlsplit(page_url)
    path = parts.path.rstrip("/")
    if path.endswith("/" + pages.QUIZ.url_name):
        path = path[: -len(pages.QUIZ.url_name) - 1]
    base = f"{parts.scheme or 'http'}://{parts.netloc}{path}"
    host = parts.hostname or ""
    try:
        local = host == "localhost" or host.endswith(".localhost") or ip_address(host).is_loopback
    except ValueError:
        local = False
    if not local:
        return base, ""
    configured = os.environ.get(PUBLIC_URL_SETTING, "").rstrip("/")
    if configured:
        return configured, ""
    return base, (f"{host} is this computer's own name: phones need its network address (scripts/serve.sh "
                  f"prints it; or set {PUBLIC_URL_SETTING}).")


def join_link(code: str) -> str:
    return f"{public_base()[0]}/{pages.QUIZ.url_name}?{urlencode({'room': code})}"


def teacher_link(membership: Membership) -> str:
    return f"{public_base()[0]}/{pages.QUIZ.url_name}?{urlencode(membership.link_params())}"


def qr_image(link: str) -> str:
    """The QR code of ``link`` as an SVG ``data:`` URI (scaled by CSS: sharp on any projector).
    Error correction M: a phone still reads it with 15 % of it lost to glare or a low camera."""
    return segno.make(link, error="m").svg_data_uri(omitsize=True, border=2)


# -- actions (on_click callbacks) --------------------------------------------------------------------
def _lesson() -> tuple:
    query = state.lab().to_query()
    return tuple((key, tuple(value) if isinstance(value, list) else value) for key, value in query.items() if key != "step")


def start_room(trained: Trained, step: int) -> None:
    """Open a room on the question at ``step``; this session becomes its teacher."""
    store = room_store()
    token = new_teacher_token()
    try:
        if not store.allow("open:" + client_key(client_address()), limit=ROOMS_PER_MINUTE, per_s=60):
            note("error", f"**Too many rooms opened from your network** (more than {ROOMS_PER_MINUTE} in a minute): "
                          "wait a minute, or use a room you opened.")
            return
        for _ in range(5):  # a taken code is drawn again; five in a row would mean a broken generator
            code = new_code()
            room = Room.open(code, teacher_token=token, lesson=_lesson(), step=step,
                             choices=room_choices(trained, step, code), now=time.time())
            if store.create(room):
                MEMBERSHIP.set(Membership(room.code, token=token))
                return
        note("error", "**Could not find a free room code**: try again.")
    except RoomStoreUnavailable:
        note("error", f"**Cannot open a room:** {_unreachable(store)}. The quiz works alone meanwhile.")
    except RoomRefused as refusal:
        note("error", f"**Cannot open a room:** {escape_markdown(refusal)}.")


def _act(action, *args) -> None:
    """Run a store action; a refusal or an unreachable store becomes a note."""
    store = room_store()
    try:
        action(store, *args)
    except RoomStoreUnavailable:
        note("warning", f"{_unreachable(store)}: nothing was sent. Try again in a moment.")
    except RoomRefused as refusal:
        text = escape_markdown(refusal)
        note("error", text[:1].upper() + text[1:] + ".")


def join(code: str) -> None:
    # Streamlit already cuts the field at its max_chars; cleaning is the room's own guarantee
    nickname = clean_nickname(st.session_state.get(NICKNAME_KEY) or "")

    def seat_student(store: RoomStore) -> None:
        seat = new_seat()
        store.join(code, seat, nickname)
        MEMBERSHIP.set(Membership(code, seat=seat))

    _act(seat_student)


def answer(code: str, seat: str, round: int, pair: Pair) -> None:
    _act(lambda store: store.answer(code, seat, round=round, choice=pair))


def reveal(membership: Membership, round: int) -> None:
    _act(lambda store: store.change(membership.code, lambda room: room.revealed_by(membership.token, round=round)))


def next_question(membership: Membership, round: int, trained: Trained, step: int) -> None:
    choices = room_choices(trained, step + 1, membership.code)
    _act(lambda store: store.change(
        membership.code, lambda room: room.next_question(membership.token, step=step + 1, choices=choices, round=round),
    ))


def close(membership: Membership) -> None:
    def close_room(store: RoomStore) -> None:
        store.change(membership.code, lambda room: room.closed_by(membership.token))
        MEMBERSHIP.set(None)
        note("info", f"Room {membership.code} is closed: its students see that it ended.")

    _act(close_room)


def leave() -> None:
    MEMBERSHIP.set(None)
