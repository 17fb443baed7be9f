"""Comparing two vocabularies by the bytes of their tokens, checked against tiktoken's own tables."""

from __future__ import annotations

from bpe import PRESETS, Tokenizer, train
from bpe.encoding.vocab_compare import compare_vocabularies

from .peers import tiktoken_encoding
from .shared_tokenizers import shared_pretrained


def test_gpt2_against_gpt4_shares_exactly_the_byte_strings_both_rank_files_hold():
    comparison = compare_vocabularies(shared_pretrained("gpt2"), shared_pretrained("cl100k_base"))
    gpt2, gpt4 = (set(tiktoken_encoding(name)._mergeable_ranks) for name in ("gpt2", "cl100k_base"))
    assert set(comparison.both) == gpt2 & gpt4
    assert len(comparison.only_first) == len(gpt2 - gpt4) and len(comparison.only_second) == len(gpt4 - gpt2)
    assert all(tiktoken_encoding("cl100k_base")._mergeable_ranks[data] == ids[1] for data, ids in comparison.both.items())
    assert comparison.specials_both == ("<|endoftext|>",)


def test_a_run_compared_with_itself_at_an_earlier_step_lacks_only_the_later_merges():
    trace = train(PRESETS["python-docs"].corpus(), PRESETS["python-docs"].settings)
    later, earlier = Tokenizer.from_trace(trace), Tokenizer.from_trace(trace, step=500)
    comparison = compare_vocabularies(later, earlier)
    assert comparison.only_second == ()
    assert set(comparison.only_first) == {step.new_id for step in trace.steps[500:]}
    assert comparison.learned_in_second == tuple(step.new_id for step in trace.steps[:500])
