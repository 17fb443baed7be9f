"""``fast_split`` leaves non-ASCII characters that are no letter, number, mark or space to ``re``.

The claim (``bpe/text/fast_split.py``): such a character is in the same classes of ``regex``'s real
patterns as of the ASCII ones, so the pieces are the same. The reference is always
``Pretokenizer.words``, which runs the real pattern with ``regex`` (tiktoken's patterns; the
parity tests check those against tiktoken itself).
"""

from __future__ import annotations

import re
import unicodedata

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe.text.fast_split import ASCII_PATTERNS, NEEDS_REGEX, split_words
from bpe.text.pretokenize import Pretokenizer

EVERY_NON_ASCII = "".join(map(chr, range(0x80, 0x110000)))
# Left to `re`: not a letter, number, mark or space for `regex`; assigned (a sample of the rest below).
LEFT_TO_RE = [
    c for c in regex.sub(r"[\p{L}\p{N}\p{M}\s]", "", EVERY_NON_ASCII) if unicodedata.category(c) not in ("Cn", "Co", "Cs")
]
# Each such character beside letters of both cases, digits, an apostrophe, itself and line breaks.
CONTEXT = "x{0}y {0}'s A{0}B 1{0}2 {0}{0}\n{0}\r\n DON{0}T {0} \n"
MIXED = st.sampled_from(
    list("aAbZ sdmtlLvVrReE'1234\n\r\t/.,")  # ASCII: letters of both cases, contraction letters, digits
    + list("’‘“”—–…°€✓👋🏽\u200d\u2060")  # left to re: punctuation, symbols, emoji, joiners
    + list("ßé中ٷ½٣\u0301\ufe0f\u00a0\u2028\u3000ſ\u212aİı")  # to regex: letters, numbers, marks, spaces, case folds
)


def test_there_are_thousands_of_characters_left_to_re():
    assert len(LEFT_TO_RE) > 8000
    assert {"’", "“", "—", "…", "°", "👋", "\u200d"} <= set(LEFT_TO_RE)


@pytest.mark.parametrize("name", list(ASCII_PATTERNS))
def test_every_assigned_character_left_to_re_gets_the_real_patterns_pieces(name):
    pretokenizer = Pretokenizer.parse(name)
    text = "".join(CONTEXT.format(c) for c in LEFT_TO_RE)
    assert split_words(pretokenizer, text) == pretokenizer.words(text)


@pytest.mark.parametrize("name", list(ASCII_PATTERNS))
def test_unassigned_private_and_surrogate_characters_get_the_real_patterns_pieces(name):
    pretokenizer = Pretokenizer.parse(name)
    text = "".join(CONTEXT.format(c) for c in "\u0378\ue000\U000f0000\ud800\udfff\U0010ffff")
    assert split_words(pretokenizer, text) == pretokenizer.words(text)


def test_re_case_folding_never_reaches_a_character_left_to_re():
    """The contractions are case-blind (``(?i:'s|...)``): a character ``re`` folds onto an ASCII
    letter (``ſ`` onto ``s``, the Kelvin sign onto ``k``) must go to ``regex``."""
    folded = re.findall(r"(?i)[a-z]", EVERY_NON_ASCII)
    assert set(folded) >= {"ſ", "\u212a"}
    assert all(NEEDS_REGEX.match(c) for c in folded)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=MIXED, max_size=50))
def test_mixed_text_gets_the_real_patterns_pieces(text):
    for name in ASCII_PATTERNS:
        pretokenizer = Pretokenizer.parse(name)
        assert split_words(pretokenizer, text) == pretokenizer.words(text)


def test_curly_quotes_and_dashes_never_reach_regex(monkeypatch):
    """The speed-up itself: python-docs' non-ASCII characters are punctuation, split by ``re`` alone."""
    pretokenizer = Pretokenizer.parse("gpt4o")
    expected = pretokenizer.words("“Don’t” — it’s 20°… ok")
    sent_to_regex = []

    def words(self, text):
        sent_to_regex.append(text)
        return []

    monkeypatch.setattr(Pretokenizer, "words", words)
    assert split_words(pretokenizer, "“Don’t” — it’s 20°… ok") == expected
    assert sent_to_regex == []
    split_words(pretokenizer, "a naïve one")
    assert sent_to_regex == [" naïve"]
