"""Cheaper Train steps: a class on one example shares each step's views, built once per (run, step,
options) for the whole server in a store bounded in entries and in characters; and the server
skips Streamlit's full garbage collection after every rerun.

That different options (the names toggle) never share a view is checked by ``test_app_pages``'
Wikipedia example.
"""

from __future__ import annotations

import tomllib

import bpe.views.train_step
import ui.step_views
from ui.training import BoundedStore

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
    views = ui.step_views.store()
    assert views.max_entries == ui.step_views.MAX_VIEWS and views.max_weight == ui.step_views.MAX_CHARS <= 32_000_000


def test_the_server_skips_streamlits_full_garbage_collection_after_every_rerun():
    with open(ROOT / ".streamlit" / "config.toml", "rb") as file:
        config = tomllib.load(file)
    assert config["runner"]["postScriptGC"] is False  # it was most of a step's server CPU
