"""HAProxy's agent (``scripts/replica_agent.py``): a replica busy past its budget is drained, never all of them.

The agent reads the replicas' pid files as serve.sh writes them; here they name a process that
spins (a replica whose core is taken) and one that sleeps (an idle replica), and a test asks the
agent over its socket, as HAProxy does. That HAProxy reads the answers: ``tests/test_replicas.py``
runs serve.sh, whose configuration HAProxy checks before it starts.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request

import pytest

from .app_server import ROOT, free_port
from .machine_speed import scaled

sys.path.insert(0, str(ROOT / "scripts"))
from replica_agent import Replicas, serve  # noqa: E402

SPIN = "while True: pass"
SLEEP = "import time; time.sleep(600)"
HEALTHY = """
import http.server, os, sys
class Health(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"ok")
    def log_message(self, *args):
        pass
server = http.server.HTTPServer(("127.0.0.1", 0), Health)
with open(sys.argv[1] + ".new", "w") as port_file:
    port_file.write(str(server.server_port))
os.replace(sys.argv[1] + ".new", sys.argv[1])
server.serve_forever()
"""
"""An idle replica: it answers its health check on a port of its own, written down (to the file
named by its argument) once it listens, and waits."""
BUSY = "import threading\nthreading.Thread(target=lambda: [None for _ in iter(int, 1)], daemon=True).start()\n" + HEALTHY
"""A busy replica: it answers its health check while a thread keeps its core."""


@pytest.fixture
def processes():
    started: list[subprocess.Popen] = []

    def start(code: str, *arguments: str) -> int:
        started.append(subprocess.Popen([sys.executable, "-c", code, *arguments]))
        return started[-1].pid

    yield start
    for process in started:
        process.kill()
        process.wait()


def ask(port: int, name: str) -> str:
    with socket.create_connection(("127.0.0.1", port), timeout=scaled(5)) as connection:
        connection.sendall(f"{name}\n".encode())
        return connection.makefile().readline().strip()


def answers_after(port: int, names: list[str], *, seconds: float) -> dict[str, str]:
    """Ask about every replica once a second for ``seconds`` (HAProxy's agent-inter), the last answers."""
    deadline, answers = time.monotonic() + seconds, {}
    while time.monotonic() < deadline:
        answers = {name: ask(port, name) for name in names}
        time.sleep(0.5)
    return answers


BURST = ("import threading, time\nthreading.Thread(target=lambda: [None for _ in iter(lambda: time.monotonic() < END, False)],"
         " daemon=True).start()\n")
"""A replica busy for a moment: a thread keeps its core until ``END`` (set before it), then it idles."""


def serving(run_dir, **window) -> int:
    """The agent on a free port, reading ``run_dir`` (``window``: Replicas' own options)."""
    port = free_port()
    replicas = Replicas(run_dir, **window)
    threading.Thread(target=serve, args=(port, replicas), daemon=True).start()
    for _ in range(50):
        try:
            ask(port, "r1")
            break
        except OSError:
            time.sleep(0.1)
    return port


@pytest.fixture
def agent(tmp_path):
    return serving(tmp_path, window_s=1.5), tmp_path


def replica(run_dir, name: str, processes, code: str = HEALTHY) -> None:
    """A replica as serve.sh writes it down (its pid, the port of its health check), once it answers.

    Why wait: a replica still starting wants its core (the interpreter's start-up, slower on a loaded
    machine), so the agent rightly counts it busy for a moment, and an idle replica that has not
    started yet cannot take learners: either way a busy one beside it is not drained. A check that
    began as the processes were spawned read "ready" for the busy replica once in a full run. And
    the replica picks its own port: a port picked for it beforehand may be taken by another test's
    server before it binds it (the replica then dies, and cannot take learners either)."""
    port_file = run_dir / f"replica-{name}.port"
    (run_dir / f"replica-{name}.pid").write_text(str(processes(code, str(port_file))))
    deadline = time.monotonic() + scaled(30)
    while not port_file.exists():  # written by the replica once it listens
        assert time.monotonic() < deadline, f"replica {name} never listened"
        time.sleep(0.05)
    with urllib.request.urlopen(f"http://127.0.0.1:{port_file.read_text()}/_stcore/health", timeout=scaled(5)) as answer:
        assert answer.read() == b"ok", f"replica {name} does not answer its health check"


def test_a_replica_that_wants_its_whole_core_is_drained_and_an_idle_one_stays_ready(agent, processes):
    port, run_dir = agent
    replica(run_dir, "r1", processes, BUSY)
    replica(run_dir, "r2", processes)
    assert answers_after(port, ["r1", "r2"], seconds=3) == {"r1": "drain", "r2": "ready"}


def test_a_busy_replica_is_not_drained_while_the_other_does_not_answer_its_health_check(agent, processes):
    """The other replica killed and being started again: draining this one would leave HAProxy no server."""
    port, run_dir = agent
    (run_dir / "replica-r1.pid").write_text(str(processes(SPIN)))
    (run_dir / "replica-r2.pid").write_text(str(processes(SLEEP)))  # alive, but no server answers
    assert answers_after(port, ["r1", "r2"], seconds=3) == {"r1": "ready", "r2": "ready"}


def test_when_every_replica_is_busy_none_is_drained(agent, processes):
    port, run_dir = agent
    for name in ("r1", "r2"):
        replica(run_dir, name, processes, BUSY)
    assert answers_after(port, ["r1", "r2"], seconds=3) == {"r1": "ready", "r2": "ready"}


def test_a_replicas_busy_import_worker_counts_as_the_replica(agent, processes):
    """An import runs in a child of the replica (``bpe.formats.bounded_import``): its demand is the replica's."""
    port, run_dir = agent
    worker = run_dir / "worker.pid"
    parent = (f"import pathlib, subprocess, sys, time; child = subprocess.Popen([sys.executable, '-c', {SPIN!r}]); "
              f"pathlib.Path({str(worker)!r}).write_text(str(child.pid)); time.sleep(600)")
    (run_dir / "replica-r1.pid").write_text(str(processes(parent)))
    replica(run_dir, "r2", processes)
    try:
        assert answers_after(port, ["r1", "r2"], seconds=3) == {"r1": "drain", "r2": "ready"}
    finally:
        for _ in range(50):  # the worker's pid, once the parent has written it
            if worker.exists() and worker.read_text():
                os.kill(int(worker.read_text()), signal.SIGKILL)
                break
            time.sleep(0.1)


def test_a_replicas_burst_of_a_few_seconds_never_drains_it(tmp_path, processes):
    """serve.sh's window: a replica's first page (its imports, about a second of one core) or a class
    joining at once keeps it busy for a few seconds. Sessions stay on the replica they were sent
    to, so a drain then sent the rest of the class to the other replica for the whole lesson
    (measured: 50 of 60 students on one replica, 8 of 8)."""
    port = serving(tmp_path)
    replica(tmp_path, "r1", processes, f"import time\nEND = time.monotonic() + 2.5\n" + BURST + HEALTHY)
    replica(tmp_path, "r2", processes)
    seen = set()
    deadline = time.monotonic() + 6
    while time.monotonic() < deadline:
        seen.add(ask(port, "r1"))
        time.sleep(0.25)
    assert seen == {"ready"}
