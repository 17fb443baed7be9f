"""The tie lab: one corpus under every tie-break rule, where the rules part ways and why."""

from dataclasses import replace
from types import MappingProxyType

import pytest
from hypothesis import given, settings as hypothesis_settings, strategies as st

from bpe import PRESETS, TIE_BREAK_RULES, Corpus, TrainSettings, reference, tiebreak, train
from bpe.errors import SettingsError
from bpe.teaching.tie_lab import first_divergence, run_rules, tie_lab_for_preset, why_rule_picks
from bpe.tiebreak import TieBreakRule, contrasting_rule, hf_ranks, tie_break_rule

from .examples import examples

WIKIPEDIA = tie_lab_for_preset("wikipedia")


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
    assert WIKIPEDIA.rows[1].made == {
        "first-seen": "aaa", "lexicographic-max": "aaa", "lexicographic-min": "ab", "hf": "ab", "smallest-ids": "ab",
        "sentencepiece": "ab",
    }
    assert WIKIPEDIA.rows[0].agree and not WIKIPEDIA.rows[1].agree


def test_rules_that_agree_throughout_have_no_divergence():
    assert WIKIPEDIA.divergence("first-seen", "lexicographic-max") is None
    assert WIKIPEDIA.groups() == [["first-seen", "lexicographic-max"], ["lexicographic-min", "hf", "smallest-ids", "sentencepiece"]]


def test_every_rule_ends_in_the_same_wikipedia_segmentation():
    assert WIKIPEDIA.same_segmentation
    assert {run.segmentation for run in WIKIPEDIA.runs.values()} == {("aaab", "d", "aaab", "a", "c")}


def test_the_wikipedia_explanation_names_the_tie_the_choices_and_the_two_routes_to_aaab():
    text = WIKIPEDIA.explanation()
    assert "At merge 2, 'aa' + 'a' and 'a' + 'b' both occur 2 times." in text
    assert "The first-seen and lexicographic-max rules pick 'aa' + 'a' (making 'aaa')" in text
    assert "the same segmentation of the corpus, aaab | d | aaab | a | c" in text
    assert "first-seen and lexicographic-max as 'aaa' + 'b'; lexicographic-min, hf, smallest-ids and sentencepiece as 'aa' + 'ab'" in text


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
    bpe.tiebreak): ``ids`` is the one word's tokens just before the merge."""
    spelling = {token_id: token.data for token_id, token in enumerate(trace.tokens)}
    hf_ids = reference.hugging_face_ids({value: bytes([value]) for value in range(256)}, "byte")
    tie = reference.Tie(reference.get_stats([(ids, 1)]), spelling, hf_ids)
    return reference.break_tie([winner, loser], tie, rule) == winner


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
# (97, 98) both occur twice. Each rule's winner and the comparison its reason must state, from the
# rule's source: minbpe meets Z + a first; CS336's max takes the greater strings, ('aa', 'a');
# Wikipedia's walk-through takes a + b (Y); Hugging Face numbers its alphabet by GPT-2's stand-ins,
# which sort '!' (33) first, so 'a' is 64 and 'b' 65 while Z keeps its id 256; rustbpe takes the
# smaller pair of raw ids.
WIKIPEDIA_STEP_TWO = {
    "first-seen": ((256, 97), "comes before any occurrence of 'a' + 'b'"),
    "lexicographic-max": ((256, 97), "('aa', 'a') > ('a', 'b')"),
    "lexicographic-min": ((97, 98), "('a', 'b') < ('aa', 'a')"),
    "hf": ((97, 98), "(64, 65) < (256, 64)"),
    "smallest-ids": ((97, 98), "(97, 98) < (256, 97)"),
    "sentencepiece": ((97, 98), "its piece is shorter: 'ab' has 2 characters, 'aaa' 3"),  # bpe_model_trainer.cc: shorter first
}


@pytest.mark.parametrize("rule", WIKIPEDIA_STEP_TWO)
def test_each_rule_explains_its_choice_naming_the_winner_first_and_the_loser_second(rule):
    winner, comparison = WIKIPEDIA_STEP_TWO[rule]
    trace = WIKIPEDIA.runs[rule].trace
    tie = trace.steps[1]
    assert tie.tied[0] == winner and set(tie.tied) == {(256, 97), (97, 98)}
    assert comparison in why_rule_picks(trace, *tie.tied)


def test_every_registered_rule_has_its_explanation_checked_here():
    assert set(WIKIPEDIA_STEP_TWO) == set(TIE_BREAK_RULES)


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
)


@pytest.fixture
def longest_first(monkeypatch):
    """The registry with one more entry, as a new rule would be added to bpe/tiebreak.py."""
    monkeypatch.setattr(tiebreak, "TIE_BREAK_RULES", MappingProxyType({**tiebreak.TIE_BREAK_RULES, "longest-first": LONGEST_FIRST}))
    return LONGEST_FIRST


def test_a_new_rule_is_one_registry_entry_that_trains_and_is_explained(longest_first):
    wikipedia = PRESETS["wikipedia"]
    trace = train(wikipedia.corpus(), replace(wikipedia.settings, tie_break="longest-first"))
    assert [trace.token_text(step.new_id) for step in trace.steps] == ["aa", "aaa", "aaab"]
    tie = trace.steps[1]  # "ZabdZabac" (Z = aa): Z + a makes 3 bytes, a + b only 2
    assert tie.tied == ((256, 97), (97, 98))
    assert why_rule_picks(trace, *tie.tied) == "it makes a longer token: 3 bytes against 2"
    lab = tie_lab_for_preset("wikipedia")
    assert lab.runs["longest-first"].tokens == ("aa", "aaa", "aaab")
    assert ["first-seen", "lexicographic-max", "longest-first"] in lab.groups()


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
