"""Importing another library's tokenizer files in a worker process with a CPU, memory and time budget.

Why: a file is what a stranger uploads. Reading one is linear work, and recovering a rank file's
or a ``.model``'s merges O(n log n) (``merge_recovery``), yet a 5 MB file can still ask for many
seconds of CPU and hundreds of MB. Run inside the app's server, that work holds the one core every
other learner's page is drawn on. So :func:`import_tokenizer_bounded` runs
:func:`~bpe.formats.files.import_tokenizer` in a child process of its own, which

* runs at the lowest scheduling priority (``nice`` 19): while learners' pages want the cores,
  the import waits, and they do not;
* stops at :data:`~bpe.limits.IMPORT_CPU_S` seconds of CPU (``RLIMIT_CPU``) and
  :data:`~bpe.limits.IMPORT_MEMORY_MB` of memory (``RLIMIT_AS``), and the parent gives up on it
  after :data:`~bpe.limits.IMPORT_WALL_S` seconds;
* is one of at most :data:`~bpe.limits.IMPORT_WORKERS` per server process (a further import waits
  for one), so the worst a burst of uploads can take is that many budgets.

A refusal is an :class:`ImportBudgetError` (a :class:`~bpe.errors.FormatError`) that says which
budget ran out; a file's own error comes back as the same FormatError the reader raised. The
worker sends the tokenizer back as BPE Lab JSON, which the parent reads with the usual checks.
The command line's ``import`` and ``check`` serve one person and do nothing else meanwhile, so
they read in their own process within the same budget (:func:`import_tokenizer_limited`).

    >>> files = {"t.tiktoken": b"YQ== 0\\nYg== 1\\nYWI= 2\\n"}  # a, b, ab (the other bytes are missing)
    >>> import_tokenizer_bounded(format="tiktoken", files=files)
    Traceback (most recent call last):
    ...
    bpe.errors.FormatError: t.tiktoken: 254 of the 256 single bytes have no rank (e.g. 0x00); a byte-level BPE must rank every byte

Out of scope: systems without ``resource`` (Windows), where the worker runs without the CPU and
memory limits (the wall-clock deadline still holds).
"""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
import threading
from collections.abc import Mapping
from dataclasses import asdict, dataclass

from ..collector import collector_paused
from ..encoding.tokenizer import Tokenizer
from ..errors import FormatError
from ..jobs.budget import killed_for_cpu, lowest_priority, worker_environment
from ..jobs.budget import limited as limits_of
from ..limits import IMPORT_CPU_S, IMPORT_MEMORY_MB, IMPORT_WALL_S, IMPORT_WORKERS
from .files import import_json, import_tokenizer


@dataclass(frozen=True)
class ImportBudget:
    """What one import's worker may use; :meth:`default` reads a server's own settings."""

    cpu_s: float = IMPORT_CPU_S
    memory_mb: int = IMPORT_MEMORY_MB
    wall_s: float = IMPORT_WALL_S

    @classmethod
    def default(cls) -> "ImportBudget":
        """The limits of :mod:`bpe.limits`, or ``BPE_LAB_IMPORT_CPU_S`` and ``BPE_LAB_IMPORT_MEMORY_MB``
        where set (a server with more to spare may allow more)."""
        try:
            return cls(cpu_s=float(os.environ.get("BPE_LAB_IMPORT_CPU_S", IMPORT_CPU_S)),
                       memory_mb=int(os.environ.get("BPE_LAB_IMPORT_MEMORY_MB", IMPORT_MEMORY_MB)))
        except ValueError:
            raise FormatError("BPE_LAB_IMPORT_CPU_S must be a number of seconds and BPE_LAB_IMPORT_MEMORY_MB a whole "
                              "number of MB") from None


class ImportBudgetError(FormatError):
    """An import that needed more CPU, memory or time than its budget (or a worker that failed)."""


_WORKERS = threading.BoundedSemaphore(IMPORT_WORKERS)


def import_tokenizer_bounded(
    *, format: str, files: Mapping[str, str | bytes], pretokenizer: str = "gpt2",
    special_tokens: Mapping[str, int] | None = None, name: str = "", budget: ImportBudget | None = None,
) -> Tokenizer:
    """:func:`~bpe.formats.files.import_tokenizer`, run in a worker within ``budget`` (:meth:`ImportBudget.default`)."""
    text = import_json_bounded(format=format, files=files, pretokenizer=pretokenizer, special_tokens=special_tokens,
                               name=name, budget=budget)
    with collector_paused():
        return Tokenizer.from_json(text)


def import_json_bounded(
    *, format: str, files: Mapping[str, str | bytes], pretokenizer: str = "gpt2",
    special_tokens: Mapping[str, int] | None = None, name: str = "", budget: ImportBudget | None = None,
) -> str:
    """What :func:`import_tokenizer_bounded` reads, as the worker sent it: the tokenizer's BPE Lab
    JSON (``Tokenizer.from_json`` reads it; the app keeps an import in this form, compressed)."""
    budget = budget or ImportBudget.default()
    request = {
        "format": format, "files": dict(files), "pretokenizer": pretokenizer, "special_tokens": dict(special_tokens or {}),
        "name": name, "budget": asdict(budget),
    }
    if not _WORKERS.acquire(timeout=budget.wall_s):
        raise ImportBudgetError(f"the server is busy with {IMPORT_WORKERS} other imports: try again in a minute")
    try:
        output = _run_worker(pickle.dumps(request), budget)
    finally:
        _WORKERS.release()
    status_line, _, payload = output.partition(b"\n")
    status = json.loads(status_line)
    if "budget" in status:
        raise ImportBudgetError(status["budget"])
    if "error" in status:
        raise FormatError(status["error"])
    return payload.decode("utf-8")


def _run_worker(request: bytes, budget: ImportBudget) -> bytes:
    worker = subprocess.Popen(
        [sys.executable, "-m", "bpe.formats.bounded_import"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, env=worker_environment(),
    )
    try:
        output, errors = worker.communicate(request, timeout=budget.wall_s)
    except subprocess.TimeoutExpired:
        worker.kill()
        worker.communicate()
        raise ImportBudgetError(
            f"the import did not finish within {budget.wall_s:.0f} s (the server is busy, or the file needs more work "
            "than an import may take): try again later, or import a smaller file"
        ) from None
    if killed_for_cpu(worker.returncode):  # past the hard limit: the kernel's kill
        raise _over_cpu(budget)
    if worker.returncode:
        last = errors.decode("utf-8", "replace").strip().splitlines()[-1:] or ["no message"]
        if "MemoryError" in last[0]:
            raise _over_memory(budget)
        raise ImportBudgetError(f"the import stopped unexpectedly ({last[0][:200]}): this is a bug in BPE Lab, please report it")
    return output


def _over_cpu(budget: ImportBudget) -> ImportBudgetError:
    return ImportBudgetError(
        f"reading this file needs more than {budget.cpu_s:.0f} s of CPU, an import's budget here: real tokenizer files "
        "take a few seconds (GPT-4o's about 5); a file of very long tokens takes longer"
    )


def _over_memory(budget: ImportBudget) -> ImportBudgetError:
    return ImportBudgetError(
        f"reading this file needs more than {budget.memory_mb:,} MB of memory, an import's budget here: real tokenizer "
        "files need a few hundred"
    )


# -- the limits, in a worker or in the command line's own process ---------------------------------
def limited(budget: ImportBudget, *, for_good: bool = False):
    """This process stopped at ``budget``'s CPU seconds and memory from now on, as an
    :class:`ImportBudgetError` (:func:`bpe.jobs.budget.limited`, in an import's words)."""
    return limits_of(budget, over_cpu=lambda: _over_cpu(budget), over_memory=lambda: _over_memory(budget), for_good=for_good)


def import_tokenizer_limited(**arguments) -> Tokenizer:
    """:func:`~bpe.formats.files.import_tokenizer` in this process, within :meth:`ImportBudget.default`:
    the command line's ``import`` and ``check``, where nobody else's work shares the process."""
    with limited(ImportBudget.default()):
        return import_tokenizer(**arguments)


def _work() -> None:
    request = pickle.load(sys.stdin.buffer)  # from our own parent, never from a user
    budget = ImportBudget(**request.pop("budget"))
    lowest_priority()  # learners' pages first: this waits while they want the cores
    out = sys.stdout.buffer
    with collector_paused():  # a worker lives for one import: nothing to collect, and it halves the time
        try:
            with limited(budget, for_good=True):
                text = import_json(**request)  # the tokenizer is built once, by the server
        except FormatError as error:  # the reader's own message, or a budget's
            kind = "budget" if isinstance(error, ImportBudgetError) else "error"
            out.write(json.dumps({kind: str(error)}).encode("utf-8") + b"\n")
            return
    out.write(b'{"ok": true}\n' + text.encode("utf-8"))


if __name__ == "__main__":
    _work()
