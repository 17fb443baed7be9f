"""The data-mixture inference: a program small enough to solve by hand, runs with a known mix, and its errors.

The golden program (worked by hand, counts per million bytes of two samples A and B of a million bytes):

* merge 1 is A's pair P (30 in A, 0 in B); B's pair Q (10 in B) was there and lost: 30 a >= 10 b;
* merge 2 is Q; A's other pair R (30 in A, never merged) was there and lost: 10 b >= 30 a.

So 30 a = 10 b with a + b = 1: a = 1/4, b = 3/4, and no slack is needed. Any other mix breaks one of
the two, and the least slack moves with it: at a = 0.3 merge 2 falls short by 30 (0.3) - 10 (0.7) = 2.
"""

from __future__ import annotations

import random
import sys

import pytest

from bpe import BpeError, Tokenizer, infer_mix
from bpe.analysis.known_mix import mixed_corpus, train_on_mix
from bpe.analysis.lp_solver import INSTALL_HINT, solve_highs
from bpe.analysis.merge_replay import MergeHistory, StepCounts
from bpe.analysis.mix_program import MixProgram
from bpe.analysis.mixture import mix_error
from bpe.analysis.samples import CATEGORIES, category_texts, halves, sample_text
from bpe.analysis.tasks import run_task

P, Q, R = (1, 2), (3, 4), (5, 6)
GOLDEN = MergeHistory(
    steps=[StepCounts(1, P, (30, 0)), StepCounts(2, Q, (0, 10))],
    changes={P: [(1, 0, 30), (2, 0, 0)], Q: [(1, 1, 10), (3, 1, 0)], R: [(1, 0, 30)]},
)


def test_the_golden_program_gives_a_quarter_and_three_quarters_with_no_slack():
    solution = MixProgram(GOLDEN, sizes=(1_000_000, 1_000_000)).solve(solve_highs)
    assert [round(share, 9) for share in solution.proportions] == [0.25, 0.75]
    assert round(sum(solution.merge_slack.values()) + sum(solution.pair_slack.values()), 9) == 0


def test_the_golden_programs_broken_constraint_is_the_one_worked_out_by_hand():
    program = MixProgram(GOLDEN, sizes=(1_000_000, 1_000_000))
    broken, excess = program.broken((0.3, 0.7), {}, {}, set(), end=2)
    assert (sorted(broken), round(excess, 9)) == ([(2, R)], 2.0)  # R's 30 (0.3) = 9 beats merge 2's 10 (0.7) = 7
    broken, excess = program.broken((0.2, 0.8), {}, {}, set(), end=2)
    assert (sorted(broken), round(excess, 9)) == ([(1, Q)], 2.0)  # Q's 10 (0.8) = 8 beats merge 1's 30 (0.2) = 6
    assert program.row(2, R, merge_column=2, pair_column=3) == ((0, 30.0), (1, -10.0), (2, -1.0), (3, -1.0))


def test_bigger_samples_weigh_their_counts_per_byte():
    """The same counts in a sample twice as long are half as frequent: b must then be twice as big."""
    solution = MixProgram(GOLDEN, sizes=(1_000_000, 2_000_000)).solve(solve_highs)
    assert [round(share, 9) for share in solution.proportions] == [round(1 / 7, 9), round(6 / 7, 9)]  # 30 a = 5 b


def test_a_mix_trained_by_hand_is_read_back():
    """A's 'ab' and B's 'xy' come 4 times in 15 bytes each: at 50/50 they tie, and the merges that follow pin
    the mix to a half each; at 80/20 the first four merges are all A's, which says only that A weighs at least as much."""
    texts = {"A": "abc abc abc abd", "B": "xyz xyz xyw xyw"}
    for truth in ({"A": 0.5, "B": 0.5}, {"A": 0.8, "B": 0.2}):
        tokenizer = Tokenizer.from_trace(train_on_mix(texts, truth, merges=4))
        estimate = infer_mix(tokenizer, texts, merges=4)
        assert estimate.informative == 4
        low, high = (0.5, 0.5) if truth["A"] == 0.5 else (0.5, 1.0)
        assert low - 1e-9 <= estimate.proportions["A"] <= high + 1e-9  # 80/20: only "A at least B" is said by 4 merges


def test_the_known_corpus_gives_each_category_its_share_of_bytes():
    corpus = mixed_corpus({"A": "aa aa", "B": "bb"}, {"A": 0.25, "B": 0.75}, pretokenizer="whitespace", scale=40)
    assert corpus.words == (("aa", 4), ("bb", 15))


@pytest.mark.parametrize("seed", range(3))
def test_random_mixes_of_the_declarations_languages_and_code_are_recovered(seed):
    rng = random.Random(seed)
    keys = rng.sample(sorted(CATEGORIES), rng.randint(3, 6))
    weights = [rng.randint(5, 60) for _ in keys]
    truth = {key: weight / sum(weights) for key, weight in zip(keys, weights)}
    result = run_task("known-mix", {"categories": keys, "own": {}, "truth": truth, "merges": 300, "held_out": False},
                      progress=lambda what, done: None)
    last = result["estimates"][-1]
    assert last["merges"] == 300 and mix_error(last["proportions"], truth) <= 0.02, (truth, last["proportions"])


def test_the_learners_own_text_is_a_category():
    own = "Zorblat quibbles the frumious zorblat; zorblat quibbles again. " * 40
    truth = {"eng": 0.5, "code": 0.2, "mine": 0.3}
    result = run_task("known-mix", {"categories": ["eng", "code"], "own": {"mine": own}, "truth": truth, "merges": 200,
                                    "held_out": False}, progress=lambda what, done: None)
    assert mix_error(result["estimates"][-1]["proportions"], truth) <= 0.02


def test_held_out_halves_share_no_line_and_keep_every_line():
    text = sample = "\n".join(f"line {number}" for number in range(9))
    train_half, judged_half = halves(text)
    assert set(train_half.splitlines()).isdisjoint(judged_half.splitlines())
    assert sorted(train_half.splitlines() + judged_half.splitlines()) == sorted(sample.splitlines())


def test_mix_error_is_the_mean_over_every_category_of_either():
    assert mix_error({"A": 0.6, "B": 0.4}, {"A": 0.5, "B": 0.5}) == 0.1
    assert mix_error({"A": 1.0}, {"A": 0.5, "B": 0.5}) == 0.5


@pytest.mark.parametrize(("samples", "merges", "says"), [
    ({"A": "ab ab"}, 3, "at least two categories"),
    ({"A": "ab ab", "B": "cd cd"}, 0, "from 1 to"),
])
def test_bad_requests_say_what_to_change(samples, merges, says):
    tokenizer = Tokenizer.from_trace(train_on_mix({"A": "ab ab", "B": "cd"}, {"A": 0.5, "B": 0.5}, merges=2))
    with pytest.raises(BpeError, match=says):
        infer_mix(tokenizer, samples, merges=merges)


def test_two_categories_of_one_name_are_refused():
    with pytest.raises(BpeError, match="another name"):
        category_texts(("eng",), {"eng": "my own"})


def test_without_scipy_the_inference_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "scipy.optimize", None)
    with pytest.raises(BpeError, match="pip install scipy") as raised:
        MixProgram(GOLDEN, sizes=(1_000_000, 1_000_000)).solve(solve_highs)
    assert str(raised.value) == INSTALL_HINT


def test_importing_bpe_imports_no_scipy():
    import subprocess

    code = "import sys, bpe; print('scipy' in sys.modules, 'numpy' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split() == ["False", "False"]


def test_the_generation_stops_once_its_last_answers_agree_on_every_share():
    """Held-out samples never fit exactly: asked for no gap at all, the rounds would go on closing slack that
    moves no share; they stop once STABLE_SOLVES answers in a row agree within STABLE_SHARE."""
    from bpe.analysis.merge_replay import replay, sample_words
    from bpe.analysis.mix_program import STABLE_SHARE, STABLE_SOLVES, _settled

    assert _settled([(0.5, 0.5)] * STABLE_SOLVES) and not _settled([(0.5, 0.5)] * (STABLE_SOLVES - 1))
    assert not _settled([(0.5, 0.5)] * (STABLE_SOLVES - 1) + [(0.5 + 2 * STABLE_SHARE, 0.5 - 2 * STABLE_SHARE)])
    truth = {"eng": 0.5, "rus": 0.3, "hin": 0.2}
    texts = {key: halves(sample_text(key)) for key in truth}
    tokenizer = Tokenizer.from_trace(train_on_mix({key: halves_[0] for key, halves_ in texts.items()}, truth, merges=400))
    words = {key: sample_words(tokenizer, halves_[1]) for key, halves_ in texts.items()}
    answers = []

    def solve(program):
        x = solve_highs(program)
        answers.append(x[:3])
        return x

    solution = MixProgram(replay(tokenizer, words, merges=400), sizes=tuple(w.size for w in words.values())).solve(solve, gap=0.0)
    assert solution.solves == len(answers) < 400 and solution.gap > 0
    assert mix_error(dict(zip(truth, solution.proportions)), truth) <= 0.02
