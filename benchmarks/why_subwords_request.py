"""What the Why subwords lesson and WordPiece's score cost, beside a peer measured in the same run.

A script, not a test: ``.venv/bin/python benchmarks/why_subwords_request.py [--runs 3] [--preset python-docs]``.

1. **WordPiece's trainer**: the preset trained by BPE's count and by WordPiece's score (the same
   settings otherwise); printed: the CPU seconds of each (best of ``--runs``) and their ratio.
2. **A first request**: the Why subwords page opened on the preset, its caches cleared first, so it
   trains on the nine tenths and measures the last (what a class's first learner waits for; the
   brief bounds it at 2 s of CPU), beside the Train page opened on the same preset, which trains
   it whole. Printed: each page's CPU seconds in this process (AppTest runs the script here) and
   the ratio.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import replace
from pathlib import Path

import streamlit as st
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bpe import PRESETS, train  # noqa: E402  (after the path: the checkout's own engine)
from bpe.app import pages  # noqa: E402


def trainer_seconds(preset: str, objective: str, runs: int) -> float:
    corpus = PRESETS[preset].corpus()
    settings = replace(PRESETS[preset].settings, objective=objective)
    best = float("inf")
    for _ in range(runs):
        started = time.process_time()
        train(corpus, settings)
        best = min(best, time.process_time() - started)
    return best


def first_request_seconds(page: str, runs: int, **query: str) -> float:
    best = float("inf")
    for _ in range(runs):
        st.cache_data.clear()
        st.cache_resource.clear()  # the training store too: a first learner's request
        at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
        for key, value in query.items():
            at.query_params[key] = value
        at.switch_page(page)
        started = time.process_time()
        at.run()
        spent = time.process_time() - started
        if at.exception:
            raise SystemExit(f"{page} failed: {at.exception}")
        best = min(best, spent)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--preset", default="python-docs", choices=list(PRESETS))
    args = parser.parse_args()
    classic, wordpiece = (trainer_seconds(args.preset, name, args.runs) for name in ("classic", "wordpiece"))
    print(f"trainer on {args.preset}: classic {classic:.3f} s CPU, wordpiece {wordpiece:.3f} s CPU, "
          f"ratio {wordpiece / classic:.2f}x")
    subwords = first_request_seconds(pages.SUBWORDS.file, args.runs, corpus=args.preset)
    trained = first_request_seconds(pages.TRAIN.file, args.runs, preset=args.preset)
    print(f"first request on {args.preset}: Why subwords {subwords:.2f} s CPU, Train {trained:.2f} s CPU, "
          f"ratio {subwords / trained:.2f}x (best of {args.runs})")


if __name__ == "__main__":
    main()
