"""Two replicas behind HAProxy (``scripts/serve.sh``): each session sticks to one replica, and
when a replica dies the other's sessions carry on while its learners come back, at their step,
from their link; serve.sh starts the dead replica again, and it answers its learners.

The sessions speak Streamlit's own protocol with the server load test's client (no browser, so
the test takes seconds). A learner whose replica died does what Streamlit's page does when its
WebSocket drops: it reconnects through HAProxy with its cookie (HAProxy finds that replica down,
sends it to a live one and names that one in a new cookie) and reruns the page with the link's
query string, which holds the example, the settings and the step.

One real-browser test (Playwright, Debian's Chromium) checks what only a browser does: its
file uploads go over plain HTTP beside the WebSocket, and must reach the replica holding the
session, which the stickiness cookie gives them; then it stops the set and finds no process left.

Needs Debian's ``haproxy`` (``scripts/install.sh --test`` installs it); skipped only where it is
not installed, and the skip says so.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import signal
import sys
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from contextlib import AsyncExitStack

import pytest

from .app_server import ROOT
from .apptest_support import plain
from .conftest import LAPTOP
from .machine_speed import scaled
from .replica_set import ReplicaSet, alive

sys.path.insert(0, str(ROOT / "benchmarks"))
from server_load_test import ProtocolSession, connect, page_cookies  # noqa: E402

pytestmark = pytest.mark.servers

HAPROXY = shutil.which("haproxy", path=f"{os.environ.get('PATH', '')}:/usr/sbin")
REPLICA = re.compile(r"BPE_REPLICA=(\w+)")


def shown(client: ProtocolSession) -> str:
    return plain("\n".join(client.texts))


@pytest.fixture(scope="module")
def replicas(tmp_path_factory):
    """One replica set for the file's two tests (each start is two app servers, Redis and HAProxy):
    the failover test kills a replica and sees it started again, then the upload test uses both
    replicas (the restarted one too) and stops the set."""
    # A missing HAProxy fails these tests (never skips them): a machine without it runs fewer tests.
    assert HAPROXY is not None, "HAProxy is not installed: scripts/install.sh --test installs it (apt-get install haproxy)"
    replica_set = ReplicaSet(redis_dir=tmp_path_factory.mktemp("redis"))
    try:
        yield replica_set
    finally:
        if replica_set.process.poll() is None:
            replica_set.stop()


async def open_train(stack: AsyncExitStack, url: str, cookie: str, query: str) -> ProtocolSession:
    client = await connect(stack, url, cookie)
    await client.run(query_string=query)
    return client


async def learner_on_other_replica(url: str, taken: str) -> str:
    """The cookies of a new learner that HAProxy placed on a replica other than ``taken``."""
    for _ in range(5):  # leastconn already prefers the replica without the first learner's socket
        cookie = await asyncio.to_thread(page_cookies, url)
        if REPLICA.search(cookie).group(1) != taken:
            return cookie
    raise AssertionError(f"HAProxy put every new learner on {taken}")


async def failover(replicas: ReplicaSet) -> str:
    """Two learners on two replicas; one replica killed: the other learner carries on, the dead one's
    learner comes back at its step from its link. Returns the killed replica's name."""
    import websockets

    url = replicas.url
    async with AsyncExitStack() as stack:
        cookie_a = await asyncio.to_thread(page_cookies, url)
        replica_a = REPLICA.search(cookie_a).group(1)
        a = await open_train(stack, url, cookie_a, "preset=sennrich")
        cookie_b = await learner_on_other_replica(url, replica_a)
        b = await open_train(stack, url, cookie_b, "preset=sennrich")
        for _ in range(3):
            await a.press("w.next.main")
        await b.press("w.next.main")
        assert "Merge 3 of" in shown(a) and "Merge 1 of" in shown(b)
        link_a = a.query_string
        assert "step=3" in link_a.split("&")

        dead = replicas.pids[replica_a]
        os.kill(dead, signal.SIGKILL)  # as the kernel's out-of-memory killer ends a process
        with pytest.raises(websockets.ConnectionClosed):  # a's session lived on the dead replica
            await a.press("w.next.main")

        await b.press("w.next.main")  # the other replica's learner carries on
        assert "Merge 2 of" in shown(b) and not b.exceptions

        cookie_back = await asyncio.to_thread(page_cookies, url, cookie=cookie_a)
        moved_to = REPLICA.search(cookie_back).group(1)
        # Moved to the live one, unless serve.sh had already started the dead one again (a slow machine)
        assert moved_to == REPLICA.search(cookie_b).group(1) or replicas.pids[replica_a] != dead
        back = await open_train(stack, url, cookie_back, link_a)
        assert "Merge 3 of" in shown(back) and not back.exceptions  # its step, from its link
        await back.press("w.next.main")
        assert "Merge 4 of" in shown(back)
    return replica_a


def answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/_stcore/health", timeout=1) as response:
            return response.read().strip() == b"ok"
    except OSError:
        return False


def wait_for(condition, *, seconds: float, what: str) -> None:
    """Poll ``condition`` until it holds (a content wait on a process, not a sleep before a check)."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} within {seconds:g} s")
        time.sleep(0.2)


async def learner_back_on(url: str, replica: str) -> str:
    """What a learner whose cookie names ``replica`` sees after a step, once HAProxy serves it from
    there again (it marks a replica up after two good checks, a second apart)."""
    async with AsyncExitStack() as stack:
        for _ in range(100):
            cookie = await asyncio.to_thread(page_cookies, url, cookie=f"BPE_REPLICA={replica}")
            if REPLICA.search(cookie).group(1) == replica:
                client = await open_train(stack, url, cookie, "preset=sennrich")
                await client.press("w.next.main")
                return shown(client)
            await asyncio.sleep(0.2)
    return f"HAProxy never sent a learner to the new {replica}"


def test_a_dead_replicas_learners_come_back_and_serve_sh_starts_it_again(replicas):
    assert set(replicas.pids) == {"r1", "r2", "redis", "haproxy"}, replicas.output
    # In a thread of its own: after a browser test, Playwright's sync API keeps an event loop running
    # in this thread, and asyncio.run refuses to start a second one here.
    with ThreadPoolExecutor(1) as pool:
        dead_name = pool.submit(asyncio.run, asyncio.wait_for(failover(replicas), timeout=scaled(120))).result()
        # The supervisor in serve.sh starts the dead replica again on its port, and it answers its learners.
        wait_for(lambda: any(line.startswith(f"replica {dead_name} exited") for line in replicas.output)
                 and alive(replicas.pids[dead_name]), seconds=30, what=f"serve.sh did not start {dead_name} again")
        wait_for(lambda: answers(f"http://127.0.0.1:{replicas.ports[dead_name]}"), seconds=60,
                 what=f"the new {dead_name} did not answer")
        seen = pool.submit(asyncio.run, asyncio.wait_for(learner_back_on(replicas.url, dead_name), timeout=scaled(120))).result()
        assert "Merge 1 of" in seen, seen


@pytest.mark.browser
def test_each_learners_upload_reaches_its_replica_and_stopping_the_set_leaves_no_process(replicas, browser, tmp_path):
    from playwright.sync_api import expect

    contexts = [browser.new_context(viewport=LAPTOP) for _ in range(2)]
    try:
        pages, placed = [], []
        for context in contexts:
            if placed:  # the second learner goes to the other replica: the cookie is what decides
                other = ({"r1", "r2"} - set(placed)).pop()
                context.add_cookies([{"name": "BPE_REPLICA", "value": other, "url": replicas.url}])
            page = context.new_page()
            page.goto(f"{replicas.url}/Train?preset=own-text")
            expect(page.get_by_text("…or upload a .txt file (UTF-8, at most 5 MB)")).to_be_visible()
            placed += [cookie["value"] for cookie in context.cookies() if cookie["name"] == "BPE_REPLICA"]
            pages.append(page)
        assert sorted(placed) == ["r1", "r2"]
        for page, word in zip(pages, ["zebra", "quokka"]):
            path = tmp_path / f"{word}.txt"
            path.write_text(f"{word} {word} {word}s graze near the {word} herd; {word}s again.", encoding="utf-8")
            page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(str(path))
            note = page.locator('[data-testid="stAlertContentSuccess"]')
            expect(note).to_contain_text(f"Loaded {word}.txt.")  # drawn by this learner's replica
            expect(page.locator(".bpe-tokens")).to_contain_text(f"{word}s")
            expect(note).to_be_visible()  # under the Corpus box, which folded once the text trained
    finally:
        for context in contexts:
            context.close()

    # Then Ctrl+C (the set the failover test used: the replica it killed is the supervisor's new one)
    assert all(alive(pid) for pid in replicas.pids.values()), replicas.pids
    assert replicas.stop() == 128 + signal.SIGTERM  # its trap ran, then it exited as signalled
    assert [name for name, pid in replicas.pids.items() if alive(pid)] == []
