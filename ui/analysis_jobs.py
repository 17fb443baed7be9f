"""Analyses run outside the page's thread, shared by everyone who asks the same, with their progress.

An analysis (training a known mix and inferring it, a pretrained tokenizer's mix, the family tree) runs
in a worker process within a budget (:mod:`bpe.analysis.bounded_job`), started by a thread of the
server; the page only reads the job's progress and, once done, its result. Jobs live in one
:class:`Jobs` store per server process (``st.cache_resource``), keyed by the task and its request, so
a class that presses "Infer" together on the same mix runs it once and all watch the same bar; the
last :data:`KEPT` finished ones are kept (their results are small: numbers and names).

Built on the import worker's approach (``bpe.formats.bounded_import``); a job nobody watches any more
runs to its end (it is bounded) rather than being cancelled.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import streamlit as st

from bpe.analysis.bounded_job import run_bounded
from bpe.errors import BpeError

KEPT = 32
"""Finished jobs a server keeps (the oldest goes first); running ones are always kept."""
POLL_S = 1.0
"""How often a page watching a job redraws its progress."""


@dataclass
class Job:
    task: str
    request: dict
    what: str = "Starting"
    done: float = 0.0
    result: dict | None = None
    error: str | None = None
    started: float = field(default_factory=time.monotonic)
    finished: float | None = None

    @property
    def running(self) -> bool:
        return self.finished is None

    def _run(self) -> None:
        try:
            self.result = run_bounded(self.task, self.request, on_progress=self._progress)
        except BpeError as error:
            self.error = str(error)
        finally:
            self.finished = time.monotonic()

    def _progress(self, what: str, done: float) -> None:
        self.what, self.done = what, min(max(done, 0.0), 1.0)


class Jobs:
    """One server's jobs by key, finished ones least recently asked for first out."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._jobs: OrderedDict[str, Job] = OrderedDict()

    def get(self, task: str, request: Mapping[str, Any]) -> Job | None:
        with self._lock:
            job = self._jobs.get(job_key(task, request))
            if job is not None:
                self._jobs.move_to_end(job_key(task, request))
            return job

    def start(self, task: str, request: Mapping[str, Any]) -> Job:
        """The job for ``task`` and ``request``: the one running or done (an error is tried again), or a new one."""
        key = job_key(task, request)
        with self._lock:
            job = self._jobs.get(key)
            if job is not None and job.error is None:
                self._jobs.move_to_end(key)
                return job
            job = self._jobs[key] = Job(task, dict(request))
            finished = [name for name, kept in self._jobs.items() if not kept.running and name != key]
            for name in finished[: max(0, len(finished) - KEPT)]:
                del self._jobs[name]
        threading.Thread(target=job._run, name=f"bpe-analysis-{task}", daemon=True).start()
        return job


def job_key(task: str, request: Mapping[str, Any]) -> str:
    """A request's identity: its task and its content (texts included), as a digest."""
    return hashlib.sha256(json.dumps([task, request], sort_keys=True, ensure_ascii=False).encode("utf-8")).hexdigest()


@st.cache_resource(show_spinner=False)
def jobs() -> Jobs:
    return Jobs()


@st.fragment(run_every=POLL_S)
def watch(job: Job) -> None:
    """The job's progress bar while it runs; the page reruns once it is done (then this is no longer drawn)."""
    if not job.running:
        st.rerun()
    seconds = time.monotonic() - job.started
    st.progress(job.done, text=f"{job.what}… ({seconds:.0f} s; it runs on the server for everyone who asks the same)")
