"""Many users on one server: sessions never see each other's text, the shared training cache is
keyed on content and bounded, and nobody's text is written to disk.

AppTest sessions in one pytest process share Streamlit's ``cache_resource`` exactly as browser
sessions on one server do, so two of them stand for two students.
"""

from __future__ import annotations

import os
import time

import pytest
from streamlit.testing.v1 import AppTest

from bpe.jobs.store import BoundedStore
from ui.training import MAX_ENTRIES

from .apptest_support import ENCODE, ROOT, TRAIN, open_page

ALICE = "alice writes about zebras: zebra zebra zebras graze near zebra herds"
BOB = "bob writes about quokkas: quokka quokka quokkas hop near quokka burrows"


def everything_shown(at: AppTest) -> str:
    """Every element the page sent to the browser (HTML, Markdown, captions, widget values...)."""
    def walk(node):
        yield str(getattr(node, "proto", ""))
        for child in getattr(node, "children", {}).values():
            yield from walk(child)
    return "\n".join(walk(at._tree))


def own_text(text: str) -> AppTest:
    at = open_page(TRAIN, preset="own-text")
    at.text_area(key="w.own_text").set_value(text).run()
    return at


def test_two_sessions_training_different_text_never_see_each_other():
    alice, bob = own_text(ALICE), own_text(BOB)
    for _ in range(3):  # interleaved steps, as two students clicking at once
        alice.button(key="w.next.main").click().run()
        bob.button(key="w.next.main").click().run()
    alice.switch_page(ENCODE).run()
    bob.switch_page(ENCODE).run()
    for at, own, other in [(alice, "zebra", "quokka"), (bob, "quokka", "zebra")]:
        assert not at.exception
        shown = everything_shown(at)
        assert own in shown and other not in shown
        assert other not in at.session_state["bpe.own_text"] + at.session_state["bpe.encode_text"]


def test_the_training_cache_is_keyed_on_content_and_settings(monkeypatch):
    import ui.training

    calls = []
    real_train = ui.training.train
    monkeypatch.setattr(ui.training, "train", lambda *a, **k: calls.append(1) or real_train(*a, **k))
    at = own_text(ALICE)  # trains the sample text it opens with, then Alice's
    assert len(calls) == 2
    own_text(ALICE)  # another session, same text and settings: the trace is shared, not retrained
    assert len(calls) == 2
    own_text(BOB)  # different text: its own training
    assert len(calls) == 3
    at.selectbox(key="w.tie").set_value("lexicographic-max").run()  # same text, other settings
    assert len(calls) == 4


def test_the_training_cache_keeps_at_most_its_limit_and_drops_the_least_recent():
    store = BoundedStore(3)
    for key in "abcd":
        store.put(key, key.upper())
    assert len(store) == 3 and store.get("a") is None
    store.get("b")  # used: now the most recent
    store.put("e", "E")
    assert store.get("b") == "B" and store.get("c") is None


def test_the_apps_training_cache_is_bounded():
    import ui.training

    assert ui.training.store().max_entries == MAX_ENTRIES <= 32
    at = own_text(ALICE)
    for index in range(MAX_ENTRIES // 2 + 2):  # each text keeps a corpus and a trace
        at.text_area(key="w.own_text").set_value(f"{ALICE} number {index}").run()
    assert len(ui.training.store()) == MAX_ENTRIES


SKIPPED_DIRS = {".git", ".venv", "__pycache__", ".hypothesis", ".pytest_cache", "test-artifacts"}


def files_changed_since(root, since: float) -> list[str]:
    changed = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = [name for name in dirs if name not in SKIPPED_DIRS]
        for name in files:
            path = os.path.join(folder, name)
            try:
                if os.stat(path).st_mtime >= since:
                    changed.append(path)
            except FileNotFoundError:
                pass
    return changed


def test_a_users_text_is_never_written_to_a_file(tmp_path, monkeypatch):
    marker = "xylophone-marker-7f3a"
    monkeypatch.chdir(tmp_path)
    started = time.time() - 1
    at = own_text(f"my private {marker} notes, {marker} again")
    at.button(key="w.next.main").click().run()
    at.file_uploader(key="w.upload").set_value(("secret.txt", f"{marker} uploaded".encode(), "text/plain")).run()
    at.switch_page(ENCODE).run()
    assert not at.exception and marker in everything_shown(at)
    assert list(tmp_path.iterdir()) == []  # nothing in the working directory
    # subtle: other work may touch the repository meanwhile, so look for the text, not for changes
    for path in files_changed_since(ROOT, started):
        with open(path, "rb") as file:
            assert marker.encode() not in file.read(), f"{path} holds the user's text"


@pytest.mark.parametrize("page", [TRAIN, ENCODE, "pages/9_Compare.py"])
def test_a_link_never_carries_the_users_text(page):
    at = own_text(ALICE)
    at.switch_page(page).run()
    assert "zebra" not in repr(dict(at.query_params))
