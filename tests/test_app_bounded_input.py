"""The app under input that once took down a shared server or drew a traceback, on
the page (AppTest): regex bombs from the sidebar, a link and an imported file; display cuts that
split a special token; texts whose encode or walkthrough cost seconds on every rerun.

The regex bomb here is mild, ``(?:a{100}){200}``: over the program-size limit, yet cheap to
compile, so a broken guard fails these tests without hurting the test process. The real bomb is
sent to capped child processes (``test_pattern_guard.py``) and a capped server
(``test_browser_guard.py``).
"""

from __future__ import annotations

import pytest

from bpe.limits import MAX_CHUNK_CHARS, MAX_PATTERN_PROGRAM, MAX_SHOWN_TOKENS, MAX_WALK_CHARS, MAX_WALK_ROWS

from .apptest_support import ENCODE, TRAIN, narration, open_page, plain, stat
from .test_app_bad_input import custom_regex, kept, own_text, says, shown

MILD_BOMB = "(?:a{100}){200}"  # over the program-size limit yet cheap to compile: a broken guard cannot hurt
BOMB_MESSAGE = f"would compile to about 20,000 regex steps (the limit is {MAX_PATTERN_PROGRAM:,})"


@pytest.mark.parametrize(
    "pattern, message",
    [
        (MILD_BOMB, BOMB_MESSAGE),
        ("(" * 300 + "a" + ")" * 300, "nests groups more than 50 levels deep"),
        (r"(?r)\w+|\s+", "uses the (?r) flag"),
        # mild: they cannot recurse on the probe nor on a short text (the real ones: test_pattern_guard_recursion.py)
        (r"a(?R)?b|\w+", "calls a group or itself ((?R) at character 1)"),
        (r"(?:ab){e<=1}|\w+", "uses fuzzy matching ({e<=1} at character 6)"),
    ],
    ids=["regex memory bomb (nested counted repeats)", "custom regex nested too deeply",
         "custom regex with the reverse flag (?r)", "custom regex that recurses", "custom regex with fuzzy matching"],
)
def test_a_costly_or_reversed_custom_regex_in_the_sidebar_is_refused_and_kept(pattern, message):
    at = custom_regex(own_text(), pattern)
    assert not at.exception
    assert says(at.error, message), shown(at.error)
    assert kept(at)
    assert at.text_input(key="w.regex").value == pattern


def test_a_regex_bomb_in_a_link_warns_with_the_limit_and_falls_back():
    at = open_page(TRAIN, preset="sennrich", pretok=f"regex:{MILD_BOMB}")
    assert not at.exception and not at.error
    assert says(at.warning, BOMB_MESSAGE), shown(at.warning)
    assert narration(at)


def test_an_imported_tokenizer_file_whose_pattern_is_a_regex_bomb_is_refused_with_the_limit():
    import json

    from bpe import Corpus, Tokenizer, TrainSettings, train
    from bpe.formats import to_hf

    placeholder = r"\w+|\s+"
    settings = TrainSettings(pretokenizer=f"regex:{placeholder}", merges=3)
    tokenizer = Tokenizer.from_trace(train(Corpus.from_text("low lower", pretokenizer=settings.pretokenizer), settings))
    document = to_hf(tokenizer).replace(json.dumps(placeholder)[1:-1], json.dumps(MILD_BOMB)[1:-1])
    assert MILD_BOMB in document
    at = open_page("pages/10_Import_and_export.py", preset="sennrich")
    at.selectbox(key="w.import_format").set_value("hf").run()
    at.file_uploader(key="w.import_files").set_value([("tokenizer.json", document.encode(), "application/json")]).run()
    at.button(key="w.import").click().run()
    assert not at.exception
    assert says(at.error, "Cannot import:") and says(at.error, BOMB_MESSAGE), shown(at.error)


# -- display cuts and samples never split a special token (char unit: its characters are no token) -
EOT = "<|endoftext|>"
JAPANESE = "吾輩は猫である。名前はまだ無い。"  # no spaces: the 3,000-character cut cannot back up to one
PREDICT = "pages/4_Predict_the_next_merge.py"


def japanese_documents(cut: int = 3_000) -> str:
    """Documents joined by <|endoftext|>, one of which straddles the character ``cut``."""
    first = (JAPANESE * (cut // len(JAPANESE) + 1))[: cut - 5]
    return f"{first}{EOT}{JAPANESE * 20}{EOT}{JAPANESE * 10}"


@pytest.mark.parametrize("page, cut", [
    (TRAIN, "Showing characters 1 to "),  # a window of whole chunks: a special token is a chunk of its own
    (PREDICT, "Showing the first 2,995 of"),
], ids=["Train", "Predict"])
def test_a_special_token_across_the_display_cut_is_left_whole_with_the_char_unit(page, cut):
    text = japanese_documents()
    at = open_page(TRAIN, preset="own-text", unit="char", special=EOT)
    at.text_area(key="w.own_text").set_value(text).run()
    if page != TRAIN:
        at.switch_page(page).run()
    assert not at.exception and not at.error
    assert cut in "\n".join([plain(element.value) for element in at.html] + [c.value for c in at.caption])


def test_the_encode_page_sample_never_cuts_a_special_token_in_half():
    text = "word " * 38 + EOT + " more words"  # the first line's 200-character cut falls inside <|endoftext|>
    at = open_page(TRAIN, preset="own-text", unit="char", special=EOT)
    at.text_area(key="w.own_text").set_value(text).run()
    at.switch_page(ENCODE).run()
    assert not at.exception and not at.error
    sample = at.text_area(key="w.encode_text").value
    assert EOT not in sample.split(EOT, 1)[0] and "<|endo" not in sample.replace(EOT, "")
    assert sample.startswith("word word") and EOT in sample


# -- bounded work per rerun ------------------------------------------------------------------------
def test_a_long_text_of_words_is_encoded_whole_but_walked_through_and_drawn_only_in_part_and_cached(monkeypatch):
    import bpe.views.encoding

    calls = []
    real = bpe.views.encoding.encode_for_page

    def counted(*args):
        calls.append(args[1][:20])
        return real(*args)

    monkeypatch.setattr(bpe.views.encoding, "encode_for_page", counted)
    text = "low lower " * 19_000  # 190,000 characters in short chunks: encoded whole
    at = open_page(ENCODE, preset="sennrich")
    at.text_area(key="w.encode_text").set_value(text).run()
    assert not at.exception and not at.error and not at.warning
    captions = " ".join(caption.value for caption in at.caption)
    assert f"The walkthrough follows the first 199 of {len(text):,} characters" in captions  # the last space before 200
    assert f"Showing the first {MAX_SHOWN_TOKENS:,} of " in captions
    chips = sum(element.value.count('class="bpe-tok ') for element in at.html)
    assert chips < 2 * MAX_SHOWN_TOKENS + MAX_WALK_CHARS * (MAX_WALK_ROWS + 1)
    encodes = len(calls)
    at.text_input(key="w.decode_ids").set_value("97, 98").run()  # a rerun that leaves the encode as it was
    assert not at.exception
    assert len(calls) == encodes


def test_a_text_that_is_one_long_chunk_is_encoded_up_to_the_chunk_limit_and_says_so():
    text = "aaabdaaabac" * 18_000  # 198,000 characters, one chunk under the `none` split
    at = open_page(ENCODE, preset="wikipedia", step="3")
    at.text_area(key="w.encode_text").set_value(text).run()
    assert not at.exception and not at.error
    assert says(at.warning, f"the page encodes its first {MAX_CHUNK_CHARS:,} of {len(text):,} characters")
    copies, rest = divmod(MAX_CHUNK_CHARS, len("aaabdaaabac"))  # each copy is XdXac, 5 tokens (Wikipedia)
    assert stat(at, "Tokens") == f"{copies * 5 + rest:,}"
    assert at.text_area(key="w.encode_text").value == text
