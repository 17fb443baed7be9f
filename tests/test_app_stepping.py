"""Stepping, headless (AppTest): the Train page's "why" as a setting that stays, a long corpus drawn
as a window around the merge, and the Encode page's merge walk on PageDown / PageUp."""

import re

from .apptest_support import ENCODE, TRAIN, html_with, narration, open_page, plain, stat

WHY = "The lexicographic-max rule prefers"  # merge 3 of Sennrich: a three-way tie


def test_why_is_shown_until_hidden_and_then_stays_hidden_across_steps_and_in_the_link():
    at = open_page(TRAIN, preset="sennrich", step="3")
    assert WHY in narration(at)
    at.button(key="w.why.main").click().run()
    assert WHY not in narration(at) and at.query_params["why"] == "0"
    for merge in (4, 5, 6):
        at.button(key="w.next.main").click().run()
        assert f"Merge {merge} of 10" in narration(at)
        assert "pairs share that count" not in narration(at) and "more than any other pair" not in narration(at)
    at.button(key="w.why.main").click().run()
    assert "occurs" in narration(at) and "why" not in at.query_params


def test_a_link_with_why_0_opens_with_the_why_hidden_and_the_button_offers_it():
    at = open_page(TRAIN, preset="sennrich", step="3", why="0")
    assert WHY not in narration(at)
    assert at.button(key="w.why.main").label == "Why"


def test_a_python_docs_step_draws_a_window_of_the_corpus_around_the_merge_and_more_on_request():
    at = open_page(TRAIN, preset="python-docs", step="500")
    corpus = html_with(at, "bpe-merge-view")
    assert len(re.findall(r'class="bpe-tok', corpus)) < 800  # both moments; the whole text has 179,000 tokens
    note = re.search(r"Showing characters ([\d,]+) to ([\d,]+) of 465,\d{3}, around merge 500's first place", plain(corpus))
    assert note, plain(corpus)[-300:]
    assert "·using" in plain(corpus.split('class="bpe-layer bpe-after"', 1)[1])  # merge 500 made ·using, and it is drawn
    at.button(key="w.corpus_more").click().run()
    wider = html_with(at, "bpe-merge-view")
    assert len(re.findall(r'class="bpe-tok', wider)) > 3 * len(re.findall(r'class="bpe-tok', corpus))


def test_a_corpus_shorter_than_the_window_is_drawn_whole_without_a_show_more():
    at = open_page(TRAIN, preset="sennrich", step="3")
    assert "Showing characters" not in plain(html_with(at, "bpe-merge-view"))
    assert not [button for button in at.button if button.key == "w.corpus_more"]


def walk_line(at) -> str:
    return plain(html_with(at, "bpe-walk-line").split('<div class="bpe-tokens">')[0])


def test_the_encode_page_walks_the_text_one_merge_at_a_time_on_pagedown_and_back_on_pageup():
    at = open_page(ENCODE, preset="sennrich", step="10", text=" lowest newest")
    assert stat(at, "Tokens") == "3" and not [e for e in at.html if "bpe-walk-line" in e.value]  # all merges applied
    assert at.button(key="w.walk.next").proto.shortcut == "pagedown" and at.button(key="w.walk.prev").proto.shortcut == "pageup"
    at.button(key="w.walk.next").click().run()  # from the tokens, PageDown starts the walk at the bytes
    assert walk_line(at) == "Step 0 of 9 · the text before any merge: 14 bytes"
    at.button(key="w.walk.next").click().run()
    assert walk_line(at) == "Step 1 of 9 · merge 1: s + t → st, at 2 places"
    assert len(re.findall(r'class="bpe-tok[^"]*bpe-new"', html_with(at, "bpe-new"))) == 2  # both new tokens outlined
    at.button(key="w.walk.prev").click().run()
    assert walk_line(at).startswith("Step 0 of 9")
    for _ in range(9):
        at.button(key="w.walk.next").click().run()
    assert not [e for e in at.html if "bpe-walk-line" in e.value]  # the last merge: back to the tokens and their ids


def test_a_page_switch_from_the_sidebar_keeps_the_example_the_step_and_presenter_mode():
    at = open_page(TRAIN, preset="sennrich", tie="hf", step="3", present="1")
    assert (at.session_state["bpe.lab"].source, at.session_state["bpe.lab"].step) == ("sennrich", 3)
    at.query_params.clear()  # a sidebar page link sends an empty query string
    at.switch_page(ENCODE).run()
    lab = at.session_state["bpe.lab"]
    assert not at.exception
    assert (lab.source, lab.tie_break, lab.step, at.session_state["bpe.present"]) == ("sennrich", "hf", 3, True)
    assert (at.query_params["step"], at.query_params["preset"]) == ("3", "sennrich")  # written back
