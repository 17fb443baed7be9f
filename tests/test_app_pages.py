"""The pages, run headless with Streamlit's AppTest: what a student sees after each action."""

import html
import itertools
import json
import re
from types import SimpleNamespace

import pytest
from streamlit.testing.v1 import AppTest

import ui.stepper
from bpe.app.pages import page_for

from .apptest_support import (
    run_with_a_late_report, step_slider,
    APP, APPTEST_TIMEOUT_S, ENCODE, ROOT, TRAIN, VOCAB, after_merge, chart_rows, errors, html_with, narration, open_page,
    plain,
)
from .test_app_trust import jargon

PAGES = [None, TRAIN, ENCODE, VOCAB]


# -- every page -----------------------------------------------------------------------------------
ALL_PAGES = [
    None,
    *sorted(
        (str(path.relative_to(ROOT)) for path in (ROOT / "pages").glob("*.py")),
        key=lambda page: int(page.split("/")[1].split("_")[0]),
    ),
]
"""Home and every file in pages/, so a new page is smoke-tested without editing this list."""
# test_app_teaching.py and test_app_trust.py once opened these pages again for the same checks.


@pytest.mark.parametrize("page", ALL_PAGES, ids=lambda page: "home" if page is None else page.split("/")[1][:-3])
def test_every_page_renders_with_a_title_no_error_and_no_python_in_its_text(page):
    at = open_page(page)
    assert not at.exception
    assert not errors(at)
    assert at.title
    if page is not None:  # the heading is the page's title, in words (an icon in it was read aloud: "school Train")
        assert at.title[0].value == page_for(page).title
    assert not jargon(at)  # no function call, byte literal, keyword argument or CLI prefix in the prose


@pytest.mark.parametrize("page", [TRAIN, ENCODE, VOCAB], ids=["train", "encode", "vocabulary"])
@pytest.mark.parametrize("preset", ["cs336", "sennrich-paper", "hf-course", "own-text", "own-table"])
def test_every_example_renders_on_every_page(page, preset):
    at = open_page(page, preset=preset, step="2")
    assert not at.exception and not errors(at)


def test_home_gallery_links_open_each_example_on_the_training_page():
    at = open_page()
    links = {link.proto.query_string: link.proto.page for link in at.get("page_link")}
    for preset in ["sennrich", "cs336", "sennrich-paper", "wikipedia", "hf-course", "python-docs", "own-text", "own-table"]:
        assert links[f"preset={preset}"] == "Train"


# -- the training page ----------------------------------------------------------------------------
def test_choosing_sennrich_and_stepping_to_merge_3_shows_o_plus_w_everywhere():
    at = open_page(TRAIN, preset="hf-course")
    at.selectbox(key="w.source").set_value("sennrich").run()
    for _ in range(3):
        at.button(key="w.next.main").click().run()
    assert not at.exception
    assert at.session_state["bpe.lab"].step == 3

    told = narration(at)
    assert "Merge 3 of 10: o + w → ow" in told
    numbers = plain(html_with(at, "bpe-stats"))
    assert "Step3 of 10" in numbers and "Vocabulary259+1" in numbers
    assert "3 pairs share that count" in told and "lexicographic-max" in told

    (chart, *_) = at.get("vega_lite_chart")
    spec = json.loads(chart.proto.spec)
    assert spec["layer"][0]["mark"]["type"] == "bar" and spec["layer"][1]["mark"]["type"] == "text"
    rows = chart_rows(chart)
    assert [row["pair"] for row in rows[:3]] == ["1. o + w", "2. l + o", "3. · + l"]
    assert [(r["left"], r["right"], r["count"], r["status"]) for r in rows[:2]] == [("o", "w", 7, "chosen"), ("l", "o", 7, "tied")]

    corpus = after_merge(html_with(at, "bpe-tokens\"><span"))
    new_tokens = re.findall(r'class="bpe-tok[^"]* bpe-new"[^>]*title="([^"]*)"[^>]*>([^<]*)<', corpus)
    assert len(new_tokens) == 7 and all(
        text == "ow" and html.unescape(title) == "id 258 · bytes 6f 77 · ow · new at this step · made by merge 3: o + w"
        for title, text in new_tokens
    )  # the tooltip a browser shows on hover (the page's own markup: no browser needed to read it)
    assert at.query_params["step"] == "3"


def test_previous_first_and_last_move_the_step():
    at = open_page(TRAIN, preset="sennrich", step="5")
    at.button(key="w.prev.main").click().run()
    assert at.session_state["bpe.lab"].step == 4 and step_slider(at).value == 4
    at.button(key="w.last.main").click().run()
    assert "Training stopped here: reached the requested 10 merges" in narration(at)
    at.button(key="w.first.main").click().run()
    assert "Before any merge" in narration(at)
    step_slider(at).set_value(7).run()
    assert "Merge 7 of 10" in narration(at)


def test_play_advances_one_step_per_tick_pause_stops_and_the_last_step_ends_play(monkeypatch):
    # Every clock reading is a minute after the last, so each run of the page is a timer tick.
    clock = itertools.count(0, 60)
    monkeypatch.setattr(ui.stepper, "time", SimpleNamespace(monotonic=lambda: next(clock)))
    at = open_page(TRAIN, preset="sennrich", step="7")
    at.button(key="w.play.main").click().run()
    assert at.session_state["bpe.playing"] and at.session_state["bpe.lab"].step == 8
    at.button(key="w.play.main").click().run()
    assert not at.session_state["bpe.playing"] and at.session_state["bpe.lab"].step == 8
    at.button(key="w.play.main").click().run()
    assert at.session_state["bpe.lab"].step == 9 and at.session_state["bpe.playing"]
    at.run()
    assert at.session_state["bpe.lab"].step == 10 and not at.session_state["bpe.playing"]
    assert "Training stopped here" in narration(at)


def test_a_step_by_hand_while_playing_takes_over(monkeypatch):
    clock = itertools.count(0, 60)  # every run is a timer tick, as above
    monkeypatch.setattr(ui.stepper, "time", SimpleNamespace(monotonic=lambda: next(clock)))
    at = open_page(TRAIN, preset="sennrich", step="2")
    at.button(key="w.play.main").click().run()
    assert at.session_state["bpe.playing"] and at.session_state["bpe.lab"].step == 3
    at.button(key="w.next.main").click().run()  # a clicker's PageDown while playing: one step on, and play stops
    assert not at.session_state["bpe.playing"] and at.session_state["bpe.lab"].step == 4
    at.run()
    assert at.session_state["bpe.lab"].step == 4


def test_a_late_report_of_the_slider_from_before_a_tick_neither_stops_play_nor_takes_the_step_back(monkeypatch):
    # A browser slow to draw (Chromium with its CPU slowed 6x) reports the slider as it was drawn before
    # the server moved the step, up to a second later: play stopped after one tick in 10 of 10 presses,
    # and the last merge was taken back. The slider the server moved is a new widget (ui.stepper._slider_key).
    clock = itertools.count(0, 60)  # every run is a timer tick, as above
    monkeypatch.setattr(ui.stepper, "time", SimpleNamespace(monotonic=lambda: next(clock)))
    at = open_page(TRAIN, preset="sennrich", step="8")
    before_play = step_slider(at)._widget_state  # the slider at 8
    at.button(key="w.play.main").click().run()
    assert at.session_state["bpe.playing"] and at.session_state["bpe.lab"].step == 9
    run_with_a_late_report(at, before_play)  # a tick, with the slider's 8 arriving late
    assert at.session_state["bpe.lab"].step == 10 and not at.session_state["bpe.playing"]
    at_nine = step_slider(at)._widget_state
    run_with_a_late_report(at, at_nine)  # after the end: the last merge stays
    assert at.session_state["bpe.lab"].step == 10 and "Training stopped here" in narration(at)
    dragged = step_slider(at)
    dragged.set_value(4).run()  # the learner's own move keeps the slider (and a keyboard's focus on it)
    assert at.session_state["bpe.lab"].step == 4 and step_slider(at).key == dragged.key


def test_word_table_example_shows_each_word_with_its_segmentation():
    at = open_page(TRAIN, preset="cs336", step="3")
    table = after_merge(html_with(at, "bpe-words"))
    rows = re.findall(r"<tr><td>(.*?)</td><td class=\"bpe-count\">(\d+)</td><td class=\"bpe-tokens\">(.*?)</td></tr>", table)
    assert [(word, count) for word, count, _ in rows] == [("low", "5"), ("lower", "2"), ("newest", "6"), ("widest", "3")]
    segmented = {word: re.findall(r">([^<>]+)</span>", chips) for word, _, chips in rows}
    assert segmented["low"] == ["l", "ow"] and segmented["newest"] == ["n", "e", "w", "est"]


def reads_as(at) -> str | None:
    """The corpus's "Reads as ..." line (shown only with Wikipedia-style names), as plain text."""
    found = re.search(r'<p class="bpe-reads-as">.*?</p>', after_merge(html_with(at, "bpe-tokens")))
    return plain(found.group()) if found else None


def test_wikipedia_example_reads_zabdzabac_then_zydzyac_then_xdxac():
    at = open_page(TRAIN, preset="wikipedia", step="1")
    readings = [reads_as(at)]
    for _ in range(2):
        at.button(key="w.next.main").click().run()
        readings.append(reads_as(at))
    assert readings == ["Reads as ZabdZabac", "Reads as ZYdZYac", "Reads as XdXac"]
    assert "X = ZY = aaab" in narration(at)
    at.toggle(key="w.names").set_value(False).run()
    assert reads_as(at) is None
    assert at.query_params["names"] == "0"


def test_a_shared_link_reproduces_the_step_and_settings():
    at = open_page(TRAIN, preset="sennrich-paper", step="3", tie="first-seen")
    assert "Merge 3 of 10: est + </w> → est</w>" in narration(at)
    assert step_slider(at).value == 3
    assert at.selectbox(key="w.source").value == "sennrich-paper"
    assert dict(at.query_params) == {"preset": "sennrich-paper", "step": "3"}


def test_a_link_can_change_settings():
    at = open_page(TRAIN, preset="sennrich", tie="lexicographic-min", step="3")
    assert at.selectbox(key="w.tie").value == "lexicographic-min"
    assert "lexicographic-min rule" in narration(at)


@pytest.mark.parametrize(
    "query, warning",
    [
        ({"preset": "gpt5"}, "unknown example 'gpt5'"),
        ({"preset": "sennrich", "step": "abc"}, "step must be a whole number"),
        ({"preset": "sennrich", "step": "99"}, "training stopped after 10 merges"),
        ({"preset": "sennrich", "pretok": "regex:("}, "not a valid regex"),
    ],
    ids=["unknown preset", "step not a number", "step past the end", "bad regex"],
)
def test_bad_links_warn_and_fall_back_without_a_traceback(query, warning):
    at = open_page(TRAIN, **query)
    assert not at.exception and not errors(at)
    assert any(warning in element.value for element in at.warning), [w.value for w in at.warning]


def test_the_step_survives_switching_pages():
    at = open_page(TRAIN, preset="sennrich", step="4")
    at.switch_page(VOCAB).run()
    assert at.slider(key="w.step.vocab").value == 4
    at.switch_page(TRAIN).run()
    assert "Merge 4 of 10" in narration(at)


def test_stepping_never_retrains(monkeypatch):
    import ui.training

    calls = []
    real_train = ui.training.train
    monkeypatch.setattr(ui.training, "train", lambda *a, **k: calls.append(1) or real_train(*a, **k))
    at = open_page(TRAIN, preset="sennrich")
    for _ in range(4):
        at.button(key="w.next.main").click().run()
    at.switch_page(ENCODE).run()
    assert len(calls) == 1


def test_an_invalid_regex_is_an_error_on_the_page_and_the_text_is_kept():
    at = open_page(TRAIN, preset="own-text")
    at.text_area(key="w.own_text").set_value("my own words, my own words").run()
    at.selectbox(key="w.pretok").set_value("custom regex").run()
    at.text_input(key="w.regex").set_value("(unclosed").run()
    assert not at.exception
    assert any("not a valid regex" in message for message in errors(at))
    assert at.text_area(key="w.own_text").value == "my own words, my own words"
    at.text_input(key="w.regex").set_value(r"\w+").run()
    assert not errors(at) and "Before any merge" in narration(at)


def test_a_vocabulary_size_below_the_base_is_explained():
    at = open_page(TRAIN, preset="sennrich", vocab="100")
    assert not at.exception
    assert any("below the base vocabulary" in message for message in errors(at))


def test_own_text_is_trained_on_and_hostile_markup_is_only_text():
    at = open_page(TRAIN, preset="own-text")
    hostile = "<script>alert(1)</script> <img src=x onerror=alert(2)> <script>alert(1)</script>"
    at.text_area(key="w.own_text").set_value(hostile).run()
    assert not at.exception and not errors(at)
    corpus = html_with(at, "bpe-tokens\"><span")
    assert "<script" not in corpus and "<img" not in corpus
    chips = re.search(r'<div class="bpe-tokens">(.*?)</div>', corpus).group(1)
    assert plain(chips) == hostile.replace(" ", "·")  # every character shown, as text


def test_a_text_handed_in_folds_the_corpus_box_once_it_trains_so_its_step_is_on_the_first_screen():
    at = open_page(TRAIN, preset="own-text")
    assert at.expander[0].label == "Corpus" and at.expander[0].proto.expanded  # open for your own text
    at.text_area(key="w.own_text").set_value("banana bandana banana band").run()
    assert not at.exception and "Merge" in narration(at)
    assert not at.expander[0].proto.expanded
    at.button(key="w.next.main").click().run()
    assert not at.expander[0].proto.expanded  # folded for good, until the learner opens it


def test_an_uploaded_text_file_becomes_the_corpus_and_its_note_stays_in_sight_once_the_box_folds():
    at = open_page(TRAIN, preset="own-text")
    at.file_uploader(key="w.upload").set_value(("notes.txt", "banana bandana banana".encode(), "text/plain")).run()
    assert not at.exception
    assert at.session_state["bpe.own_text"] == "banana bandana banana"
    assert "banana" in plain(html_with(at, "bpe-tokens\"><span"))
    box = at.expander[0]
    assert box.label == "Corpus" and not box.proto.expanded  # it trained, so the box folded...
    assert [note.value for note in at.success] == ["Loaded notes.txt."] and not box.success  # ...and the note is under it
    at.button(key="w.next.main").click().run()
    assert [note.value for note in at.success] == ["Loaded notes.txt."]  # while the file sits in the uploader
    at.file_uploader(key="w.upload").set_value(None).run()
    assert not at.success  # the file taken out: its note goes with it


def test_an_invalid_word_table_is_an_error_not_a_crash():
    at = AppTest.from_file(APP, default_timeout=APPTEST_TIMEOUT_S)
    at.session_state["bpe.own_table"] = [("low", 5), ("", 3)]
    at.query_params["preset"] = "own-table"
    at.switch_page(TRAIN).run()
    assert not at.exception
    assert any("is empty" in message for message in errors(at))
    (editor,) = at.dataframe  # the editor is still there, holding the rows to fix
    assert editor.value.values.tolist() == [["low", 5], ["", 3]]


# -- encode & decode ------------------------------------------------------------------------------
def test_encode_walkthrough_applies_merges_by_rank():
    at = open_page(ENCODE, preset="sennrich", step="5")
    walk = plain(html_with(at, "bpe-walk"))
    assert "chunk “·lowest”" in walk
    assert "merge 1: s + t → st (at 5)" in walk and "merge 2: e + st → est (at 4)" in walk
    assert walk.index("merge 1:") < walk.index("merge 2:") < walk.index("merge 5:")


def test_encoding_shows_colored_tokens_and_their_ids():
    at = open_page(ENCODE, preset="sennrich", step=10)
    at.text_area(key="w.encode_text").set_value(" lowest").run()
    ids = at.code[0].value
    assert ids == "260, 257"  # " low" is merge 5 (id 260), "est" merge 2 (257): SENNRICH_TOKENS
    chips = html_with(at, "bpe-tokens")
    assert "title=\"id" in chips


def test_decoding_half_a_character_shows_replacement_or_a_clear_error():
    at = open_page(ENCODE, preset="sennrich")
    at.button[[b.label for b in at.button].index("Try half a character (e2 82)")].click().run()
    assert at.text_input(key="w.decode_ids").value == "226, 130"
    assert plain(html_with(at, "bpe-hex")) == "‹e2›‹82›"
    assert any("\ufffd" in code.value for code in at.code)
    assert any("U+FFFD" in info.value for info in at.info)
    at.radio(key="w.decode_errors").set_value("strict").run()
    assert any("not valid UTF-8" in message for message in errors(at))
    assert not at.exception


def test_decoding_an_unknown_id_is_a_clear_error():
    at = open_page(ENCODE, preset="sennrich")
    at.text_input(key="w.decode_ids").set_value("104, 99999").run()
    assert any("unknown token id 99999" in message for message in errors(at))
    at.text_input(key="w.decode_ids").set_value("104, lots").run()
    assert any("cannot read 'lots'" in message for message in errors(at))


def test_special_tokens_allowed_disallowed_and_plain():
    at = open_page(ENCODE, preset="own-text")
    at.text_area(key="w.special").set_value("<|endoftext|>").run()
    at.text_area(key="w.encode_text").set_value("the end<|endoftext|>the start").run()
    assert any('class="bpe-tok bpe-special"' in element.value for element in at.html)
    at.radio(key="w.special_mode").set_value("disallowed").run()
    assert any("contains the special token `<|endoftext|>`" in message for message in errors(at))
    assert not at.exception
    at.radio(key="w.special_mode").set_value("plain").run()
    assert not errors(at)
    assert not any('class="bpe-tok bpe-special"' in element.value for element in at.html)


# -- vocabulary -----------------------------------------------------------------------------------
def test_vocabulary_lists_tokens_with_their_step_and_draws_a_merge_tree():
    at = open_page(VOCAB, preset="wikipedia", step="3")
    table = at.dataframe[0].value
    row = table.set_index("id").loc[258]
    assert (row["token"], row["bytes (hex)"], row["created at step"], row["count then"]) == ("aaab", "61 61 61 62", 3, "2")
    base = table.set_index("id").loc[0]  # a base byte: there from step 0, made by no pair; never Python's None
    assert (base["token"], base["created at step"], base["count then"]) == ("‹NUL›", 0, "–")
    (tree,) = at.get("graphviz_chart")
    assert 'label=<X = aaab<BR/><FONT POINT-SIZE="11">id 258 · step 3</FONT>>' in tree.proto.spec
    at.text_input(key="w.vocab_query").set_value("aa").run()
    assert set(at.dataframe[0].value["id"]) >= {256, 258}
    assert len(at.get("vega_lite_chart")) == 1  # the length histogram


# -- the merge, seen: honest words on the page ----------------------------------------------------
def test_changing_the_tie_rule_says_from_which_merge_the_run_now_differs():
    at = open_page(TRAIN, preset="sennrich", step="2")
    assert not at.info
    at.selectbox(key="w.tie").set_value("first-seen").run()
    notices = [element.value for element in at.info]
    assert "Retrained with tie-break first-seen: merges now differ from merge 1 on (was s + t, now e + s)." in notices
    at.button(key="w.next.main").click().run()  # it stays up while the learner steps through the new run
    assert any("Retrained with tie-break first-seen" in notice for notice in (e.value for e in at.info))
    at.selectbox(key="w.source").set_value("wikipedia").run()  # another example is not a retrain
    assert not any("Retrained" in element.value for element in at.info)


def test_an_early_stop_is_said_at_step_zero_and_the_last_step_shows_the_counts_that_stopped_it():
    at = open_page(TRAIN, preset="wikipedia", merges="30")
    assert "Training stopped after 3 of the 30 merges asked for" in narration(at)
    at.button(key="w.last.main").click().run()
    stop = plain(html_with(at, "bpe-stop"))
    assert "After the last merge the best pairs are" in stop and "(once)" in stop
