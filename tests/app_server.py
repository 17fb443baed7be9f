"""Start and stop a real ``streamlit run app.py`` on a free loopback port (browser tests, load script).

Stdin is closed, so the server can never block on a prompt; ``--server.address=127.0.0.1`` keeps
every byte on this machine; the server is always stopped, even when the caller fails.
"""

from __future__ import annotations

import os
import resource
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import IO

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
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + startup_s
        while True:
            if server.poll() is not None:
                raise RuntimeError(f"streamlit exited with {server.returncode}; see {log.name}")
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=1) as response:
                    if response.read().strip() == b"ok":
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"streamlit did not answer /_stcore/health within {startup_s:g} s; see {log.name}")
            time.sleep(0.2)
        yield url, server
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
