"""The job board: big work run apart from the page's thread, shared by everyone who asks the same, and
stopped when nobody asks any more.

Why: a vocabulary's health against a 600,000-character sample, or Llama 3 extended and written in
seven formats, takes seconds to tens of seconds of CPU. Run in a page's thread it holds the server's
interpreter (one lock for all its threads) while every other learner's page waits, goes on after the
learner has left, and runs again for a second learner who asks the same. On the board:

* each job runs in a worker process of its own (:mod:`bpe.jobs.worker`) at the lowest priority,
  within a CPU and memory budget (:class:`~bpe.jobs.budget.JobBudget`), at most ``workers`` at once
  (the others wait in line, and say how many are ahead);
* a job is named by a key: a second learner who asks the same key gets the same job, running or
  finished (finished ones are kept, least recently asked first out, within ``results_mb``);
* a page asks about its job at every rerun, and a job nobody has asked about for ``abandon_s`` seconds
  is stopped and forgotten (the learner left); one that needed more than its budget is kept as
  failed, with the sentence that says why, so asking again does not spend the budget again;
* what a job reports (how far it is, in a fraction and a few words; its results, each as soon as it
  has it) is read by :meth:`JobBoard.ask` as a :class:`JobView`, a snapshot.

    >>> board, request = JobBoard(workers=1), JobRequest("bpe.jobs.worker:count_to", {"n": 3})
    >>> view = board.ask("count", request)
    >>> while not view.finished:
    ...     board.wait("count", view, 1.0)
    ...     view = board.ask("count", request)
    >>> view.state, view.parts["count"], view.fraction
    ('done', 3, 1.0)
    >>> board.ask("count", request) is view     # asked again: the same finished job, not a second run
    True

Out of scope: what a job computes (the callers' functions, named in :class:`JobRequest`) and drawing its
progress (the front end: ``ui/background.py``).
"""

from __future__ import annotations

import pickle
import struct
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Protocol

from ..limits import JOB_ABANDON_S, JOB_RESULTS_MB, JOB_WORKERS
from .budget import JobBudget, killed_for_cpu, worker_environment
from .store import BoundedStore

FRAME = struct.Struct("<Q")
"""Each message from a worker: its length, then its pickle (the board weighs results by it)."""
WAITING, RUNNING, DONE, FAILED = "waiting", "running", "done", "failed"


class Reporter(Protocol):
    """What a job's function is given first, to tell the board how far it is (:class:`~bpe.jobs.worker.Report`)."""

    def progress(self, fraction: float, doing: str) -> None:
        """How far the work is (0 to 1) and what it is doing, in a few words."""

    def part(self, name: str, value: object) -> None:
        """One result (picklable), sent now: a page can draw it while the rest is still being worked out."""


@dataclass(frozen=True)
class JobRequest:
    """What a worker runs: ``call`` (``"package.module:function"``, a function of BPE Lab's) with
    ``kwargs``; the function takes a :class:`Reporter` first."""

    call: str
    kwargs: Mapping[str, object] = field(default_factory=dict)
    budget: JobBudget = JobBudget()


@dataclass(frozen=True)
class JobView:
    """A job as it stands when asked about (a snapshot: later news is another view)."""

    state: str
    """``waiting`` (for a worker), ``running``, ``done`` or ``failed``."""
    fraction: float = 0.0
    """How far it is, 0 to 1, as the job reports it."""
    doing: str = ""
    """What it is doing, in a few words (or how many jobs are ahead of it in line)."""
    parts: Mapping[str, object] = field(default_factory=lambda: MappingProxyType({}))
    """Its results so far, by name (shared by every asker: never change one)."""
    error: str = ""
    """Why it failed, in a sentence a learner can act on."""
    cpu_s: float = 0.0
    """CPU seconds its worker used (known once it is done)."""
    peak_mb: float = 0.0
    """Its worker's peak memory (resident, MB; known once it is done)."""
    version: int = 0
    """Bumped at each news, so :meth:`JobBoard.wait` knows when there is some."""

    @property
    def finished(self) -> bool:
        return self.state in (DONE, FAILED)


class _Job:
    """One job's mutable state, changed only under the board's lock."""

    def __init__(self, key: Hashable, request: JobRequest | Callable[[], JobRequest], now: float) -> None:
        self.key, self.request, self.asked, self.started = key, request, now, now
        self.view = JobView(WAITING)
        self.weight = 0
        self.process: subprocess.Popen | None = None
        self.stopped = False  # the board stopped it (abandoned, or over its wall-clock time): not the job's failure

    def update(self, **changes) -> None:
        if "parts" in changes:
            changes["parts"] = MappingProxyType(changes["parts"])
        self.view = replace(self.view, **changes, version=self.view.version + 1)


class JobBoard:
    """The jobs of one server process (the app keeps one; tests and benchmarks make their own)."""

    def __init__(self, *, workers: int = JOB_WORKERS, abandon_s: float = JOB_ABANDON_S,
                 results_mb: float = JOB_RESULTS_MB, clock: Callable[[], float] = time.monotonic) -> None:
        self.workers, self.abandon_s, self._clock = workers, abandon_s, clock
        self._jobs: dict[Hashable, _Job] = {}  # waiting and running, in the order asked
        self._alive: set[_Job] = set()
        """The jobs holding a worker slot: from their start until their worker process has exited (a stopped
        job's too, until then), so there are never more than ``workers`` worker processes, however jobs end."""
        self._finished = BoundedStore(10_000, max_weight=results_mb * 1024 * 1024, weigh=lambda job: job.weight)
        self._news = threading.Condition()  # its lock guards every job; notified at each news
        self._watching = False
        self.started = 0
        """How many jobs this board has started a worker for (one per key asked, however many asked it)."""

    # -- what a page calls ---------------------------------------------------------------------
    def ask(self, key: Hashable, request: JobRequest | Callable[[], JobRequest]) -> JobView:
        """The job named ``key``, started (or put in line) if nobody asked for it yet; asking keeps it
        alive. ``request`` may be a function, called only if the job must start (in its own thread:
        building a request, such as a tokenizer's JSON, can take a while)."""
        with self._news:
            job = self._jobs.get(key)
            if job is None:
                finished = self._finished.get(key)
                if finished is not None:
                    return finished.view
                job = self._jobs[key] = _Job(key, request, self._clock())
                self._start_in_line()
                if not self._watching:
                    self._watching = True
                    threading.Thread(target=self._watch, name="job-board watcher", daemon=True).start()
            job.asked = self._clock()
            return job.view

    def wait(self, key: Hashable, view: JobView, timeout: float) -> None:
        """Block until the job named ``key`` has news since ``view`` (or ``timeout`` seconds pass); then ask
        again (asking is what keeps a job alive: waiting alone does not)."""
        deadline = time.monotonic() + timeout
        with self._news:
            while (left := deadline - time.monotonic()) > 0:
                job = self._jobs.get(key) or self._finished.get(key)
                if job is None or job.view.version > view.version:
                    return
                self._news.wait(left)

    def busy(self) -> bool:
        """Whether any job is waiting or running."""
        with self._news:
            return bool(self._jobs)

    def stop_all(self) -> None:
        """Stop every job (a test's or a benchmark's end): running workers are killed, the line emptied."""
        with self._news:
            jobs = list(self._jobs.values())
            self._jobs.clear()
            for job in jobs:
                job.stopped = True
                if job.process is not None:
                    job.process.kill()
            self._news.notify_all()

    # -- inside ------------------------------------------------------------------------------------
    def _start_in_line(self) -> None:
        """Start waiting jobs while a worker is free; tell the others how many are ahead (lock held)."""
        running = len(self._alive)  # subtle: not the RUNNING jobs: a stopped one may still have its process
        ahead = 0
        for job in self._jobs.values():
            if job.view.state != WAITING:
                continue
            if running < self.workers:
                running += 1
                self.started += 1
                self._alive.add(job)
                job.started = self._clock()
                job.update(state=RUNNING, doing="starting")
                threading.Thread(target=self._run, args=(job,), name="job-board worker", daemon=True).start()
            else:
                ahead += 1
                job.update(doing=f"waiting for a free worker ({ahead} {'job' if ahead == 1 else 'jobs'} ahead)")

    def _watch(self) -> None:
        """Stop what nobody asks about any more, or what ran past its time, until no job is left."""
        while True:
            with self._news:
                now = self._clock()
                for job in list(self._jobs.values()):
                    if now - job.asked > self.abandon_s:
                        self._stop(job)
                    elif job.view.state == RUNNING and now - job.started > self._budget(job).wall_s:
                        self._stop(job, failed=(
                            f"it did not finish within {self._budget(job).wall_s:.0f} s (the server is busy): try again later"))
                if not self._jobs:
                    self._watching = False
                    return
                self._news.wait(0.25)

    @staticmethod
    def _budget(job: _Job) -> JobBudget:
        return job.request.budget if isinstance(job.request, JobRequest) else JobBudget()

    def _stop(self, job: _Job, *, failed: str = "") -> None:
        """Kill ``job``'s worker; forget it, or keep it as failed (lock held)."""
        job.stopped = True
        if job.process is not None:
            job.process.kill()
        self._forget(job)
        if failed:
            job.update(state=FAILED, error=failed)
            self._finished.put(job.key, job)
        self._start_in_line()
        self._news.notify_all()

    @property
    def alive(self) -> int:
        """How many worker slots are taken (at most ``workers``)."""
        with self._news:
            return len(self._alive)

    def _forget(self, job: _Job) -> None:
        """``job`` is no longer the one asked under its key (lock held)."""
        if self._jobs.get(job.key) is job:
            del self._jobs[job.key]

    def _run(self, job: _Job) -> None:
        """A job's thread: start its worker, read its news until it ends, then make room for the next."""
        try:
            self._run_worker(job)
        finally:
            with self._news:  # its process has exited (or never started): the slot is free
                self._alive.discard(job)
                self._start_in_line()
                self._news.notify_all()

    def _run_worker(self, job: _Job) -> None:
        try:
            request = job.request() if callable(job.request) else job.request
            job.request = request
            with self._news:
                if job.stopped:  # abandoned while its request was built (slow under load): no worker at all
                    return
            with tempfile.TemporaryFile() as errors:
                process = subprocess.Popen([sys.executable, "-m", "bpe.jobs.worker"], stdin=subprocess.PIPE,
                                           stdout=subprocess.PIPE, stderr=errors, env=worker_environment())
                with self._news:
                    job.process = process
                    if job.stopped:  # abandoned while it started
                        process.kill()
                try:
                    process.stdin.write(pickle.dumps(request))
                    process.stdin.close()
                except (BrokenPipeError, OSError):
                    pass  # killed already: its end is read below
                ended = self._read(job, process.stdout)
                process.wait()
                if not ended:
                    errors.seek(0)
                    self._ended(job, error=self._why_it_stopped(process.returncode, errors.read(), request.budget))
        except Exception as error:  # noqa: BLE001 (a bug: said on the page, never a silent hang)
            self._ended(job, error=f"the job could not run ({type(error).__name__}: {error}): this is a bug in BPE Lab, please report it")

    def _read(self, job: _Job, stream) -> bool:
        """Apply the worker's messages to ``job``; whether it ended by itself (done, or a refusal)."""
        while True:
            head = stream.read(FRAME.size)
            if len(head) < FRAME.size:
                return False
            data = stream.read(FRAME.unpack(head)[0])
            kind, *values = pickle.loads(data)  # from our own worker, never from a user
            with self._news:
                if job.stopped:
                    return True
                job.weight += len(data)
                if kind == "progress":
                    job.update(fraction=values[0], doing=values[1])
                elif kind == "part":
                    job.update(parts={**job.view.parts, values[0]: values[1]})
                self._news.notify_all()
            if kind in ("done", "refused"):
                self._ended(job, error=values[0] if kind == "refused" else "", usage=values[-2:] if kind == "done" else (0.0, 0.0))
                return True

    def _ended(self, job: _Job, *, error: str, usage: tuple[float, float] = (0.0, 0.0)) -> None:
        with self._news:
            if job.stopped:
                return
            job.update(state=FAILED if error else DONE, error=error, fraction=1.0 if not error else job.view.fraction,
                       doing="", cpu_s=usage[0], peak_mb=usage[1])
            self._forget(job)
            self._finished.put(job.key, job)
            self._start_in_line()
            self._news.notify_all()

    @staticmethod
    def _why_it_stopped(returncode: int | None, errors: bytes, budget: JobBudget) -> str:
        if killed_for_cpu(returncode):
            return over_cpu(budget)
        last = errors.decode("utf-8", "replace").strip().splitlines()[-1:] or ["no message"]
        if "MemoryError" in last[0]:
            return over_memory(budget)
        return f"the job stopped unexpectedly ({last[0][:200]}): this is a bug in BPE Lab, please report it"


def over_cpu(budget: JobBudget) -> str:
    return f"it needs more than {budget.cpu_s:.0f} s of CPU, a job's budget on this server: try a shorter text"


def over_memory(budget: JobBudget) -> str:
    return f"it needs more than {budget.memory_mb:,} MB of memory, a job's budget on this server: try a smaller vocabulary"
