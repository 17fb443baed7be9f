"""The tie lab: one corpus under every tie-break rule, where the rules part ways and why.

What the lab lines up for every registered rule (the token each makes, where two rules part, which
agree throughout, the rules the explanation names for each choice) is computed here from
``bpe/reference.py``, which shares no code with the trainer; a new rule in the registry (and its
sort key in the reference) is checked with no edit here. The hand-written goldens are the sources'
own examples: Wikipedia's Z, Y, X and minbpe's aa, aaa, aaab.
"""

import re
from dataclasses import replace
from functools import lru_cache
from itertools import combinations

import pytest
from hypothesis import example, given, settings as hypothesis_settings, strategies as st

from bpe import PRESETS, TIE_BREAK_RULES, Corpus, TrainSettings, reference, train
from bpe.errors import SettingsError
from bpe.notation.spelling import visible_text
from bpe.teaching.reference_code import train_step_lines
from bpe.teaching.tie_lab import TieLab, first_divergence, run_rules, tie_lab_for_preset, why_rule_picks
from bpe.tokens.vocab import token_sort_bytes
from bpe.training import tiebreak
from bpe.training.tiebreak import TieBreakRule, contrasting_rule, hf_ranks, tie_break_rule

from .examples import examples
from .test_reference import reference_merges, reference_rule

WIKIPEDIA = tie_lab_for_preset("wikipedia")
SMALL_PRESETS = [name for name in PRESETS if name != "python-docs"]
"""The examples the reference trains under every rule in a moment (it recounts every pair for every merge)."""
Spelled = tuple[bytes, bytes]


@lru_cache(maxsize=None)
def lab_for(preset: str) -> TieLab:
    return tie_lab_for_preset(preset)


def reference_runs(lab: TieLab, corpus: Corpus, settings_: TrainSettings) -> dict[str, tuple[Spelled, ...]]:
    """Rule -> the merges ``bpe/reference.py`` makes on ``corpus`` under it, each as its two tokens'
    bytes, for every registered rule: what ``lab`` must line up. (The base tokens' spellings are the
    lab's: they are the same under every rule; the choice of merges is the reference's.)"""
    some_trace = next(iter(lab.runs.values())).trace
    base = [token_sort_bytes(token, settings_.end_of_word) for token in some_trace.base]
    runs = {}
    for rule in TIE_BREAK_RULES:
        spelling, merges = dict(enumerate(base)), []
        for left, right, _, new_id in reference_merges(corpus, replace(settings_, tie_break=rule), settings_.target_merges(0)):
            merges.append((spelling[left], spelling[right]))
            spelling[new_id] = spelling[left] + spelling[right]
        runs[rule] = tuple(merges)
    return runs


@lru_cache(maxsize=None)
def preset_reference_runs(preset: str) -> dict[str, tuple[Spelled, ...]]:
    return reference_runs(lab_for(preset), PRESETS[preset].corpus(), PRESETS[preset].settings)


def parts(a: tuple[Spelled, ...], b: tuple[Spelled, ...]) -> int | None:
    """The first merge (1-based) that differs between two lists of merges, or that only one of them has."""
    return next((index + 1 for index in range(max(len(a), len(b))) if a[index:index + 1] != b[index:index + 1]), None)


def assert_lines_up(lab: TieLab, expected: dict[str, tuple[Spelled, ...]]) -> None:
    """The lab's table, divergences and groups are those of the reference's runs ``expected``."""
    assert list(lab.runs) == list(TIE_BREAK_RULES)
    assert len(lab.rows) == max(map(len, expected.values()))
    for index, row in enumerate(lab.rows):
        made = {rule: merges[index] if index < len(merges) else None for rule, merges in expected.items()}
        assert row.step == index + 1
        assert row.made == {rule: None if pair is None else visible_text(b"".join(pair)) for rule, pair in made.items()}, row.step
        assert row.agree == (len(set(made.values())) == 1)
    for rule_a, rule_b in combinations(TIE_BREAK_RULES, 2):
        assert lab.divergence(rule_a, rule_b) == parts(expected[rule_a], expected[rule_b]), (rule_a, rule_b)
    groups: dict[tuple[Spelled, ...], list[str]] = {}
    for rule, merges in expected.items():
        groups.setdefault(merges, []).append(rule)
    assert lab.groups() == list(groups.values())
    disagreements = [parts(expected[a], expected[b]) for a, b in combinations(TIE_BREAK_RULES, 2)]
    assert lab.first_disagreement == min((step for step in disagreements if step is not None), default=None)


def rules_named(text: str) -> list[str]:
    """The registered rules a sentence names, in the order it names them."""
    names = "|".join(re.escape(rule) for rule in sorted(TIE_BREAK_RULES, key=len, reverse=True))
    return re.findall(rf"(?<![\w-])(?:{names})(?![\w-])", text)


@pytest.mark.parametrize("preset", SMALL_PRESETS)
def test_the_lab_lines_up_what_the_reference_learns_on_each_example_under_every_registered_rule(preset):
    assert_lines_up(lab_for(preset), preset_reference_runs(preset))


@hypothesis_settings(max_examples=examples(60), deadline=None)
@given(text=st.text(alphabet="ab c", min_size=4, max_size=24))
@example(text="bac aa cbacbbb")  # lexicographic-max stops after 1 merge, every other rule after 3
def test_the_lab_lines_up_what_the_reference_learns_on_any_text_even_where_rules_stop_at_different_merges(text):
    settings_ = TrainSettings(pretokenizer="whitespace", merges=8)  # ties decide which counts reach 2 next
    corpus = Corpus.from_text(text, pretokenizer="whitespace")
    lab = run_rules(corpus, settings_, text=text)
    assert_lines_up(lab, reference_runs(lab, corpus, settings_))


@pytest.mark.parametrize("preset", [name for name in SMALL_PRESETS if lab_for(name).first_disagreement is not None])
def test_the_explanation_names_each_rule_once_beside_the_pair_the_reference_picks_under_it(preset):
    lab, expected = lab_for(preset), preset_reference_runs(preset)
    step = lab.first_disagreement
    choices = lab.explanation().split(f"At merge {step}, ", 1)[1].split(". ", 2)[1]
    assert sorted(rules_named(choices)) == sorted(TIE_BREAK_RULES)  # each rule named once

    def pick(rule: str) -> Spelled | None:
        return expected[rule][step - 1] if step <= len(expected[rule]) else None

    for clause in choices.split("; "):
        pair = pick(rules_named(clause)[0])
        assert rules_named(clause) == [rule for rule in TIE_BREAK_RULES if pick(rule) == pair], clause
        assert "had already stopped" in clause if pair is None else f"(making '{visible_text(b''.join(pair))}')" in clause


def test_lexicographic_min_learns_wikipedias_z_y_x():
    assert WIKIPEDIA.runs["lexicographic-min"].tokens == ("aa", "ab", "aaab")
    assert WIKIPEDIA.runs["lexicographic-min"].merges == ("'a' + 'a'", "'a' + 'b'", "'aa' + 'ab'")


def test_first_seen_learns_aa_then_aaa_then_aaab_and_stops_at_the_minimum_frequency():
    run = WIKIPEDIA.runs["first-seen"]
    assert run.tokens == ("aa", "aaa", "aaab")
    assert [step.count for step in run.trace.steps] == [4, 2, 2]
    assert run.trace.stop_reason == "min_frequency"


def test_the_tie_lab_shows_the_wikipedia_divergence_at_merge_2():
    assert WIKIPEDIA.divergence("first-seen", "lexicographic-min") == 2
    assert WIKIPEDIA.first_disagreement == 2
    assert (WIKIPEDIA.rows[1].made["first-seen"], WIKIPEDIA.rows[1].made["lexicographic-min"]) == ("aaa", "ab")
    assert WIKIPEDIA.rows[0].agree and not WIKIPEDIA.rows[1].agree


def test_rules_that_agree_throughout_have_no_divergence():
    assert WIKIPEDIA.divergence("first-seen", "lexicographic-max") is None
    assert next(group for group in WIKIPEDIA.groups() if "first-seen" in group)[:2] == ["first-seen", "lexicographic-max"]


def test_every_rule_ends_in_the_same_wikipedia_segmentation():
    assert WIKIPEDIA.same_segmentation
    assert {run.segmentation for run in WIKIPEDIA.runs.values()} == {("aaab", "d", "aaab", "a", "c")}


def test_the_wikipedia_explanation_names_the_tie_the_choices_and_the_two_routes_to_aaab():
    text = WIKIPEDIA.explanation()
    assert "At merge 2, 'aa' + 'a' and 'a' + 'b' both occur 2 times." in text
    assert "'aa' + 'a' (making 'aaa')" in text and "'a' + 'b' (making 'ab')" in text  # who picks which: computed above
    assert "the same segmentation of the corpus, aaab | d | aaab | a | c" in text
    routes = text.split("'aaab' is built by different merges: ", 1)[1].split(".", 1)[0].split("; ")
    assert sorted(route.rsplit(" as ", 1)[1] for route in routes) == ["'aa' + 'ab'", "'aaa' + 'b'"]  # Wikipedia's X = ZY; minbpe's
    built_by = {route.rsplit(" as ", 1)[1]: rules_named(route) for route in routes}
    expected = preset_reference_runs("wikipedia")
    for label, merged in (("'aaa' + 'b'", (b"aaa", b"b")), ("'aa' + 'ab'", (b"aa", b"ab"))):
        assert built_by[label] == [rule for rule in TIE_BREAK_RULES if merged in expected[rule]], label


def test_when_segmentations_differ_the_explanation_shows_the_words_that_differ():
    lab = tie_lab_for_preset("sennrich")
    assert not lab.same_segmentation
    assert "The final segmentations differ" in lab.explanation()
    assert "'·widest' becomes" in lab.explanation()  # a space as everywhere else: ·


def test_a_corpus_without_decisive_ties_says_every_rule_agrees():
    settings = TrainSettings(pretokenizer="none", min_frequency=1)
    lab = run_rules(Corpus.from_text("abab", pretokenizer="none"), settings, text="abab")
    assert lab.first_disagreement is None
    assert lab.explanation() == (
        "Every rule learns the same 2 merges here: there was no tie, so no rule ever had to choose differently."
    )


def test_a_run_that_stops_earlier_diverges_where_it_stopped():
    corpus = Corpus.from_text("aaabdaaabac", pretokenizer="none")
    short = train(corpus, TrainSettings(pretokenizer="none", merges=1))
    full = train(corpus, TrainSettings(pretokenizer="none", merges=3))
    assert first_divergence(short, full) == 2 and first_divergence(full, full) is None


@pytest.mark.parametrize("preset", ["sennrich", "hf-course", "sennrich-paper"])
def test_hf_ranks_rank_tied_pairs_as_the_trainer_did(preset):
    trace = train(PRESETS[preset].corpus(), replace(PRESETS[preset].settings, tie_break="hf", max_ties=50))
    ranks = hf_ranks(trace.base, unit=trace.settings.unit, vocab_size=len(trace.tokens))
    for step in trace.steps:
        assert list(step.tied) == sorted(step.tied, key=lambda pair: (ranks[pair[0]], ranks[pair[1]]))


def prefers(trace, rule: str, ids: list[int], winner, loser) -> bool:
    """Whether ``rule`` puts ``winner`` before ``loser`` in the reference implementation (not
    bpe.training.tiebreak): ``ids`` is the one word's tokens just before the merge."""
    spelling = {token_id: token.data for token_id, token in enumerate(trace.tokens)}
    hf_ids = reference.hugging_face_ids({value: bytes([value]) for value in range(256)}, "byte")
    tie = reference.Tie(reference.get_stats([(ids, 1)]), spelling, hf_ids)
    return reference.break_tie([winner, loser], tie, reference_rule(rule)) == winner


@hypothesis_settings(max_examples=examples(40), deadline=None)
@given(text=st.text(alphabet="ab é\n", min_size=2, max_size=40), rule=st.sampled_from(sorted(TIE_BREAK_RULES)))
def test_every_reason_given_agrees_with_the_order_the_trainer_chose(text, rule):
    trace = train(
        Corpus.from_text(text, pretokenizer="none"),
        TrainSettings(pretokenizer="none", tie_break=rule, min_frequency=1, merges=6, max_ties=50),
    )
    ids = list(text.encode("utf-8"))  # "none" keeps the text as one word
    for step in trace.steps:
        winner, *losers = step.tied
        for loser in losers:
            reason = why_rule_picks(trace, winner, loser)
            assert prefers(trace, rule, ids, winner, loser), reason
        ids = reference.merge(ids, (step.left, step.right), step.new_id)


# Wikipedia's "aaabdaaabac" after Z = aa: "Z a b d Z a b a c", where Z + a (256, 97) and a + b
# (97, 98) both occur twice. The comparison each rule's reason must state, from the rule's source:
# minbpe meets Z + a first; CS336's max takes the greater strings, ('aa', 'a'); Wikipedia's
# walk-through takes a + b (Y); Hugging Face numbers its alphabet by GPT-2's stand-ins, which sort
# '!' (33) first, so 'a' is 64 and 'b' 65 while Z keeps its id 256; rustbpe takes the smaller pair of
# raw ids. Which pair each rule picks is the reference's (below, for every registered rule).
WIKIPEDIA_STEP_TWO = {
    "first-seen": "comes before any occurrence of 'a' + 'b'",
    "lexicographic-max": "('aa', 'a') > ('a', 'b')",
    "lexicographic-min": "('a', 'b') < ('aa', 'a')",
    "hf": "(64, 65) < (256, 64)",
    "smallest-ids": "(97, 98) < (256, 97)",
    "sentencepiece": "its piece is shorter: 'ab' has 2 characters, 'aaa' 3",  # bpe_model_trainer.cc: shorter first
}


@pytest.mark.parametrize("rule", WIKIPEDIA_STEP_TWO)
def test_each_sources_rule_explains_its_choice_with_the_comparison_its_source_makes(rule):
    trace = WIKIPEDIA.runs[rule].trace
    assert WIKIPEDIA_STEP_TWO[rule] in why_rule_picks(trace, *trace.steps[1].tied)


@pytest.mark.parametrize("rule", list(TIE_BREAK_RULES))
def test_every_registered_rule_ranks_wikipedias_tie_as_the_reference_and_gives_a_reason_about_that_order(rule):
    trace = WIKIPEDIA.runs[rule].trace
    tie = trace.steps[1]
    assert set(tie.tied) == {(256, 97), (97, 98)}
    assert prefers(trace, rule, [256, 97, 98, 100, 256, 97, 98, 97, 99], *tie.tied)  # "ZabdZabac": the reference's pick first
    reason, reversed_reason = why_rule_picks(trace, *tie.tied), why_rule_picks(trace, *reversed(tie.tied))
    assert reason and "\n" not in reason
    assert reason != reversed_reason  # it says something about these two pairs in this order, not the rule in general


# -- adding a rule is one registry entry ------------------------------------------------------------
def _made_length(context, pair):
    return len(context.sort_bytes[pair[0]] + context.sort_bytes[pair[1]])


LONGEST_FIRST = TieBreakRule(
    "longest-first",
    "the pair that makes the longest token",
    "nobody: a rule made up by this test",
    key=lambda context: lambda pair: (-_made_length(context, pair), pair),
    why=lambda context, winner, loser: (
        f"it makes a longer token: {_made_length(context, winner)} bytes against {_made_length(context, loser)}"
    ),
    # the same rule written plainly, for the reference the trainer is checked against
    reference=(lambda pair, tie: (-len(tie.spelling[pair[0]] + tie.spelling[pair[1]]), pair), min),
)


@pytest.fixture
def longest_first(monkeypatch):
    """The registry with one more entry, as a new rule would be added to bpe/training/tiebreak.py."""
    monkeypatch.setattr(tiebreak, "TIE_BREAK_RULES", tiebreak.TIE_BREAK_RULES.with_entries(LONGEST_FIRST))
    return LONGEST_FIRST


def test_a_new_rule_is_one_registry_entry_that_trains_and_is_explained(longest_first):
    wikipedia = PRESETS["wikipedia"]
    trace = train(wikipedia.corpus(), replace(wikipedia.settings, tie_break="longest-first"))
    assert [trace.token_text(step.new_id) for step in trace.steps] == ["aa", "aaa", "aaab"]
    tie = trace.steps[1]  # "ZabdZabac" (Z = aa): Z + a makes 3 bytes, a + b only 2
    assert tie.tied == ((256, 97), (97, 98))
    assert why_rule_picks(trace, *tie.tied) == "it makes a longer token: 3 bytes against 2"
    # the reference, told the rule by its entry alone, makes the same merges; the Train page's code
    # panel shows the loop (the rule has no line of the reference to show)
    assert reference_merges(wikipedia.corpus(), trace.settings, 3) == [(s.left, s.right, s.count, s.new_id) for s in trace.steps]
    assert "pair = break_tie" in "".join(line.code for line in train_step_lines(trace, 2))
    lab = tie_lab_for_preset("wikipedia")
    assert lab.runs["longest-first"].tokens == ("aa", "aaa", "aaab")
    assert {"first-seen", "lexicographic-max"} <= set(next(group for group in lab.groups() if "longest-first" in group))


def test_an_unknown_rule_is_a_settings_error_never_a_default():
    with pytest.raises(SettingsError, match="unknown tie-break rule 'random': use one of first-seen, "):
        TrainSettings(tie_break="random")
    with pytest.raises(SettingsError, match="unknown tie-break rule 'longest-first'"):
        tie_break_rule("longest-first")


@pytest.mark.parametrize("preset", [name for name in PRESETS if name != "python-docs"])
def test_each_examples_rule_and_its_contrast_part_ways_so_compares_run_diff_has_a_lesson(preset):
    settings = PRESETS[preset].settings
    corpus = PRESETS[preset].corpus()
    run = train(corpus, settings)
    beside = train(corpus, replace(settings, tie_break=contrasting_rule(settings.tie_break)))
    assert first_divergence(run, beside) is not None


@pytest.mark.parametrize("rule", [name for name, rule in TIE_BREAK_RULES.items() if not rule.tracks_first_occurrence])
def test_a_rule_picks_from_a_traces_tied_pairs_the_pair_the_trainer_merged(rule):
    from bpe.teaching.tie_lab import rule_pick

    trace = train(PRESETS["python-docs"].corpus(), replace(PRESETS["python-docs"].settings, merges=800, tie_break=rule))
    ties = [step for step in trace.steps if step.tie_count > 1]
    assert len(ties) > 20
    assert all(rule_pick(trace, rule, step.tied) == (step.left, step.right) for step in ties)
