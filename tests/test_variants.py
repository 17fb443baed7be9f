"""Two variants of the trainer, each one seam: SuperBPE's second stage and parity-aware BPE's objective.

Golden runs are worked by hand from the papers' definitions (Liu et al., 2025: learn subwords, then
go on with the whitespace split lifted from merge ``t`` on; Foroutan et al., 2025: the language whose
text is the most tokens chooses the next merge from its own counts). Properties: each variant is
classic BPE where its paper says nothing changes (SuperBPE before ``t``, parity-aware on one
language), merge for merge; the fast trainer makes the readable reference's merges; and
parity-aware training makes exactly the merges of Hugging Face's own ``ParityBpeTrainer``.
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tokenizers import Tokenizer as HfTokenizer
from tokenizers import pre_tokenizers
from tokenizers.models import BPE
from tokenizers.trainers import ParityBpeTrainer

from bpe import Corpus, Tokenizer, Trace, TrainSettings, reference, train
from bpe.errors import FormatError, SettingsError
from bpe.teaching.udhr import ARTICLE_1
from bpe.training.objectives import gini
from bpe.training.tiebreak import TIE_BREAK_RULES

from .examples import examples
from .strategies import TEXT
from .test_engine_cli import run_ok
from .test_reference import reference_rule

RULES = [name for name, rule in TIE_BREAK_RULES.items() if rule.candidates is None]
"""Every rule both variants run under (SentencePiece's candidates are refused: neither paper defines them)."""
TO_BE = "to be to be to be"
PARALLEL = {"en": "ab ab ab", "xx": "cdxyz cdxyz"}


def spelled(trace: Trace) -> list[str]:
    return [trace.token_text(step.new_id) for step in trace.steps]


def merges_of(trace: Trace) -> list[tuple[int, int, int, int]]:
    return [(step.left, step.right, step.count, step.new_id) for step in trace.steps]


def superbpe(text: str, transition: int, **options) -> Trace:
    settings_ = TrainSettings(transition=transition, **options)
    return train(Corpus.from_text(text, pretokenizer=settings_.pretokenizer, second_split=settings_.second_split), settings_)


def parallel(texts: dict[str, str], objective: str, **options) -> Trace:
    settings_ = TrainSettings(objective=objective, **options)
    return train(Corpus.from_languages(texts, pretokenizer=settings_.pretokenizer), settings_)


# -- SuperBPE, by hand ---------------------------------------------------------------------------
def test_superbpes_first_superword_merge_on_a_phrase_worked_by_hand():
    """"to be to be to be", bytes, GPT-2's split: chunks "to", " be", " to", " be", " to", " be".

    Stage 1 (classic): (t,o), ( ,b) and (b,e) occur 3 times; lexicographic-max takes the greatest,
    "to". Then ( ,b) and (b,e) tie at 3: "be". Then " be" (3), then " to" (2): every chunk is one
    token, so classic BPE stops. With t = 4 the split is lifted: the text is one chunk, "to" " be"
    " to" " be" " to" " be" under the four merges; (" be", " to") and (" to", " be") occur twice,
    (to, " be") once, and the greater, (" to", " be"), makes the superword " to be" (2)."""
    classic = train(Corpus.from_text(TO_BE), TrainSettings(tie_break="lexicographic-max", merges=10))
    two_stage = superbpe(TO_BE, 4, tie_break="lexicographic-max", merges=10)
    assert spelled(classic) == ["to", "be", " be", " to"] and classic.stop_reason == "no_pairs"
    assert spelled(two_stage) == ["to", "be", " be", " to", " to be"]
    first_superword = two_stage.steps[4]
    assert (first_superword.count, first_superword.tie_count) == (2, 2)
    assert two_stage.stage_change.step == 4 and (two_stage.stage_change.words_before, two_stage.stage_change.words_after) == (3, 1)
    assert two_stage.stage_change.tokens_before == two_stage.stage_change.tokens_after == 6
    assert (classic.steps[-1].tokens_after, two_stage.steps[-1].tokens_after) == (6, 4)


def test_a_superbpe_tokenizer_encodes_with_the_second_split_after_the_transition_only():
    trace = superbpe(TO_BE, 4, tie_break="lexicographic-max", merges=10)
    assert Tokenizer.from_trace(trace, step=4).pretokenizer.name == "gpt2"
    assert Tokenizer.from_trace(trace, step=5).pretokenizer.name == "superbpe"
    final = Tokenizer.from_trace(trace)
    assert [final.token_text(i) for i in final.encode(TO_BE)] == ["to", " be", " to be", " to be"]
    assert len(final.encode(TO_BE)) == trace.steps[-1].tokens_after  # encoding replays training


# -- parity-aware, by hand -----------------------------------------------------------------------
def test_the_parity_aware_pick_differs_from_the_classic_pick_worked_by_hand():
    """Characters, whitespace split, first-seen ties. en "ab ab ab": 6 tokens, (a,b) 3 times; xx "cdxyz
    cdxyz": 10 tokens, four pairs twice each. Classic merges the most frequent pair of all, a+b (3).
    Parity-aware lets xx choose, the most tokens: its four pairs tie at 2 and c+d occurs first. Then xx
    (8 tokens) again: cd+x. Then en and xx are 6 tokens each; the first listed, en, chooses a+b."""
    classic = parallel(PARALLEL, "classic", unit="char", pretokenizer="whitespace", merges=3)
    parity = parallel(PARALLEL, "parity-aware", unit="char", pretokenizer="whitespace", merges=3)
    assert spelled(classic) == ["ab", "cd", "cdx"]
    assert spelled(parity) == ["cd", "cdx", "ab"]
    assert [step.count for step in parity.steps] == [2, 2, 3]
    assert parity.chosen_by == ((1, 2), (1, 2), (0, 3)) and classic.chosen_by == ()
    assert parity.language_tokens == ((6, 10), (6, 8), (6, 6), (3, 6))
    assert classic.language_tokens == ((6, 10), (3, 10), (3, 8), (3, 6))
    assert gini(parity.language_costs(0)) == 0.125  # |6 - 10| * 2 / (2 * 2 * 2 * 8)
    assert gini(parity.language_costs(2)) == 0.0 < gini(classic.language_costs(2))


def test_parity_aware_training_makes_the_merges_of_hugging_faces_parity_trainer():
    """The Declaration's first article in 16 languages, characters split at whitespace, ties to the
    greater pair of strings (the owner's ``max(stats, key=(count, pair))``), 600 merges."""
    texts = {sentence.language: sentence.text for sentence in ARTICLE_1}
    hf = HfTokenizer(BPE())
    hf.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    ParityBpeTrainer(num_merges=600, show_progress=False).train_from_iterator(
        hf, train_iterators=[iter([text]) for text in texts.values()],
    )
    theirs = [tuple(merge) for merge in json.loads(hf.to_str())["model"]["merges"]]
    ours = parallel(
        texts, "parity-aware", unit="char", pretokenizer="whitespace", tie_break="lexicographic-max", merges=600, min_frequency=1,
    )
    assert len(theirs) == 600
    assert [(ours.token_text(step.left), ours.token_text(step.right)) for step in ours.steps] == theirs


def test_parity_aware_training_flattens_the_declarations_costs():
    texts = {sentence.language: sentence.text for sentence in ARTICLE_1}
    classic, parity = (parallel(texts, objective, merges=200) for objective in ("classic", "parity-aware"))
    start = gini(classic.language_costs(0))
    assert start == gini(parity.language_costs(0)) > 0.2
    assert gini(parity.language_costs(200)) < gini(classic.language_costs(200)) / 2


# -- properties ------------------------------------------------------------------------------------
@pytest.mark.parametrize("rule", RULES)
@settings(max_examples=examples(40), deadline=None)
@given(text=TEXT, transition=st.integers(0, 25))
def test_superbpe_before_its_transition_is_classic_bpe_merge_for_merge(rule, text, transition):
    classic = train(Corpus.from_text(text), TrainSettings(tie_break=rule, merges=30, min_frequency=1))
    two_stage = superbpe(text, transition, tie_break=rule, merges=30, min_frequency=1)
    assert two_stage.steps[:transition] == classic.steps[:transition]


@pytest.mark.parametrize("rule", RULES)
@settings(max_examples=examples(40), deadline=None)
@given(text=TEXT, split=st.sampled_from(["gpt2", "whitespace", "none"]), unit=st.sampled_from(["byte", "char"]))
def test_parity_aware_on_one_language_is_classic_bpe_merge_for_merge(rule, text, split, unit):
    options = dict(unit=unit, pretokenizer=split, tie_break=rule, merges=30, min_frequency=1)
    classic = train(Corpus.from_text(text, pretokenizer=split), TrainSettings(**options))
    parity = parallel({"only": text}, "parity-aware", **options)
    assert parity.steps == classic.steps
    assert parity.language_tokens == tuple((step_tokens,) for step_tokens in (classic.initial_tokens, *(s.tokens_after for s in classic.steps)))


@pytest.mark.parametrize("rule", RULES)
@settings(max_examples=examples(40), deadline=None)
@given(texts=st.lists(TEXT, min_size=1, max_size=4), objective=st.sampled_from(["classic", "parity-aware"]))
def test_the_fast_trainer_makes_the_references_merges_on_parallel_corpora(rule, texts, objective):
    by_language = {f"l{i}": text for i, text in enumerate(texts)}
    corpus = Corpus.from_languages(by_language, pretokenizer="gpt2")
    trace = train(corpus, TrainSettings(tie_break=rule, merges=30, min_frequency=1, objective=objective), verify_counts=True)
    words: dict[str, dict[str, int]] = {language: {} for language in by_language}
    merged: dict[str, int] = {}  # classic BPE reads one table: a chunk's count summed over the languages
    for (word, count), language in zip(corpus.words, corpus.word_languages):
        words[corpus.languages[language]][word] = count
        merged[word] = merged.get(word, 0) + count
    if objective == "parity-aware":
        expected = reference.train({}, 30, tie_break=reference_rule(rule), by_language=words)
    else:
        expected = reference.train(merged, 30, tie_break=reference_rule(rule))
    assert merges_of(trace) == [(*merge.pair, merge.count, merge.new_id) for merge in expected]


@pytest.mark.parametrize("rule", RULES)
@settings(max_examples=examples(40), deadline=None)
@given(text=TEXT, transition=st.integers(0, 25))
def test_the_fast_trainer_makes_the_references_superbpe_merges(rule, text, transition):
    trace = superbpe(text, transition, tie_break=rule, merges=40, min_frequency=1)
    corpus = trace.corpus
    expected = reference.train(
        dict(corpus.words), 40, tie_break=reference_rule(rule), then_words=dict(corpus.later.words), transition=transition,
    )
    assert merges_of(trace) == [(*merge.pair, merge.count, merge.new_id) for merge in expected]


# -- files and refusals ----------------------------------------------------------------------------
def test_a_variant_trace_is_saved_as_version_2_and_read_back_whole_a_classic_one_stays_version_1():
    two_stage = superbpe(TO_BE, 4, tie_break="lexicographic-max", merges=10)
    parity = parallel(PARALLEL, "parity-aware", unit="char", pretokenizer="whitespace", merges=3)
    classic = train(Corpus.from_text(TO_BE), TrainSettings(merges=3))
    for trace in (two_stage, parity):
        assert json.loads(trace.to_json())["version"] == 2
        again = Trace.from_json(trace.to_json())
        assert again == replace(trace, corpus=None) and again.to_json() == trace.to_json()
    assert json.loads(classic.to_json())["version"] == 1 and "transition" not in classic.to_json()
    broken = json.loads(parity.to_json())
    broken["language_tokens"][1] = [6]
    with pytest.raises(FormatError, match="languages' costs or its stage change have the wrong shape"):
        Trace.from_json(json.dumps(broken))


@pytest.mark.parametrize("options, message", [
    (dict(transition=3, end_of_word="</w>"), "no word end to mark: leave the end-of-word marker out"),
    (dict(transition=3, pretokenizer="whitespace"), "use gpt2, gpt4, gpt4o or deepseek"),
    (dict(transition=3, pretokenizer="qwen2"), "use gpt2, gpt4, gpt4o or deepseek"),
    (dict(transition=3, objective="parity-aware"), "are not combined: use one of them"),
    (dict(objective="parity-aware", unit="char", pretokenizer="sentencepiece", tie_break="sentencepiece"), "use another tie-break rule"),
    (dict(objective="fairest"), "unknown objective 'fairest': use one of classic, parity-aware"),
    (dict(transition=-1), "transition must be from 0 to 20000, got -1"),
])
def test_settings_the_papers_do_not_define_are_refused_saying_why(options, message):
    with pytest.raises(SettingsError, match=message):
        TrainSettings(**options)


def test_a_word_table_has_no_running_text_for_a_second_stage():
    with pytest.raises(SettingsError, match="holds no running text .* train on a text"):
        train(Corpus.from_word_counts({"low": 5, "lower": 2}), TrainSettings(transition=2))


def test_the_command_line_trains_superbpe_with_a_transition():
    output = json.loads(run_ok("train", "--text", TO_BE, "--tie-break", "lexicographic-max", "--transition", "4", "--json"))
    assert [merge["token"] for merge in output["merges"]] == ["to", "be", " be", " to", " to be"]
    assert output["settings"]["transition"] == 4
