"""Live class rooms on Predict the next merge: which room this session is in, as whom, and the
actions it may take there (the views that draw them are :mod:`ui.classroom_views`).

A session is in at most one room (a :class:`Membership`), in one of three roles:

* the **projector**: the screen the teacher opened the room on. It acts as the teacher (PageDown
  reveals and moves on, Esc twice closes) because its *browser* is one of the room's teacher
  screens (``ui.browser``'s cookie), never because its address bar holds a key: its link is
  ``room=K7QX3M`` alone, and nothing it draws holds the key.
* the **teacher's controls**: a view for the teacher's own laptop screen or phone, never projected:
  the teacher link (with the key, and its QR code), close, the room's size, the seats per network
  address and their removal, and the next question (a merge, or "Guess the tokens"). Opened from
  the projector as ``room=K7QX3M&controls=1`` (it holds no key: the browser is the teacher's), or on
  another device from the teacher link ``room=K7QX3M&teacher=<key>``.
* a **student**: a seat, which is the browser's (one per browser and room, whatever Leave, Join,
  reloads and tabs do); ``room=K7QX3M&student=<seat>`` in the address bar. That link answers only
  in the browser whose seat it is (:func:`checked`): in any other it is the room's join link.

What a link claims is checked against the store on every run (a forged key is no key). Each action
is an ``on_click`` callback that changes the store and leaves a note for the run that follows; a
store that cannot be reached becomes a note, never an exception. Every join attempt is counted
against the budgets of :func:`bpe.teaching.room_seats.join_budgets`.
"""

from __future__ import annotations

import dataclasses
import os
import secrets
import time
from dataclasses import dataclass

import streamlit as st

from bpe.app.lab_state import LabState
from bpe.limits import ROOMS_PER_MINUTE
from bpe.notation.markdown import escape_markdown
from bpe.teaching.quiz import Question, make_question
from bpe.teaching.room import Room, RoomRefused, RoomView, clean_nickname, new_code, new_teacher_token, parse_code
from bpe.teaching.room_questions import Answer, Asked, MergeAsk
from bpe.teaching.room_seats import client_key, is_seat, join_budgets, owns_seat, seat_for

from . import browser, links, state, url
from .redis_room_store import RedisRoomStore
from .room_reads import SHARED_READ_S, SharedReads
from .room_store import REDIS_URL_SETTING, MemoryRoomStore, RoomStore, RoomStoreUnavailable
from .shared_views import shared_view
from .state import SessionValue, widget_key
from .training import Trained

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
    """The teacher key: held by the session that opened the room and by the teacher link's; never in
    the projector's address bar."""
    screen: bool = False
    """This session is the teacher's projector."""
    controls: bool = False
    """This session is the teacher's controls (a view kept off the projector)."""
    nickname: str = ""

    @property
    def teaching(self) -> bool:
        return self.screen or self.controls

    def credential(self) -> str:
        """What proves this session is the teacher: its key, else its browser (one of the room's screens)."""
        return self.token or browser.browser_id()

    def link_params(self) -> dict:
        """What the address bar holds for this member: the key only on the teacher's controls
        opened from the teacher link (on the teacher's own device), never on the projector."""
        if self.controls:
            return {links.ROOM: self.code, **({links.TEACHER: self.token} if self.token else {links.CONTROLS: True})}
        return {links.ROOM: self.code, links.STUDENT: self.seat}


MEMBERSHIP: SessionValue[Membership | None] = SessionValue("room", None)
"""This session's :class:`Membership`, or ``None`` outside any room."""
NOTES: SessionValue[list[tuple[str, str]]] = SessionValue("room_notes", factory=list)
"""``[(kind, Markdown)]`` left by the last action (``kind``: ``error``, ``warning``, ``info``), shown once."""


@st.cache_resource(show_spinner=False)
def room_store() -> RoomStore:
    """The one store of this process: Redis when ``BPE_LAB_REDIS_URL`` names one, else this process."""
    redis_url = os.environ.get(REDIS_URL_SETTING, "")
    return RedisRoomStore(redis_url) if redis_url else MemoryRoomStore()


@st.cache_resource(show_spinner=False)
def shared_reads() -> SharedReads:
    """This process's last read of each room, for its phones (:mod:`ui.room_reads`)."""
    return SharedReads()


WROTE: SessionValue[bool] = SessionValue("room_wrote", False)
"""This session's tap has changed its room since its last read: the poll that redraws the tap reads the store."""


def read_room(code: str, *, seen: str | None = None, poll: bool = False) -> RoomView | None:
    """Room ``code`` (``seen``: the seat whose page looks): a whole page reads the store (a closed
    room says so at once), and so does the poll after this session's own tap (it comes back with
    its answer); other polls are given this process's read of the moment (:mod:`ui.room_reads`).
    Raises :class:`RoomStoreUnavailable`."""
    shared = poll and not WROTE.get()
    WROTE.set(False)
    return shared_reads().view(room_store(), code, seen=seen, max_age=SHARED_READ_S if shared else 0)


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


PENDING: SessionValue[tuple[str, str, int, Answer] | None] = SessionValue("room_pending", None)
"""``(code, seat, round, answer)`` a student tapped while the room's store was out of reach: sent
as soon as it answers again (the page says so, both times)."""
CLOSING: SessionValue[str | None] = SessionValue("room_closing", None)
"""The room whose projector has pressed Esc once: a second Esc closes it (a stray one never does)."""


SESSION_ID: SessionValue[str] = SessionValue("room_session", factory=lambda: secrets.token_urlsafe(12))
"""This session's own id (a browser tab), for its join budget."""


def admitted(code: str | None, size: int) -> bool:
    """Count one join attempt against every budget (``code``: a room that exists, else ``None``);
    ``False`` after noting which budget refused it."""
    store = room_store()
    budgets = join_budgets(session=SESSION_ID.get(), browser=browser.browser_id(), client=client_key(client_address()),
                           code=code, size=size)
    try:
        for budget in budgets:
            if not store.allow(budget.key, limit=budget.limit, per_s=budget.per_s):
                note("error", budget.refusal)
                return False
    except RoomStoreUnavailable:
        pass  # nothing to count with; the room view says the store is down
    return True


# -- arriving by a link ------------------------------------------------------------------------------
def apply_link() -> None:
    """A just-opened link with ``room=`` makes this session a member of that room (what it claims
    is checked when the room is drawn), unless it is in that room already and the link names no
    seat, key or controls. Every such link is a join attempt, counted against the budgets."""
    code_text = url.read(links.ROOM)
    if code_text is None:
        return
    try:
        code = parse_code(code_text)
    except RoomRefused as refusal:  # the code as text, cut short: a 10,000-character "code" shows 40
        admitted(None, 0)
        shown = code_text[:SHOWN_CODE_CHARS] + ("…" if len(code_text) > SHOWN_CODE_CHARS else "")
        url.warn_link(f"“{shown}” is not a room code: {refusal}")
        return
    try:
        found = room_store().view(code)
    except RoomStoreUnavailable:
        found = None
    if not admitted(code if found else None, found.room.size if found else 0):
        return
    seat, token, controls = url.read(links.STUDENT), url.read(links.TEACHER) or None, bool(url.read(links.CONTROLS))
    held = MEMBERSHIP.get()
    if held is not None and held.code == code and not (seat or token or controls):
        # Already in this room: its bare link keeps the place. A phone that presses Join before its
        # address bar has taken the page's last rewrite sends the link it opened, as if new.
        return
    if token or controls:
        MEMBERSHIP.set(Membership(code, token=token, controls=True))
    else:
        MEMBERSHIP.set(Membership(code, seat=seat if seat and is_seat(seat) else None))


def checked(membership: Membership, view: RoomView) -> Membership:
    """``membership`` as the room recognises it: a key or a browser that is not the teacher's is
    a student's join form; a browser that is one of the room's screens, on the room's bare link, is
    its projector again (a reload); a seat that is another browser's is this browser's own seat if
    it has one here, else none (a classmate's link, shared in the class chat, never answers for
    them); a seat that is not in the room is none."""
    room = view.room
    if membership.seat and not owns_seat(room.code, browser.browser_id(), membership.seat):
        own = seat_for(room.code, browser.browser_id())
        seated = view.has_seat(own)
        note("warning", f"**This link is another student's seat in room {room.code}**: it stays theirs. "
                        + ("You are back in your own seat." if seated else "Join to take a seat of your own."))
        membership = dataclasses.replace(membership, seat=own if seated else None)
    if membership.controls and not room.is_teacher(membership.credential()):
        note("error", f"**This link does not open room {room.code}'s teacher's controls** (they open in the browser "
                      "that started the room, or from the teacher link): you are in it as a student.")
        membership = Membership(room.code)
    if not membership.teaching and not membership.seat and room.is_teacher(browser.browser_id()):
        membership = Membership(room.code, screen=True)
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


def merge_question(trained: Trained, step: int, code: str) -> MergeAsk:
    """The answers a room offers for merge ``step + 1``, in one order for the whole room (its code
    seeds it, as a learner's seat seeds the quiz alone): the projector's "2." is every phone's "2.",
    so the teacher can talk about the answers by number. Answers are stored and counted by pair."""
    return MergeAsk(tuple(candidate.pair for candidate in make_question(trained.trace, step, seed=code).candidates))


def room_question(trained: Trained, step: int) -> Question:
    """The room's question about merge ``step + 1`` as the phones and the projector draw it, built once
    per run and step for the whole server (a reveal redraws it on every phone of a class at once)."""
    return shared_view(trained, "room question", step, build=lambda: make_question(trained.trace, step))


def offered(question: Question, room: Room) -> list:
    """The question's candidates in the order the room offers them (the teacher's page chose it)."""
    by_pair = {candidate.pair: candidate for candidate in question.candidates}
    return [by_pair[pair] for pair in room.choices if pair in by_pair]


# -- actions (on_click callbacks) --------------------------------------------------------------------
def _lesson() -> tuple:
    query = state.lab().to_query()
    return tuple((key, tuple(value) if isinstance(value, list) else value) for key, value in query.items() if key != "step")


def start_room(trained: Trained, step: int) -> None:
    """Open a room on the question at ``step``; this session becomes its projector, and this
    browser one of its teacher's screens."""
    store = room_store()
    token = new_teacher_token()
    try:
        if not store.allow("open:" + client_key(client_address()), limit=ROOMS_PER_MINUTE, per_s=60):
            note("error", f"**Too many rooms opened from your network** (more than {ROOMS_PER_MINUTE} in a minute): "
                          "wait a minute, or use a room you opened.")
            return
        for _ in range(5):  # a taken code is drawn again; five in a row would mean a broken generator
            code = new_code()
            room = Room.open(code, teacher_token=token, lesson=_lesson(), step=step, question=merge_question(trained, step, code),
                             now=time.time(), screen=browser.browser_id())
            if store.create(room):
                MEMBERSHIP.set(Membership(room.code, token=token, screen=True))
                browser.SCROLL_TOP.set(True)
                return
        note("error", "**Could not find a free room code**: try again.")
    except RoomStoreUnavailable:
        note("error", f"**Cannot open a room:** {_unreachable(store)}. The quiz works alone meanwhile.")
    except RoomRefused as refusal:
        note("error", f"**Cannot open a room:** {escape_markdown(refusal)}.")


def act(action, *args) -> bool:
    """Run a store action; a refusal or an unreachable store becomes a note. ``True`` if it ran."""
    store = room_store()
    CLOSING.set(None)
    try:
        action(store, *args)
        return True
    except RoomStoreUnavailable:
        note("warning", f"{_unreachable(store)}: nothing was sent. Try again in a moment.")
    except RoomRefused as refusal:
        text = escape_markdown(refusal)
        note("error", text[:1].upper() + text[1:] + ".")
    return False


def join(code: str, size: int) -> None:
    """Seat this browser (its one seat in the room, whatever Leave, reloads and tabs did before)."""
    # Streamlit already cuts the field at its max_chars; cleaning is the room's own guarantee
    nickname = clean_nickname(st.session_state.get(NICKNAME_KEY) or "")
    if not admitted(code, size):
        return

    def seat_student(store: RoomStore) -> None:
        seat = seat_for(code, browser.browser_id())
        store.join(code, seat, nickname, client_key(client_address()))
        MEMBERSHIP.set(Membership(code, seat=seat, nickname=nickname))

    act(seat_student)


def answer(code: str, seat: str, round: int, given: Answer) -> None:
    store = room_store()
    WROTE.set(True)
    try:
        store.answer(code, seat, round=round, answer=given)
    except RoomStoreUnavailable:
        PENDING.set((code, seat, round, given))
        note("warning", f"{_unreachable(store)}: **your answer is kept on this page** and sent as soon as the room is back.")
    except RoomRefused as refusal:
        text = escape_markdown(refusal)
        note("error", text[:1].upper() + text[1:] + ".")


def send_pending(membership: Membership) -> None:
    """Send the answer tapped while the store was out of reach (the store answers again)."""
    pending = PENDING.get()
    if pending is None or pending[0] != membership.code or pending[1] != membership.seat:
        return
    code, seat, round, given = pending
    try:
        room_store().answer(code, seat, round=round, answer=given)
        note("info", "The room is back: **the answer you tapped meanwhile is in.**")
    except RoomStoreUnavailable:
        return  # still out of reach: kept for the next try
    except RoomRefused as refusal:
        note("warning", f"The room is back, but the answer you tapped meanwhile was not counted: {escape_markdown(refusal)}.")
    PENDING.set(None)


def reveal(membership: Membership, round: int) -> None:
    act(lambda store: store.change(membership.code, lambda room: room.revealed_by(membership.credential(), round=round)))


def next_question(membership: Membership, round: int, step: int, question: Asked) -> None:
    """Everyone moves on to ``question`` (``step``: the lesson's merges done)."""
    act(lambda store: store.change(
        membership.code, lambda room: room.next_question(membership.credential(), step=step, question=question, round=round),
    ))


def next_merge(membership: Membership, round: int, trained: Trained, step: int) -> None:
    next_question(membership, round, step + 1, merge_question(trained, step + 1, membership.code))


def close(membership: Membership) -> None:
    def close_room(store: RoomStore) -> None:
        store.change(membership.code, lambda room: room.closed_by(membership.credential()))
        MEMBERSHIP.set(None)
        note("info", f"Room {membership.code} is closed: its students see that it ended.")

    act(close_room)


def press_close(membership: Membership) -> None:
    """The projector's Esc: the first press asks, the second closes."""
    if CLOSING.get() == membership.code:
        close(membership)
    else:
        CLOSING.set(membership.code)


def resize(membership: Membership, key: str) -> None:
    size = int(st.session_state.get(key) or 1)
    act(lambda store: store.change(membership.code, lambda room: room.resized_by(membership.credential(), size)))


def remove_seats(membership: Membership, key: str) -> None:
    seats = list(st.session_state.get(key) or [])
    if act(lambda store: store.remove(membership.code, seats, credential=membership.credential())) and seats:
        note("info", f"Removed {len(seats)} seat{'s' * (len(seats) != 1)} and their answers to this question.")


def leave() -> None:
    """Out of the room; the browser keeps its id, so joining again finds the same seat."""
    MEMBERSHIP.set(None)
