"""``bpe/reference.py``, the readable BPE, is the oracle: the fast trainer and encoder must agree with it.

The reference recounts every pair at every step and breaks ties with one sort key per rule; it
imports nothing from the engine. Agreement is checked merge for merge (pair, count and new id)
under every rule of ``bpe.training.tiebreak``'s registry, on every preset and on random corpora, and id for
id when encoding. The Train and Encode pages' code panel shows the reference's own lines, with the
values the reference computes at that step.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe import PRESETS, Corpus, Tokenizer, Trace, TrainSettings, reference, train
from bpe.teaching.reference_code import encode_merge_lines, train_step_lines
from bpe.text.pretokenize import NAMED_PATTERNS
from bpe.training.tiebreak import TIE_BREAK_RULES, tie_break_rule

from .examples import examples
from .strategies import TEXT, WORD_TABLE

SPLITS = ["none", "whitespace", "gpt2", "gpt4", "gpt4o", r"regex:\w+"]
# Splits with no gaps (every character is in a match), so ``regex.findall`` is the whole split.
GAPLESS = ["none", "gpt2", "gpt4", "gpt4o"]
PYTHON_DOCS_MERGES = 60
"""The reference recounts the whole corpus for every merge: python-docs is checked on its first merges."""


def reference_rule(name: str) -> str | reference.SortRule:
    """How the reference is told a rule: a built-in one by its name (its own line of the reference),
    a rule registered later by the plain key its entry brings."""
    return name if name in reference.TIE_BREAKS else tie_break_rule(name).reference


def reference_merges(corpus: Corpus, settings_: TrainSettings, merges: int) -> list[tuple[int, int, int, int]]:
    learned = reference.train(
        dict(corpus.words), merges, unit=settings_.unit, alphabet=corpus.alphabet, end_of_word=settings_.end_of_word,
        tie_break=reference_rule(settings_.tie_break), min_frequency=settings_.min_frequency,
    )
    return [(*merge.pair, merge.count, merge.new_id) for merge in learned]


def merges_of(trace: Trace) -> list[tuple[int, int, int, int]]:
    return [(s.left, s.right, s.count, s.new_id) for s in trace.steps]


def engine_merges(corpus: Corpus, settings_: TrainSettings) -> list[tuple[int, int, int, int]]:
    return merges_of(train(corpus, settings_))


def ranks_of(tokenizer: Tokenizer) -> dict[tuple[int, int], int]:
    return {(left, right): new_id for left, right, new_id in tokenizer.merges}


def test_each_rule_of_the_reference_is_registered_with_the_references_own_key():
    # the built-in rules' entries use the reference's lines, so the Train page shows what the rule runs
    assert set(reference.TIE_BREAKS) <= set(TIE_BREAK_RULES)
    for name, sort_rule in reference.TIE_BREAKS.items():
        assert TIE_BREAK_RULES[name].reference is sort_rule, name


def test_an_unknown_rule_names_the_known_ones():
    with pytest.raises(ValueError, match="unknown tie-break rule 'longest'.*first-seen, lexicographic-max"):
        reference.train({"ab": 2}, 1, tie_break="longest")


# python-docs is checked under its own rule only: its first merges have no tie (the test checks it),
# and a rule only orders tied pairs, so every rule makes the same merges there. The reference recounts
# the whole corpus for every merge, so each rule would cost as much again for nothing new.
PRESET_RULES = [(name, rule) for name in PRESETS for rule in TIE_BREAK_RULES
                if name != "python-docs" or rule == PRESETS[name].settings.tie_break]


@pytest.mark.parametrize("name, rule", PRESET_RULES, ids=[f"{name}-{rule}" for name, rule in PRESET_RULES])
def test_the_fast_trainer_makes_the_references_merges_on_every_preset_under_every_rule(name, rule):
    preset = PRESETS[name]
    wanted = PYTHON_DOCS_MERGES if name == "python-docs" else preset.settings.target_merges(0)
    settings_ = replace(preset.settings, tie_break=rule, merges=wanted)
    corpus = preset.corpus()
    expected = reference_merges(corpus, settings_, wanted)
    assert len(expected) >= min(wanted, 3)
    trace = train(corpus, settings_)
    assert merges_of(trace) == expected
    if name == "python-docs":
        assert [s.step for s in trace.steps if s.tie_count > 1] == [], "a tie: check python-docs under every rule"


@pytest.mark.parametrize("end_of_word", [None, "</w>"], ids=["no-marker", "end-of-word"])
@pytest.mark.parametrize("unit", ["byte", "char"])
@pytest.mark.parametrize("rule", list(TIE_BREAK_RULES))
@settings(max_examples=examples(40), deadline=None)
@given(word_counts=WORD_TABLE)
def test_the_fast_trainer_makes_the_references_merges_on_random_word_tables(rule, unit, end_of_word, word_counts):
    corpus = Corpus.from_word_counts(word_counts)
    settings_ = TrainSettings(unit=unit, end_of_word=end_of_word, tie_break=rule, merges=40, min_frequency=1)
    assert engine_merges(corpus, settings_) == reference_merges(corpus, settings_, 40)


@pytest.mark.parametrize("rule", list(TIE_BREAK_RULES))
@settings(max_examples=examples(40), deadline=None)
@given(text=TEXT, split=st.sampled_from(SPLITS), unit=st.sampled_from(["byte", "char"]))
def test_the_fast_trainer_makes_the_references_merges_on_random_split_text(rule, text, split, unit):
    corpus = Corpus.from_text(text, pretokenizer=split)
    settings_ = TrainSettings(unit=unit, pretokenizer=split, tie_break=rule, merges=40, min_frequency=1)
    assert engine_merges(corpus, settings_) == reference_merges(corpus, settings_, 40)


@pytest.mark.parametrize("name", list(PRESETS))
def test_the_fast_encoder_gives_each_preset_the_ids_of_the_references_merge_loop(name):
    preset = PRESETS[name]
    trace = train(preset.corpus(), replace(preset.settings, merges=min(preset.settings.target_merges(0), 300)))
    tokenizer = Tokenizer.from_trace(trace)
    ranks = ranks_of(tokenizer)
    text = preset.corpus_text[:20_000]
    walks = tokenizer.encode_walkthrough(text)  # each chunk's starting symbols, and its merges step by step
    expected = [reference.encode_chunk(list(walk.initial), ranks) for walk in walks]
    assert [list(walk.ids) for walk in walks] == expected
    assert tokenizer.encode(text) == [token for ids in expected for token in ids]


@pytest.mark.parametrize("split", GAPLESS)
@settings(max_examples=examples(60), deadline=None)
@given(training=TEXT, text=TEXT | st.text(max_size=40), rule=st.sampled_from(list(TIE_BREAK_RULES)))
def test_the_fast_encoder_gives_the_references_ids_and_text_back(split, training, text, rule):
    settings_ = TrainSettings(pretokenizer=split, tie_break=rule, merges=30, min_frequency=1)
    tokenizer = Tokenizer.from_trace(train(Corpus.from_text(training + text, pretokenizer=split), settings_))
    ranks = ranks_of(tokenizer)
    ids = reference.encode(text, ranks, split=NAMED_PATTERNS[split])
    assert tokenizer.encode(text, disallowed_special=()) == ids
    assert reference.decode(ids, ranks) == tokenizer.decode(ids) == text


@settings(max_examples=examples(40), deadline=None)
@given(word_counts=WORD_TABLE, end_of_word=st.sampled_from([None, "</w>"]), unit=st.sampled_from(["byte", "char"]))
def test_the_fast_encoder_segments_marked_words_as_the_reference(word_counts, end_of_word, unit):
    corpus = Corpus.from_word_counts(word_counts)
    tokenizer = Tokenizer.from_trace(train(corpus, TrainSettings(unit=unit, end_of_word=end_of_word, merges=30, min_frequency=1)))
    ranks = ranks_of(tokenizer)
    for walk in tokenizer.encode_walkthrough(" ".join(word_counts)):
        assert reference.encode_chunk(list(walk.initial), ranks) == list(walk.ids)


# -- the code panel: the reference's lines, with a step's values beside them -----------------------
REFERENCE_LINES = (Path(reference.__file__).read_text(encoding="utf-8")).splitlines()


@pytest.mark.parametrize("name", [name for name in PRESETS if name != "python-docs"])
def test_the_train_panel_shows_the_references_own_lines_and_the_merge_the_reference_makes(name):
    preset = PRESETS[name]
    corpus = preset.corpus()
    trace = train(corpus, preset.settings)
    made = reference.train(
        dict(corpus.words), len(trace.steps), unit=preset.settings.unit, alphabet=corpus.alphabet,
        end_of_word=preset.settings.end_of_word, tie_break=preset.settings.tie_break,
    )
    for step, merge in enumerate(made, start=1):
        lines = train_step_lines(trace, step)
        assert all(REFERENCE_LINES[line.number - 1] == line.code for line in lines)
        values = {line.code.split()[0]: line.value for line in lines}
        assert values["merges.append(Merge(pair,"] == repr(merge)
        assert values["count"] == f"count = {merge.count:,}" and values["for"] == f"new_id = {merge.new_id}"
        assert lines[0].code.strip().startswith(f'"{preset.settings.tie_break}": (')


def test_the_encode_panel_shows_each_merge_of_a_chunk_as_the_references_loop_applies_it():
    trace = train(PRESETS["sennrich"].corpus(), PRESETS["sennrich"].settings)
    tokenizer = Tokenizer.from_trace(trace)
    ranks = ranks_of(tokenizer)
    (walk,) = [walk for walk in tokenizer.encode_walkthrough(" lowest") if walk.merges]
    ids = list(walk.initial)
    for index in range(len(walk.merges)):
        lines = encode_merge_lines(walk, index, tokenizer.token_text)
        assert all(REFERENCE_LINES[line.number - 1] == line.code for line in lines)
        pair = min(reference.get_stats([(ids, 1)]), key=lambda p: ranks.get(p, float("inf")))
        ids = reference.merge(ids, pair, ranks[pair])
        assert f"pair = {pair}:" in lines[2].value and lines[3].value.startswith(f"ids = {ids}")
    assert ids == list(walk.ids)
