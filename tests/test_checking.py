"""Check my BPE: learner-style trainers with one classic mistake each must get the right diagnosis.

The learners live in ``tests/learners.py`` and share no code with the engine; golden counts below
are counted by hand from the corpora.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe.checking import MISTAKES, UNEXPLAINED, CheckCorpus, check_merges, read_learner_merges, replay
from bpe.checking.diagnose import spelled_merges
from bpe.errors import BpeError, FormatError
from bpe.training.presets import PRESETS, SENNRICH_TEXT, SENNRICH_WORDS, python_docs_text
from bpe.training.settings import TrainSettings
from bpe.training.tiebreak import TIE_BREAK_RULES
from bpe.training.trainer import train

from .examples import examples
from .learners import LEARNERS

SPECIAL = "<|endoftext|>"
CORPORA = {
    "sennrich": SENNRICH_TEXT,
    "python-docs excerpt": python_docs_text()[:20_000],
    "accents": "le café crème, déjà vu; à la carte; naïve façade " * 5 + "über straße grüße",
    "stretched": "hmmm... zzzz, sooo goood, aaaah! wheee, yesss, nooo, booo, mmmm, brrr, ssssh " * 6,
    "cjk": "東京は日本の首都です。東京タワー、東京駅、京都と大阪。🙂🙂 日本語の文字 " * 6,
    "specials": "hello world<|endoftext|>the world says hello<|endoftext|>" * 8,
    "docs with specials": SPECIAL.join(python_docs_text()[i:i + 1500] for i in range(0, 9000, 1500)),
}
# What the learners mean: GPT-2's split on bytes, ties to the greater pair (CS336's homework).
MEANT = TrainSettings(unit="byte", pretokenizer="gpt2", tie_break="lexicographic-max", min_frequency=1)
MARKED = TrainSettings.from_dict({**MEANT.to_dict(), "end_of_word": "</w>"})

# (learner, corpus, expected code): every code, most on several corpora.
CASES = [
    ("tie-break", "sennrich"), ("tie-break", "python-docs excerpt"), ("tie-break", "cjk"),
    ("overlapping-pairs", "python-docs excerpt"), ("overlapping-pairs", "stretched"),
    ("chunk-boundary", "sennrich"), ("chunk-boundary", "accents"), ("chunk-boundary", "cjk"),
    ("special-token", "specials"), ("special-token", "docs with specials"),
    ("word-frequency", "sennrich"), ("word-frequency", "accents"), ("word-frequency", "specials"),
    ("replacement", "python-docs excerpt"), ("replacement", "stretched"),
    ("replacement-overlap", "python-docs excerpt"), ("replacement-overlap", "stretched"),
    ("unit", "accents"), ("unit", "cjk"),
    ("end-of-word", "sennrich"), ("end-of-word", "accents"), ("end-of-word", "python-docs excerpt"),
]


def _settings(corpus: str, *, marker: bool = False) -> TrainSettings:
    specials = (SPECIAL,) if SPECIAL in CORPORA[corpus] else ()
    return TrainSettings.from_dict({**(MARKED if marker else MEANT).to_dict(), "special_tokens": specials})


def _learner_merges(learner: str, corpus: str, merges: int = 40):
    text = CORPORA[corpus]
    specials = (SPECIAL,) if SPECIAL in text else ()
    extra = {"marker": "</w>"} if learner == "end-of-word" else {}
    return LEARNERS[learner](text, merges, specials, **extra)


@pytest.mark.parametrize("learner, corpus", CASES, ids=[f"{code} on {corpus}" for code, corpus in CASES])
def test_a_learner_with_one_classic_mistake_is_diagnosed_with_its_code(learner, corpus):
    merges = _learner_merges(learner, corpus)
    result = check_merges(merges, CheckCorpus(text=CORPORA[corpus]), _settings(corpus, marker=learner == "end-of-word"))
    code = learner.split("-overlap")[0] if learner == "replacement-overlap" else learner
    assert result.matching < result.total  # the mistake shows on this corpus
    assert [cause.code for cause in result.diagnosis] == [code]
    assert result.best.matching == result.total  # the diagnosed variant reproduces every merge
    assert result.best.variant.code == code


@pytest.mark.parametrize("corpus", list(CORPORA))
def test_a_correct_learner_gets_no_diagnosis(corpus):
    merges = _learner_merges(None, corpus)
    result = check_merges(merges, CheckCorpus(text=CORPORA[corpus]), _settings(corpus))
    assert (result.matching, result.total, result.diagnosis, result.divergence) == (len(merges), len(merges), (), None)


def test_merges_past_where_the_reference_stops_are_not_counted_as_matching():
    # "ab ab ab" under the whitespace split holds one pair: the reference makes (a, b) and stops
    learner = [(b"a", b"b"), (b"ab", b"c")]
    settings = TrainSettings(unit="byte", pretokenizer="whitespace", tie_break="lexicographic-max", min_frequency=1)
    result = check_merges(learner, CheckCorpus(text="ab ab ab"), settings)
    assert (result.matching, result.total) == (1, 2)
    assert result.count_note() is None  # not "all 2 of your merges match"


def test_a_missing_end_of_word_marker_is_said_to_be_a_loop_one_short_or_no_marker_which_no_line_tells_apart():
    # With </w> a symbol of its own, a pair loop one short never counts a pair with the marker: the
    # merges of no marker at all, on every corpus. The settings say </w>, so the code comes first.
    merges = LEARNERS[None](SENNRICH_TEXT, 20)  # no marker, while the reference appends </w>
    result = check_merges(merges, CheckCorpus(text=SENNRICH_TEXT), MARKED)
    assert [cause.code for cause in result.diagnosis] == ["loop-bound"]
    (other,) = [a for a in result.verdict.alternatives if a.code == "end-of-word"]
    assert (other.label, other.separation) == ("no end-of-word marker", None)
    assert "no line I tried tells it from" in result.verdict.alternatives_sentence(result.best.label)


def test_a_learner_on_a_word_table_is_diagnosed_too():
    merges = LEARNERS["word-frequency"](words=dict(SENNRICH_WORDS), num_merges=12)
    result = check_merges(merges, CheckCorpus(words=SENNRICH_WORDS), MEANT)
    assert [cause.code for cause in result.diagnosis] == ["word-frequency"]


def test_the_tie_break_diagnosis_names_the_rule_that_reproduces_the_merges():
    merges = _learner_merges("tie-break", "python-docs excerpt")
    result = check_merges(merges, CheckCorpus(text=CORPORA["python-docs excerpt"]), _settings("python-docs excerpt"))
    assert result.best.label == "ties broken by first-seen"
    assert "ties broken by first-seen" in result.diagnosis[0].message
    assert "lexicographic-max" in result.diagnosis[0].message  # the fix names the reference's rule


def test_two_mistakes_at_once_are_both_named():
    text = CORPORA["python-docs excerpt"]
    merges = LEARNERS["overlapping-pairs"](text, 40)  # counts without overlap, ties to the greater pair
    meant = TrainSettings.from_dict({**MEANT.to_dict(), "tie_break": "first-seen"})
    result = check_merges(merges, CheckCorpus(text=text), meant)
    assert sorted(cause.code for cause in result.diagnosis) == ["overlapping-pairs", "tie-break"]
    assert result.best.matching == result.total


def test_the_first_difference_has_both_pairs_and_their_counts_at_that_step():
    # low 5, lower 2, newest 6, widest 3 as characters: (e, s) and (s, t) both occur 6 + 3 = 9 times.
    result = check_merges([(b"s", b"t"), (b"e", b"st")], CheckCorpus(words=SENNRICH_WORDS),
                          TrainSettings(unit="char", pretokenizer="whitespace", min_frequency=1))
    first = result.divergence
    assert (result.matching, first.step) == (0, 1)
    assert (first.ours.spelled, first.ours.count, first.theirs.spelled, first.theirs.count) == ((b"e", b"s"), 9, (b"s", b"t"), 9)
    assert (first.tie_count, set(first.tied)) == (2, {(b"e", b"s"), (b"s", b"t")})
    assert dict((word, weight) for word, weight, _ in first.theirs.words) == {"newest": 6, "widest": 3}


def test_counts_at_the_difference_are_taken_after_the_matching_merges():
    # "aaa aaa ab ab ab": (a, a) 2 + 2 = 4 first; then "aa a" twice: (aa, a) 2, while (a, b) 3.
    result = check_merges([(b"a", b"a"), (b"aa", b"a")], CheckCorpus(text="aaa aaa ab ab ab"),
                          TrainSettings(pretokenizer="whitespace", min_frequency=1))
    first = result.divergence
    assert (first.step, first.ours.spelled, first.ours.count, first.theirs.count) == (2, (b"a", b"b"), 3, 2)


def test_the_rest_of_the_list_says_where_the_reference_learned_each_merge():
    result = check_merges([(b"s", b"t"), (b"e", b"s"), (b"q", b"q")], CheckCorpus(words=SENNRICH_WORDS),
                          TrainSettings(unit="char", pretokenizer="whitespace", min_frequency=1))
    assert [(step, at) for step, _, at in result.rest] == [(1, None), (2, 1), (3, None)]


def test_merges_nothing_explains_are_reported_as_unexplained_with_the_evidence():
    first = LEARNERS[None](SENNRICH_TEXT, 1)
    merges = [*first, (b"q", b"z"), (b"x", b"y")]  # (q, z) occurs nowhere in the corpus
    result = check_merges(merges, CheckCorpus(text=SENNRICH_TEXT), MEANT)
    assert result.matching == 1
    (cause,) = result.diagnosis
    assert cause.code == UNEXPLAINED
    assert result.divergence.theirs.count == 0
    assert "does not occur at all" in cause.message and f"{len(result.attempts)} re-trainings" in cause.message


def test_unknown_settings_are_guessed_before_the_diagnosis():
    merges = LEARNERS[None](SENNRICH_TEXT, 15, split=str.split, symbols=lambda w: [c.encode() for c in w])
    result = check_merges(merges, CheckCorpus(text=SENNRICH_TEXT), TrainSettings(min_frequency=1), guess=True)
    assert (result.matching, result.diagnosis, result.guessed) == (result.total, (), True)
    assert (result.settings.pretokenizer, result.settings.tie_break) == ("whitespace", "lexicographic-max")


@pytest.mark.parametrize("preset", ["sennrich", "cs336", "sennrich-paper", "wikipedia", "hf-course"])
@pytest.mark.parametrize("rule", list(TIE_BREAK_RULES))
def test_the_compact_trainer_without_mistakes_makes_the_reference_merges(preset, rule):
    settings = TrainSettings.from_dict({**PRESETS[preset].settings.to_dict(), "tie_break": rule, "merges": 40,
                                        "min_frequency": 1})
    corpus = PRESETS[preset].corpus()
    merges = spelled_merges(train(corpus, settings))
    assert replay(corpus, settings, merges).matching == len(merges)


def test_every_mistake_has_an_explanation_and_each_variant_a_fix():
    for code, mistake in MISTAKES.items():
        assert mistake.code == code and mistake.explanation
        for variant in mistake.variants(TrainSettings(special_tokens=(SPECIAL,), end_of_word="</w>"), clues()):
            assert variant.code == code and variant.fix and variant.label


def clues():
    from bpe.checking.mistakes import Clues

    return Clues(markers=("</w>",))


# -- reading the learner's file ------------------------------------------------------------------
def test_gpt2_merges_lines_are_read_as_bytes():
    read = read_learner_merges("#version: 0.2\nĠ t\nĠt he\nÃ ©\n", name="vocab.bpe")
    assert (read.shape, read.pairs) == ("gpt2", ((b" ", b"t"), (b" t", b"he"), (b"\xc3", b"\xa9")))


def test_plain_lines_are_read_as_text_and_with_a_version_header_as_subword_nmt_codes():
    for text, shape in (("e s\nes t</w>\n東 京\n", "text"), ("#version: 0.2\ne s\nes t</w>\n東 京\n", "subword-nmt")):
        read = read_learner_merges(text, name="merges.txt")
        assert (read.shape, read.pairs) == (shape, ((b"e", b"s"), (b"es", b"t</w>"), ("東".encode(), "京".encode())))


def test_a_minbpe_model_is_read_by_ids():
    read = read_learner_merges("minbpe v1\n\n0\n97 97\n256 98\n", name="my.model")
    assert (read.shape, read.pairs) == ("minbpe", ((b"a", b"a"), (b"aa", b"b")))


def test_a_hugging_face_tokenizer_json_is_read_and_checked():
    from .peers import HfTokenizer, models, pre_tokenizers, trainers

    tokenizer = HfTokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    tokenizer.decoder = __import__("tokenizers").decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=256 + 30, min_frequency=0, show_progress=False,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    tokenizer.train_from_iterator([SENNRICH_TEXT * 3], trainer)
    read = read_learner_merges(tokenizer.to_str(), name="tokenizer.json")
    hf = [tuple(m) if isinstance(m, list) else tuple(m.split(" ")) for m in json.loads(tokenizer.to_str())["model"]["merges"]]
    # ASCII text: GPT-2's byte alphabet only stands in "Ġ" for the space
    assert read.shape == "hf"
    assert read.pairs == tuple((a.replace("Ġ", " ").encode(), b.replace("Ġ", " ").encode()) for a, b in hf)
    hf_rule = TrainSettings(tie_break="hf", min_frequency=1)
    assert check_merges(read.pairs, CheckCorpus(text=SENNRICH_TEXT * 3), hf_rule).diagnosis == ()
    result = check_merges(read.pairs, CheckCorpus(text=SENNRICH_TEXT * 3), TrainSettings(tie_break="first-seen", min_frequency=1))
    assert [cause.code for cause in result.diagnosis] == ["tie-break"]
    assert "ties broken by hf" in result.diagnosis[0].message


def test_bpe_lab_json_and_train_json_output_are_read():
    from bpe.cli.commands import merge_records
    from bpe.encoding.tokenizer import Tokenizer

    trace = train(PRESETS["sennrich-paper"].corpus(), PRESETS["sennrich-paper"].settings)
    expected = tuple(spelled_merges(trace))
    assert b"</w>" in b"".join(b for pair in expected for b in pair)
    assert read_learner_merges(Tokenizer.from_trace(trace).to_json()).pairs == expected
    output = json.dumps({"merges": merge_records(trace), "settings": trace.settings.to_dict()})
    assert read_learner_merges(output).pairs == expected


@pytest.mark.parametrize("text, says", [
    ("", "holds no merges"),
    ("e s x\n", "expected two tokens"),
    ("{\"merges\": 3}", "no tokenizer file and has no list of merges"),
    ("minbpe v1\n\n0\n300 1\n", "only ids below"),
])
def test_a_malformed_merges_file_is_a_format_error_that_says_why(text, says):
    with pytest.raises(FormatError, match=says):
        read_learner_merges(text, name="merges.txt")


def test_a_retraining_that_goes_part_of_the_way_is_never_named_as_the_cause():
    # Wikipedia's text, lexicographic-min meant; the learner's ties go to the greater pair (aa+a, then
    # aaa+b, d+aaab), and its last merge (q, q) occurs nowhere: nothing explains that one, so the
    # greater pair, which reproduces 4 of the 5, is in the table of tries and not in the verdict.
    merges = [(b"a", b"a"), (b"aa", b"a"), (b"aaa", b"b"), (b"d", b"aaab"), (b"q", b"q")]
    result = check_merges(merges, CheckCorpus(text="aaabdaaabac"),
                          TrainSettings(pretokenizer="none", tie_break="lexicographic-min", min_frequency=1))
    assert (result.matching, result.best.matching, result.verdict.kind) == (1, 1, "unknown")
    assert max(a.matching for a in result.attempts if a.label == "ties broken by lexicographic-max") == 4
    (cause,) = result.diagnosis
    assert cause.code == UNEXPLAINED and "lexicographic-max" not in cause.message
    assert cause.message.startswith("Not one of the mistakes I know: none of the")


def test_unknown_settings_find_an_end_of_word_marker_spelled_in_the_merges():
    merges = LEARNERS[None](SENNRICH_TEXT, 15, marker="</w>")
    result = check_merges(merges, CheckCorpus(text=SENNRICH_TEXT), TrainSettings(min_frequency=1), guess=True)
    assert (result.matching, result.diagnosis) == (15, ())
    assert (result.settings.end_of_word, result.settings.tie_break) == ("</w>", "lexicographic-max")


LINES = st.lists(st.tuples(st.text(min_size=0, max_size=4), st.text(min_size=0, max_size=4)), max_size=6)


@settings(max_examples=examples(200), deadline=None)
@given(raw=st.one_of(st.binary(max_size=80), LINES.map(lambda pairs: "".join(f"{a} {b}\n" for a, b in pairs)),
                     st.sampled_from(["{", "{}", "[]", "minbpe v1", "minbpe v1\n\n1\n", "#version: 0.3\na b\n", "\ufeffa b"])))
def test_any_merges_file_is_read_or_refused_with_a_format_error(raw):
    try:
        read = read_learner_merges(raw, name="fuzz.txt")
    except BpeError as error:
        assert str(error)
        return
    assert read.pairs and all(isinstance(a, bytes) and isinstance(b, bytes) for a, b in read.pairs)


@settings(max_examples=examples(40), deadline=None)
@given(pairs=st.lists(st.tuples(st.sampled_from([b"a", b"b", b"ab", b" ", b"ba", b"\xc3"]),
                                st.sampled_from([b"a", b"b", b"ab", b" a", b"\xa9"])), min_size=1, max_size=6))
def test_any_merges_checked_on_any_text_give_a_consistent_answer(pairs):
    result = check_merges(pairs, CheckCorpus(text="abab ab a b ba é"), MEANT, time_limit_s=5)
    assert 0 <= result.matching <= result.total == len(pairs)
    assert (result.divergence is None) == (result.matching == result.total) == (result.diagnosis == ())
    assert result.best.matching >= result.matching


def test_a_reference_that_cannot_finish_in_time_is_an_error_that_says_why(slow_clock):
    merges = LEARNERS[None](CORPORA["python-docs excerpt"], 30)
    with pytest.raises(BpeError, match="the reference needed over 1 s for 30 merges on this corpus and stopped after 0;"):
        check_merges(merges, CheckCorpus(text=CORPORA["python-docs excerpt"]), MEANT, time_limit_s=1)
