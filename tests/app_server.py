"""Start and stop a real ``streamlit run app.py`` on a free loopback port (browser tests, load script).

Stdin is closed, so the server can never block on a prompt; ``--server.address=127.0.0.1`` keeps
every byte on this machine; the server is always stopped, even when the caller fails.
"""

from __future__ import annotations

import fcntl
import json
import os
import resource
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import IO

from .machine_speed import scaled

ROOT = Path(__file__).resolve().parent.parent
STREAMLIT_RUN = (sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"))


def _cap_address_space(limit: int) -> None:
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def running_app(
    log: IO[str], *, startup_s: float = 30, address_space_bytes: int | None = None,
    run: Sequence[str] = STREAMLIT_RUN, cwd: Path = ROOT, env: Mapping[str, str] | None = None,
) -> Iterator[tuple[str, subprocess.Popen]]:
    """Yield ``(base URL, server process)`` once ``/_stcore/health`` answers ``ok``. ``run`` is the
    command before the server options (e.g. ``bpe-lab app --``), ``env`` adds to the environment.

    ``address_space_bytes`` caps the server's address space (``RLIMIT_AS``), for tests that send
    it input which, were a guard broken, would eat the machine's memory instead of failing.
    """
    server, url = _start(log, address_space_bytes=address_space_bytes, run=run, cwd=cwd, env=env)
    try:
        _wait_until_healthy(server, url, log, startup_s=startup_s)
        yield url, server
    finally:
        server.terminate()
        try:
            server.wait(timeout=scaled(10))
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def _start(
    log: IO[str], *, address_space_bytes: int | None = None, run: Sequence[str] = STREAMLIT_RUN,
    cwd: Path = ROOT, env: Mapping[str, str] | None = None,
) -> tuple[subprocess.Popen, str]:
    """The server process and the base URL it will answer on."""
    port = free_port()
    cap = None if address_space_bytes is None else partial(_cap_address_space, address_space_bytes)
    server = subprocess.Popen(
        [
            *run, "--server.headless=true",
            f"--server.port={port}", "--server.address=127.0.0.1", "--browser.gatherUsageStats=false",
            "--server.fileWatcherType=none",
        ],
        cwd=cwd, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
        env={**os.environ, "STREAMLIT_SERVER_HEADLESS": "true", **(env or {})}, preexec_fn=cap,
    )
    return server, f"http://127.0.0.1:{port}"


def _wait_until_healthy(server: subprocess.Popen, url: str, log: IO[str], *, startup_s: float) -> None:
    """Return once ``/_stcore/health`` answers ``ok``."""
    deadline = time.monotonic() + scaled(startup_s)
    while True:
        if server.poll() is not None:
            raise RuntimeError(f"streamlit exited with {server.returncode}; see {log.name}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=1) as response:
                if response.read().strip() == b"ok":
                    return
        except OSError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"streamlit did not answer /_stcore/health within {startup_s:g} s (scaled); see {log.name}")
        time.sleep(0.2)


@contextmanager
def shared_app(run_dir: Path, log_path: Path, *, before_start: Callable[[], None]) -> Iterator[str]:
    """The base URL of one ``streamlit run app.py`` shared by every pytest-xdist worker of a run.

    Why: each server costs seconds of CPU to start and to read the pretrained tokenizers, and a
    server serves many sessions at once (a class of 60 shares one), so four servers for four
    workers only added work. The first worker to ask starts it (after ``before_start()``); each
    worker holds a lease in ``run_dir/app.json`` (under a file lock) and the last one to let go
    stops it, so no server outlives the run. A worker that asks after that starts a new one.
    """
    state_path = run_dir / "app.json"
    with locked(run_dir / "app.lock"):
        state = json.loads(state_path.read_text()) if state_path.exists() else None
        if state is None:
            before_start()
            with open(log_path, "a") as log:
                server, url = _start(log)
                _wait_until_healthy(server, url, log, startup_s=60)
            state = {"url": url, "pid": server.pid, "leases": 0}
        state["leases"] += 1
        state_path.write_text(json.dumps(state))
    try:
        yield state["url"]
    finally:
        with locked(run_dir / "app.lock"):
            state = json.loads(state_path.read_text())
            state["leases"] -= 1
            if state["leases"]:
                state_path.write_text(json.dumps(state))
            else:
                state_path.unlink()
                _stop_pid(state["pid"])


@contextmanager
def locked(path: Path) -> Iterator[None]:
    """Hold an exclusive lock on the file ``path`` (made if missing), shared by every process that asks."""
    with open(path, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def _stop_pid(pid: int) -> None:
    """Stop a server that may be another worker's child (then this process cannot wait for it)."""
    try:
        os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + 10
        while _running(pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        if _running(pid):
            os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    try:
        os.waitpid(pid, os.WNOHANG)  # reaps it if it is this process's child
    except ChildProcessError:
        pass


def _running(pid: int) -> bool:
    """Alive and not a zombie (a stopped child of another worker stays a zombie until reaped)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False
