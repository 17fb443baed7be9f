"""The tie lab: one corpus under every tie-break rule, where the rules part ways and why."""

from dataclasses import replace

import pytest
from hypothesis import given, settings as hypothesis_settings, strategies as st

from bpe import PRESETS, TIE_BREAK_RULES, Corpus, TrainSettings, train
from bpe.teaching.tie_lab import first_divergence, hf_ranks, run_rules, tie_lab_for_preset, why_rule_picks
from bpe.vocab import token_sort_bytes

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
    }
    assert WIKIPEDIA.rows[0].agree and not WIKIPEDIA.rows[1].agree


def test_rules_that_agree_throughout_have_no_divergence():
    assert WIKIPEDIA.divergences[("first-seen", "lexicographic-max")] is None
    assert WIKIPEDIA.groups() == [["first-seen", "lexicographic-max"], ["lexicographic-min", "hf", "smallest-ids"]]


def test_every_rule_ends_in_the_same_wikipedia_segmentation():
    assert WIKIPEDIA.same_segmentation
    assert {run.segmentation for run in WIKIPEDIA.runs.values()} == {("aaab", "d", "aaab", "a", "c")}


def test_the_wikipedia_explanation_names_the_tie_the_choices_and_the_two_routes_to_aaab():
    text = WIKIPEDIA.explanation()
    assert "At merge 2, 'aa' + 'a' and 'a' + 'b' both occur 2 times." in text
    assert "The first-seen and lexicographic-max rules pick 'aa' + 'a' (making 'aaa')" in text
    assert "the same segmentation of the corpus, aaab | d | aaab | a | c" in text
    assert "first-seen and lexicographic-max as 'aaa' + 'b'; lexicographic-min, hf and smallest-ids as 'aa' + 'ab'" in text


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
    ranks = hf_ranks(trace)
    for step in trace.steps:
        assert list(step.tied) == sorted(step.tied, key=lambda pair: (ranks[pair[0]], ranks[pair[1]]))


@hypothesis_settings(max_examples=40, deadline=None)
@given(text=st.text(alphabet="ab é\n", min_size=2, max_size=40), rule=st.sampled_from(sorted(TIE_BREAK_RULES)))
def test_every_reason_given_agrees_with_the_order_the_trainer_chose(text, rule):
    trace = train(
        Corpus.from_text(text, pretokenizer="none"),
        TrainSettings(pretokenizer="none", tie_break=rule, min_frequency=1, merges=6, max_ties=50),
    )
    ranks = hf_ranks(trace)
    spell = [token_sort_bytes(token) for token in trace.tokens]
    for step in trace.steps:
        winner, *losers = step.tied
        for loser in losers:
            reason = why_rule_picks(trace, winner, loser)
            if rule == "hf":
                assert (ranks[winner[0]], ranks[winner[1]]) < (ranks[loser[0]], ranks[loser[1]]), reason
            elif rule == "smallest-ids":
                assert winner < loser and str(winner) in reason
            elif rule.startswith("lexicographic"):
                key = lambda pair: (spell[pair[0]], spell[pair[1]], pair)
                assert (key(winner) < key(loser)) == (rule == "lexicographic-min"), reason
