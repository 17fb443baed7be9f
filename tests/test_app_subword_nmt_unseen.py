"""A subword-nmt codes file imported on the Import & export page: the page says that characters its
codes never mention pass through, and Encode & decode draws each of them dotted, as the token it is.

Expected values come from the engine (the import of the same codes and its encode), never from the
page's own output.
"""

from __future__ import annotations

import re

from bpe.formats import import_tokenizer

from .apptest_support import ENCODE, errors, html_with, open_page, unescape_markdown
from .test_app_compare import PORT, upload

CODES = "#version: 0.2\nl o\nlo w</w>\ne r</w>\nlo w\nlow er</w>\n"
TEXT = "lower (low) ßlow"


def test_imported_codes_pass_unseen_characters_through_and_encode_draws_them_dotted():
    at = upload(open_page(PORT, preset="sennrich"), "subword-nmt", {"bpe.codes": CODES}, name="codes")
    assert not at.exception and not errors(at)
    note = unescape_markdown(at.success[0].value)
    assert "Imported **codes**" in note and "Characters its codes never mention pass through as they are" in note
    at.switch_page(ENCODE).run()
    at.selectbox(key="w.encode_with").set_value("imported:codes").run()
    at.text_area(key="w.encode_text").set_value(TEXT).run()
    assert not at.exception and not errors(at)
    codes = import_tokenizer(format="subword-nmt", files={"bpe.codes": CODES})
    passed = [token_id for token_id in codes.encode(TEXT) if codes.is_passed_through(token_id)]
    assert len(passed) == 3  # ( ) ß
    chips = html_with(at, "bpe-linked")
    assert sorted(map(int, re.findall(r'class="bpe-tok [^"]*bpe-passed"[^>]*data-id="(\d+)"', chips))) == sorted(passed)
    assert any(f"the {len(passed)} dotted ones passed through" in caption.value for caption in at.caption)
