"""The counting lab: pairs counted with overlap beside the replacements a merge actually makes."""

from collections import defaultdict

import pytest
from hypothesis import given, settings as hypothesis_settings, strategies as st

from bpe import PRESETS, train
from bpe.teaching.counting import Symbol, count_pair, pairs_present, symbols_at_step, symbols_of, tally
from bpe.training.trainer import count_pairs, merge_pair

from .examples import examples

WIKIPEDIA = train(PRESETS["wikipedia"].corpus(), PRESETS["wikipedia"].settings)


def test_aaaa_counts_a_a_three_times_but_a_merge_replaces_it_twice():
    result = count_pair("aaaa", ("a", "a"))
    assert (result.count, result.replacements) == (3, 2)
    assert result.counted == (0, 1, 2) and result.replaced == (0, 2) and result.overlapped == (1,)
    assert result.merged_texts() == ["aa", "aa"]


def test_char_and_byte_levels_differ_on_a_multibyte_character():
    assert [s.text for s in symbols_of("é", unit="char")] == ["é"]
    assert [s.id for s in symbols_of("é", unit="byte")] == [0xC3, 0xA9]
    assert count_pair("éé", ("é", "é"), unit="char").count == 1


def test_pairs_never_cross_a_chunk_and_gaps_are_never_counted():
    symbols = symbols_of("aa  aa", unit="char", pretokenizer="whitespace")
    assert [(p.left, p.right, p.count) for p in pairs_present(symbols)] == [(97, 97, 2)]
    assert tally(symbols, (32, 32)).count == 0


def test_at_a_step_of_a_trace_the_symbols_are_the_tokens_after_that_many_merges():
    symbols = symbols_at_step(WIKIPEDIA, 1, "aaabdaaabac")
    assert [s.text for s in symbols] == ["aa", "a", "b", "d", "aa", "a", "b", "a", "c"]
    step = WIKIPEDIA.steps[1]
    assert tally(symbols, (step.left, step.right)).count == step.count


def test_a_pair_that_is_not_one_symbol_of_the_text_is_refused_with_a_hint():
    with pytest.raises(ValueError, match="^'ab' is not one byte symbol of this text: pick one of the pairs"):
        count_pair("abc", ("ab", "c"))


def test_pairs_present_lists_the_most_frequent_first():
    assert [(p.left, p.right, p.count) for p in pairs_present(symbols_of("abab"))] == [(97, 98, 2), (98, 97, 1)]


def merged_by_the_trainer(ids, pair, new_id):
    words = [list(ids)]
    merge_pair(words, [1], [0], pair, new_id, defaultdict(set))
    return words[0]


def _symbols(ids):
    return tuple(Symbol(i, str(i), 0, True) for i in ids)


@hypothesis_settings(max_examples=examples(300), deadline=None)
@given(ids=st.lists(st.integers(0, 3), max_size=30), left=st.integers(0, 3), right=st.integers(0, 3))
def test_replacements_are_exactly_what_the_trainers_merge_pair_does(ids, left, right):
    result = tally(_symbols(ids), (left, right))
    merged = merged_by_the_trainer(ids, (left, right), 99)
    assert result.replacements == len(ids) - len(merged)
    assert result.merged_texts() == [f"{left}{right}" if i == 99 else str(i) for i in merged]
    assert result.count == count_pairs([ids], [1]).get((left, right), 0)


@hypothesis_settings(max_examples=examples(100), deadline=None)
@given(text=st.text(alphabet="ab é", max_size=30), pair=st.tuples(st.sampled_from("ab "), st.sampled_from("ab ")))
def test_on_text_the_lab_agrees_with_the_trainers_merge_at_both_levels(text, pair):
    for unit in ("byte", "char"):
        ids = [s.id for s in symbols_of(text, unit=unit)]
        wanted = (ord(pair[0]), ord(pair[1]))
        merged = merged_by_the_trainer(ids, wanted, -1)
        result = count_pair(text, pair, unit=unit)
        assert result.replacements == len(ids) - len(merged)


@hypothesis_settings(max_examples=examples(100), deadline=None)
@given(text=st.text(alphabet="ab é·\n", min_size=2, max_size=30))
def test_every_pair_the_lab_lists_counts_as_listed_when_asked_for_by_its_chips_spelling(text):
    """The lab's "Count another pair" buttons ask for a pair as its chips spell it (a space "·"): each
    one counts what the list says, at both levels. (A text holding both a space and a real "·" spells
    them alike; there "·" means the real one, and a space is typed as itself.)"""
    for unit in ("byte", "char"):
        symbols = symbols_of(text, unit=unit)
        spelled = {symbol.id: symbol.text for symbol in symbols}
        for listed in pairs_present(symbols):
            pair = spelled[listed.left], spelled[listed.right]
            if all(list(spelled.values()).count(spelling) == 1 for spelling in pair):
                asked = count_pair(text, pair, unit=unit)
                assert (asked.pair, asked.count) == ((listed.left, listed.right), listed.count), (unit, listed)
