"""The environment of a child process that a test starts without its own (a CLI run, a probe).

Why: such a child must not see the test process's variables by accident (a ``PYTHONPATH`` that
hides a packaging mistake, a budget another test set), yet it must read the pretrained tables
from this run's cache (``BPE_LAB_CACHE_DIR``, set in ``tests/conftest.py``): without it, it would
read the per-user cache, built by whatever reader code ran there first.
"""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def child_env(**more: str) -> dict[str, str]:
    """The project on ``PYTHONPATH``, the system's ``PATH``, this run's merge cache, and ``more``."""
    return {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "BPE_LAB_CACHE_DIR": os.environ["BPE_LAB_CACHE_DIR"], **more}
