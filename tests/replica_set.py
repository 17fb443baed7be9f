"""``scripts/serve.sh --replicas N`` on a free port for a test or a benchmark: its URL, each of its
processes' pid and port by name (``r1``, ``r2``, ``redis``, ``haproxy``; the latest, when serve.sh's
supervisor started one again), stopped as Ctrl+C would stop it.

serve.sh starts its own Redis (its data in ``redis_dir``) unless ``env`` names one in
``BPE_LAB_REDIS_URL`` (a test that stops and restarts Redis itself).
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
from collections.abc import Mapping
from pathlib import Path

from .app_server import ROOT, free_port
from .machine_speed import scaled


class ReplicaSet:
    def __init__(
        self, *, replicas: int = 2, port: int | None = None, redis_dir: Path | None = None,
        env: Mapping[str, str] | None = None,
    ) -> None:
        port = port or free_port()
        self.url = f"http://127.0.0.1:{port}"
        options = ["--replicas", str(replicas), "--port", str(port), "--address", "127.0.0.1"]
        self.process = subprocess.Popen(
            ["bash", str(ROOT / "scripts" / "serve.sh"), *options, *(["--redis-dir", str(redis_dir)] if redis_dir else [])],
            cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            env={**os.environ, "BPE_PYTHON": sys.executable, **(env or {})},
        )
        self.pids: dict[str, int] = {}
        self.ports: dict[str, int] = {}
        self.output: list[str] = []
        for line in self.process.stdout:  # serve.sh bounds its own start (60 s) and exits on failure
            self._read(line)
            if line.startswith("serving on"):
                break
        else:
            raise RuntimeError("serve.sh did not start:\n" + "".join(self.output))
        # Later lines (a replica or Redis started again) are read as they come, so the pipe never fills.
        threading.Thread(target=lambda: [self._read(line) for line in self.process.stdout], daemon=True).start()

    def _read(self, line: str) -> None:
        self.output.append(line)
        if found := re.match(r"(replica r\d|haproxy|redis) pid (\d+)(?: port (\d+))?", line):
            name = found.group(1).removeprefix("replica ")
            self.pids[name] = int(found.group(2))
            if found.group(3):
                self.ports[name] = int(found.group(3))

    def stop(self) -> int:
        """SIGTERM, as Ctrl+C would; serve.sh's exit code."""
        self.process.send_signal(signal.SIGTERM)
        return self.process.wait(timeout=scaled(30))

    def __enter__(self) -> "ReplicaSet":
        return self

    def __exit__(self, *_) -> None:
        if self.process.poll() is None:
            self.stop()


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True
