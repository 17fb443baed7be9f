"""A real Redis for the tests: Debian's ``redis-server`` on a free loopback port, with a password
and persistence on (``scripts/redis.conf``, the file ``scripts/serve.sh`` uses), data in a folder
of the test's. It can be stopped and started again on the same port and data (a restart mid-class),
and is always stopped after, even when the test fails.
"""

from __future__ import annotations

import secrets
import shutil
import signal
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import redis

from .app_server import ROOT, free_port
from .machine_speed import scaled

REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"
START_S = scaled(20.0)


def require_redis() -> None:
    """Fail, not skip, without ``redis-server``: CI must not pass without running these tests."""
    if not Path(REDIS_SERVER).exists():
        pytest.fail(
            "redis-server is missing: the class-room tests need Debian's redis-server "
            "(bash scripts/install.sh --test installs it)", pytrace=False,
        )


class RedisServer:
    def __init__(self, folder: Path) -> None:
        require_redis()
        self.folder, self.port, self.password = folder, free_port(), secrets.token_hex(16)
        self.config = folder / "redis.conf"
        self.config.write_text(
            f"include {ROOT / 'scripts' / 'redis.conf'}\nport {self.port}\nrequirepass {self.password}\n"
            f"dir {folder}\n", encoding="utf-8",
        )
        self.config.chmod(0o600)
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://:{self.password}@127.0.0.1:{self.port}/0"

    def start(self) -> None:
        with open(self.folder / "redis.log", "a") as log:
            self.process = subprocess.Popen([REDIS_SERVER, str(self.config)], stdin=subprocess.DEVNULL, stdout=log,
                                            stderr=subprocess.STDOUT, cwd=self.folder)
        client = redis.Redis(port=self.port, password=self.password, socket_timeout=1, socket_connect_timeout=1)
        deadline = time.monotonic() + START_S
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"redis-server exited with {self.process.returncode}; see {self.folder / 'redis.log'}")
            try:
                if client.ping():
                    return
            except redis.RedisError:  # not listening yet, or still loading its append-only file
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"redis-server did not answer PING within {START_S:g} s")
            time.sleep(0.05)

    def stop(self, sig: int = signal.SIGTERM) -> None:
        """SIGTERM (Redis finishes its file and exits) or SIGKILL (a crash); wait for it to be gone."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(sig)
            try:
                self.process.wait(timeout=scaled(15))
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


@contextmanager
def running_redis(folder: Path) -> Iterator[RedisServer]:
    server = RedisServer(folder)
    server.start()
    try:
        yield server
    finally:
        server.stop()
