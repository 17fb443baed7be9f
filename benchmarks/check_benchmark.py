"""Time ``python -m bpe check`` on python-docs: 1,000 learner merges, with the cause search.

Three learners, each a real merges file on disk checked through the CLI's own code path
(``main([...])``), so reading, the reference, the first difference and the search are all timed:

* ``correct``: the reference's own merges (no search needed: the floor);
* ``tie-break``: merges trained with ties broken by ``lexicographic-max`` (the preset breaks them
  ``first-seen``): every tie rule and setting is re-run until one reproduces them;
* ``overlapping-pairs`` (with ``--learner-file``): merges from ``tests/learners.py``'s learner that
  counts pairs without overlap, pickled beforehand (the learner itself takes minutes on 465 KB).

The target: each check answers within 10 s on this machine. Wall time is what a user waits; the
process's CPU time is printed beside it because the machine is shared (with other jobs running,
wall time is several times the CPU time).

    .venv/bin/python benchmarks/check_benchmark.py
    .venv/bin/python benchmarks/check_benchmark.py --learner-file /tmp/docs-overlapping-pairs.pkl
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import pickle
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
TARGET_S = 10.0


def _merges_file(folder: str, name: str, pairs) -> str:
    from bpe.byte_level import to_byte_text

    path = str(Path(folder) / f"{name}.bpe")
    with open(path, "w", encoding="utf-8") as file:
        file.write("#version: 0.2\n")
        file.writelines(f"{to_byte_text(a)} {to_byte_text(b)}\n" for a, b in pairs)
    return path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--merges", type=int, default=1000)
    parser.add_argument("--learner-file", help="a pickled list of (left bytes, right bytes) from a mistaken learner")
    args = parser.parse_args()

    from bpe.checking.diagnose import spelled_merges
    from bpe.cli import main as cli_main
    from bpe.presets import PRESETS
    from bpe.trainer import train

    preset = PRESETS["python-docs"]
    corpus = preset.corpus()
    learners = {}
    for name, rule in (("correct", preset.settings.tie_break), ("tie-break", "lexicographic-max")):
        settings = replace(preset.settings, tie_break=rule, merges=args.merges, min_frequency=1)
        learners[name] = spelled_merges(train(corpus, settings))
    if args.learner_file:
        with open(args.learner_file, "rb") as file:
            learners[Path(args.learner_file).stem] = pickle.load(file)[: args.merges]

    worst = 0.0
    with tempfile.TemporaryDirectory() as folder:
        for name, pairs in learners.items():
            path = _merges_file(folder, name, pairs)
            out = io.StringIO()
            started, cpu = time.perf_counter(), time.process_time()
            with contextlib.redirect_stdout(out):
                code = cli_main(["check", "--merges", path, "--preset", "python-docs", "--json"])
            elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
            worst = max(worst, elapsed)
            result = json.loads(out.getvalue()) if code == 0 else {}
            causes = [cause["code"] for cause in result.get("diagnosis", [])]
            print(f"{name:>24}: {elapsed:6.2f} s wall, {cpu:5.2f} s CPU  exit {code}  matching {result.get('matching')}/{result.get('total')}"
                  f"  diagnosis {causes}  best {result.get('best_match', {}).get('variant')!r}"
                  f" ({result.get('best_match', {}).get('matching')})")
    print(f"slowest check: {worst:.2f} s (target: under {TARGET_S:g} s)")
    return 0 if worst < TARGET_S else 1


if __name__ == "__main__":
    sys.exit(main())
