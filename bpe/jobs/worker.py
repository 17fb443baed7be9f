"""A job's worker process: runs one :class:`~bpe.jobs.board.JobRequest` within its budget and reports.

Run as ``python -m bpe.jobs.worker`` by the board, which writes the request's pickle to its stdin. The
worker lowers its priority, sets its budget (:func:`~bpe.jobs.budget.limited`), imports the function
the request names and calls it with a :class:`Report` first. What it sends back on its stdout, each
message a length and a pickle (:data:`~bpe.jobs.board.FRAME`):

* ``("progress", fraction, doing)``: how far it is, at most ten times a second;
* ``("part", name, value)``: one of its results, as soon as it has it;
* ``("done", cpu_s, peak_mb)`` at the end, or ``("refused", sentence)`` when the work raised a
  :class:`~bpe.errors.BpeError` (the input's fault, said in its own words) or ran out of budget.

Anything the function prints goes to stderr, so it cannot garble a message.
"""

from __future__ import annotations

import importlib
import os
import pickle
import sys
import time
from pathlib import Path
from typing import BinaryIO

from ..collector import collector_paused
from ..errors import BpeError
from .board import FRAME, JobRequest, over_cpu, over_memory
from .budget import limited, lowest_priority


class OutOfBudget(BpeError):
    """The job needed more CPU or memory than its budget (the sentence says which)."""


class Report:
    """What a job's function tells the board while it works (a :class:`~bpe.jobs.board.Reporter`)."""

    def __init__(self, out: BinaryIO) -> None:
        self._out, self._last, self._doing = out, 0.0, ""

    def progress(self, fraction: float, doing: str) -> None:
        """How far the work is (0 to 1) and what it is doing, in a few words (sent when it does something
        else, or at most every 0.1 s while it does the same)."""
        now = time.monotonic()
        if doing != self._doing or now - self._last >= 0.1:
            self._last, self._doing = now, doing
            self.send("progress", min(max(fraction, 0.0), 1.0), doing)

    def part(self, name: str, value: object) -> None:
        """One result, sent now (a page can draw it while the rest is still being worked out)."""
        self.send("part", name, value)

    def send(self, *message: object) -> None:
        data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
        self._out.write(FRAME.pack(len(data)) + data)
        self._out.flush()


def count_to(report: Report, *, n: int, pause_s: float = 0.0, hold_mb: int = 0) -> None:
    """The smallest job (the board's example, and its tests' slow, greedy or long one): says which process
    it runs in (part ``worker``), holds ``hold_mb`` MB, counts to ``n`` pausing ``pause_s`` at each number,
    reporting each, and sends the count (part ``count``)."""
    report.part("worker", os.getpid())
    held = bytearray(hold_mb * 1024 * 1024)
    for number in range(1, n + 1):
        report.progress(number / n, f"counted {number:,} of {n:,}")
        if pause_s:
            time.sleep(pause_s)
    report.part("count", n)
    del held  # held to the end


def _function(call: str):
    module, _, name = call.partition(":")
    if not module.startswith("bpe."):  # only BPE Lab's own functions run here
        raise ValueError(f"not a BPE Lab function: {call!r}")
    return getattr(importlib.import_module(module), name)


def _usage() -> tuple[float, float]:
    """``(CPU seconds, peak resident MB)`` of this worker. subtle: Linux's ``ru_maxrss`` outlives ``exec`` (a
    worker started by a server of 1 GB would say 1 GB), so the peak is this process's own ``VmHWM``."""
    import resource

    usage = resource.getrusage(resource.RUSAGE_SELF)
    status = Path("/proc/self/status")
    if status.exists():
        peak_kb = next(int(line.split()[1]) for line in status.read_text().splitlines() if line.startswith("VmHWM:"))
    else:
        peak_kb = usage.ru_maxrss  # kB on Linux; an approximation elsewhere
    return usage.ru_utime + usage.ru_stime, peak_kb / 1024


def main() -> None:
    request: JobRequest = pickle.load(sys.stdin.buffer)  # from our own board, never from a user
    out = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())  # a print in the work lands on stderr
    report = Report(out)
    lowest_priority()
    budget = request.budget
    with collector_paused():  # a worker lives for one job: nothing to collect, and building tables runs faster
        try:
            with limited(budget, over_cpu=lambda: OutOfBudget(over_cpu(budget)),
                         over_memory=lambda: OutOfBudget(over_memory(budget)), for_good=True):
                _function(request.call)(report, **request.kwargs)
        except BpeError as error:
            report.send("refused", str(error))
            return
    report.send("done", *_usage())
    os._exit(0)  # the board has all it needs: freeing a big table object by object would only spend CPU


if __name__ == "__main__":
    main()
