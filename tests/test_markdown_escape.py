"""bpe/notation/markdown.py: user text in Streamlit Markdown is shown as typed. Every character that can start
Markdown (HTML's ``<`` and ``>`` included) comes out behind a backslash, and nothing else changes."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from bpe.notation.markdown import escape_markdown

from .examples import examples

MARKDOWN_CHARS = "\\`*_[]()<>~$:&!|"
UNESCAPED = re.compile(r"(?<!\\)(?:\\\\)*[`*_\[\]()<>~$:&!|]")
"""A Markdown character behind an even number of backslashes (none included): it would act."""


def test_html_brackets_are_escaped_so_a_tag_is_shown_as_typed():
    assert escape_markdown("<img src=x onerror=alert(1)> <b>bold</b>") == (
        r"\<img src=x onerror=alert\(1\)\> \<b\>bold\</b\>"
    )


@settings(max_examples=examples(200), deadline=None)
@given(st.text(alphabet=st.sampled_from(MARKDOWN_CHARS + "ab 1.#-\n"), max_size=30))
def test_every_markdown_character_is_escaped_and_nothing_else_changes(text):
    escaped = escape_markdown(text)
    assert not UNESCAPED.search(escaped), escaped
    one_line = " ".join(text.splitlines())
    assert re.sub(r"\\(.)", r"\1", escaped) == one_line
