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

    .venv/bin/python benchmarks/server_load_test.py --sessions 20 --seconds 60
"""

from __future__ import annotations

import asyncio
import html
import re
import sys
import time
from contextlib import AsyncExitStack

from load_common import MARKER, Roll, Session, attend, corpus_for, parse_class_args, report, run_class

WAIT_S = 15.0
"""Longest wait for one step (counted as an error past it)."""


class ProtocolSession:
    """One browser's worth of messages: the widget ids and fragment id the server announced,
    and what the last run drew (HTML and Markdown bodies, and whether Next was disabled)."""

    def __init__(self, socket) -> None:
        self.socket = socket
        self.widget_ids: dict[str, str] = {}  # user key -> widget id
        self.fragment_id = ""
        self.texts: list[str] = []
        self.exceptions: list[str] = []
        self.next_disabled = False

    async def run(self, **client_state) -> float:
        """Send one rerun (``client_state`` fields) and read until the run finishes: seconds taken."""
        from streamlit.proto.BackMsg_pb2 import BackMsg

        message = BackMsg()
        message.rerun_script.page_name = "Train"  # as a browser at /Train sends it, every time
        for name, value in client_state.items():
            if name == "widgets":
                for widget_id, field, widget_value in value:
                    state = message.rerun_script.widget_states.widgets.add()
                    state.id = widget_id
                    setattr(state, field, widget_value)
            else:
                setattr(message.rerun_script, name, value)
        started = time.perf_counter()
        await self.socket.send(message.SerializeToString())
        self.texts, self.exceptions = [], []
        await asyncio.wait_for(self._read_until_finished(), timeout=WAIT_S)
        return time.perf_counter() - started

    async def _read_until_finished(self) -> None:
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        while True:
            message = ForwardMsg()
            message.ParseFromString(await self.socket.recv())
            kind = message.WhichOneof("type")
            if kind == "delta" and message.delta.WhichOneof("type") == "new_element":
                self._read_element(message.delta)
            elif kind == "script_finished":
                return

    def _read_element(self, delta) -> None:
        element = delta.new_element
        kind = element.WhichOneof("type")
        body = getattr(element, kind)
        if kind in ("html", "markdown"):
            self.texts.append(body.body)
        elif kind == "exception":
            self.exceptions.append(body.message)
        user_key = getattr(body, "id", "").rsplit("-", 1)[-1] if hasattr(body, "id") else ""
        if user_key and user_key != "None":
            self.widget_ids[user_key] = body.id
            if user_key == "w.next.main":
                self.next_disabled = body.disabled
                self.fragment_id = delta.fragment_id

    def check(self, session: Session, expected: str) -> None:
        shown = html.unescape(re.sub(r"<[^>]+>", "", "\n".join(self.texts)))  # text as read, not markup
        if expected not in shown:
            session.errors.append(f"the run did not draw {expected!r}")
        session.errors.extend(f"exception drawn: {message[:120]}" for message in self.exceptions)
        session.foreign_markers.update(set(MARKER.findall(shown)) - {session.marker})


async def run_session(url: str, session: Session, roll: Roll, start_at: float, seconds: float, interval: float) -> None:
    import websockets

    async with AsyncExitStack() as stack:
        clients: list[ProtocolSession] = []

        async def set_up() -> None:
            socket = await stack.enter_async_context(websockets.connect(
                url.replace("http://", "ws://") + "/_stcore/stream", subprotocols=["streamlit"], max_size=None,
            ))
            client = ProtocolSession(socket)
            clients.append(client)
            await client.run(query_string="preset=own-text")
            await client.run(widgets=[(client.widget_ids["w.own_text"], "string_value", corpus_for(session))])
            client.check(session, session.marker)

        async def press(key: str) -> float:
            client = clients[0]
            return await client.run(widgets=[(client.widget_ids[key], "trigger_value", True)], fragment_id=client.fragment_id)

        async def next_step(merge: int) -> bool:
            session.latencies.append(await press("w.next.main"))
            clients[0].check(session, f"Merge {merge} of ")
            return clients[0].next_disabled

        async def first_step() -> None:
            await press("w.first.main")
            clients[0].check(session, "Before any merge")

        await attend(session, roll, start_at=start_at, seconds=seconds, interval=interval, set_up=set_up,
                     next_step=next_step, first_step=first_step)


async def drive(url: str, sessions: list[Session], roll: Roll, args) -> None:
    now = time.monotonic()
    await asyncio.gather(*(
        run_session(url, session, roll, now + args.ramp * session.index / len(sessions), args.seconds, args.interval)
        for session in sessions
    ))


def main() -> int:
    args = parse_class_args(__doc__)
    sessions, measures = run_class(drive, args, log_name="server-load-test-server.log")
    return report(sessions, measures, args, latency_label="step latency, click sent to the run finished (server side)")


if __name__ == "__main__":
    sys.exit(main())
