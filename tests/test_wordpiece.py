"""WordPiece's score as a merge rule: the Hugging Face course's worked example, the reference, and BPE beside it.

The golden figures are the Hugging Face course's, chapter 6, "WordPiece tokenization"
(huggingface/course, chapters/en/chapter6/6.mdx), on the words of its BPE example::

    ("hug", 10), ("pug", 5), ("pun", 12), ("bun", 4), ("hugs", 5)

    The splits here will be: ("h" "##u" "##g", 10), ("p" "##u" "##g", 5), ("p" "##u" "##n", 12),
    ("b" "##u" "##n", 4), ("h" "##u" "##g" "##s", 5)
    [...] The most frequent pair is ("##u", "##g") (present 20 times), but the individual frequency
    of "##u" is very high, so its score is not the highest (it's 1 / 36). All pairs with a "##u"
    actually have that same score (1 / 36), so the best score goes to the pair ("##g", "##s") -- the
    only one without a "##u" -- at 1 / 20, and the first merge learned is ("##g", "##s") -> ("##gs").
    [...] Corpus: ("h" "##u" "##g", 10), ("p" "##u" "##g", 5), ("p" "##u" "##n", 12), ("b" "##u" "##n", 4),
    ("h" "##u" "##gs", 5)
    At this point, "##u" is in all the possible pairs, so they all end up with the same score. Let's
    say that in this case, the first pair is merged, so ("h", "##u") -> "hu". [...]
    Then the next best score is the one of ("hu", "##gs") (with 1/15), so this pair is merged.

BPE Lab keeps one symbol per character (the ``##`` is notation, ``bpe/training/score_choice.py`` says
why), which on these words is the course's alphabet exactly: h, p, b only begin words; u, g, n, s
only continue them.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe import PRESETS, Corpus, Trace, TrainSettings, reference, train
from bpe.errors import FormatError, SettingsError
from bpe.teaching.reference_code import train_step_lines
from bpe.training.objectives import OBJECTIVES
from bpe.training.tiebreak import TIE_BREAK_RULES

from .examples import examples
from .strategies import TEXT, WORD_TABLE
from .test_reference import reference_rule

COURSE = PRESETS["hf-course"]
WORDPIECE = replace(COURSE.settings, objective="wordpiece", merges=3)
# Every rule but SentencePiece's, which chooses among candidates of its own (refused with a score).
RULES = [name for name, rule in TIE_BREAK_RULES.items() if rule.candidates is None]


def spelled(trace: Trace, pair) -> tuple[str, str]:
    return trace.token_text(pair[0]), trace.token_text(pair[1])


def test_the_courses_first_merge_is_g_s_at_one_twentieth_where_the_most_frequent_pair_u_g_scores_one_thirty_sixth():
    trace = train(COURSE.corpus(), WORDPIECE)
    first, scores = trace.steps[0], trace.scores[0]
    assert spelled(trace, (first.left, first.right)) == ("g", "s") and scores.chosen.score == Fraction(1, 20)
    assert (scores.chosen.count, scores.chosen.left_count, scores.chosen.right_count) == (5, 20, 5)
    assert spelled(trace, scores.by_count) == ("u", "g") and scores.by_count_score.count == 20
    assert scores.by_count_score.score == Fraction(1, 36)
    # "All pairs with a ##u actually have that same score (1 / 36)"
    pairs = {spelled(trace, pair): score.score for pair, score in zip(first.top, scores.top)}
    with_u = {pair: score for pair, score in pairs.items() if "u" in pair}
    assert set(with_u) == {("h", "u"), ("u", "g"), ("p", "u"), ("u", "n"), ("b", "u")}
    assert set(with_u.values()) == {Fraction(1, 36)} and first.tie_count == 1


def test_the_courses_second_merge_breaks_a_tie_of_every_pair_at_one_thirty_sixth_for_the_first_h_u():
    trace = train(COURSE.corpus(), WORDPIECE)
    second, scores = trace.steps[1], trace.scores[1]
    assert spelled(trace, (second.left, second.right)) == ("h", "u")
    assert second.tie_count == 6 and {score.score for score in scores.top} == {Fraction(1, 36)}  # "##u is in all the possible pairs"


def test_the_courses_third_merge_is_hu_gs_at_one_fifteenth():
    trace = train(COURSE.corpus(), WORDPIECE)
    assert [trace.token_text(step.new_id) for step in trace.steps] == ["gs", "hu", "hugs"]
    assert trace.scores[2].chosen.score == Fraction(1, 15)


def test_the_reference_makes_the_courses_merges_with_its_own_lines():
    corpus = COURSE.corpus()
    merges = reference.train(dict(corpus.words), 3, unit="char", alphabet=corpus.alphabet, wordpiece=True, min_frequency=2)
    vocab = dict(enumerate(c.encode() for c in sorted(corpus.alphabet)))
    for merge in merges:
        vocab[merge.new_id] = vocab[merge.pair[0]] + vocab[merge.pair[1]]
    assert [vocab[merge.new_id] for merge in merges] == [b"gs", b"hu", b"hugs"]
    assert [merge.count for merge in merges] == [5, 15, 5]


def test_the_code_panel_shows_the_winners_score_worked_out_and_the_pair_the_count_would_merge():
    trace = train(COURSE.corpus(), WORDPIECE)
    values = {line.code.strip(): line.value for line in train_step_lines(trace, 1)}
    scored = next(value for code, value in values.items() if code.startswith("return {pair: Fraction"))
    assert scored == "'g' + 's': 5 / (20 × 5) = 1/20"
    frequent = next(value for code, value in values.items() if code.startswith("counted = {pair: score"))
    assert frequent == "the most frequent pair, 'u' + 'g' (20), scores 20 / (36 × 20) = 1/36"
    classic = {line.code.strip() for line in train_step_lines(train(COURSE.corpus(), COURSE.settings), 1)}
    assert not any(code.startswith(("if wordpiece", "counted = {pair: score", "return {pair: Fraction")) for code in classic)


# -- the fast trainer against the reference --------------------------------------------------------
PYTHON_DOCS_MERGES = 25
"""The reference rescores the whole corpus for every merge: python-docs is checked on its first merges."""
PRESET_RULES = [(name, rule) for name in PRESETS for rule in RULES if name != "python-docs" or rule == PRESETS[name].settings.tie_break]


def reference_merges(corpus: Corpus, settings_: TrainSettings, merges: int) -> list[tuple[int, int, int, int]]:
    learned = reference.train(
        dict(corpus.words), merges, unit=settings_.unit, alphabet=corpus.alphabet, end_of_word=settings_.end_of_word,
        tie_break=reference_rule(settings_.tie_break), min_frequency=settings_.min_frequency, wordpiece=True,
    )
    return [(*merge.pair, merge.count, merge.new_id) for merge in learned]


def merges_of(trace: Trace) -> list[tuple[int, int, int, int]]:
    return [(s.left, s.right, s.count, s.new_id) for s in trace.steps]


@pytest.mark.parametrize("name, rule", PRESET_RULES, ids=[f"{name}-{rule}" for name, rule in PRESET_RULES])
def test_the_fast_trainer_makes_the_references_wordpiece_merges_on_every_preset_under_every_rule(name, rule):
    preset = PRESETS[name]
    wanted = PYTHON_DOCS_MERGES if name == "python-docs" else preset.settings.target_merges(0)
    settings_ = replace(preset.settings, tie_break=rule, merges=wanted, objective="wordpiece")
    corpus = preset.corpus()
    expected = reference_merges(corpus, settings_, wanted)
    assert len(expected) >= min(wanted, 3)
    trace = train(corpus, settings_)
    assert merges_of(trace) == expected
    assert len(trace.scores) == len(trace.steps)


@pytest.mark.parametrize("unit", ["byte", "char"])
@pytest.mark.parametrize("rule", RULES)
@settings(max_examples=examples(40), deadline=None)
@given(word_counts=WORD_TABLE, end_of_word=st.sampled_from([None, "</w>"]), min_frequency=st.sampled_from([1, 2]))
def test_the_fast_trainer_makes_the_references_wordpiece_merges_on_random_word_tables(rule, unit, word_counts, end_of_word, min_frequency):
    corpus = Corpus.from_word_counts(word_counts)
    settings_ = TrainSettings(
        unit=unit, end_of_word=end_of_word, tie_break=rule, merges=40, min_frequency=min_frequency, objective="wordpiece",
    )
    assert merges_of(train(corpus, settings_)) == reference_merges(corpus, settings_, 40)


@pytest.mark.parametrize("rule", RULES)
@settings(max_examples=examples(40), deadline=None)
@given(text=TEXT, split=st.sampled_from(["none", "whitespace", "gpt2"]), unit=st.sampled_from(["byte", "char"]))
def test_the_fast_trainer_makes_the_references_wordpiece_merges_on_random_split_text(rule, text, split, unit):
    corpus = Corpus.from_text(text, pretokenizer=split)
    settings_ = TrainSettings(unit=unit, pretokenizer=split, tie_break=rule, merges=40, min_frequency=1, objective="wordpiece")
    assert merges_of(train(corpus, settings_)) == reference_merges(corpus, settings_, 40)


# -- WordPiece beside BPE ----------------------------------------------------------------------------
def equal_symbol_corpus(letters: str, times: int, cuts: list[int]) -> dict[str, int]:
    """Each of ``letters`` ``times`` times, in the order drawn, cut into words at ``cuts``: every symbol
    occurs equally often (a word seen twice counts twice)."""
    text = "".join(letters[i % len(letters)] for i in range(len(letters) * times))
    bounds = sorted({0, len(text), *(cut % (len(text) + 1) for cut in cuts)})
    return dict(Counter(text[start:end] for start, end in zip(bounds, bounds[1:])))


@pytest.mark.parametrize("rule", RULES)
@settings(max_examples=examples(60), deadline=None)
@given(
    letters=st.lists(st.sampled_from("abcdefg"), min_size=2, max_size=6, unique=True).map("".join),
    times=st.integers(min_value=1, max_value=6), cuts=st.lists(st.integers(min_value=0, max_value=60), max_size=8),
    unit=st.sampled_from(["byte", "char"]),
)
def test_on_a_corpus_whose_symbols_all_occur_equally_often_wordpieces_first_pick_is_bpes(rule, letters, times, cuts, unit):
    # every score is count(ab) / c², so the best score is the best count, and the same rule breaks the same tie
    words = equal_symbol_corpus(letters, times, cuts)
    symbols = Counter()
    for word, count in words.items():
        for letter in word:
            symbols[letter] += count
    assert len(set(symbols.values())) == 1
    corpus = Corpus.from_word_counts(words)
    by_count = train(corpus, TrainSettings(unit=unit, tie_break=rule, merges=1, min_frequency=1))
    by_score = train(corpus, TrainSettings(unit=unit, tie_break=rule, merges=1, min_frequency=1, objective="wordpiece"))
    assert merges_of(by_score) == merges_of(by_count)
    if by_score.steps:
        assert by_score.steps[0].tie_count == by_count.steps[0].tie_count


def test_wordpiece_and_bpe_part_on_the_courses_words_at_the_first_merge():
    classic, scored = (train(COURSE.corpus(), replace(COURSE.settings, objective=name, merges=1)) for name in ("classic", "wordpiece"))
    assert classic.token_text(classic.steps[0].new_id) == "ug" and scored.token_text(scored.steps[0].new_id) == "gs"


# -- settings and files --------------------------------------------------------------------------------
@pytest.mark.parametrize("changes, message", [
    (dict(tie_break="sentencepiece"), "one chooser per run"),
    (dict(transition=3, pretokenizer="gpt2"), "SuperBPE's second stage and wordpiece training are not combined"),
])
def test_a_combination_wordpiece_does_not_define_is_refused_saying_why(changes, message):
    with pytest.raises(SettingsError, match=message):
        TrainSettings(objective="wordpiece", **changes)


def test_a_wordpiece_trace_keeps_its_scores_through_its_json_and_a_malformed_score_is_refused():
    trace = train(COURSE.corpus(), replace(COURSE.settings, objective="wordpiece"))
    again = Trace.from_json(trace.to_json())
    assert again.scores == trace.scores and again.settings.objective == "wordpiece"
    broken = trace.to_json().replace('"scores":[[[[5,20,5]', '"scores":[[[[5,0,5]', 1)
    assert broken != trace.to_json()
    with pytest.raises(FormatError, match="its scores are not whole counts"):
        Trace.from_json(broken)


def test_every_objective_but_the_classic_is_written_into_a_trace_file():
    for name in OBJECTIVES:
        data = TrainSettings(objective=name).to_dict()
        assert (data.get("objective") == name) == (name != "classic")
