"""The tests build the pretrained tables in a cache of this run's own, never the per-user one.

Why: the tables in ``~/.cache/bpe-lab`` were built by whatever reader code ran there first; read
from there, a change to a file reader (``bpe/formats/tekken.py``...) would pass until that cache
was deleted. ``tests/conftest.py`` points ``BPE_LAB_CACHE_DIR`` at the run's folder, which the
workers, the app server and every child process share (``tests/child_env.py``).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from platformdirs import user_cache_dir

from bpe.pretrained.merge_cache import cache_dir
from bpe.pretrained.registry import merge_cache_file

from .child_env import child_env
from .conftest import RUN_DIR

TESTS = Path(__file__).resolve().parent
USER_CACHE = Path(user_cache_dir("bpe-lab", appauthor=False))


def test_pretrained_tables_are_cached_in_this_runs_folder():
    assert cache_dir() == Path(os.environ[RUN_DIR]) / "merge-cache"
    assert USER_CACHE not in merge_cache_file("tekken-240911").parents


def test_a_child_process_reads_this_runs_cache_too():
    probe = subprocess.run([sys.executable, "-c", "from bpe.pretrained.merge_cache import cache_dir; print(cache_dir())"],
                           capture_output=True, text=True, timeout=60, env=child_env())
    assert probe.returncode == 0, probe.stderr
    assert probe.stdout.strip() == str(cache_dir())


# A child's whole environment written out by hand (a PATH of its own) drops BPE_LAB_CACHE_DIR;
# running_app's env= only adds to the test's environment.
HAND_MADE_ENV = re.compile(r"""["']PATH["']\s*:""")


def test_child_processes_get_their_environment_from_child_env():
    hand_made = [f"{path.name}:{number}" for path in sorted(TESTS.glob("*.py")) if path.name != "child_env.py"
                 for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if HAND_MADE_ENV.search(line)]
    assert hand_made == [], "start children with env=child_env(...) (tests/child_env.py)"
