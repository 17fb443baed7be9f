"""The clicker's lesson on every lesson page, headless (AppTest): where it is, what Next shows, and
the place kept in the link, so a reload or a shared link opens it. The keys themselves (PageDown
routed whatever holds the focus) are tested in Chromium: tests/test_browser_clicker.py."""

from __future__ import annotations

import re

import pytest

from bpe.app import pages
from bpe.teaching.pretokenization_lab import EXAMPLES as SPLIT_EXAMPLES
from bpe.teaching.why_tokenization import PHENOMENA

from .apptest_support import VOCAB, html_with, open_page, plain, stat

NEXT, PREVIOUS = "w.clicker.next", "w.clicker.previous"


def where(at) -> tuple[int, int, str]:
    """``(place, places, label)`` from the page's clicker marker (ui/clicker.py)."""
    marker = html_with(at, 'class="bpe-clicker"')
    place, places = (int(re.search(rf'data-{name}="(-?\d+)"', marker)[1]) for name in ("at", "count"))
    return place, places, plain(marker)


# page, the link it opens with, the parameter its place is kept in, that parameter after one Next
WALKS = [
    (pages.WHY, {"card": "spelling"}, "card", "numbers"),
    (pages.TIE_LAB, {"preset": "sennrich"}, "preset", "cs336"),
    (pages.COUNTING_LAB, {"text": "aaaa"}, "text", "aaabdaaabac"),
    (pages.PRETOKENIZATION_LAB, {"text": SPLIT_EXAMPLES[0].text}, "text", SPLIT_EXAMPLES[1].text),
    (pages.BYTE_INSPECTOR, {"bytes": "e2 82"}, "bytes", "82 ac"),
    (pages.COMPARE, {"preset": "sennrich"}, "text", "strawberry"),
    (pages.VOCABULARY, {"preset": "sennrich", "step": "10"}, "token", "265"),  # ·newest (264), then wi
]


@pytest.mark.parametrize("page, link, parameter, after", WALKS, ids=[walk[0].title for walk in WALKS])
def test_next_walks_the_pages_lesson_one_place_and_the_link_keeps_the_place(page, link, parameter, after):
    at = open_page(page.file, **link)
    place, places, _ = where(at)
    assert 0 <= place < places - 1 and not at.exception
    assert at.button(key=NEXT).proto.shortcut == "pagedown" and at.button(key=PREVIOUS).proto.shortcut == "pageup"
    at.button(key=NEXT).click().run()
    assert where(at)[0] == place + 1 and at.query_params[parameter] == after
    again = open_page(page.file, **{**link, parameter: after})  # the link, opened anew
    assert where(again)[0] == place + 1


def test_the_why_cards_walk_says_which_card_and_stops_at_the_last():
    at = open_page(pages.WHY.file, card=list(PHENOMENA)[-1])
    place, places, _ = where(at)
    assert (place, places) == (len(PHENOMENA) - 1, len(PHENOMENA))
    assert at.button(key=NEXT).disabled and not at.button(key=PREVIOUS).disabled
    assert 'data-end="That was the last card: PageUp goes back."' in html_with(at, 'class="bpe-clicker"')


def test_an_example_of_the_counting_lab_brings_its_most_counted_pair():
    at = open_page(pages.COUNTING_LAB.file, text="aaaa")
    at.button(key=NEXT).click().run()  # aaabdaaabac: a + a, four times
    at.button(key=NEXT).click().run()  # banana bandana: a + n, which never overlaps itself
    assert at.session_state["bpe.count_pair"] == ("a", "n")
    assert stat(at, "Counted (with overlap)") == "4" and stat(at, "Replaced by one merge") == "4"
    assert where(at)[2].startswith("Example 3 of 4: banana bandana")


def test_a_typed_text_is_none_of_the_lessons_places_and_next_goes_to_the_first():
    at = open_page(pages.COUNTING_LAB.file, text="hello")
    assert where(at)[:2] == (-1, 4) and at.button(key=PREVIOUS).disabled
    at.button(key=NEXT).click().run()
    assert at.session_state["bpe.count_text"] == "aaaa"


def test_a_link_to_an_example_of_the_pretokenization_lab_opens_its_lesson():
    example = SPLIT_EXAMPLES[2]
    at = open_page(pages.PRETOKENIZATION_LAB.file, text=example.text)
    assert any(example.lesson[:40] in info.value for info in at.info)


def test_vocabularys_next_token_past_the_step_learns_it():
    at = open_page(VOCAB, preset="sennrich", step="3")  # st, est, ow learned
    assert where(at)[0] == 1 and "token" not in at.query_params  # est = e + (s t): the biggest tree so far
    at.button(key=NEXT).click().run()
    assert at.session_state["bpe.lab"].step == 3 and at.query_params["token"] == "258"  # ow: learned already
    at.button(key=NEXT).click().run()
    assert at.session_state["bpe.lab"].step == 4 and at.query_params["token"] == "259"  # low: merge 4 learns it
    assert at.get("graphviz_chart")[0].proto.alt.startswith("Merge tree of 'low':")


def test_the_quizs_answer_shown_is_kept_in_the_link():
    at = open_page(pages.QUIZ.file, preset="wikipedia", step="1", seat="abc")
    assert where(at)[:2] == (2, 7)  # question 2 of 3, then its answer: 2 * step, of 2 * merges + 1
    at.button(key="w.quiz.reveal").click().run()
    assert at.query_params["reveal"] == "1" and where(at)[0] == 3
    again = open_page(pages.QUIZ.file, preset="wikipedia", step="1", seat="abc", reveal="1")
    assert where(again)[0] == 3 and again.info[0].value.startswith("Merge 2 joins")
    assert again.session_state["bpe.quiz_score"].answered == 0  # shown, not scored


# -- a press is never undone by the query string its rerun brings (ui/url.py) ------------------------------
def lagging(at, query: dict) -> None:
    """The query Streamlit's frontend sends with the next rerun: its React state, which can lag the
    address bar by the page's last write (benchmarks/clicker_presses.py traced presses sent so)."""
    at.query_params.clear()
    at.query_params.update(query)


def test_a_press_whose_rerun_brings_an_earlier_query_of_the_page_moves_on_and_writes_the_place():
    at = open_page(pages.WHY.file, card="spelling")
    at.button(key=NEXT).click().run()
    earlier = dict(at.query_params)  # the place after the first press
    at.button(key=NEXT).click().run()
    lagging(at, earlier)
    at.button(key=NEXT).click().run()
    assert where(at)[0] == 3 and at.query_params["card"] == list(PHENOMENA)[3]


def test_the_address_bar_is_written_even_when_the_lagging_query_already_names_the_place(monkeypatch):
    """PageUp back to the place the lagging query names: the address bar (one place on) must still be
    rewritten; comparing with the rerun's query alone left it one place off the lesson."""
    from streamlit.runtime.state.query_params import QueryParams

    written = []
    real = QueryParams.from_dict
    monkeypatch.setattr(QueryParams, "from_dict", lambda self, query: (written.append(dict(query)), real(self, query))[1])
    at = open_page(pages.WHY.file, card="spelling")
    at.button(key=NEXT).click().run()
    earlier = dict(at.query_params)
    at.button(key=NEXT).click().run()
    lagging(at, earlier)
    written.clear()
    at.button(key=PREVIOUS).click().run()
    assert where(at)[0] == 1 and written and written[-1]["card"] == list(PHENOMENA)[1]


def test_the_browsers_back_button_opens_the_earlier_query(monkeypatch):
    import ui.url
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    at = open_page(pages.WHY.file, card="spelling")
    at.button(key=NEXT).click().run()
    earlier = dict(at.query_params)
    at.button(key=NEXT).click().run()
    # Streamlit marks a rerun that the browser's back or forward sent (ScriptRunContext.is_history_navigation)
    monkeypatch.setattr(ui.url, "get_script_run_ctx", lambda: _history(get_script_run_ctx()))
    lagging(at, earlier)
    at.run()
    assert where(at)[0] == 1


def _history(ctx):
    ctx.is_history_navigation = True
    return ctx
