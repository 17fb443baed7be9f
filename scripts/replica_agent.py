"""HAProxy's agent for a replica set: a replica busy past its budget is drained, so new learners go elsewhere.

Why: ``/_stcore/health`` says only that a replica's server answers. A replica whose one core is
taken (a long import, a big training run) still answers it, so HAProxy kept sending new learners
there, where every step waited behind that work. HAProxy's *agent check* asks this agent about
each replica every second (``agent-send "r1\\n"``); the answer ``drain`` sets the replica's weight
to 0 (no new learners; its own learners' cookies still reach it) and ``ready`` restores it.

Busy: over the last :data:`WINDOW_S` seconds, the replica's processes (the server and the import
workers it started) were running or waiting to run for at least :data:`BUSY_SHARE` of one core's
time (``/proc/<pid>/task/*/schedstat``: time on a core plus time in the run queue, so a replica
that wants its core counts as busy even while the machine gives it less). A replica is drained
only while another one can take its new learners: alive for the whole window, answering its
``/_stcore/health``, and not busy. When none can (all busy, or the other one dead and being started
again), HAProxy keeps sending learners where it can, since with every weight at 0 or every server
down it would turn new learners away.

    python scripts/replica_agent.py --port 40010 --run-dir DIR   # DIR/replica-r1.pid, .port ... (serve.sh's)

serve.sh starts it under its supervisor, with the replicas' pid files. Linux only (``/proc``).
"""

from __future__ import annotations

import argparse
import socketserver
import time
import urllib.request
from pathlib import Path

WINDOW_S = 10.0
"""How far back the agent looks (and it judges a replica once it has seen half of it). Long enough
that a burst of a few seconds never drains a replica: its first page (about a second of imports on
one core) or a class of 60 joining at once. Sessions stay on the replica they were first sent to,
so a drain during a class's join sent the rest of the class to the other replica for the whole
lesson (with 3 s: 50 of 60 students on one replica, 54 of 60, 8 of 8; benchmarks/room_load_test.py);
a long import or a big training run still drains it within about five seconds."""
BUSY_SHARE = 0.9
"""The share of one core a replica's processes must want over :data:`WINDOW_S` to count as busy."""


def demand_seconds(pid: int) -> float:
    """Seconds the process ``pid`` and all its descendants have spent on a core or waiting for one."""
    total = 0.0
    for process in [pid, *descendants(pid)]:
        for task in Path(f"/proc/{process}/task").glob("*"):
            try:
                on_core, waiting, _ = (task / "schedstat").read_text().split()
            except (OSError, ValueError):
                continue  # a thread or process that ended meanwhile
            total += (int(on_core) + int(waiting)) / 1e9
    return total


def descendants(pid: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found, stack = [], [pid]
    while stack:
        for child in children.get(stack.pop(), []):
            found.append(child)
            stack.append(child)
    return found


class Replicas:
    """Each replica's demand samples, read from ``run_dir``'s ``replica-<name>.pid`` files (the
    supervisor rewrites one when it starts a replica again)."""

    def __init__(self, run_dir: Path, *, window_s: float = WINDOW_S, busy_share: float = BUSY_SHARE) -> None:
        self.run_dir, self.window_s, self.busy_share = run_dir, window_s, busy_share
        self.samples: dict[str, list[tuple[float, int, float]]] = {}  # name -> (time, pid, demand)

    def names(self) -> list[str]:
        return sorted(path.name[len("replica-"):-len(".pid")] for path in self.run_dir.glob("replica-*.pid"))

    def sample(self) -> None:
        now = time.monotonic()
        for name in self.names():
            try:
                pid = int((self.run_dir / f"replica-{name}.pid").read_text())
            except (OSError, ValueError):
                continue
            kept = [sample for sample in self.samples.get(name, []) if sample[1] == pid and now - sample[0] <= self.window_s]
            self.samples[name] = [*kept, (now, pid, demand_seconds(pid))]

    def busy(self, name: str) -> bool:
        """Whether ``name`` wanted at least ``busy_share`` of a core over (most of) the window."""
        samples = self.samples.get(name, [])
        if not self._seen_long_enough(samples):
            return False  # too little seen yet (a replica just started)
        (first, _, before), (last, _, after) = samples[0], samples[-1]
        return (after - before) / (last - first) >= self.busy_share

    def can_take_learners(self, name: str) -> bool:
        """Alive for (most of) the window, answering its health check, and not busy."""
        samples = self.samples.get(name, [])
        if not self._seen_long_enough(samples) or self.busy(name) or not Path(f"/proc/{samples[-1][1]}").exists():
            return False
        try:
            port = int((self.run_dir / f"replica-{name}.port").read_text())
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=0.5) as answer:
                return answer.read().strip() == b"ok"
        except (OSError, ValueError):
            return False

    def _seen_long_enough(self, samples: list[tuple[float, int, float]]) -> bool:
        return len(samples) >= 2 and samples[-1][0] - samples[0][0] >= self.window_s / 2

    def answer(self, name: str) -> str:
        """``drain`` for a busy replica while another one can take its new learners, else ``ready``."""
        self.sample()
        if not self.busy(name):
            return "ready"
        return "drain" if any(self.can_take_learners(other) for other in self.names() if other != name) else "ready"


def serve(port: int, replicas: Replicas) -> None:
    class Handler(socketserver.StreamRequestHandler):
        def handle(self) -> None:
            name = self.rfile.readline(64).decode("ascii", "replace").strip()
            self.wfile.write((replicas.answer(name) + "\n").encode("ascii"))

    socketserver.TCPServer.allow_reuse_address = True
    with socketserver.TCPServer(("127.0.0.1", port), Handler) as server:
        server.serve_forever()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--run-dir", type=Path, required=True)
    args = parser.parse_args()
    serve(args.port, Replicas(args.run_dir))


if __name__ == "__main__":
    main()
