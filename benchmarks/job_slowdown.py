"""How much one learner's big request slows another learner's Train step on the same server.

Two learners on one server process: the first steps through a run on the Train page (AppTest, python-docs,
each step timed as ``app_step_latency.py`` times it); the second opens ``Extend_a_tokenizer?from=llama3&add=N``
and, as its page does, asks the server's job board again each second and draws each part as it comes,
until its downloads are ready (:func:`extend_page` says what it runs). Rounds alternate: the Train steps alone, then with the Extend request in flight (a new
``add`` each round, so each is a new extension), as many steps each way, and the median over the rounds of
each round's ratio of median step times is printed (the machine's other load drifts from minute to minute).
The target is at most 1.20.

``--in-thread`` replays how Extend worked before its job board (the extension, the extended tokenizer and
every format's files built in the page's thread): the peer that shows what the board saves.

    .venv/bin/python benchmarks/job_slowdown.py                 # 6 rounds of up to 40 steps each way
    .venv/bin/python benchmarks/job_slowdown.py --rounds 1 --steps 10 --in-thread
"""

from __future__ import annotations

import argparse
import logging
import os
import random
import statistics
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
TARGET = 1.20


def trainer(preset: str):
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
    at.query_params["preset"] = preset
    at.switch_page("pages/1_Train.py")
    at.run()
    assert not at.exception, at.exception
    return at


class Stepper:
    """The Train page's slider moved to a new merge at each step, never one seen before (a step seen before
    is drawn from the server's shared views), in one shuffled order for both halves of every round."""

    def __init__(self, at) -> None:
        total = at.session_state["bpe.lab"].amount
        self.at, self.order = at, iter(random.Random(0).sample(range(1, total + 1), total))

    def step(self) -> float:
        """One step's server time in ms."""
        self.at.slider(key="w.step.main").set_value(next(self.order))
        started = time.perf_counter()
        self.at.run()
        taken = (time.perf_counter() - started) * 1000
        if self.at.exception:  # a step that failed is no step: stop, saying why
            raise RuntimeError(f"the Train step failed: {self.at.exception[0].message}")
        return taken


def extend_page(add: int, done: threading.Event) -> None:
    """The second learner: what the Extend page for Llama 3 does on the server, as the app runs it. Its job asked
    for on the server's board, asked about again each second (the progress bar's fragment), and, as its parts
    come, the page's own work drawn in this thread: the run reattached, the lesson's window, the costs' chart,
    the download offers (two AppTests in one process share Streamlit's page registry, so this learner is not one)."""
    from bpe.pretrained.registry import PRETRAINED, load_pretrained
    from bpe.teaching.extension import DEFAULT_LEAST, DEFAULT_TEXT, NEW_TEXTS, cost_texts
    from bpe.teaching.jobs import TokenizerSource, extension_request
    from bpe.training.extend import reattached
    from bpe.views.corpus_window import chunk_starts
    from bpe.views.exports import offers_of
    from bpe.views.extension import cost_chart
    from bpe.views.narration import narrate_step
    from bpe.views.train_step import window_block
    from ui.background import BOARD

    llama3, text = load_pretrained("llama3"), NEW_TEXTS[DEFAULT_TEXT].text
    request = extension_request(TokenizerSource("llama3"), text=text, merges=add, min_frequency=DEFAULT_LEAST,
                                name=PRETRAINED["llama3"].title, time_limit_s=60.0, priced=cost_texts("Hindi", text))
    drawn: set[str] = set()
    while True:
        view = BOARD.ask(("benchmark", add), request)
        if "trace" in view.parts and "trace" not in drawn:
            trace = reattached(view.parts["trace"], llama3)
            narrate_step(trace, 0).headline_html()
            window_block(trace, text, chunk_starts(text, llama3.pretokenizer, ()), step=0)
            drawn.add("trace")
        if "costs" in view.parts and "costs" not in drawn:
            cost_chart(view.parts["costs"], before="Llama 3", after="extended").to_dict()
            drawn.add("costs")
        if "files" in view.parts:
            for offer in offers_of(view.parts["files"], stem="llama3-extended"):
                if offer.zip_name:
                    offer.zip_bytes()
            break
        time.sleep(1.0)
    done.set()


def extend_in_thread(add: int, done: threading.Event) -> None:
    """Extend as it was: everything the page drew, built in the page's thread (no job board)."""
    from bpe.encoding.tokenizer import Tokenizer
    from bpe.formats.files import export_all
    from bpe.pretrained.registry import load_pretrained
    from bpe.teaching.extension import DEFAULT_TEXT, NEW_TEXTS
    from bpe.training.extend import extend

    llama3 = load_pretrained("llama3")
    extended = Tokenizer.from_trace(extend(llama3, NEW_TEXTS[DEFAULT_TEXT].text, merges=add), name="Llama 3 + new text")
    export_all(extended)
    done.set()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--steps", type=int, default=40, help="Train steps timed in each half of a round, at most")
    parser.add_argument("--preset", default="python-docs")
    parser.add_argument("--in-thread", action="store_true", help="the peer: Extend's work in the page's thread, as before the job board")
    args = parser.parse_args()
    logging.getLogger("streamlit").setLevel(logging.ERROR)
    other = extend_in_thread if args.in_thread else extend_page
    stepper = Stepper(trainer(args.preset))
    for _ in range(5):  # warm: the first steps build what every step reuses
        stepper.step()
    alone, beside, busy_s, failed, ratios = [], [], [], [], []
    for round_ in range(args.rounds):
        done = threading.Event()

        def request(add=10 + round_):
            try:
                other(add, done)
            except Exception as error:  # noqa: BLE001 (said below: a benchmark whose peer failed measured nothing)
                failed.append(repr(error))
                done.set()

        started, taken = time.perf_counter(), len(beside)
        threading.Thread(target=request, daemon=True).start()
        while not done.is_set() and len(beside) - taken < args.steps:  # steps while the other request is in flight
            beside.append(stepper.step())
        done.wait()
        busy_s.append(time.perf_counter() - started)
        alone += [stepper.step() for _ in range(len(beside) - taken)]  # as many, alone
        ratios.append(statistics.median(beside[taken:]) / statistics.median(alone[taken:]))
    if failed:
        print(f"the Extend session failed: {failed[0]}")
        return 1
    ratio = statistics.median(ratios)  # each round's: the machine's other load drifts between rounds
    how = "in the page's thread (as before the job board)" if args.in_thread else "as a job (the job board)"
    print(f"load average {os.getloadavg()[0]:.2f}; Train ({args.preset}) beside Extend from=llama3 {how}")
    print(f"Train step alone: median {statistics.median(alone):.0f} ms over {len(alone)} steps")
    print(f"Train step beside the Extend request: median {statistics.median(beside):.0f} ms over {len(beside)} steps "
          f"(the request took {statistics.median(busy_s):.1f} s, median of {len(busy_s)})")
    within = "within it" if ratio <= TARGET else "OVER it"
    print(f"slowdown ratio: {ratio:.2f} (target: at most {TARGET:.2f}: {within}); each round's, beside over alone: "
          + ", ".join(f"{each:.2f}" for each in ratios))
    return 0  # a ratio on a shared machine is read, not asserted (a noisy minute is no failure of the code)


if __name__ == "__main__":
    sys.exit(main())
