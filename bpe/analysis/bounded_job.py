"""An analysis (:mod:`bpe.analysis.tasks`) run in a worker process within a CPU, memory and time budget,
reporting its progress as it goes.

Why: training a mix and solving its linear program, or reading all fourteen pretrained tokenizers,
takes seconds to minutes of CPU and hundreds of MB. Run in the app's server, that would hold the
core other learners' pages are drawn on. So :func:`run_bounded` starts ``python -m
bpe.analysis.bounded_job``, which runs at the lowest priority (``nice`` 19), within
:data:`~bpe.limits.ANALYSIS_CPU_S` of CPU and :data:`~bpe.limits.ANALYSIS_MEMORY_MB` of memory (the
import worker's limits, :func:`bpe.formats.bounded_import.limited`), stopped by the parent after
:data:`~bpe.limits.ANALYSIS_WALL_S`; at most :data:`~bpe.limits.ANALYSIS_WORKERS` run at once per
server process. The worker writes one JSON line per progress report, then the result (or the error).
Sharing one run between the sessions that ask the same is the front end's (``ui/analysis_jobs.py``).

    >>> run_bounded("known-mix", {"categories": ["eng", "fra"], "truth": {"eng": 0.5, "fra": 0.5}, "merges": 20},
    ...             on_progress=lambda what, done: None)["merges"]
    20
"""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from ..errors import BpeError
from ..formats.bounded_import import ImportBudget, ImportBudgetError, limited
from ..limits import ANALYSIS_CPU_S, ANALYSIS_MEMORY_MB, ANALYSIS_WALL_S, ANALYSIS_WORKERS
from .tasks import run_task

BUDGET = ImportBudget(cpu_s=ANALYSIS_CPU_S, memory_mb=ANALYSIS_MEMORY_MB, wall_s=ANALYSIS_WALL_S)
_WORKERS = threading.BoundedSemaphore(ANALYSIS_WORKERS)
_PACKAGE_ROOT = str(Path(__file__).resolve().parents[2])  # the folder holding bpe/, for the worker's import


class AnalysisBudgetError(BpeError):
    """An analysis that needed more CPU, memory or time than its budget, or a worker that failed."""


def run_bounded(
    task: str, request: Mapping[str, Any], *, on_progress: Callable[[str, float], None], budget: ImportBudget = BUDGET,
) -> dict:
    """:func:`~bpe.analysis.tasks.run_task` in a worker within ``budget``; ``on_progress(what, fraction)``
    is called from this thread as the worker reports. The task's own errors come back as :class:`BpeError`."""
    on_progress("Waiting for a free worker", 0.0)
    if not _WORKERS.acquire(timeout=budget.wall_s):
        raise AnalysisBudgetError(f"the server is busy with {ANALYSIS_WORKERS} other analyses: try again in a few minutes")
    try:
        return _run(pickle.dumps({"task": task, "request": dict(request), "budget": budget}), budget, on_progress)
    finally:
        _WORKERS.release()


def _run(payload: bytes, budget: ImportBudget, on_progress: Callable[[str, float], None]) -> dict:
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [_PACKAGE_ROOT, os.environ.get("PYTHONPATH")]))}
    worker = subprocess.Popen(
        [sys.executable, "-m", "bpe.analysis.bounded_job"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, env=environment,
    )
    timed_out = threading.Event()

    def stop() -> None:
        timed_out.set()
        worker.kill()

    timer = threading.Timer(budget.wall_s, stop)  # the deadline holds even if the worker stops writing
    timer.start()
    try:
        worker.stdin.write(payload)
        worker.stdin.close()
        outcome: dict = {}
        for line in worker.stdout:
            message = json.loads(line)
            if "progress" in message:
                on_progress(*message["progress"])
            else:
                outcome = message
        errors = worker.stderr.read().decode("utf-8", "replace")
        worker.wait()
    finally:
        timer.cancel()
    if "result" in outcome:
        return outcome["result"]
    if "error" in outcome:
        raise BpeError(outcome["error"])
    if "budget" in outcome:
        raise AnalysisBudgetError(outcome["budget"])
    if timed_out.is_set():
        raise AnalysisBudgetError(
            f"the analysis did not finish within {budget.wall_s:.0f} s (the server is busy, or it needs more work than "
            "one may take here): try fewer merges or fewer categories"
        )
    if worker.returncode < 0:  # the kernel's kill at the hard CPU limit
        raise AnalysisBudgetError(_cpu_message(budget))
    last = errors.strip().splitlines()[-1:] or ["no message"]
    raise AnalysisBudgetError(f"the analysis stopped unexpectedly ({last[0][:200]}): this is a bug in BPE Lab, please report it")


def _cpu_message(budget: ImportBudget) -> str:
    return f"the analysis needs more than {budget.cpu_s:.0f} s of CPU, one analysis's budget here: try fewer merges or fewer categories"


def _over_budget(budget: ImportBudget) -> str:
    """Which budget an :class:`~bpe.formats.bounded_import.ImportBudgetError` of :func:`limited` was (its
    own message speaks of reading a file)."""
    import resource  # the worker is POSIX whenever a limit could have stopped it

    usage = resource.getrusage(resource.RUSAGE_SELF)
    if usage.ru_utime + usage.ru_stime >= budget.cpu_s - 1:
        return _cpu_message(budget)
    return (f"the analysis needs more than {budget.memory_mb:,} MB of memory, one analysis's budget here: "
            "try fewer merges or fewer categories")


def _work() -> None:
    job = pickle.load(sys.stdin.buffer)  # from our own parent, never from a user
    budget = job["budget"]
    if hasattr(os, "nice"):  # POSIX
        os.nice(19)  # learners' pages first: this waits while they want the cores
    out = sys.stdout

    def progress(what: str, done: float) -> None:
        out.write(json.dumps({"progress": [what, round(done, 4)]}) + "\n")
        out.flush()

    try:
        with limited(budget, for_good=True):
            result = run_task(job["task"], job["request"], progress=progress)
    except ImportBudgetError:
        out.write(json.dumps({"budget": _over_budget(budget)}) + "\n")
        return
    except BpeError as error:
        out.write(json.dumps({"error": str(error)}) + "\n")
        return
    out.write(json.dumps({"result": result}) + "\n")


if __name__ == "__main__":
    _work()
