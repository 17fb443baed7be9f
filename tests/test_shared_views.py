"""Cheaper steps: a class on one example shares each step's views, built once per (run, step,
options) for the whole server in one store, bounded in entries and in weight, locked, and keyed on
the run's identity; and the server skips Streamlit's full garbage collection after every rerun.

That different options (the names toggle) never share a view is checked by ``test_app_pages``'
Wikipedia example.
"""

from __future__ import annotations

import gc
import subprocess
import sys
import threading
import tomllib
import weakref

import bpe.views.train_step
import ui.shared_views
from bpe.jobs.store import BoundedStore
from ui.shared_views import _view
from ui.training import Trained

from .apptest_support import ROOT, TRAIN, html_with, narration, open_page, plain


def test_a_class_on_one_example_builds_each_steps_corpus_view_once(monkeypatch):
    calls = []
    real = bpe.views.train_step.corpus_block
    monkeypatch.setattr(bpe.views.train_step, "corpus_block", lambda *args, **kwargs: calls.append(1) or real(*args, **kwargs))
    students = [open_page(TRAIN, preset="sennrich") for _ in range(3)]
    assert len(calls) == 1  # step 0: built for the first student, shared with the other two
    for at in students:
        at.button(key="w.next.main").click().run()
    assert len(calls) == 2  # step 1: again once for the class
    assert all("Merge 1 of" in narration(at) for at in students)
    assert len({html_with(at, "bpe-tokens") for at in students}) == 1


def test_students_on_different_texts_never_see_each_others_views():
    alice, bob = (open_page(TRAIN, preset="own-text") for _ in range(2))
    for at, text in [(alice, "zebra zebra zebras graze near zebra herds"), (bob, "quokka quokka quokkas hop near quokka burrows")]:
        at.text_area(key="w.own_text").set_value(text).run()
        at.button(key="w.next.main").click().run()  # both at step 1 of their own runs
    for at, own, other in [(alice, "zebra", "quokka"), (bob, "quokka", "zebra")]:
        corpus = plain(html_with(at, "bpe-tokens"))
        assert own in corpus and other not in corpus
    assert "zebra" not in narration(bob)


def test_the_store_drops_the_least_recent_views_past_its_character_limit():
    store = BoundedStore(10, max_weight=10, weigh=len)
    for key in "abc":
        store.put(key, key * 4)
    assert store.get("a") is None and store.get("b") == "bbbb" and store.weight == 8
    store.put("big", "x" * 20)  # alone over the limit: kept (it is about to be drawn), the rest dropped
    assert store.get("big") == "x" * 20 and len(store) == 1 and store.weight == 20
    store.put("big", "y")  # replacing a view replaces its weight
    assert store.weight == 1


def test_the_apps_view_store_is_bounded():
    views = ui.shared_views.store()
    assert views.max_entries == ui.shared_views.MAX_VIEWS and views.max_weight == ui.shared_views.MAX_WEIGHT <= 32_000_000


def test_the_store_keeps_its_bounds_and_its_weight_exact_with_many_sessions_writing_at_once():
    store = BoundedStore(10, max_weight=30, weigh=len)
    errors = []

    def session(seed: int) -> None:
        try:
            for index in range(20_000):
                key = (seed * 7 + index) % 50
                store.put(key, "x" * (1 + key % 5))
                store.get((key + 3) % 50)
        except Exception as error:  # noqa: BLE001 - reported below, with the bounds
            errors.append(error)

    switching = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible: a missing lock shows at once
    try:
        sessions = [threading.Thread(target=session, args=(seed,)) for seed in range(8)]
        for thread in sessions:
            thread.start()
        for thread in sessions:
            thread.join()
    finally:
        sys.setswitchinterval(switching)
    kept = {key: store.get(key) for key in range(50) if store.get(key) is not None}
    assert errors == []
    assert len(kept) == len(store) <= 10
    assert store.weight == sum(map(len, kept.values())) <= 30


def run_of(text: str) -> Trained:
    return Trained(trace=None, text=text, table=None)


def test_two_equal_runs_never_share_a_view():
    views, first, second = BoundedStore(8), run_of("same"), run_of("same")
    assert _view(views, first, ("corpus", 1), lambda: "first") == "first"
    assert _view(views, second, ("corpus", 1), lambda: "second") == "second"
    assert _view(views, first, ("corpus", 1), lambda: "rebuilt") == "first"


def test_a_view_never_keeps_its_run_alive():
    views, run = BoundedStore(8), run_of("a")
    _view(views, run, ("corpus", 1), lambda: "view")
    gone = weakref.ref(run)
    del run
    gc.collect()
    assert gone() is None and len(views) == 1


DEAD_RUNS_PLACE = """
import gc
import subprocess
from bpe.jobs.store import BoundedStore
from ui.shared_views import _view
from ui.training import Trained

views, run = BoundedStore(8), Trained(trace=None, text="old", table=None)
address = id(run)
_view(views, run, ("corpus", 1), lambda: "old run's view")
del run
gc.collect()
others = []  # kept alive, so each new run takes a new place until one takes the old one's
while len(others) < 1_000 and id(newcomer := Trained(trace=None, text="new", table=None)) != address:
    others.append(newcomer)
print(id(newcomer) == address)
print(_view(views, newcomer, ("corpus", 1), lambda: "new run's view"))
"""


def test_a_new_run_in_a_dead_runs_place_never_gets_its_views():
    # In a fresh process CPython hands a freed object's memory to the next object of its size; a
    # test process that has run hundreds of tests has too many half-used pools for that to hold.
    ran = subprocess.run([sys.executable, "-c", DEAD_RUNS_PLACE], cwd=ROOT, capture_output=True, text=True, check=True)
    reused, view = ran.stdout.splitlines()
    assert reused == "True"  # the case an id() key got wrong: a new run where the dead one was
    assert view == "new run's view"


def test_the_server_skips_streamlits_full_garbage_collection_after_every_rerun():
    with open(ROOT / ".streamlit" / "config.toml", "rb") as file:
        config = tomllib.load(file)
    assert config["runner"]["postScriptGC"] is False  # it was most of a step's server CPU
