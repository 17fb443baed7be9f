"""What a test run pays to build the pretrained tables from their files: each built, then read back.

A script, not a test: ``.venv/bin/python benchmarks/table_build.py``. The suite builds every table
once per run in a cache folder of its own (``tests/conftest.py``: a warm per-user cache would hide a
change to a file reader), so this is that cost: for each registry entry, CPU seconds of a first
``load_pretrained`` with an empty ``BPE_LAB_CACHE_DIR`` (the build, written to the cache) beside a
second (read back from it), in one process, and the peak memory.
"""

from __future__ import annotations

import os
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="bpe-lab-table-build-") as folder:
        os.environ["BPE_LAB_CACHE_DIR"] = folder
        from bpe.pretrained.registry import PRETRAINED, load_pretrained

        total = 0.0
        print(f"{'table':16s} {'build CPU s':>11s} {'read CPU s':>10s} {'ratio':>6s}")
        for name in PRETRAINED:
            started = time.process_time()
            load_pretrained(name)
            built = time.process_time() - started
            started = time.process_time()
            load_pretrained(name)
            read = time.process_time() - started
            total += built
            print(f"{name:16s} {built:11.2f} {read:10.2f} {built / read:6.1f}", flush=True)
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
        print(f"all {len(PRETRAINED)} built: {total:.1f} s of CPU; peak memory {peak:,} MiB; load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
