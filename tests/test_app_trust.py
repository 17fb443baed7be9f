"""Pages a learner can trust (headless, Streamlit's AppTest): no Python in the prose, and no stale ids.

:func:`jargon` reads everything a learner reads on a page: titles, Markdown, captions, alerts, HTML
and button labels (code spans excepted: the export page shows, as code, how to load a file in
Python). The sweep over every page file is in test_app_pages.py (one page run for all smoke checks).
"""

import json
import re
from types import SimpleNamespace

import pytest

from bpe.teaching.tie_lab import tie_lab_for_preset
from bpe.teaching.tour import TOUR
from bpe.views.exports import download_name
from bpe.views.labs import tie_table_html

from .apptest_support import ENCODE, VOCAB, open_page, plain, unescape_markdown

# What learner-facing text must never contain: a function call, a Python byte literal or escape,
# a keyword argument of the Python API, the command line's pattern prefix.
JARGON = {
    "function call": re.compile(r"\b[a-z_]+\(\)"),
    "byte literal": re.compile(r"(?<![\w'])b'"),
    "byte escape": re.compile(r"\\x[0-9a-f]{2}"),
    "keyword argument": re.compile(r"\b[a-z]+_[a-z_]+=|\berrors="),
    "CLI prefix": re.compile(r"'regex:'|\bregex:\S"),
}
CODE_SPAN = re.compile(r"`[^`]*`")  # marked as code: the export page shows how to load a file in Python


LEARNER_KINDS = ("title", "header", "subheader", "markdown", "caption", "info", "warning", "error", "success")


def learner_text(at) -> list[str]:
    texts = []
    for kind in LEARNER_KINDS:
        texts += [element.value for element in getattr(at, kind)]
    texts += [plain(element.value) for element in at.html if "<style>" not in element.value]
    texts += [button.label for button in at.button]
    return texts


def jargon(at) -> list[tuple[str, str]]:
    """Each piece of Python or command-line syntax in what a learner reads on the page: (kind, context).
    The sweep over every page is ``test_app_pages.test_every_page_renders_...``, which opens each
    page once for all of its smoke checks."""
    return [
        (what, text[max(match.start() - 40, 0):match.end() + 40])
        for text in map(lambda text: CODE_SPAN.sub("", text), learner_text(at))
        for what, pattern in JARGON.items() if (match := pattern.search(text))
    ]


def test_the_jargon_check_finds_each_kind_it_names():
    page = SimpleNamespace(**{kind: [] for kind in LEARNER_KINDS}, html=[], button=[])
    page.markdown = [SimpleNamespace(value=text) for text in (
        "call encode() first", "b'ab' is bytes", "a \\xe2 byte", "pass errors='replace'", "use regex:\\w+",
        "`train()` is code",  # a code span: allowed
    )]
    assert [kind for kind, _ in jargon(page)] == list(JARGON)


def test_an_empty_custom_split_pattern_in_the_sidebar_names_no_prefix():
    at = open_page("pages/1_Train.py", preset="own-text")
    at.selectbox(key="w.pretok").set_value("custom regex").run()
    at.text_input(key="w.regex").set_value("").run()
    said = " ".join(unescape_markdown(element.value) for element in at.error)
    assert "the custom split pattern is empty" in said and "regex:" not in said


def ids_shown(at) -> str:
    return at.code[0].value  # the encoded ids, in order


def test_decode_follows_encode_until_the_learner_types_other_ids():
    at = open_page(ENCODE, preset="sennrich", step="10")
    assert at.text_input(key="w.decode_ids").value == ids_shown(at)
    at.text_area(key="w.encode_text").set_value("lowest newest").run()
    assert at.text_input(key="w.decode_ids").value == ids_shown(at)  # followed the new text

    at.text_input(key="w.decode_ids").set_value("108, 111").run()
    at.text_area(key="w.encode_text").set_value("wider").run()
    assert at.text_input(key="w.decode_ids").value == "108, 111"  # typed ids stay
    at.button(key="w.decode_follow").click().run()  # "Use the ids encoded above"
    assert at.text_input(key="w.decode_ids").value == ids_shown(at)


def test_decode_never_reads_one_tokenizers_ids_with_another():
    at = open_page(ENCODE, preset="sennrich", step="10")
    at.text_input(key="w.decode_ids").set_value("265, 258").run()  # ids of ours
    at.selectbox(key="w.encode_with").set_value("gpt2").run()
    assert not at.exception
    assert at.text_input(key="w.decode_ids").value == ids_shown(at)  # GPT-2's own ids, not ours
    assert any("the same id is another token" in info.value for info in at.info)
    assert not any("half-finished character" in info.value for info in at.info)


# -- the guided tour --------------------------------------------------------------------------------
def tour_links(at) -> dict[str, str]:
    """The tour bar's links: label -> the page they open (Streamlit's page name)."""
    return {link.proto.label: link.proto.page for link in at.get("page_link") if "tour" in link.proto.label.lower()
            or link.proto.label.startswith("Next: ")}


@pytest.mark.parametrize("number", range(1, len(TOUR) + 1))
def test_each_tour_page_says_where_the_tour_is_and_leads_on(number):
    step = TOUR[number - 1]
    at = open_page(step.page, **step.link_params(number))
    assert not at.exception
    assert f"**Tour step {number} of {len(TOUR)}:** {step.title}" in [m.value for m in at.markdown]
    links = tour_links(at)
    if number < len(TOUR):
        following = TOUR[number]
        assert links == {f"Next: {following.title}": following.url_path().split("?")[0]}
    else:
        assert links == {"The tour is done. Next: why tokenization matters": "Why_tokenization_matters"}


def test_the_tours_last_step_opens_encode_with_every_merge_learned():
    at = open_page(ENCODE, **TOUR[-1].link_params(len(TOUR)))
    trace_steps = 3  # Wikipedia's "aaabdaaabac" learns aa, ab (or aaa), aaab: three merges
    assert at.session_state["bpe.lab"].step == trace_steps
    assert "no learned merge applies" not in " ".join(plain(h.value) for h in at.html)


def test_a_page_opened_without_the_tour_shows_no_tour_bar():
    at = open_page(TOUR[0].page, **TOUR[0].params)
    assert not any(m.value.startswith("**Tour step") for m in at.markdown)


@pytest.mark.parametrize("number", ["²", "٣", "0", "99", "one"])
def test_a_tour_link_with_a_number_that_is_no_step_shows_the_page_without_a_tour_bar(number):
    at = open_page(TOUR[0].page, **TOUR[0].params, tour=number)
    assert not at.exception
    assert not any(m.value.startswith("**Tour step") for m in at.markdown)


# -- links that cannot carry the learner's text ------------------------------------------------------
@pytest.mark.parametrize("preset, what", [("own-text", "text"), ("own-table", "word table")])
def test_a_link_to_someone_elses_own_text_says_the_text_is_not_in_it(preset, what):
    at = open_page("pages/1_Train.py", preset=preset, step="2", merges="5")
    said = [unescape_markdown(w.value) for w in at.warning]
    assert any(f"the sender's own {what} is not in the link" in w for w in said), said
    assert at.session_state["bpe.lab"].step == 2 and at.session_state["bpe.lab"].amount == 5  # what it can keep


def test_the_gallerys_own_text_card_is_not_taken_for_a_shared_link():
    at = open_page("pages/1_Train.py", preset="own-text")
    assert not [w.value for w in at.warning if "not in the link" in w.value]


def test_a_link_to_own_text_in_a_session_that_has_its_own_text_says_nothing():
    at = open_page("pages/1_Train.py", preset="own-text")
    at.session_state["bpe.own_text"] = "my own words, my own words"
    at.query_params["step"] = "1"  # the link, opened in this session from another page (a rerun is not a link)
    at.switch_page("pages/2_Encode_and_decode.py").run()
    assert at.session_state["bpe.lab"].step == 1  # it was read
    assert not [w.value for w in at.warning if "not in the link" in w.value]


# -- tables that open at the row that matters ---------------------------------------------------------
def test_the_tie_table_opens_at_the_first_disagreement():
    lab = tie_lab_for_preset("hf-course")
    assert lab.first_disagreement == 5  # first-seen and lexicographic-min part ways at merge 5
    table = tie_table_html(lab, limit=4)
    shown = [int(n) for n in re.findall(r'<tr[^>]*><td class="bpe-num">(\d+)</td>', table)]
    assert 5 in shown and shown[0] == 2
    assert '<tr class="bpe-differ"><td class="bpe-num">5</td>' in table
    assert "Merges 1 to 1 are the same under every rule" in plain(table)


def test_compares_run_diff_opens_at_the_first_difference():
    at = open_page("pages/9_Compare.py", preset="python-docs")  # first-seen beside its contrast, lexicographic-min
    assert "The merge lists first differ at merge 117" in [h.value for h in at.subheader]
    merges = at.dataframe[-1].value["merge"].tolist()
    assert 117 in merges and merges[0] == 112 and len(merges) <= 10  # all on screen, no scrolling
    assert any("merges 1 to 111 are the same in both runs" in c.value for c in at.caption)


# -- the Vocabulary page: columns that fit, readable trees, counts as text -----------------------------
@pytest.mark.parametrize("present, font", [(False, 14), (True, 20)], ids=["normal", "presenter"])
def test_vocabulary_shows_readable_trees_whole_step_numbers_and_the_chart_counts(present, font):
    query = {"present": "1"} if present else {}
    at = open_page(VOCAB, preset="sennrich", step="10", **query)
    columns = json.loads(at.dataframe[0].proto.columns)
    assert columns["created at step"]["label"] == "step" and columns["count then"]["label"] == "count"
    tree = at.get("graphviz_chart")[0].proto
    assert f"fontsize={font}," in tree.spec
    # The picture in words; the page opens on the run's biggest tree (the last merge's, 'wi', has two leaves).
    assert tree.alt.startswith("Merge tree of '·newest': '·newest' = '·' + 'newest' (merge 9); 'newest' = 'ne' + 'west' (merge 8);")
    lengths = [c.value for c in at.caption if c.value.startswith("How many tokens of each length")]
    assert lengths and "1 byte: 256" in lengths[0]  # the 256 base bytes, as the chart's first bar says


# -- feedback -------------------------------------------------------------------------------------------
def answer_labels(at) -> list[str]:
    """The quiz's answers as labelled, without their numbers ("2. 'a' + 'b'" -> "'a' + 'b'")."""
    return [re.sub(r"^\d\. ", "", b.label) for b in at.button if (b.key or "").startswith("w.quiz.answer.")]


def test_after_an_answer_the_quiz_buttons_mark_the_merged_pair_and_the_pick():
    at = open_page("pages/4_Predict_the_next_merge.py", preset="wikipedia", step="1")
    before = answer_labels(at)
    assert not any("—" in label for label in before)
    wrong = next(b for b in at.button if (b.key or "").startswith("w.quiz.answer.") and "'a' + 'b'" not in b.label)
    wrong.click().run()  # Wikipedia's merge 2 (lexicographic-min) joins 'a' + 'b'
    after = answer_labels(at)
    assert [label for label in after if label.endswith("— merged next")] == ["'a' + 'b' — merged next"]
    assert len([label for label in after if label.endswith("— your pick")]) == 1


def upload(at, name: str, data: bytes):
    return at.file_uploader(key="w.upload").set_value((name, data, "text/plain")).run()


def errors_said(at) -> str:
    return " ".join(unescape_markdown(e.value) for e in at.error)


def test_a_utf16_upload_is_named_as_such_and_its_refusal_stays_while_the_file_is_there():
    at = open_page("pages/1_Train.py", preset="own-text")
    upload(at, "notepad.txt", "low lower".encode("utf-16"))  # starts with the byte-order mark FF FE
    assert "notepad.txt is UTF-16 text" in errors_said(at) and "binary" not in errors_said(at)
    assert "Training still uses the text above" in errors_said(at)
    at.toggle(key="w.present").set_value(True).run()  # any other rerun, the file still in the uploader
    assert "notepad.txt is UTF-16 text" in errors_said(at)


def test_the_upload_and_merges_boxes_name_their_limits():
    at = open_page("pages/1_Train.py", preset="own-text")
    assert "at most 5 MB" in at.file_uploader(key="w.upload").proto.label  # bpe.limits.MAX_UPLOAD_MB
    assert at.number_input(key="w.amount").label == "Merges (at most 20,000)"  # bpe.limits.MAX_MERGES


@pytest.mark.parametrize("count, said", [(None, "the word 'new' in the word table has no count"),
                                         (0, "the count of 'new' must be a whole number of at least 1, got 0")])
def test_a_word_table_row_without_a_usable_count_says_so(count, said):
    at = open_page("pages/1_Train.py", preset="own-table")
    count_column = json.loads(at.dataframe[0].proto.columns)["count"]  # the word table's editor
    assert not count_column.get("required") and "min" not in json.dumps(count_column)
    at.session_state["bpe.own_table"] = [("low", 5), ("new", count)]  # what the editor now passes through
    at.run()
    assert said in errors_said(at)


def test_import_and_export_offers_the_whole_run_as_its_own_choice_and_step_0_is_bytes_only():
    at = open_page("pages/10_Import_and_export.py", preset="sennrich")
    assert at.session_state["bpe.lab"].step == 0
    said = [c.value for c in at.caption if c.value.startswith("The tokenizer after")]
    assert said == ["The tokenizer after 10 of this run's 10 merges: 266 tokens (byte-level, pre-tokenizer gpt2)."]
    assert at.toggle(key="w.export_whole").label == "All 10 merges (the whole run)"
    assert download_name("sennrich-step10", "tokenizer.json") == "sennrich-step10-tokenizer.json"
    at.toggle(key="w.export_whole").set_value(False).run()  # step 0 means what it means everywhere: no merge yet
    assert any(c.value.startswith("The tokenizer after no merge yet: the base tokens alone: 256 tokens") for c in at.caption)
    at = open_page("pages/10_Import_and_export.py", preset="sennrich", step="4")
    at.toggle(key="w.export_whole").set_value(False).run()
    assert any(c.value.startswith("The tokenizer after 4 of this run's 10 merges") for c in at.caption)


def test_charts_have_their_counts_as_text_for_screen_readers():
    at = open_page("pages/1_Train.py", preset="wikipedia", step="1")
    tables = [plain(h.value) for h in at.html if 'class="bpe-sr-only"' in h.value]
    assert tables, "the pair-count chart has no text equivalent"
    assert "1. a + a" in tables[0] and "4" in tables[0]  # Wikipedia: a + a occurs 4 times before merge 1
