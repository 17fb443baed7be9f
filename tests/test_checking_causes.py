"""Check my BPE names the bugs no older test covered: a replacement that leaves the pair behind, text
changed before training, a merge count off by one, and unknown settings on a corpus with special
tokens; and it guesses real subword-nmt codes.

The learners live in ``tests/learners.py`` and share no code with the engine; subword-nmt's own
``learn_bpe`` writes the codes files.
"""

from __future__ import annotations

import contextlib
import io
import json
from dataclasses import replace

import pytest
from subword_nmt.learn_bpe import learn_bpe

from bpe.checking import CheckCorpus, check_merges, read_learner_merges
from bpe.training.presets import python_docs_text
from bpe.training.settings import TrainSettings

from .learners import LEARNERS, learn, learn_vocabulary
from .test_checking import CORPORA, MEANT, SPECIAL, _settings

MORE = {
    "headlines": "The Quick Brown Fox Jumps Over The Lazy Dog. THE END. The fox, The dog, This Is It " * 6,
    "ligatures": "the ﬁrst ﬂoor, a ﬁne ﬁeld of ﬂowers; ﬁve ﬂags ﬁt ½ of ¼ ① ② " * 6,
    "fullwidth": "ＡＢＣ ａｂｃ ＡＢＣ １２３ ｆｕｌｌ ｗｉｄｔｈ ｔｅｘｔ， ａｂｃ！ " * 6,
    "code": "def f(x):\n    return x + 1\n\n\nclass A:\n    def g(self):\n        return  self.x\n\n" * 6,
}
TEXTS = {**CORPORA, **MORE}

# (learner, corpus, code, the re-training that reproduces it)
CASES = [
    ("replacement-first-place", "python-docs excerpt", "replacement", "only the first place in each word replaced"),
    ("replacement-first-place", "stretched", "replacement", "only the first place in each word replaced"),
    ("replacement-first-place", "code", "replacement", "only the first place in each word replaced"),
    ("replacement-first-word", "sennrich", "replacement", "only the first word holding the pair replaced"),
    ("replacement-first-word", "python-docs excerpt", "replacement", "only the first word holding the pair replaced"),
    ("replacement-first-word", "cjk", "replacement", "only the first word holding the pair replaced"),
    ("normalization-lowercase", "python-docs excerpt", "normalization", "text lowercased first"),
    ("normalization-lowercase", "headlines", "normalization", "text lowercased first"),
    ("normalization-nfkc", "ligatures", "normalization", "text NFKC-normalized first"),
    ("normalization-nfkc", "fullwidth", "normalization", "text NFKC-normalized first"),
    ("normalization-collapse", "python-docs excerpt", "normalization", "whitespace collapsed to single spaces"),
    ("normalization-collapse", "code", "normalization", "whitespace collapsed to single spaces"),
]


def _check(learner: str, corpus: str, merges: int = 40, **options):
    text = TEXTS[corpus]
    specials = (SPECIAL,) if SPECIAL in text else ()
    pairs = LEARNERS[learner](text, merges, specials)
    settings = TrainSettings.from_dict({**MEANT.to_dict(), "special_tokens": specials})
    return pairs, check_merges(pairs, CheckCorpus(text=text), settings, **options)


@pytest.mark.parametrize("learner, corpus, code, label", CASES, ids=[f"{case[0]} on {case[1]}" for case in CASES])
def test_a_new_bug_is_diagnosed_with_its_code_and_the_retraining_that_reproduces_it(learner, corpus, code, label):
    pairs, result = _check(learner, corpus)
    assert result.matching < result.total  # the bug shows on this corpus
    assert [cause.code for cause in result.diagnosis] == [code]
    assert (result.best.label, result.best.matching) == (label, result.total)
    assert f"Re-training with {label}: this reproduces all {result.total} of your merges" in result.diagnosis[0].message


@pytest.mark.parametrize("learner", ["replacement-first-place", "replacement-first-word"])
def test_a_replacement_that_leaves_the_pair_behind_repeats_merges_which_are_read_and_explained(learner):
    pairs, result = _check(learner, "python-docs excerpt")
    assert len(set(pairs)) < len(pairs)  # the same merge twice: what the old checker refused
    written = json.dumps([[a.decode(), b.decode()] for a, b in pairs])  # spaces and line breaks kept
    read = read_learner_merges(written, name="merges.json")
    assert (read.shape, read.pairs) == ("json", tuple(pairs))
    assert "a merge can repeat in your list" in result.diagnosis[0].message


def test_the_student_count_at_the_first_difference_comes_from_the_retraining_that_reproduces_them():
    # lowercased python docs: the learner's pair at the difference is counted in *their* text, where
    # capitals have become small letters, so its count there is higher than in the reference's text
    _, result = _check("normalization-lowercase", "python-docs excerpt")
    d, yours = result.divergence, result.yours
    assert yours is not None and yours.retrained_with == "text lowercased first"
    assert (yours.yours.spelled, yours.reference.spelled) == (d.theirs.spelled, d.ours.spelled)
    assert yours.yours.count > d.theirs.count
    assert yours.yours.count >= yours.reference.count  # their trainer chose their pair: at least as frequent there
    assert yours.yours.words and d.theirs.words is not None


@pytest.mark.parametrize("corpus, merges", [("specials", 10), ("docs with specials", 30)])
@pytest.mark.parametrize("bug, says", [("stops short", "stops 1 short"), ("runs on", "runs on 1 past the size asked for")])
def test_a_merge_count_off_by_one_is_said_with_the_vocabulary_formula(corpus, merges, bug, says):
    text, vocab_size = TEXTS[corpus], 256 + merges + 1
    pairs = learn_vocabulary(text, vocab_size, (SPECIAL,), bug=bug)
    settings = replace(_settings(corpus), vocab_size=vocab_size)
    result = check_merges(pairs, CheckCorpus(text=text), settings)
    assert result.matching == result.total  # every merge is the reference's: only the count is off
    (cause,) = result.diagnosis
    assert cause.code == "merge-count" and says in cause.message
    assert f"256 base tokens + {merges} merges + 1 special token = {vocab_size}" in cause.message


def test_a_list_that_matches_all_the_way_says_that_the_reference_goes_on():
    pairs = LEARNERS[None](TEXTS["python-docs excerpt"], 20)
    result = check_merges(pairs, CheckCorpus(text=TEXTS["python-docs excerpt"]), MEANT)
    assert result.diagnosis == ()
    note = result.count_note()
    assert note.startswith("All 20 of your merges match; the reference goes on: its merge 21 is ")
    assert "256 base tokens + 20 merges + 0 special tokens = 276" in note


@pytest.mark.parametrize("corpus", ["specials", "docs with specials"])
def test_a_tie_rule_bug_with_unknown_settings_on_a_corpus_with_special_tokens_is_diagnosed(corpus):
    # CS336's homework: special tokens cut out, ties to the greater pair; this learner's max() keeps the
    # first pair it met. Nobody typed the special tokens or any setting in.
    pairs, result = _check("tie-break", corpus, merges=143, guess=True)
    assert result.guess.settings.special_tokens == (SPECIAL,)  # found in the corpus
    assert (result.guess.reproduced, result.guess.quality) == (len(pairs), "all")
    assert result.convention.name == "Stanford CS336" and result.settings.tie_break == "lexicographic-max"
    assert result.matching < result.total
    assert [cause.code for cause in result.diagnosis] == ["tie-break"]
    assert (result.best.label, result.best.matching) == ("ties broken by first-seen", result.total)


def _learn_bpe_codes(text: str, symbols: int) -> str:
    out = io.StringIO()
    with contextlib.redirect_stderr(io.StringIO()):  # learn_bpe reports progress on stderr
        learn_bpe(io.StringIO(text), out, symbols, min_frequency=2)
    return out.getvalue()


@pytest.mark.parametrize("start", [0, 200_000])
@pytest.mark.parametrize("header", [True, False], ids=["codes file", "its lines without the header"])
def test_subword_nmt_codes_with_their_corpus_are_guessed_200_of_200(start, header):
    text = python_docs_text()[start:start + 100_000]
    codes = _learn_bpe_codes(text, 200)
    if not header:  # read as plain lines: the guesser alone must find the glued marker
        codes = codes.split("\n", 1)[1]
    read = read_learner_merges(codes, name="bpe.codes")
    assert read.shape == ("subword-nmt" if header else "text")
    result = check_merges(read.pairs, CheckCorpus(text=text), TrainSettings(min_frequency=1), guess=True,
                          prefer=read.hints)
    assert (result.matching, result.total, result.diagnosis) == (200, 200, ())
    s = result.settings
    assert (s.unit, s.pretokenizer, s.end_of_word, s.end_of_word_mode, s.tie_break) == (
        "char", "space", "</w>", "attached", "lexicographic-max")
    assert result.guess.sentence() == "The guessed settings reproduce 200 of your 200 merges."


def test_subword_nmt_codes_that_stop_early_are_guessed_with_a_minimum_frequency_of_2():
    text = "low " * 5 + "lower " * 2 + "newest " * 6 + "widest " * 3 + "quick brown fox"
    codes = _learn_bpe_codes(text, 100)  # learn_bpe stops when no pair occurs twice, before "quick brown fox"
    read = read_learner_merges(codes, name="bpe.codes")
    result = check_merges(read.pairs, CheckCorpus(text=text), TrainSettings(min_frequency=1), guess=True,
                          prefer=read.hints)
    assert (result.matching, result.diagnosis, result.settings.min_frequency) == (result.total, (), 2)
    assert result.count_note().endswith("and the reference stops there too: no pair occurs 2 or more times any more.")


def test_a_guess_on_the_wrong_corpus_says_it_is_poor():
    pairs = learn(TEXTS["cjk"], 30)
    result = check_merges(pairs, CheckCorpus(text=TEXTS["sennrich"]), TrainSettings(min_frequency=1), guess=True)
    assert result.guess.quality == "poor"
    assert result.guess.sentence() == (f"The best guess reproduces only {result.guess.reproduced} of your 30 merges: these "
                                       "settings are probably not yours. Check the corpus is the one you trained on, or "
                                       "give the settings you know.")


def test_a_correct_learner_with_a_glued_marker_is_never_told_to_make_it_a_symbol_of_its_own():
    text = python_docs_text()[:50_000]
    read = read_learner_merges(_learn_bpe_codes(text, 100).split("\n", 1)[1], name="codes.txt")
    result = check_merges(read.pairs, CheckCorpus(text=text), TrainSettings(min_frequency=1), guess=True)
    assert result.diagnosis == () and "a symbol of its own" not in str(result.verdict)


def test_the_guess_stops_at_its_share_of_the_time_limit_and_still_answers(monkeypatch):
    import itertools
    from types import SimpleNamespace

    from bpe.checking import compact, diagnose, search

    clock = itertools.count(0, 1)  # a second passes at every look: a 20 s limit is spent in 20 looks
    for module in (compact, diagnose, search):
        monkeypatch.setattr(module, "time", SimpleNamespace(perf_counter=lambda: next(clock)))
    pairs, result = _check("tie-break", "docs with specials", merges=60, guess=True, time_limit_s=20)
    assert next(clock) < 60  # the guess stopped at 10 s and the search at 20 s, not after every candidate
    assert result.guess is not None and result.guess.total == 60 and result.skipped > 0
