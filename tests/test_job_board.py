"""The job board (``bpe.jobs``): big work in a worker process, shared by everyone who asks the same, within a
CPU and memory budget, and stopped when nobody asks; the pages' jobs (``bpe.teaching.jobs``) give what the
engine gives in-process. Tested without a browser: a board of the test's own, asked as a page asks.

The workers here run ``bpe.jobs.worker.count_to``, the smallest job (slow, greedy or long as a test needs).
"""

from __future__ import annotations

import os
import time

import pytest

from bpe.encoding.tokenizer import Tokenizer
from bpe.encoding.vocab_health import vocabulary_health
from bpe.formats.files import export_all
from bpe.jobs.board import DONE, FAILED, RUNNING, WAITING, JobBoard, JobRequest, JobView
from bpe.jobs.budget import JobBudget
from bpe.teaching.extension import cost_rows, cost_texts
from bpe.teaching.jobs import TokenizerSource, extension_request, health_request
from bpe.training.extend import extend, reattached

from .shared_tokenizers import shared_pretrained

WAIT_S = 120.0
"""How long a test waits for a worker (at the lowest priority, on a loaded machine)."""


def count(n: int, **options) -> JobRequest:
    return JobRequest("bpe.jobs.worker:count_to", {"n": n, **options.pop("job", {})}, **options)


def until(board: JobBoard, key, request, done=lambda view: view.finished) -> JobView:
    """Ask about ``key`` as a waiting page does (each time there is news) until ``done(view)``."""
    deadline = time.monotonic() + WAIT_S
    view = board.ask(key, request)
    while not done(view):
        assert time.monotonic() < deadline, f"no {done} within {WAIT_S:.0f} s: {view}"
        board.wait(key, view, 0.2)
        view = board.ask(key, request)
    return view


def gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


@pytest.fixture
def board():
    board = JobBoard(workers=1, abandon_s=1.0)
    yield board
    board.stop_all()


def test_a_job_reports_its_progress_and_a_part_before_it_is_done(board):
    request = count(40, job={"pause_s": 0.02})
    running = until(board, "count", request, lambda view: "worker" in view.parts and view.fraction > 0)
    assert running.state == RUNNING and running.doing.startswith("counted ") and "count" not in running.parts
    done = until(board, "count", request)
    assert done.state == DONE and done.parts["count"] == 40 and done.fraction == 1.0 and done.cpu_s > 0 and done.peak_mb > 0


def test_a_second_asker_gets_the_same_job_not_a_second_run(board):
    first = until(board, "shared", count(30, job={"pause_s": 0.02}), lambda view: "worker" in view.parts)
    second = until(board, "shared", count(5))  # another request under the same key: never run
    assert second.parts["count"] == 30 and second.parts["worker"] == first.parts["worker"]
    assert board.ask("shared", count(5)) is second  # finished: kept, and handed to whoever asks
    deadline = time.monotonic() + WAIT_S
    while board.alive:  # a second job under the key would start once the first's worker exits
        assert time.monotonic() < deadline, "a worker outlived its job"
        time.sleep(0.05)
    assert board.started == 1 and not board.busy()  # one worker for both, and nothing else in line


def test_a_job_nobody_asks_about_any_more_is_stopped_and_its_worker_killed(board):
    request = count(10_000, job={"pause_s": 0.05})
    pid = until(board, "left", request, lambda view: "worker" in view.parts).parts["worker"]
    deadline = time.monotonic() + WAIT_S
    while board.busy() or not gone(pid):  # the learner left: nobody asks
        assert time.monotonic() < deadline, "the abandoned job kept running"
        time.sleep(0.05)
    again = board.ask("left", request)  # forgotten, not kept: asking again starts it anew
    assert again.state in (WAITING, RUNNING) and "count" not in again.parts


def test_a_job_over_its_cpu_budget_fails_saying_so_and_is_not_run_again(board):
    request = count(10 ** 9, budget=JobBudget(cpu_s=1, memory_mb=512))
    failed = until(board, "greedy", request)
    assert failed.state == FAILED and failed.error.startswith("it needs more than 1 s of CPU")
    assert board.ask("greedy", request) is failed


def test_a_job_over_its_memory_budget_fails_saying_so(board):
    failed = until(board, "big", count(1, job={"hold_mb": 400}, budget=JobBudget(cpu_s=30, memory_mb=100)))
    assert failed.state == FAILED and failed.error.startswith("it needs more than 100 MB of memory")


def test_jobs_past_the_workers_wait_in_line_and_say_how_many_are_ahead(board):
    slow = count(20, job={"pause_s": 0.05})
    until(board, "first", slow, lambda view: view.state == RUNNING)
    waiting = board.ask("second", count(1))
    assert waiting.state == WAITING and waiting.doing == "waiting for a free worker (1 job ahead)"
    until(board, "first", slow)
    assert until(board, "second", count(1)).parts["count"] == 1


def test_a_refusal_from_the_work_is_its_one_line(board):
    failed = until(board, "no text", health_request(TokenizerSource("gpt2")))
    assert (failed.state, failed.error) == (FAILED, "give the text to encode or the corpus words, one of them")


def test_the_health_job_gives_the_engines_own_report(board):
    text = "Hello, world! 12345 naïve café"
    report = until(board, "health", health_request(TokenizerSource("gpt2"), text=text)).parts["health"]
    assert report == vocabulary_health(shared_pretrained("gpt2"), text=text)


def test_the_extension_job_gives_the_engines_run_costs_and_files(board):
    gpt2, text = shared_pretrained("gpt2"), "नमस्ते दुनिया नमस्ते दुनिया नमस्ते " * 3
    priced = cost_texts("Hindi", text)
    done = until(board, "extend", extension_request(
        TokenizerSource("gpt2"), text=text, merges=20, min_frequency=2, name="GPT-2", time_limit_s=60, priced=priced))
    expected = extend(gpt2, text, merges=20, min_frequency=2, name="GPT-2")
    assert reattached(done.parts["trace"], gpt2) == expected
    extended = Tokenizer.from_trace(expected, name="GPT-2 + new text")
    assert done.parts["costs"] == cost_rows(gpt2, extended, priced)
    assert done.parts["files"] == export_all(extended)


def test_our_own_tokenizer_goes_to_a_worker_as_json(board):
    ours = Tokenizer.from_trace(extend(shared_pretrained("gpt2"), "abc abc abd abd", merges=3))
    text = "abc abd"
    report = until(board, "ours", health_request(TokenizerSource.written(ours), text=text)).parts["health"]
    assert report == vocabulary_health(ours, text=text)


def test_however_jobs_are_asked_and_left_no_more_workers_are_alive_than_the_board_has(monkeypatch):
    """Forty learners each ask a job once and leave, while building each request is slow (as under load), then
    two ask and keep asking: at no moment are more worker processes alive than ``workers``, a job left while its
    request was built starts none, and the kept ones finish. (A board that counted its RUNNING jobs, not its
    live processes, started one per abandoned job; one that replaced a job at each ask started hundreds.)"""
    import subprocess

    import bpe.jobs.board as board_module

    spawned: list[subprocess.Popen] = []
    most, popen = 0, subprocess.Popen

    def counted_popen(*args, **kwargs):
        nonlocal most
        process = popen(*args, **kwargs)
        spawned.append(process)
        most = max(most, sum(other.poll() is None for other in spawned))
        return process

    monkeypatch.setattr(board_module.subprocess, "Popen", counted_popen)
    board = JobBoard(workers=2, abandon_s=0.2)
    try:
        def slow_request():
            time.sleep(0.5)
            return count(10_000, job={"pause_s": 0.05})

        for index in range(40):  # each asked once, then nobody asks: abandoned while its request is built
            board.ask(("left", index), slow_request)
            time.sleep(0.02)
        kept = [until(board, ("kept", index), count(5)) for index in range(2)]
        assert [view.parts.get("count") for view in kept] == [5, 5], kept
        assert most <= 2 and len(spawned) <= 2 + 2, f"{len(spawned)} workers started, {most} alive at once"
    finally:
        board.stop_all()
    deadline = time.monotonic() + WAIT_S
    while board.alive or any(process.poll() is None for process in spawned):
        assert time.monotonic() < deadline, "workers outlived stop_all"
        time.sleep(0.05)
