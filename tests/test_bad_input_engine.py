"""Every row of docs/bad-input.md at the engine level: the documented outcome, never a crash.

Rows that are not errors (an empty corpus just stops) assert the stop reason; rows that are errors
assert the exception class and a phrase of the message that tells the user how to fix it.
"""

import io
from pathlib import Path

import pytest

from bpe import Corpus, Tokenizer, TrainSettings, train
from bpe.checking import read_learner_merges
from bpe.encoding.streaming import read_text_chunks
from bpe.errors import BpeError, FormatError, PatternError, SettingsError, SpecialTokenError, UnknownTokenError
from bpe.limits import MAX_CORPUS_CHARS, MAX_MERGES, MAX_PATTERN_CHARS, check_corpus_size
from bpe.text.corpus import decode_text_file, parse_word_counts
from bpe.text.pretokenize import Pretokenizer
from bpe.tokens.ids import parse_ids

MILD_BOMB = "(?:a{100}){200}"
"""Over the program-size limit (20,000) yet cheap to compile, so a broken guard cannot hurt this process."""

STOPS_WITHOUT_ERROR = {
    "empty corpus": ("", "gpt2", "no_pairs"),
    "whitespace only under the whitespace split": ("   \n\t ", "whitespace", "no_pairs"),
    "one character": ("a", "gpt2", "no_pairs"),
    "fewer distinct pairs than merges": ("ab ab", "gpt2", "min_frequency"),
}


@pytest.mark.parametrize("text, pretokenizer, reason", STOPS_WITHOUT_ERROR.values(), ids=STOPS_WITHOUT_ERROR)
def test_small_corpora_stop_training_with_a_reason_instead_of_failing(text, pretokenizer, reason):
    trace = train(Corpus.from_text(text, pretokenizer=pretokenizer), TrainSettings(pretokenizer=pretokenizer, merges=50))
    assert trace.stop_reason == reason
    assert trace.stop_detail


def _train_words(**settings):
    return train(Corpus.from_word_counts({"low": 5}), TrainSettings(**settings))


def _tokenizer(special_tokens=("<|endoftext|>",)):
    corpus = Corpus.from_text("low lower", special_tokens=special_tokens)
    return Tokenizer.from_trace(train(corpus, TrainSettings(special_tokens=special_tokens, merges=2)))


def _attached_char_tokenizer():
    settings = TrainSettings(unit="char", pretokenizer="space", end_of_word="</w>", end_of_word_mode="attached")
    return Tokenizer.from_trace(train(Corpus.from_text("low low", pretokenizer="space"), settings))


RAISES = {
    "attached end-of-word mode without a marker": (
        lambda: TrainSettings(end_of_word_mode="attached"), SettingsError, "set one such as </w>",
    ),
    "a word ending in a character that never ended one (char unit, attached)": (
        lambda: _attached_char_tokenizer().encode("wo"), UnknownTokenError, "'o' never ended a word",
    ),
    "streamed file that is not UTF-8": (
        lambda: list(read_text_chunks(io.BytesIO(b"caf\xe9 ok"), name="big.txt")), BpeError, "save it as UTF-8",
    ),
    "vocabulary size below the base": (lambda: _train_words(vocab_size=100), SettingsError, "choose at least 256"),
    "huge merge count": (lambda: _train_words(merges=MAX_MERGES + 1), SettingsError, f"to {MAX_MERGES}"),
    "huge vocabulary size": (lambda: _train_words(vocab_size=10**9), SettingsError, "over the limit"),
    "corpus over the size limit": (lambda: check_corpus_size("a" * (MAX_CORPUS_CHARS + 1)), BpeError, "shorter"),
    "non-UTF-8 upload": (lambda: decode_text_file(b"caf\xe9", name="latin1.txt"), BpeError, "save it as UTF-8"),
    "binary upload": (lambda: decode_text_file(b"\x89PNG\x00\x00", name="x.png"), BpeError, "binary"),
    "UTF-16 file": (lambda: decode_text_file("low".encode("utf-16"), name="u16.txt"), BpeError, "is UTF-16 text"),
    "an id with digits that are not 0-9": (lambda: parse_ids("258, ٣"), BpeError, "with the digits 0-9"),
    "an id with an underscore": (lambda: parse_ids("1_0"), BpeError, "cannot read '1_0' as a token id"),
    "empty word table": (lambda: parse_word_counts(""), BpeError, "cannot read '' as word:count"),
    "invalid custom regex": (lambda: Pretokenizer.parse("regex:("), PatternError, "not a valid regex"),
    "regex that matches the empty string": (lambda: Pretokenizer.parse("regex:a*"), PatternError, "empty string"),
    "catastrophically backtracking regex": (
        lambda: Pretokenizer.parse("regex:(x+x+)+y").split("x" * 5000), PatternError, "backtracking",
    ),
    # The real bomb, (?:a{65535}){65535}, is refused in capped child processes: test_pattern_guard.py.
    "regex memory bomb (nested counted repeats)": (
        lambda: Pretokenizer.parse(f"regex:{MILD_BOMB}"), PatternError, "Use + or * instead of big counts",
    ),
    "custom regex over the length limit": (
        lambda: Pretokenizer.parse("regex:" + "a|" * MAX_PATTERN_CHARS), PatternError, "shorten it",
    ),
    "custom regex nested too deeply": (
        lambda: Pretokenizer.parse("regex:" + "(" * 300 + "a" + ")" * 300), PatternError, "flatten it",
    ),
    # Mild ones, which cannot recurse on a short text; the real ones run capped: test_pattern_guard_recursion.py.
    "custom regex that recurses or calls a group": (
        lambda: Pretokenizer.parse(r"regex:a(?R)?b|\w+"), PatternError, "recursion such as (?R), (?1) or (?&name)",
    ),
    "custom regex with fuzzy matching": (
        lambda: Pretokenizer.parse(r"regex:(?:ab){e<=1}|\w+"), PatternError, "uses fuzzy matching ({e<=1}",
    ),
    "custom regex with the reverse flag (?r)": (
        lambda: Pretokenizer.parse(r"regex:(?r)\w+|\s+"), PatternError, "remove (?r)",
    ),
    "empty special token": (lambda: TrainSettings(special_tokens=("",)), SpecialTokenError, "empty"),
    "duplicated special token": (lambda: TrainSettings(special_tokens=("<s>", "<s>")), SpecialTokenError, "twice"),
    "special-token text when disallowed": (
        lambda: _tokenizer().encode("low<|endoftext|>"), SpecialTokenError, "allowed_special",
    ),
    "decode input that is not a list of integers": (lambda: parse_ids("258, abc"), BpeError, "whole numbers"),
    "negative id": (lambda: parse_ids("-3"), UnknownTokenError, "negative"),
    "unknown id": (lambda: _tokenizer().decode([99_999]), UnknownTokenError, "99999"),
    "empty end-of-word marker": (lambda: TrainSettings(end_of_word=""), SettingsError, "</w>"),
    "a learner's merges file with a line that is not two tokens (Check my BPE)": (
        lambda: read_learner_merges("e s t\n", name="merges.txt"), FormatError, "expected two tokens"),
    "a learner's merges file with no merges (Check my BPE)": (
        lambda: read_learner_merges("#version: 0.2\n", name="merges.txt"), FormatError, "holds no merges"),
    "a line whose tokens hold spaces that could split two ways (Check my BPE)": (
        lambda: read_learner_merges("  b\na  \na  b\n", name="merges.txt"), FormatError, "cannot tell which space"),
    "a JSON merges file of the wrong build (`settings` a list, a record without `right_hex`, a number where text belongs) (Check my BPE, `check`)": (
        lambda: read_learner_merges('{"merges": [{"left_hex": "65"}]}', name="m.json"), FormatError,
        "Write it as a JSON list of pairs"),
    "a pickled list of merges (Check my BPE, `check`)": (
        lambda: read_learner_merges(b"\x80\x04]\x94.", name="merges.pkl"), FormatError, "json.dump("),
}


@pytest.mark.parametrize("action, error, hint", RAISES.values(), ids=RAISES)
def test_bad_input_raises_a_documented_error_that_says_how_to_fix_it(action, error, hint, tiny_regex_budget):
    with pytest.raises(error) as raised:
        action()
    assert hint in str(raised.value)
    assert isinstance(raised.value, ValueError)  # the app and CLI catch ValueError subclasses only


def test_a_corpus_of_exactly_the_limit_is_accepted_and_one_character_more_is_not():
    at_limit = "a" * MAX_CORPUS_CHARS
    assert check_corpus_size(at_limit) is at_limit
    with pytest.raises(BpeError, match=f"{MAX_CORPUS_CHARS + 1:,} characters, over the limit of {MAX_CORPUS_CHARS:,}"):
        check_corpus_size(at_limit + "a")


def test_a_utf8_file_with_nul_and_control_characters_is_text_and_a_byte_order_mark_is_dropped():
    assert decode_text_file(b"a\x00b\x01c", name="log.txt") == "a\x00b\x01c"
    assert decode_text_file("\ufefflow".encode(), name="bom.txt") == "low"


def test_every_row_of_the_bad_input_table_is_covered_here():
    table = (Path(__file__).resolve().parents[1] / "docs" / "bad-input.md").read_text(encoding="utf-8")
    for row in [*STOPS_WITHOUT_ERROR, *RAISES]:
        assert f"| {row} |" in table, row
