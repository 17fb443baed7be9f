"""Every row of docs/bad-input.md that the app accepts as input, on the page (AppTest).

For each: no traceback, a message on the page that names the problem (an error or a warning;
rows that are not errors explain themselves in the narration), and what the user typed is still
in its box. Limits come from bpe/limits.py, so the messages are checked against those values.
"""

from __future__ import annotations

import tomllib

import pytest
from streamlit.testing.v1 import AppTest

from bpe.limits import MAX_CORPUS_CHARS, MAX_ENCODE_CHARS, MAX_MERGES, MAX_UPLOAD_MB

from .apptest_support import APPTEST_TIMEOUT_S, ENCODE, ROOT, TRAIN, narration, open_page, unescape_markdown
from .conftest import TINY_REGEX_BUDGET_S

OWN_TEXT = "my own words, my own words"


def shown(elements) -> list[str]:
    """What the reader sees in these st.error / st.warning / st.success elements."""
    return [unescape_markdown(element.value) for element in elements]


def says(elements, phrase: str) -> bool:
    return any(phrase in message for message in shown(elements))


def own_text(text: str = OWN_TEXT, **query) -> AppTest:
    """The training page on 'your own text', with ``text`` typed into the editor."""
    at = open_page(TRAIN, preset="own-text", **query)
    at.text_area(key="w.own_text").set_value(text).run()
    return at


def kept(at: AppTest, text: str = OWN_TEXT) -> bool:
    return at.text_area(key="w.own_text").value == text and at.session_state["bpe.own_text"] == text


def upload(at: AppTest, name: str, data: bytes) -> AppTest:
    return at.file_uploader(key="w.upload").set_value((name, data, "text/plain")).run()


# -- corpora that train to nothing (not errors: the page says why) --------------------------------
@pytest.mark.parametrize(
    "text, pretokenizer, reason",
    [
        ("", "gpt2", "the corpus has no words"),
        ("   \n\t ", "whitespace", "the corpus has no words"),
        ("a", "gpt2", "every word is a single token"),
    ],
    ids=["empty corpus", "whitespace only under the whitespace split", "one character"],
)
def test_a_corpus_with_nothing_to_merge_warns_why_and_keeps_the_text(text, pretokenizer, reason):
    at = open_page(TRAIN, preset="own-text", pretok=pretokenizer)
    at.text_area(key="w.own_text").set_value(text).run()
    assert not at.exception and not at.error
    assert says(at.warning, "No merge to show: ") and says(at.warning, reason)
    assert "Before any merge" in narration(at)
    assert kept(at, text)


def test_fewer_distinct_pairs_than_merges_stops_early_and_the_last_step_says_why():
    at = own_text("ab ab", merges="50")
    assert not at.exception and not at.error
    at.button(key="w.last.main").click().run()
    assert "Merge 1 of 1" in narration(at)
    assert "below the minimum frequency 2" in narration(at)
    assert kept(at, "ab ab")


# -- settings out of range ------------------------------------------------------------------------
def test_a_vocabulary_size_below_the_base_is_an_error_and_the_text_is_kept():
    at = own_text()
    at.radio(key="w.stop_by").set_value("vocab_size").run()
    at.number_input(key="w.amount").set_value(100).run()
    assert not at.exception
    assert says(at.error, "vocabulary size 100 is below the base vocabulary")
    assert says(at.error, "choose at least 256")
    assert kept(at)


def test_the_merges_box_stops_at_the_merge_limit():
    at = own_text()
    box = at.number_input(key="w.amount").proto
    assert box.has_max and box.max == MAX_MERGES


def test_a_huge_merge_count_in_a_link_is_refused_with_the_limit():
    at = open_page(TRAIN, preset="own-text", merges=str(10**9))
    assert not at.exception and not at.error
    assert says(at.warning, f"merges must be a whole number from 0 to {MAX_MERGES:,}")


def test_a_huge_vocabulary_size_is_an_error_naming_the_merge_limit():
    at = own_text()
    at.radio(key="w.stop_by").set_value("vocab_size").run()
    at.number_input(key="w.amount").set_value(10**9).run()
    assert not at.exception
    assert says(at.error, f"over the limit of {MAX_MERGES}")
    assert kept(at)


def test_training_stops_at_the_time_limit_keeps_its_merges_and_says_so(monkeypatch):
    import ui.training

    monkeypatch.setattr(ui.training, "MAX_TRAIN_SECONDS", 1e-9)
    at = own_text()
    assert not at.exception and not at.error
    assert says(at.warning, "Training stopped at the time limit of 1e-09 s after 0 merges")
    assert kept(at)


# -- corpora that are too big or not text ---------------------------------------------------------
def test_pasting_a_corpus_over_the_size_limit_is_an_error_and_the_text_is_kept():
    huge = "ab " * (MAX_CORPUS_CHARS // 3 + 1)
    at = own_text(huge)
    assert not at.exception
    assert says(at.error, f"the corpus has {len(huge):,} characters, over the limit of {MAX_CORPUS_CHARS:,}")
    assert kept(at, huge)


def test_uploading_a_corpus_over_the_size_limit_is_an_error_and_the_text_is_kept():
    at = own_text()
    upload(at, "big.txt", b"a" * (MAX_CORPUS_CHARS + 1))
    assert not at.exception
    assert says(at.error, f"over the limit of {MAX_CORPUS_CHARS:,}")
    assert kept(at)


def test_uploads_are_capped_by_the_server_at_the_upload_limit():
    with open(ROOT / ".streamlit" / "config.toml", "rb") as file:
        config = tomllib.load(file)
    assert config["server"]["maxUploadSize"] == MAX_UPLOAD_MB


@pytest.mark.parametrize(
    "name, data, message",
    [
        ("latin1.txt", b"caf\xe9", "latin1.txt is not UTF-8 text (byte 3 is 0xe9); save it as UTF-8"),
        ("x.txt", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "x.txt looks like a binary file (it contains NUL bytes)"),
        ("u16.txt", "banana bandana".encode("utf-16"), "u16.txt is UTF-16 text, not UTF-8: save it as UTF-8"),
        ("u16le.txt", "banana bandana".encode("utf-16-le"), "u16le.txt is UTF-16 text, not UTF-8"),
    ],
    ids=["non-UTF-8 upload", "binary upload", "UTF-16 file", "UTF-16 file without a byte-order mark"],
)
def test_an_upload_that_is_not_utf8_text_is_an_error_that_names_it_and_the_text_is_kept(name, data, message):
    at = own_text()
    upload(at, name, data)
    assert not at.exception
    assert says(at.error, message)
    assert kept(at)


def test_an_upload_with_a_byte_order_mark_loads_without_it_and_says_so():
    at = own_text()
    upload(at, "bom.txt", "\ufeffbanana bandana".encode())
    assert says(at.success, "Loaded bom.txt (its byte-order mark, U+FEFF, removed")
    assert kept(at, "banana bandana")


def test_a_utf8_upload_with_nul_and_control_characters_is_text():
    at = own_text()
    upload(at, "log.txt", b"ban\x00ana\x01 bandana")
    assert says(at.success, "Loaded log.txt.")
    assert kept(at, "ban\x00ana\x01 bandana")


# -- custom regexes -------------------------------------------------------------------------------
def custom_regex(at: AppTest, pattern: str) -> AppTest:
    at.selectbox(key="w.pretok").set_value("custom regex").run()
    return at.text_input(key="w.regex").set_value(pattern).run()


@pytest.mark.parametrize(
    "pattern, message",
    [
        ("(unclosed", "the custom pattern '(unclosed' is not a valid regex"),
        ("a*", "the custom pattern 'a*' matches the empty string"),
    ],
    ids=["invalid custom regex", "regex that matches the empty string"],
)
def test_a_bad_custom_regex_is_an_error_and_the_text_and_regex_are_kept(pattern, message):
    at = custom_regex(own_text(), pattern)
    assert not at.exception
    assert says(at.error, message)
    assert kept(at)
    assert at.text_input(key="w.regex").value == pattern


def test_a_catastrophically_backtracking_regex_is_stopped_and_explained(tiny_regex_budget):
    text = "x" * 5000
    at = custom_regex(own_text(text), "(x+x+)+y")
    assert not at.exception
    assert says(at.error, f"took over {TINY_REGEX_BUDGET_S:g} s on this text (catastrophic backtracking?)")
    assert kept(at, text)


# -- special tokens -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "lines, message",
    [
        ("<s>\n<s>", "'<s>' is listed twice"),
    ],
    ids=["duplicated special token"],
)
def test_malformed_special_tokens_are_an_error_and_what_was_typed_is_kept(lines, message):
    at = own_text()
    at.text_area(key="w.special").set_value(lines).run()
    assert not at.exception
    assert says(at.error, message)
    assert at.text_area(key="w.special").value == lines
    assert kept(at)


def test_an_empty_special_token_in_a_link_is_refused_with_a_warning():
    at = open_page(TRAIN, preset="own-text", special=["<s>", ""])
    assert not at.exception and not at.error
    assert says(at.warning, "special tokens in the link must be non-empty and distinct")


def test_special_token_text_when_disallowed_is_an_error_and_the_text_is_kept():
    at = open_page(ENCODE, preset="own-text", special="<|endoftext|>")
    typed = "the end<|endoftext|>the start"
    at.text_area(key="w.encode_text").set_value(typed).run()
    at.radio(key="w.special_mode").set_value("disallowed").run()
    assert not at.exception
    assert says(at.error, "it contains the special token `<|endoftext|>`")
    assert says(at.error, "Choose *allowed* to encode it as one special token")
    assert not says(at.error, "allowed_special")  # the page names its own choices, not the Python call
    assert at.text_area(key="w.encode_text").value == typed


@pytest.mark.parametrize("how", ["emptied", "link-text-only", "link-preset-and-text"])
def test_an_empty_text_to_encode_says_so_instead_of_an_exception(how):
    if how == "emptied":
        at = open_page(ENCODE, preset="sennrich")
        at.text_area(key="w.encode_text").set_value("").run()
    else:
        at = open_page(ENCODE, text="", **({"preset": "sennrich"} if how == "link-preset-and-text" else {}))
    assert not at.exception
    assert [info.value for info in at.info] == ["Nothing to encode yet: type or paste a text in the box above."]
    assert at.text_area(key="w.encode_text").value == ""
    at.text_input(key="w.decode_ids").set_value("108, 111").run()  # the rest of the page still works
    assert not at.exception


def test_blank_html_draws_nothing_where_st_html_would_raise():
    def script():
        from ui.render import show_html

        show_html("")
        show_html(" \n ")
        show_html("<p>drawn</p>")

    at = AppTest.from_function(script, default_timeout=APPTEST_TIMEOUT_S).run()
    assert not at.exception
    assert [element.value for element in at.html] == ["<p>drawn</p>"]


def test_encoding_text_over_the_encode_limit_is_an_error_and_the_text_is_kept():
    at = open_page(ENCODE, preset="sennrich")
    typed = "low " * (MAX_ENCODE_CHARS // 4 + 1)
    at.text_area(key="w.encode_text").set_value(typed).run()
    assert not at.exception
    assert says(at.error, f"it has {len(typed):,} characters, over the limit of {MAX_ENCODE_CHARS:,}")
    assert at.text_area(key="w.encode_text").value == typed


# -- decoding -------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "typed, message",
    [
        ("258, abc", "cannot read 'abc' as a token id: write whole numbers"),
        ("104, ²", "cannot read '²' as a token id"),
        ("104, -3", "-3 is negative: token ids start at 0"),
        ("104, 99999", "unknown token id 99999"),
        ("104, " + "9" * 5000, "it has 5,000 digits"),
    ],
    ids=["decode input that is not a list of integers", "a digit that is not 0-9", "negative id", "unknown id",
         "an id too long for int"],
)
def test_bad_ids_to_decode_are_an_error_and_the_ids_are_kept(typed, message):
    at = open_page(ENCODE, preset="sennrich")
    at.text_input(key="w.decode_ids").set_value(typed).run()
    assert not at.exception
    assert says(at.error, message)
    assert at.text_input(key="w.decode_ids").value == typed


# -- links ----------------------------------------------------------------------------------------
def test_a_link_without_parameters_opens_the_default_example_without_warnings():
    at = open_page(TRAIN)
    assert not at.exception and not at.error and not at.warning
    assert "Before any merge" in narration(at)


@pytest.mark.parametrize(
    "query, warning",
    [
        ({"preset": "gpt5"}, "unknown example 'gpt5'"),
        ({"preset": "sennrich", "step": "abc"}, "step must be a whole number at least 0, got 'abc'"),
        ({"preset": "sennrich", "step": "²"}, "step must be a whole number at least 0, got '²'"),
        ({"preset": "sennrich", "step": "9" * 5000}, "step must be a whole number at least 0"),
        ({"preset": "sennrich", "step": "-1"}, "step must be a whole number at least 0, got '-1'"),
        ({"preset": "sennrich", "step": "99"}, "training stopped after 10 merges"),
        ({"preset": "sennrich", "merges": ""}, f"merges must be a whole number from 0 to {MAX_MERGES:,}, got ''"),
        ({"preset": "sennrich", "minfreq": "0"}, "minfreq must be a whole number at least 1"),
        ({"preset": "sennrich", "unit": "word"}, "unknown unit 'word' (use byte, char): using byte"),
        ({"preset": "sennrich", "tie": "random"}, "unknown tie-break rule 'random'"),
        ({"preset": "sennrich", "pretok": "regex:a*"}, "matches the empty string"),
    ],
    ids=["unknown preset", "non-numeric step", "a superscript digit", "a 5000-digit step", "negative step",
         "step out of range", "empty merges", "minfreq out of range", "unknown unit", "unknown tie rule",
         "empty-matching regex"],
)
def test_bad_link_parameters_warn_and_fall_back(query, warning):
    at = open_page(TRAIN, **query)
    assert not at.exception and not at.error
    assert says(at.warning, warning), shown(at.warning)
    assert narration(at)  # the page still shows a run
