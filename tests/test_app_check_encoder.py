"""The Check my encoder page, headless: a learner's ids for the probe texts, each classic mistake named
with its fix, a correct encoder passing, bad input kept on the page, the old link to its tab."""

from __future__ import annotations

import json

import pytest

from bpe.app import pages
from bpe.checking.encode_cases import text_lines
from bpe.checking.encode_rules import ENCODER_MISTAKES

from .apptest_support import errors, html_with, open_page, plain, unescape_markdown
from .learner_encoders import LEARNER_ENCODERS, suite_tokenizer

CHECK = pages.CHECK_ENCODER.file


def encoder_tab(**form):
    at = open_page(CHECK)
    for key, value in form.items():
        widget = at.selectbox(key=key) if key == "w.encoder_tokenizer" else at.text_area(key=key)
        widget.set_value(value).run()
    return at


def suite_ids(code: str | None) -> tuple[object, str, str]:
    """The suite's tokenizer uploaded, the one-line probe texts, and this learner's ids for them."""
    tokenizer, merges, specials = suite_tokenizer()
    at = encoder_tab(**{"w.encoder_tokenizer": "upload"})
    at.file_uploader(key="w.encoder_upload").set_value([("suite.json", tokenizer.to_json().encode(), "application/json")]).run()
    at = at.button(key="w.encoder_probes").click().run()
    texts = at.text_area(key="w.encoder_texts").value
    ids = "\n".join(str(LEARNER_ENCODERS[code](text, merges, specials)) for text in text_lines(texts))
    return at, texts, ids


@pytest.mark.parametrize("code", ["left-to-right", "off-by-one"])
def test_a_learners_ids_are_diagnosed_on_the_page_with_the_mistakes_name_and_fix(code):
    at, _, ids = suite_ids(code)
    at.text_area(key="w.encoder_ids").set_value(ids).run()
    at = at.button(key="w.encoder_run").click().run()
    assert not at.exception and not errors(at)
    cause = plain(html_with(at, '<div class="bpe-cause'))
    mistake = ENCODER_MISTAKES[code]
    assert cause.startswith(f"{code} · {mistake.title}, in {mistake.line}") and f"Fix ({mistake.line}): " in cause
    (verdict,) = [unescape_markdown(element.value) for element in at.warning]
    assert verdict.startswith(f"Your encoder has {mistake.title} ({mistake.line}): re-encoding with ")
    table = plain(html_with(at, "bpe-encode-difference"))
    assert table.startswith("Text ") and "Your tokens from there" in table


def test_a_correct_encoder_passes_every_probe_text():
    at, texts, ids = suite_ids(None)
    at.text_area(key="w.encoder_ids").set_value(ids).run()
    at = at.button(key="w.encoder_run").click().run()
    lines = len(text_lines(texts))
    assert "\n" in "".join(text_lines(texts))  # the blank-line probe survives the box, as a JSON string
    assert at.metric[0].value == f"{lines} / {lines}"
    assert [unescape_markdown(element.value) for element in at.success] == [
        f"Your encoder gives the tokenizer’s ids for all {lines} of your texts."]
    assert not [element for element in at.html if 'class="bpe-cause' in element.value]


def test_the_old_link_to_the_encoder_tab_opens_the_encoder_page():
    at = open_page(pages.CHECK.file, check="encoder")
    assert not at.exception
    assert [title.value for title in at.title] == [pages.CHECK_ENCODER.title]


def test_ids_from_an_uploaded_json_file_are_checked_against_a_pretrained_tokenizer():
    cases = [{"text": "hello world", "ids": [31373, 995]}, {"text": " embraced", "ids": [33127, 2286]}]
    at = encoder_tab(**{"w.encoder_tokenizer": "gpt2"})
    at.radio(key="w.encoder_cases").set_value("upload").run()
    at.file_uploader(key="w.encoder_cases_file").set_value([("ids.json", json.dumps(cases).encode(), "application/json")]).run()
    at = at.button(key="w.encoder_run").click().run()
    assert not at.exception and at.metric[0].value == "1 / 2"
    assert "·embraced" in plain(html_with(at, "bpe-encode-difference"))


def test_bad_input_is_an_error_on_the_page_and_keeps_the_form():
    at = encoder_tab(**{"w.encoder_tokenizer": "gpt2", "w.encoder_texts": "hello\nworld", "w.encoder_ids": "31373"})
    at = at.button(key="w.encoder_run").click().run()
    assert errors(at) == ["**Cannot check these ids:** 2 text lines but 1 line of ids: give one line of ids per text, "
                          "in the same order"]
    assert at.text_area(key="w.encoder_texts").value == "hello\nworld"


def test_hostile_texts_stay_text():
    at = encoder_tab(**{"w.encoder_tokenizer": "gpt2", "w.encoder_texts": "<img src=x onerror=alert(1)>",
                        "w.encoder_ids": "1 2 3"})
    at = at.button(key="w.encoder_run").click().run()
    shown = html_with(at, "bpe-encode-difference")
    assert "<img" not in shown and "&lt;img" in shown
