"""Analyses on the server's job board: run apart from the page's thread, shared by everyone who asks the same.

An analysis (training a known mix and inferring it, a pretrained tokenizer's mix, the family tree) is a
job of the board (:mod:`bpe.jobs.board`, drawn by :mod:`ui.background`): a worker process within the
analysis's budget (:data:`bpe.analysis.tasks.BUDGET`) runs :func:`bpe.analysis.tasks.on_board`, and the
job is named by its task and its request's content, so a class that presses "Infer" together on the
same mix runs it once and all watch the same bar. A page asks at every run while it shows the job; a job
nobody asks about any more is stopped by the board.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from bpe.analysis.tasks import job_request
from bpe.jobs.board import JobView

from . import background


class _Analyses:
    """What the board's keys of analyses hang on: they are named by content, not by a tokenizer or a run."""


ANCHOR = _Analyses()


def job_key(task: str, request: Mapping[str, Any]) -> str:
    """A request's identity: its task and its content (texts included), as a digest."""
    return hashlib.sha256(json.dumps([task, request], sort_keys=True, ensure_ascii=False).encode("utf-8")).hexdigest()


def job(task: str, request: Mapping[str, Any]) -> JobView:
    """The board's job for ``task`` on ``request`` as it stands (started if nobody asked for it yet)."""
    return background.job(ANCHOR, "analysis", task, job_key(task, request), request=lambda: job_request(task, request))


def progress(task: str, request: Mapping[str, Any], *, what: str) -> None:
    """The job's progress bar while it works (the page reruns when it is done)."""
    background.progress(ANCHOR, "analysis", task, job_key(task, request), request=lambda: job_request(task, request), what=what)


def result(view: JobView) -> dict | None:
    """The analysis's result once it is done."""
    return view.parts.get("result")
