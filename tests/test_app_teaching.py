"""The teaching pages (quiz, tie-break lab, counting, pre-tokenization, bytes), presenter mode and
the guided tour, run headless with Streamlit's AppTest."""

import html
import json
import re
from urllib.parse import urlencode

import pytest
from streamlit.testing.v1 import AppTest

from bpe.teaching.counting import count_pair, pairs_present, symbols_of
from bpe.teaching.tie_lab import tie_lab_for_preset
from bpe.teaching.tour import TOUR
from ui.page_css import PRESENTER_ROOT_PX

from .apptest_support import TRAIN, html_with, open_page, page_markup, plain, stat, unescape_markdown

QUIZ = "pages/4_Predict_the_next_merge.py"
TIE_LAB = "pages/5_Tie_break_lab.py"
COUNTING = "pages/6_Counting_lab.py"
PRETOK = "pages/7_Pre-tokenization_lab.py"
BYTES = "pages/8_Byte_inspector.py"
PRESENTER_ROOT = f"html {{ font-size: {PRESENTER_ROOT_PX}px !important; }}"
HOSTILE = "<script>alert(1)</script><img src=x onerror=alert(2)>"


def texts(elements) -> list[str]:
    return [unescape_markdown(element.value) for element in elements]


def metric(at: AppTest, label: str) -> str:
    return next(m.value for m in at.metric if m.label == label)


def answer_key(at: AppTest, label: str) -> str:
    """The key of the quiz's answer button for the pair spelled ``label`` (``'a' + 'b'``)."""
    return next(
        b.key for b in at.button
        if b.key and b.key.startswith("w.quiz.answer.") and re.sub(r"^\d\. ", "", unescape_markdown(b.label)) == label
    )


# -- every teaching page (each also renders on its own: test_app_pages.py) ---------------------------
@pytest.mark.parametrize("page", [QUIZ, TIE_LAB], ids=["quiz", "tie lab"])
@pytest.mark.parametrize("preset", ["sennrich", "cs336", "sennrich-paper", "hf-course", "own-text", "own-table"])
def test_the_quiz_and_tie_lab_work_on_every_example(page, preset):
    at = open_page(page, preset=preset, step="2")
    assert not at.exception and not at.error


@pytest.mark.parametrize("page, shown", [
    (COUNTING, HOSTILE.replace(" ", "·")),
    (PRETOK, HOSTILE.replace(" ", "·")),
    (BYTES, "<U+003C3c<sU+007373s"),  # one cell per character: the character, its code point, its byte
], ids=["counting lab", "pre-tokenization lab", "byte inspector"])
def test_hostile_text_from_a_link_is_shown_as_text(page, shown):
    at = open_page(page, text=HOSTILE, left="<", right="s")
    assert not at.exception
    for markup in page_markup(at):
        assert "<script" not in markup and "<img" not in markup
    assert any(shown in plain(element.value) for element in at.html)


# -- predict the next merge -----------------------------------------------------------------------
def test_the_quiz_scores_a_right_answer_then_a_wrong_one_and_moves_on():
    at = open_page(QUIZ, preset="wikipedia", step="1")
    assert "After 1 merge, which pair does merge 2 join?" in [s.value for s in at.header]
    assert not [b for b in at.button if b.key and b.key.startswith("w.quiz.answer.") and b.disabled]

    at.button(key=answer_key(at, "'a' + 'b'")).click().run()
    (verdict,) = texts(at.success)
    assert verdict.startswith("Right: 'a' + 'b' occurs 2 times and merge 2 makes 'ab'")
    assert "tie between 2 pairs" in verdict and "lexicographic-min rule picks 'a' + 'b'" in verdict
    counts = html_with(at, "merged next")
    assert re.search(r"&#x27;a&#x27; \+ &#x27;b&#x27;</span></td><td class=\"bpe-num\">2</td><td>merged next · your pick<", counts)
    score = at.session_state["bpe.quiz_score"]
    assert (score.answered, score.correct, score.streak) == (1, 1, 1)
    assert stat(at, "Right") == "1"
    assert all(b.disabled for b in at.button if b.key and b.key.startswith("w.quiz.answer."))  # one answer per question

    at.button(key="w.quiz.next").click().run()
    assert at.session_state["bpe.lab"].step == 2 and at.query_params["step"] == "2"
    at.button(key=answer_key(at, "'a' + 'c'")).click().run()
    (verdict,) = texts(at.error)
    assert verdict.startswith("Not this one: 'a' + 'c' occurs 1 time, but 'aa' + 'ab' occurs 2 times")
    score = at.session_state["bpe.quiz_score"]
    assert (score.answered, score.correct, score.streak, score.best_streak) == (2, 1, 0, 1)


def test_picking_the_tied_pair_that_loses_the_tie_break_is_almost_right():
    at = open_page(QUIZ, preset="wikipedia", step="1")
    at.button(key=answer_key(at, "'aa' + 'a'")).click().run()
    (verdict,) = texts(at.warning)
    assert verdict.startswith("Right count, but the tie-break picks 'a' + 'b'")
    assert "because its byte strings are the smallest" in verdict
    assert at.session_state["bpe.quiz_score"].right_count == 1


def test_the_quiz_at_the_last_merge_says_why_training_stopped_and_can_start_again():
    at = open_page(QUIZ, preset="wikipedia", step="3")
    assert any("no next merge" in info.value.lower() or "stopped" in info.value for info in at.info)
    at.button(key="w.quiz.restart").click().run()
    assert at.session_state["bpe.lab"].step == 0
    assert "Before any merge, which pair does merge 1 join?" in [s.value for s in at.header]


def test_the_quiz_shares_the_step_with_the_train_page():
    at = open_page(TRAIN, preset="sennrich", step="4")
    at.switch_page(QUIZ).run()
    assert "After 4 merges, which pair does merge 5 join?" in [s.value for s in at.header]


# -- tie-break lab --------------------------------------------------------------------------------
def test_tie_lab_shows_wikipedia_parting_ways_at_merge_2_and_ending_the_same():
    at = open_page(TIE_LAB)
    assert at.selectbox(key="w.tie_preset").value == "wikipedia"
    assert metric(at, "First disagreement") == "merge 2"
    assert metric(at, "Final segmentation") == "the same"
    (story,) = texts(at.info)
    assert story.startswith("At merge 2, 'aa' + 'a' and 'a' + 'b' both occur 2 times.")
    learned = unescape_markdown(next(m.value for m in at.markdown if "learn" in m.value and "first-seen" in m.value))
    lines = learned.splitlines()
    assert [re.findall(r"\*\*([a-z-]+)\*\*", line.split(" learn")[0]) for line in lines] == tie_lab_for_preset("wikipedia").groups()
    assert lines[0].startswith("- **first-seen** (minbpe), **lexicographic-max** (Stanford CS336)")
    assert re.search(r"learns?: `aa`.*`aaa`.*`aaab`", lines[0])
    assert re.search(r"lexicographic-min.*`aa`.*`ab`.*`aaab` \('aa' \+ 'ab'\)", lines[1])

    table = html_with(at, "bpe-tie-table")
    rows = re.findall(r"<tr( class=\"bpe-differ\")?><td class=\"bpe-num\">(\d+)</td>", table)
    assert [(step, bool(differ)) for differ, step in rows] == [("1", False), ("2", True), ("3", True)]
    segmentations = [plain(e.value) for e in at.html if e.value.startswith('<div class="bpe-tokens">')]
    assert segmentations == ["aaabdaaabac"]  # one row: every rule segments alike
    assert "aaab" in [plain(chip) for chip in re.findall(r"<span class=\"bpe-tok[^\"]*\".*?</span>", html_with(at, "data-id"))]


def test_tie_lab_reads_the_example_from_the_link_and_warns_on_an_unknown_one():
    at = open_page(TIE_LAB, preset="sennrich")
    assert at.selectbox(key="w.tie_preset").value == "sennrich" and metric(at, "Final segmentation") == "differs"
    at = open_page(TIE_LAB, preset="gpt5")
    assert not at.exception and any("preset must be one of sennrich" in unescape_markdown(w.value)
                                    and "got 'gpt5': using wikipedia" in unescape_markdown(w.value) for w in at.warning)


# -- counting lab ---------------------------------------------------------------------------------
def test_counting_lab_counts_aaaa_three_times_but_replaces_twice():
    at = open_page(COUNTING, text="aaaa", left="a", right="a")
    assert (stat(at, "Counted (with overlap)"), stat(at, "Replaced by one merge")) == ("3", "2")
    counted = html_with(at, "bpe-join")
    assert re.findall(r'class="bpe-join bpe-join-(\w+)"[^>]*>(\d)<', counted) == [
        ("replaced", "1"), ("overlap", "2"), ("replaced", "3"),
    ]
    merged = html_with(at, "bpe-merged")
    assert [plain(chip) for chip in re.findall(r"<span class=\"bpe-tok[^\"]*\".*?</span>", merged)] == ["aa", "aa"]
    assert dict(at.query_params) == {"text": "aaaa", "left": "a", "right": "a"}


MIXED = "aaaa banana"
"""A text with a pair whose occurrences overlap (a + a) and pairs whose occurrences never do."""


MIXED_SYMBOLS = symbols_of(MIXED, unit="char")
MIXED_SPELLED = {symbol.id: symbol.text for symbol in MIXED_SYMBOLS}


@pytest.mark.parametrize("pair", [
    (MIXED_SPELLED[p.left], MIXED_SPELLED[p.right]) for p in pairs_present(MIXED_SYMBOLS)
], ids=repr)
def test_counting_lab_says_fewer_only_for_a_pair_whose_occurrences_overlap(pair):
    at = open_page(COUNTING, text=MIXED, left=pair[0], right=pair[1])
    tally = count_pair(MIXED, pair, unit="char")
    heading = at.header[1].value
    (story,) = [text for text in texts(at.markdown) if text.startswith("The pair ")]
    if tally.overlapped:
        assert heading.startswith("But one merge of") and heading.endswith("replaces fewer")
        assert f"replaces it only **{tally.replacements}** time" in story
    else:
        assert heading.endswith("replaces every occurrence") and "fewer" not in heading
        assert "only" not in story and "so the two numbers agree" in story
        assert f"counted **{tally.count}** time" in story and tally.count == tally.replacements


def test_counting_lab_example_buttons_and_pair_inputs_update_the_tally():
    at = open_page(COUNTING)
    at.button(key="w.count_example.aaabdaaabac").click().run()
    assert stat(at, "Counted (with overlap)") == "4" and stat(at, "Replaced by one merge") == "2"
    at.text_input(key="w.count_left").set_value("b").run()
    at.text_input(key="w.count_right").set_value("d").run()
    assert stat(at, "Counted (with overlap)") == "1"


def test_counting_lab_explains_a_symbol_that_is_not_in_the_text():
    at = open_page(COUNTING, text="aaaa", left="ab", right="a")
    assert not at.exception
    assert any("is not one char symbol of this text" in message for message in texts(at.error))
    assert at.text_area(key="w.count_text").value == "aaaa"


# -- pre-tokenization lab -------------------------------------------------------------------------
def split_row(at: AppTest, label: str) -> list[str]:
    table = html_with(at, "bpe-lab-table")
    row = re.search(rf'<th scope="row">{re.escape(label)}</th><td>(.*?)</td>', table).group(1)
    return [plain(chip) for chip in re.findall(r"<span class=\"bpe-tok[^\"]*\".*?</span>", row)]


def test_pre_tokenization_lab_gpt4_cuts_1234567_into_threes():
    at = open_page(PRETOK)
    long_numbers = next(b for b in at.button if b.label == "Long numbers")
    long_numbers.click().run()
    assert at.text_area(key="w.pretok_text").value == "1234567"
    assert split_row(at, "GPT-4") == ["123", "456", "7"]
    assert split_row(at, "GPT-2") == ["1234567"]
    assert any("groups of three" in info for info in texts(at.info))


def test_pre_tokenization_lab_shows_tokens_spanning_words_without_a_pretokenizer():
    at = open_page(PRETOK)
    learned = [e.value for e in at.html if "bpe-merged" in e.value]
    assert any("newest·newest·" in plain(value) for value in learned)
    assert any("newest·newest·" in caption.value or "newest newest" in caption.value for caption in at.caption)


def test_a_bad_custom_regex_is_an_error_and_the_text_is_kept():
    at = open_page(PRETOK, text="keep me")
    at.text_input(key="w.pretok_regex").set_value("(unclosed").run()
    assert not at.exception
    assert any("not a valid regex" in message for message in texts(at.error))
    assert at.text_area(key="w.pretok_text").value == "keep me"
    assert split_row(at, "GPT-2") == ["keep", "·me"]


# -- byte inspector -------------------------------------------------------------------------------
def test_byte_inspector_shows_a_space_as_g_with_a_dot():
    at = open_page(BYTES, text="a b")
    boxes = html_with(at, "bpe-bytes")
    assert 'bpe-g2 bpe-remapped">Ġ<' in boxes and ">20<" in boxes
    assert any("shows it as U+0120 'Ġ'" in unescape_markdown(m.value) for m in at.markdown)


def test_byte_inspectors_count_of_bytes_shown_differently_is_the_number_of_orange_stand_ins():
    at = open_page(BYTES, text="aaabdaaabac é € 🙂")  # three spaces, €'s 82, 🙂's 9f 99 82: in five characters
    orange = html_with(at, "bpe-bytes").count("bpe-remapped")
    assert orange == 7 and metric(at, "Bytes GPT-2 shows differently") == "7"


def test_byte_inspector_shows_why_half_a_character_decodes_as_replacement():
    at = open_page(BYTES)
    at.button(key="w.byte_example.e2 82").click().run()
    assert metric(at, "Decoded alone") == "\ufffd"
    (explanation,) = texts(at.warning)
    assert explanation.startswith("Not a whole character: 0xe2 starts a 3-byte character")
    at.text_input(key="w.byte_token").set_value("e2 8").run()
    assert any("not a whole number of bytes" in message for message in texts(at.error))
    at.text_input(key="w.byte_token").set_value("zz").run()
    assert any("'z' is not a hex digit" in message for message in texts(at.error))


# -- presenter mode -------------------------------------------------------------------------------
def test_presenter_mode_from_the_link_enlarges_type_and_chart_fonts_and_stays_in_the_url():
    at = open_page(TRAIN, preset="sennrich", step="3", present="1")
    assert at.session_state["bpe.present"] and at.toggle(key="w.present").value
    assert any(PRESENTER_ROOT in e.value for e in at.html)
    pairs = json.loads(at.get("vega_lite_chart")[0].proto.spec)
    assert '"labelFontSize": 22' in json.dumps(pairs)  # the pair labels: 14 px x 1.6
    assert at.query_params["present"] == "1" and at.query_params["step"] == "3"


def test_presenter_toggle_turns_on_and_off_and_keeps_the_example():
    at = open_page(TRAIN, preset="wikipedia", step="2")
    at.toggle(key="w.present").set_value(True).run()
    assert at.query_params["present"] == "1"
    assert at.session_state["bpe.lab"].step == 2
    at.button(key="w.leave_present").click().run()
    assert not at.session_state["bpe.present"] and "present" not in at.query_params
    assert not any(PRESENTER_ROOT in e.value for e in at.html)


def test_presenter_mode_survives_a_page_switch():
    at = open_page(TRAIN, preset="sennrich", present="1")
    at.switch_page(QUIZ).run()
    assert at.session_state["bpe.present"] and at.query_params["present"] == "1"


# -- the guided tour ------------------------------------------------------------------------------
def test_home_tour_links_each_step_to_its_page_with_its_parameters():
    at = open_page()
    links = [(link.proto.page, link.proto.query_string) for link in at.get("page_link")]
    for number, step in enumerate(TOUR, start=1):
        name = step.url_path().partition("?")[0]
        query = urlencode(step.link_params(number))  # with tour=<number>, for the page's tour bar
        assert (name, query) in links, (name, query)
    assert [h.value for h in at.header][0] == "A guided tour in five steps"


@pytest.mark.parametrize("step", TOUR, ids=[step.title for step in TOUR])
def test_each_tour_step_opens_its_page_set_up_as_the_step_says(step):
    at = open_page(step.page, **step.params)
    assert not at.exception and not at.error
    assert not [w.value for w in at.warning if "link" in w.value]
    if "text" in step.params:
        assert any(step.params["text"] in widget.value for widget in [*at.text_input, *at.text_area])
    if "step" in step.params:
        assert at.session_state["bpe.lab"].step == int(step.params["step"])
        assert not at.session_state["bpe.lab"].names  # 'aa' in every step, as the tour's text says (not Z on one page, aa on the next)
    if "left" in step.params:
        assert stat(at, "Counted (with overlap)") == "4"  # the tour's own claim: (a, a) four times


def test_the_counting_lab_first_lists_every_pair_and_its_count_then_the_overlap():
    at = open_page(COUNTING, text="aaabdaaabac", left="a", right="a")  # the tour's step 2
    pairs = html_with(at, "bpe-pair-counts")
    listed = [(plain(chips), count) for chips, count in re.findall(r'<span class="bpe-pair-chips">(.*?)</span><b class="bpe-pair-count">(\d+)</b>', pairs)]
    assert listed == [("aa", "4"), ("ab", "2"), ("bd", "1"), ("da", "1"), ("ba", "1"), ("ac", "1")]
    headings = [h.value for h in at.header]
    assert headings[0] == "Every pair of neighbours, counted" and headings[1].startswith("But one merge of")
    # the merged text numbers its new tokens, as its caption says (drawn by CSS from data-n)
    assert re.findall(r'bpe-made-number" data-n="(\d)"', html_with(at, "bpe-merged")) == ["1", "2"]


def answer_labels(at: AppTest) -> list[str]:
    return [b.label for b in at.button if b.key and b.key.startswith("w.quiz.answer.")]


def test_the_answers_order_is_the_learners_own_and_a_reload_of_their_link_keeps_it():
    first = open_page(QUIZ, preset="sennrich", step="2")
    seat = first.query_params["seat"]
    assert len(seat) == 8 and answer_labels(first)
    again = open_page(QUIZ, preset="sennrich", step="2", seat=seat)  # a reload: a new session on the same link
    assert answer_labels(again) == answer_labels(first)
    orders = {tuple(answer_labels(open_page(QUIZ, preset="sennrich", step="2", seat=f"s{n}"))) for n in range(8)}
    assert len(orders) > 1  # other learners, other orders


def test_the_clicker_reveals_the_answer_unscored_then_moves_on_and_back():
    at = open_page(QUIZ, preset="wikipedia", step="1")
    at.button(key="w.quiz.reveal").click().run()
    (shown,) = texts(at.info)
    assert shown.startswith("Merge 2 joins 'a' + 'b' (making 'ab'): it occurs 2 times. It was a tie")
    assert at.session_state["bpe.quiz_score"].answered == 0
    assert all(b.disabled for b in at.button if b.key and b.key.startswith("w.quiz.answer."))
    assert at.button(key="w.quiz.next").proto.shortcut == "pagedown"
    at.button(key="w.quiz.next").click().run()
    assert at.session_state["bpe.lab"].step == 2 and at.button(key="w.quiz.reveal").proto.shortcut == "pagedown"
    at.button(key="w.quiz.back").click().run()
    assert at.session_state["bpe.lab"].step == 1 and at.button(key="w.quiz.back").proto.shortcut == "pageup"
