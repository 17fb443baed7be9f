"""The server alone under a class: N sessions speaking Streamlit's own protocol, no browsers.

``load_test.py`` drives real browsers, so on one small machine it measures the server *and*
twenty Chromium renderers drawing every step on the same cores. In a classroom each student's
browser runs on the student's own computer; only the server is shared. This script measures that
shared part: each session is a WebSocket client that sends the same messages a browser sends (open
the Train page, set its own text, press Next) and times each step from sending the click to the
server's ``script_finished``, checking every element the server sent for the step's narration
and for any other session's marker word (cross-talk).

Same class as ``load_test.py``: unique texts, everyone trained before anyone steps, one click per
``--interval`` seconds at a random phase, First again after the last merge. Exit code 0 when
0 errors, 0 cross-talk and p95 < 1 s, else 2.

``--hostile`` adds one more session that is not in the class: while the class steps, it sends, in
turn and 5 s after each answer, a link carrying the regex memory bomb ``(?:a{65535}){65535}``, links
carrying the recursive and fuzzy patterns that once took a server from 199 to 921 MiB
(``a{e<=1}(?R)`` and four more) and a new 200,000-character text to the Encode page's walkthrough.
The ordinary sessions' p95 must stay under 1 s with 0 errors, every link must be answered within
5 s with the guard's message, and the server's peak memory must stay under 600 MiB.

    .venv/bin/python benchmarks/server_load_test.py --sessions 20 --seconds 60
    .venv/bin/python benchmarks/server_load_test.py --sessions 20 --seconds 60 --hostile

``--url`` drives a server already running, e.g. a replica set behind HAProxy from
``scripts/serve.sh`` (which prints the ``--server-pid`` options that measure its processes). Each
session first loads the page, as a browser does, and sends the cookies it got (the load
balancer's stickiness cookie) with its WebSocket, so it stays on one replica.

    .venv/bin/python benchmarks/server_load_test.py --url http://127.0.0.1:8501 --server-pid 11 --server-pid 12
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import time
import urllib.request
from collections.abc import Sequence
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from urllib.parse import quote

from load_common import MARKER, Roll, Session, attend, corpus_for, parse_class_args, report, run_class

from bpe.limits import MAX_ENCODE_CHARS  # noqa: E402  (load_common put the project root on sys.path)
from bpe.training.presets import PRESETS  # noqa: E402
from tests.apptest_support import plain  # noqa: E402

WAIT_S = 15.0
"""Longest wait for one step (counted as an error past it)."""


class ProtocolSession:
    """One browser's worth of messages: the widget ids and fragment id the server announced,
    and what the last run drew (HTML, Markdown and alert bodies, and whether Next was disabled)."""

    def __init__(self, socket, *, page: str = "Train") -> None:
        self.socket = socket
        self.page = page
        """The page every rerun names, as a browser at ``/<page>`` sends it."""
        self.widget_ids: dict[str, str] = {}  # user key -> widget id
        self.widget_fragments: dict[str, str] = {}  # user key -> the fragment it was drawn in ("" for none)
        self.fragment_id = ""
        self.page_script_hash = ""
        self.timers: dict[str, float] = {}
        """Fragments the page asked to rerun on a timer (``st.fragment(run_every=...)``): id -> seconds."""
        self.drawn: set[str] = set()
        """The keyed widgets the last whole-page run drew (a fragment's run adds its own)."""
        self.texts: list[str] = []
        self.exceptions: list[str] = []
        self.next_disabled = False
        self.query_string = ""
        """The page's link as the server last wrote it (``st.query_params``), e.g. ``preset=sennrich&step=2``."""

    async def run(self, *, widgets: Sequence[tuple[str, str, object]] = (), **fields) -> float:
        """Send one rerun and read until it finishes: seconds taken. ``widgets`` are
        ``(user key, WidgetState field, value)``; ``fields`` are other ``ClientState`` fields."""
        from streamlit.proto.BackMsg_pb2 import BackMsg

        message = BackMsg()
        message.rerun_script.page_name = self.page
        # As a browser does: the page's hash too, or a whole-page run that a fragment asks for
        # (st.rerun() inside it) runs the home page instead.
        message.rerun_script.page_script_hash = self.page_script_hash
        for name, value in fields.items():
            setattr(message.rerun_script, name, value)
        for user_key, field, value in widgets:
            state = message.rerun_script.widget_states.widgets.add()
            state.id = self.widget_ids[user_key]
            setattr(state, field, value)
        started = time.perf_counter()
        await self.socket.send(message.SerializeToString())
        self.texts, self.exceptions = [], []
        await asyncio.wait_for(self._read_until_finished(), timeout=WAIT_S)
        return time.perf_counter() - started

    async def press(self, user_key: str) -> float:
        """Click a button of the step fragment (a fragment rerun, as the browser sends it)."""
        return await self.run(widgets=[(user_key, "trigger_value", True)], fragment_id=self.fragment_id)

    async def click(self, user_key: str, *widgets: tuple[str, str, object]) -> float:
        """Click a button outside any fragment (a whole-page run), sending ``widgets`` with it (a form's fields)."""
        return await self.run(widgets=[*widgets, (user_key, "trigger_value", True)])

    async def tap(self, user_key: str, *widgets: tuple[str, str, object]) -> float:
        """Click a button as the browser sends it: a run of the fragment it was drawn in, if any,
        else of the whole page (``widgets``: a form's fields)."""
        return await self.run(widgets=[*widgets, (user_key, "trigger_value", True)],
                              fragment_id=self.widget_fragments.get(user_key, ""))

    async def tick(self, fragment_id: str) -> float:
        """What a browser sends when a fragment's timer fires."""
        return await self.run(fragment_id=fragment_id)

    async def _read_until_finished(self) -> None:
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        while True:
            message = ForwardMsg()
            message.ParseFromString(await self.socket.recv())
            kind = message.WhichOneof("type")
            if kind == "delta" and message.delta.WhichOneof("type") == "new_element":
                self._read_element(message.delta)
            elif kind == "page_info_changed":
                self.query_string = message.page_info_changed.query_string
            elif kind == "navigation":  # names the page that runs, as the browser will name it back
                self.page_script_hash = message.navigation.page_script_hash
            elif kind == "new_session" and not message.metadata.run.fragment_ids:
                self.timers.clear()  # a whole-page run starts: the browser drops the old timers
                self.drawn.clear()
            elif kind == "auto_rerun":
                self.timers[message.auto_rerun.fragment_id] = message.auto_rerun.interval
            elif kind == "script_finished" and message.script_finished != ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                return  # (a run cut short by st.rerun() is followed by the run it asked for)

    def _read_element(self, delta) -> None:
        element = delta.new_element
        kind = element.WhichOneof("type")
        body = getattr(element, kind)
        if kind in ("html", "markdown", "alert"):  # alert: st.error, st.warning
            self.texts.append(body.body)
        elif kind == "exception":
            self.exceptions.append(body.message)
        widget_id = getattr(body, "id", "")  # "$$ID-<hash>-<user key>"; "None" for unkeyed widgets
        user_key = widget_id.rsplit("-", 1)[-1]
        if widget_id and user_key != "None":
            self.widget_ids[user_key] = body.id
            self.widget_fragments[user_key] = delta.fragment_id
            self.drawn.add(user_key)
            if user_key == "w.next.main":
                self.next_disabled = body.disabled
                self.fragment_id = delta.fragment_id

    def check(self, session: Session, expected: str) -> None:
        shown = plain("\n".join(self.texts))
        if expected not in shown:
            session.errors.append(f"the run did not draw {expected!r}")
        session.errors.extend(f"exception drawn: {message[:120]}" for message in self.exceptions)
        session.foreign_markers.update(set(MARKER.findall(shown)) - {session.marker})


def page_cookies(url: str, *, cookie: str = "") -> str:
    """Load the page as a browser does (sending ``cookie``) and return the ``Cookie`` header it
    would send next: the cookies it held, updated by the ones the server set. Behind HAProxy this
    carries the stickiness cookie naming the replica that served the page (a new one if that
    replica is gone), so the session's WebSocket reaches that replica; one process sets none
    that matter."""
    request = urllib.request.Request(url + "/", headers={"Cookie": cookie} if cookie else {})
    with urllib.request.urlopen(request, timeout=WAIT_S) as response:
        jar = dict(part.split("=", 1) for part in cookie.split("; ") if "=" in part)
        jar.update(header.split(";", 1)[0].split("=", 1) for header in response.headers.get_all("Set-Cookie") or [])
    return "; ".join(f"{name}={value}" for name, value in jar.items())


async def connect(stack: AsyncExitStack, url: str, cookie: str, *, page: str = "Train") -> ProtocolSession:
    """A WebSocket session on ``url``'s server at ``page``, sending ``cookie`` as a browser would."""
    import websockets

    return ProtocolSession(await stack.enter_async_context(websockets.connect(
        url.replace("http://", "ws://") + "/_stcore/stream", subprotocols=["streamlit"], max_size=None,
        additional_headers={"Cookie": cookie} if cookie else None,
    )), page=page)


async def run_session(url: str, session: Session, roll: Roll, start_at: float, seconds: float, interval: float) -> None:
    async with AsyncExitStack() as stack:
        client: ProtocolSession | None = None

        async def set_up() -> None:
            nonlocal client
            client = await connect(stack, url, await asyncio.to_thread(page_cookies, url))
            await client.run(query_string="preset=own-text")
            await client.run(widgets=[("w.own_text", "string_value", corpus_for(session))])
            client.check(session, session.marker)

        async def next_step(merge: int) -> bool:
            session.latencies.append(await client.press("w.next.main"))
            client.check(session, f"Merge {merge} of ")
            return client.next_disabled

        async def first_step() -> None:
            await client.press("w.first.main")
            client.check(session, "Before any merge")

        await attend(session, roll, start_at=start_at, seconds=seconds, interval=interval, set_up=set_up,
                     next_step=next_step, first_step=first_step)


# -- one hostile student among them (--hostile) -----------------------------------------------------
BOMB_QUERY = "preset=sennrich&pretok=" + quote("regex:(?:a{65535}){65535}")
WALK_QUERY = "preset=python-docs&step=2000"
RECURSION_LINKS = {  # pattern -> the example it splits; each ate 0.5-0.95 GB (one, splitting python-docs) unguarded
    "(?R)": "sennrich", "(?R)|a": "sennrich", "a{e<=1}(?R)": "sennrich", "(?<x>(?&x))": "sennrich",
    r"x((?:\w+\s?)+(?1)?){e<=2}!|\S": "python-docs",
}
ATTACKS: list[tuple[str, str, str]] = [  # (label, link, what the page must say), sent in turn
    ("regex-bomb link", BOMB_QUERY, "counted repeats would compile to about"),
    *[(f"recursion link {pattern}", f"preset={preset}&pretok=" + quote(f"regex:{pattern}"),
       "fuzzy matching" if pattern.startswith("a{e") else "calls a group or itself")
      for pattern, preset in RECURSION_LINKS.items()],
    ("200,000-character walkthrough", WALK_QUERY, "The walkthrough follows the first"),
]
HOSTILE_EVERY_S = 5.0
"""The hostile session sends its next attack this long after the last one answered."""
MAX_RSS_MIB = 600
"""The server's peak memory with --hostile (one process; before the recursion guard a link took it to 921 MiB)."""


@dataclass
class Hostile:
    times: dict[str, list[float]] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)


def letters_only(seed: int) -> str:
    """200,000 letters of real English with nothing between them: one chunk under GPT-2's split
    (its ``\\p{L}++``), the worst case of a walkthrough; each seed a different text (no cache hit)."""
    letters = "".join(char for char in PRESETS["python-docs"].corpus_text if char.isalpha())
    start = (seed * 7_919) % (len(letters) - MAX_ENCODE_CHARS)
    return letters[start:start + MAX_ENCODE_CHARS]


async def hostile_session(url: str, roll: Roll, hostile: Hostile) -> None:
    """Once the class is seated, until it is dismissed: each of :data:`ATTACKS` in turn (regex-bomb and
    recursion links on the Train page, a new 200,000-character text on the Encode page, whose
    walkthrough was O(characters x merges)), each timed from sending to the run finished."""
    import websockets

    await roll.seated.wait()
    try:
        async with websockets.connect(
            url.replace("http://", "ws://") + "/_stcore/stream", subprotocols=["streamlit"], max_size=None,
        ) as socket:
            client = ProtocolSession(socket)
            await client.run(page_name="Encode_and_decode", query_string=WALK_QUERY)  # learn the widget ids
            attack = 0
            while not roll.dismissed.is_set():
                label, query, expected = ATTACKS[attack % len(ATTACKS)]
                if query == WALK_QUERY:
                    taken = await client.run(page_name="Encode_and_decode", query_string=WALK_QUERY,
                                             widgets=[("w.encode_text", "string_value", letters_only(attack))])
                else:
                    taken = await client.run(query_string=query)
                hostile.times.setdefault(label, []).append(taken)
                if expected not in plain("\n".join(client.texts)) and not client.exceptions:
                    hostile.errors.append(f"attack {attack} ({label}): the run did not draw {expected!r}")
                hostile.errors.extend(f"attack {attack} ({label}): exception drawn: {m[:120]}" for m in client.exceptions)
                attack += 1
                try:
                    await asyncio.wait_for(roll.dismissed.wait(), timeout=HOSTILE_EVERY_S)
                except asyncio.TimeoutError:
                    pass
    except Exception as error:  # a wait past WAIT_S (a frozen server) ends the attack and is reported
        hostile.errors.append(f"{type(error).__name__}: {str(error)[:120]}")


def hostile_report(hostile: Hostile, peak_mib: float) -> bool:
    """Print what the hostile session saw; True when every attack was answered in time, clearly, and
    the server stayed under :data:`MAX_RSS_MIB`."""
    for label, times in hostile.times.items():
        print(f"hostile {label}: {len(times)} sent, answered in max {max(times):.2f} s "
              f"(median {statistics.median(times):.2f} s)")
    print(f"hostile errors: {len(hostile.errors)}")
    for error in hostile.errors[:10]:
        print(f"  {error}")
    links = [time for label, times in hostile.times.items() if "link" in label for time in times]
    print(f"server peak memory {peak_mib:.0f} MiB (target < {MAX_RSS_MIB} MiB)")
    return bool(links) and not hostile.errors and max(links) < 5.0 and 0 < peak_mib < MAX_RSS_MIB


async def drive(url: str, sessions: list[Session], roll: Roll, args) -> None:
    now = time.monotonic()
    await asyncio.gather(*(
        run_session(url, session, roll, now + args.ramp * session.index / len(sessions), args.seconds, args.interval)
        for session in sessions
    ), *([hostile_session(url, roll, args.hostile_record)] if args.hostile else []))


def main() -> int:
    args = parse_class_args(__doc__)
    args.hostile_record = Hostile()
    sessions, measures = run_class(drive, args, log_name="server-load-test-server.log")
    code = report(sessions, measures, args, latency_label="step latency, click sent to the run finished (server side)")
    if args.hostile and not hostile_report(args.hostile_record, measures.rss_peak_mib):
        return 2
    return code


if __name__ == "__main__":
    sys.exit(main())
