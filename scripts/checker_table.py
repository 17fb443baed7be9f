"""Run the learners' suite (tests/learner_suite) through the command line and write docs/checkers.md:
one row per case, the learner's mistake(s), the verdict the checker gave, what the verdict's
re-training reproduces, and the time of the whole run (the learner's program and the check).

    .venv/bin/python scripts/checker_table.py            # writes docs/checkers.md
    .venv/bin/python scripts/checker_table.py --print    # prints the table only

It exits 1 when a verdict is not the one its case expects (the row then shows the verdict given).
tests/test_learner_suite.py runs the same cases and checks the table lists each with its verdict.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.learner_suite.cases import CASES  # noqa: E402
from tests.learner_suite.run import run_case  # noqa: E402
from tests.learner_suite.table import HEADER, RULE, TABLE_FILE, expected_cells, row  # noqa: E402

INTRO = """# The checkers against learners' code

Check my BPE and Check my encoder are run here on a suite of learners' programs, each written the way
learners write them (minbpe's RegexTokenizer, the Sennrich et al. paper's code, the Hugging Face
course's chapter 6, Stanford CS336's assignment 1, OpenAI's GPT-2 `encoder.py`, a textbook's longest
match) with one or two lines changed as a mistake changes them (`tests/learner_suite/cases.py`).
Each runs through the command line as a learner runs it: `check --command "python trainer.py 50"
--file corpus.txt <settings>`, and `check-encode --tokenizer suite.json --command "python encoder.py
folder" --batch` on the probe texts. A verdict is *correct*, or *explained* by the mistake (or two)
whose re-training reproduces every merge or id; "not one of the mistakes I know" would be a failure
here. "Cannot be told apart here" names a mistake that gives the same output on this input (the
verdict then adds a line or text that would tell them apart, or says none was found).

Written by `.venv/bin/python scripts/checker_table.py`; `tests/test_learner_suite.py` runs the same
cases and checks this table lists each with its verdict. Times are of the whole run on the machine
below (the learner's program included), loaded by other work: compare them with each other only.
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--print", action="store_true", help="print the table instead of writing the file")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bpe-learners-"))
    rows, wrong, started = [], [], time.perf_counter()
    for case in CASES:
        outcome = run_case(case, folder)
        line = row(case, outcome)
        rows.append(line)
        if [cell.strip() for cell in line.strip("|").split(" | ")][:4] != expected_cells(case):
            wrong.append(case.name)
        print(line, file=sys.stderr)
    total = time.perf_counter() - started
    cpu = sum(os.times()[:4])  # this process and the learners' programs it ran
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    table = "\n".join([HEADER, RULE, *rows])
    machine = (f"{len(CASES)} cases in {total:.0f} s ({cpu:.0f} CPU s with the learners' programs) on "
               f"{platform.python_implementation()} {platform.python_version()}, {os.cpu_count()} cores, load average "
               f"{load:.1f} at the end.")
    if args.print:
        print(table)
    else:
        (ROOT / TABLE_FILE).write_text(f"{INTRO}\n{machine}\n\n{table}\n", encoding="utf-8")
    if wrong:
        print(f"verdicts not as expected: {', '.join(wrong)}", file=sys.stderr)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
