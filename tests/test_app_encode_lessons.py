"""The Encode & decode page's lessons on applying merges, headless: the walkthrough's rule and what
left to right would make of each chunk, where each token starts, the text cut three ways, and ids
streamed one at a time."""

from __future__ import annotations

from .apptest_support import ENCODE, html_with, open_page, plain


def gpt2_page(text: str, *opened: str):
    at = open_page(ENCODE, preset="sennrich", step="10")
    at.selectbox(key="w.encode_with").set_value("gpt2").run()
    at.text_area(key="w.encode_text").set_value(text).run()
    for key in opened:  # an expander's state, as a click on it sets it
        at.session_state[key] = True
    return at.run()


def test_the_walkthrough_says_its_rule_and_shows_left_to_right_beside_it_on_request():
    at = gpt2_page(" lowest newest widest")
    assert any("the merge learned earliest (the lowest rank) first" in caption.value for caption in at.caption)
    assert "left to right would give" not in html_with(at, 'class="bpe-walk"')
    at.toggle(key="w.walk_left_to_right").set_value(True).run()
    walk = plain(html_with(at, 'class="bpe-walk"'))
    # GPT-2: " widest" is one token by rank; the first known pair met, again and again, makes three
    assert walk.count("left to right would give (") == 3 and "left to right would give (3 tokens, not BPE's 1)·wid" in walk


def test_the_text_cut_three_ways_shows_counts_and_marks_the_tokens_bpe_does_not_make():
    at = gpt2_page(" recursively\nyield", "bpe-segments")
    table = html_with(at, 'class="bpe-segments"')
    rows = [plain(row) for row in table.split("<tr>")[1:]]
    assert rows[0].startswith("BPE's own6 tokens") and "·rec" in rows[0]
    assert rows[1].startswith("Fewest tokens5 tokens (1 fewer)") and "·recursive" in rows[1]
    assert rows[2].startswith("Longest match6 tokens") and "yi" in rows[2]
    assert table.count('class="bpe-differs"') == 7  # ·recursive, ly twice; yi, el, d
    assert any("Why a model must be fed BPE's own" in caption.value for caption in at.caption)


def test_where_each_token_starts_is_decode_with_offsets():
    at = gpt2_page("😀!", "bpe-offsets")
    frame = next(df.value for df in at.dataframe if "starts at character" in df.value.columns)
    assert list(frame["starts at character"]) == [0, 0, 1]  # the emoji's second token starts inside it


def test_streaming_ids_one_at_a_time_shows_the_replacement_and_the_held_bytes():
    at = gpt2_page("我!", "bpe-stream")
    frame = next(df.value for df in at.dataframe if "held back" in df.value.columns)
    assert list(frame["decoded alone"]) == ["\ufffd", "\ufffd", "!"]
    assert list(frame["the buffered decoder adds"]) == ["(nothing yet)", "我", "!"]
    assert list(frame["held back"]) == ["e6 88", "—", "—"]


def test_ids_that_split_no_character_offer_an_emoji_to_stream():
    at = gpt2_page("hello", "bpe-stream")
    at = at.button(key="w.decode_stream_sample").click().run()
    frame = next(df.value for df in at.dataframe if "held back" in df.value.columns)
    assert "—" != frame["held back"][0] and "\ufffd" in list(frame["decoded alone"])


def test_where_the_three_cuts_agree_the_page_says_why_and_cuts_a_text_where_they_part():
    at = open_page(ENCODE, preset="sennrich", step="10")
    at.session_state["bpe-segments"] = True
    at.run()
    (said,) = [info.value for info in at.info if "the three cuts agree" in info.value]
    assert "trained on" in said and "They part on “nest”" in said
    parted = [markup for markup in (element.value for element in at.html) if 'class="bpe-segments"' in markup]
    assert len(parted) == 2 and 'class="bpe-differs"' in parted[1] and 'class="bpe-differs"' not in parted[0]
    at.button(key="w.segments.use").click().run()
    assert at.text_area(key="w.encode_text").value == "nest"
    assert not [info.value for info in at.info if "the three cuts agree" in info.value]  # now they part on the text itself


def test_encode_and_vocabulary_health_opened_bare_show_the_example_trained_and_keep_a_chosen_step():
    from streamlit.testing.v1 import AppTest

    from .apptest_support import APP

    for page in (ENCODE, "pages/14_Vocabulary_health.py"):
        at = AppTest.from_file(APP, default_timeout=60).run()  # a fresh session, then the sidebar's link
        at.switch_page(page).run()
        assert not at.exception and at.session_state["bpe.lab"].step == 10, page  # Sennrich's ten merges
    seen = open_page("pages/1_Train.py", preset="sennrich", step="0")  # a run the learner has seen, at step 0: kept
    seen.query_params.clear()  # the sidebar's link clears the query
    seen.switch_page(ENCODE).run()
    assert seen.session_state["bpe.lab"].step == 0
