"""The "predict the next merge" quiz: questions built from a trace, graded in plain words."""

from dataclasses import replace

import pytest
from hypothesis import given, settings as hypothesis_settings, strategies as st

from bpe import PRESETS, TIE_BREAK_RULES, Corpus, TrainSettings, train
from bpe.teaching.quiz import CORRECT, RIGHT_COUNT, WRONG, Score, grade, make_question

from .examples import examples

WIKIPEDIA = train(PRESETS["wikipedia"].corpus(), PRESETS["wikipedia"].settings)
AA, A, B = 256, ord("a"), ord("b")


def test_the_quiz_scores_a_right_answer():
    question = make_question(WIKIPEDIA, 0)
    result = grade(question, (A, A))
    assert result.correct and result.verdict == CORRECT
    assert "'a' + 'a' occurs 4 times" in result.explanation
    assert "next best: 'a' + 'b', 2 times" in result.explanation
    assert Score().add(result) == Score(answered=1, correct=1, right_count=0, streak=1, best_streak=1)


def test_the_quiz_scores_a_wrong_answer():
    question = make_question(WIKIPEDIA, 0)
    result = grade(question, (A, B))
    assert not result.correct and result.verdict == WRONG
    assert result.explanation.startswith("Not this one: 'a' + 'b' occurs 2 times, but 'a' + 'a' occurs 4 times")
    assert Score().add(result) == Score(answered=1, correct=0, right_count=0, streak=0, best_streak=0)


def test_a_tied_pair_that_lost_the_tie_break_gets_its_own_verdict():
    result = grade(make_question(WIKIPEDIA, 1), (AA, A))
    assert result.verdict == RIGHT_COUNT
    assert result.explanation.startswith("Right count, but the tie-break picks 'a' + 'b'")
    assert "It was a tie between 2 pairs at count 2, and the lexicographic-min rule picks 'a' + 'b'" in result.explanation
    assert "smallest" in result.explanation


def test_a_pair_tied_at_the_top_count_beyond_the_ties_the_trace_kept_is_a_right_count_not_wrong():
    # merge 2 of Wikipedia's example ties (Z, a) and (a, b) at 2; keep only the winner in the trace
    settings = replace(PRESETS["wikipedia"].settings, max_ties=1)
    trace = train(PRESETS["wikipedia"].corpus(), settings)
    question = make_question(trace, 1)
    assert question.tie_count == 2 and question.tied == ((A, B),)  # (Z, a) tied, but not kept
    result = grade(question, (AA, A))
    assert result.verdict == RIGHT_COUNT, result.explanation
    assert result.explanation.startswith("Right count, but the tie-break picks 'a' + 'b'")


def test_grading_reveals_the_count_of_every_candidate_most_frequent_first():
    question = make_question(WIKIPEDIA, 0)
    counts = [candidate.count for candidate in grade(question, (A, A)).counts]
    assert counts[0] == 4 and counts == sorted(counts, reverse=True)
    assert {candidate.pair for candidate in grade(question, (A, A)).counts} == {c.pair for c in question.candidates}


@pytest.mark.parametrize(
    "rule, because",
    [
        ("first-seen", "it occurs first in the text"),
        ("lexicographic-max", "its byte strings are the greatest"),
        ("lexicographic-min", "its byte strings are the smallest"),
        ("hf", "smallest ids in Hugging Face's numbering"),
        ("smallest-ids", "smallest raw ids"),
    ],
)
def test_the_explanation_of_a_tie_gives_the_rules_own_reason(rule, because):
    trace = train(PRESETS["wikipedia"].corpus(), replace(PRESETS["wikipedia"].settings, tie_break=rule))
    question = make_question(trace, 1)
    result = grade(question, question.answer)
    assert result.correct
    assert f"the {rule} rule picks" in result.explanation and because in result.explanation


def test_the_last_step_has_no_next_merge_and_says_why_training_stopped():
    question = make_question(WIKIPEDIA, 3)
    assert question.finished and question.candidates == ()
    assert "below the minimum frequency 2" in question.prompt
    with pytest.raises(ValueError, match="no merge 4"):
        grade(question, (A, A))


def test_a_run_cut_short_by_the_merge_budget_asks_to_train_longer():
    trace = train(PRESETS["sennrich"].corpus(), PRESETS["sennrich"].settings)
    assert "Train longer" in make_question(trace, len(trace.steps)).prompt


def test_the_same_seed_gives_the_same_question_and_other_seeds_may_reorder_it():
    assert make_question(WIKIPEDIA, 1, seed=7) == make_question(WIKIPEDIA, 1, seed=7)
    orders = {tuple(c.pair for c in make_question(WIKIPEDIA, 1, seed=seed).candidates) for seed in range(20)}
    assert len(orders) > 1


def test_a_tie_puts_a_tied_pair_and_a_lower_pair_among_the_choices():
    question = make_question(WIKIPEDIA, 1, choices=3)
    counts = sorted(c.count for c in question.candidates)
    assert len(question.candidates) == 3 and counts == [1, 2, 2]


def test_a_trace_without_recorded_top_pairs_still_asks_about_the_true_pair():
    trace = train(Corpus.from_text("abab", pretokenizer="none"), TrainSettings(pretokenizer="none", top_k=0))
    question = make_question(trace, 0)
    assert [c.pair for c in question.candidates] == [(A, B)]


def test_the_score_keeps_the_best_streak_and_counts_right_counts():
    right, tied, wrong = (grade(make_question(WIKIPEDIA, 1), pair) for pair in [(A, B), (AA, A), (ord("a"), ord("c"))])
    score = Score().add(right).add(right).add(tied).add(right).add(wrong)
    assert score == Score(answered=5, correct=3, right_count=1, streak=0, best_streak=2)


@hypothesis_settings(max_examples=examples(60), deadline=None)
@given(
    text=st.text(alphabet="ab c", min_size=2, max_size=30),
    rule=st.sampled_from(sorted(TIE_BREAK_RULES)),
    seed=st.integers(0, 5),
    choices=st.integers(1, 6),
)
def test_the_candidates_always_contain_the_true_next_pair(text, rule, seed, choices):
    trace = train(
        Corpus.from_text(text, pretokenizer="none"),
        TrainSettings(pretokenizer="none", tie_break=rule, min_frequency=1, merges=8),
    )
    for k, step in enumerate(trace.steps):
        question = make_question(trace, k, choices=choices, seed=seed)
        pairs = [c.pair for c in question.candidates]
        assert (step.left, step.right) in pairs and len(pairs) == len(set(pairs)) <= choices
        for candidate in question.candidates:
            verdict = grade(question, candidate.pair).verdict
            assert (verdict == CORRECT) == (candidate.pair == question.answer)
            assert (verdict == RIGHT_COUNT) == (candidate.pair != question.answer and candidate.count == step.count)


PYTHON_DOCS_300 = train(PRESETS["python-docs"].corpus(), replace(PRESETS["python-docs"].settings, merges=300))


def answer_positions(questions) -> list[int]:
    return [[c.pair for c in question.candidates].index(question.answer) for question in questions]


def test_over_200_questions_of_one_learner_the_answer_stands_in_every_place_at_least_15_percent():
    questions = [make_question(PYTHON_DOCS_300, step, seed="learner-a1b2") for step in range(200)]
    assert all(len(question.candidates) == 4 for question in questions)
    positions = answer_positions(questions)
    shares = [positions.count(place) / len(positions) for place in range(4)]
    assert min(shares) >= 0.15, shares


def test_over_200_learners_the_answer_to_the_first_question_stands_in_every_place_at_least_15_percent():
    sennrich = train(PRESETS["sennrich"].corpus(), PRESETS["sennrich"].settings)
    for step in (0, 1):  # the first two questions were option 1 on every corpus before seeds were per learner
        positions = answer_positions(make_question(sennrich, step, seed=f"seat-{n}") for n in range(200))
        shares = [positions.count(place) / len(positions) for place in range(4)]
        assert min(shares) >= 0.15, (step, shares)


def test_a_learner_meets_the_same_order_again_and_another_learner_may_not():
    again = [make_question(PYTHON_DOCS_300, step, seed="seat-x") for step in range(20)]
    assert again == [make_question(PYTHON_DOCS_300, step, seed="seat-x") for step in range(20)]
    assert answer_positions(again) != answer_positions(make_question(PYTHON_DOCS_300, step, seed="seat-y") for step in range(20))


def test_a_three_way_tie_offers_the_pair_another_rule_would_merge_the_other_tied_pair_and_a_runner_up():
    sennrich = train(PRESETS["sennrich"].corpus(), PRESETS["sennrich"].settings)  # merge 3: o+w, l+o, ·+l at 7
    question = make_question(sennrich, 2)
    by_label = {c.label: c.count for c in question.candidates}
    assert by_label == {"'o' + 'w'": 7, "'l' + 'o'": 7, "'·' + 'l'": 7, "'w' + 'est'": 6}


def test_a_tied_pair_another_rule_would_pick_comes_before_tied_pairs_no_rule_picks():
    # merge 2 of Wikipedia under lexicographic-max: aa + a wins; lexicographic-min would merge a + b
    trace = train(PRESETS["wikipedia"].corpus(), replace(PRESETS["wikipedia"].settings, tie_break="lexicographic-max"))
    question = make_question(trace, 1, choices=2)
    assert {c.label for c in question.candidates} == {"'aa' + 'a'", "'a' + 'b'"}
