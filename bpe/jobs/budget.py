"""A worker process's budget: CPU seconds and memory set as the kernel's limits, the lowest priority,
and the environment a worker needs to import BPE Lab.

Why here, once: two kinds of worker run apart from the pages, an import's
(:mod:`bpe.formats.bounded_import`) and a job's (:mod:`bpe.jobs.worker`), and both must stop at
their budget the same way: ``RLIMIT_CPU`` raises ``SIGXCPU`` (turned into an error that says which
budget ran out) and, one second later, kills; ``RLIMIT_AS`` makes an allocation past the budget a
``MemoryError``. The caller says in its own words what ran out (``over_cpu``, ``over_memory``).

    >>> with limited(JobBudget(cpu_s=5, memory_mb=512), over_cpu=RuntimeError, over_memory=MemoryError):
    ...     sum(range(1000))
    499500

Out of scope: systems without ``resource`` (Windows), where nothing is limited (the parent's
wall-clock deadline still holds).
"""

from __future__ import annotations

import os
import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from ..limits import JOB_CPU_S, JOB_MEMORY_MB, JOB_WALL_S

PACKAGE_ROOT = str(Path(__file__).resolve().parents[2])
"""The folder holding ``bpe/``, for a worker's import (the project need not be installed)."""


@dataclass(frozen=True)
class JobBudget:
    """What one job's worker may use (:mod:`bpe.limits`' ``JOB_*``)."""

    cpu_s: float = JOB_CPU_S
    memory_mb: int = JOB_MEMORY_MB
    wall_s: float = JOB_WALL_S


class _OutOfCpu(BaseException):
    """Raised by the SIGXCPU handler (a BaseException, so no reader's ``except Exception`` swallows it)."""


@contextmanager
def limited(budget, *, over_cpu: Callable[[], BaseException], over_memory: Callable[[], BaseException],
            for_good: bool = False) -> Iterator[None]:
    """This process stopped at ``budget.cpu_s`` more seconds of CPU and ``budget.memory_mb`` more of
    memory, raising ``over_cpu()`` or ``over_memory()``. ``for_good`` (a worker, which exits after):
    hard limits as well, the kernel's kill if the error cannot be raised in time; else (a process that
    goes on to other work) soft ones, restored after the block."""
    try:
        import resource
    except ImportError:  # not a POSIX system
        yield
        return
    usage = resource.getrusage(resource.RUSAGE_SELF)
    seconds = int(usage.ru_utime + usage.ru_stime) + max(1, round(budget.cpu_s))
    limits = {resource.RLIMIT_CPU: (seconds, seconds + 1)}
    status = Path("/proc/self/status")
    if status.exists():  # Linux: the address space so far, plus the budget
        size_kb = next(int(line.split()[1]) for line in status.read_text().splitlines() if line.startswith("VmSize:"))
        memory = size_kb * 1024 + budget.memory_mb * 1024 * 1024
        limits[resource.RLIMIT_AS] = (memory, memory)
    before = {kind: resource.getrlimit(kind) for kind in limits}
    for kind, (soft, hard) in limits.items():
        ceiling = before[kind][1]  # a limit set from outside (a test's cap, ulimit) stays the ceiling
        if ceiling != resource.RLIM_INFINITY:
            soft, hard = min(soft, ceiling), min(hard, ceiling)
        resource.setrlimit(kind, (soft, hard if for_good else ceiling))

    def out_of_cpu(signum, frame):
        raise _OutOfCpu

    handler = signal.signal(signal.SIGXCPU, out_of_cpu)
    try:
        yield
    except _OutOfCpu:
        raise over_cpu() from None
    except MemoryError:
        raise over_memory() from None
    finally:
        if not for_good:
            for kind, limit in before.items():
                resource.setrlimit(kind, limit)
            signal.signal(signal.SIGXCPU, handler)


def lowest_priority() -> None:
    """This process waits while others want the cores (``nice`` 19): learners' pages first."""
    if hasattr(os, "nice"):  # POSIX
        os.nice(19)


def worker_environment() -> dict[str, str]:
    """The environment a worker starts with: this one, with ``bpe`` importable."""
    return {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [PACKAGE_ROOT, os.environ.get("PYTHONPATH")]))}


def killed_for_cpu(returncode: int | None) -> bool:
    """Whether a worker's exit status is the kernel's kill past its hard CPU limit (POSIX)."""
    return returncode in {-getattr(signal, name) for name in ("SIGXCPU", "SIGKILL") if hasattr(signal, name)}
