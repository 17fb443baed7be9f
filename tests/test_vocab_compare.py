"""Comparing two vocabularies by the bytes of their tokens, checked against tiktoken's own tables."""

from __future__ import annotations

from bpe import PRESETS, Corpus, Tokenizer, TrainSettings, train
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


def test_of_two_tokens_decoding_to_the_same_bytes_the_earlier_id_stands_for_them():
    # a run with subword-nmt's attached marker: "t" and "t</w>" both decode to b"t"
    settings = TrainSettings(unit="char", pretokenizer="space", end_of_word="</w>", end_of_word_mode="attached", merges=10)
    run = Tokenizer.from_trace(train(Corpus.from_text("low lower newest widest " * 3, pretokenizer="space"), settings))
    ids_of: dict[bytes, list[int]] = {}
    for token_id, token in run.tokens.items():
        if token.data and not run.is_special(token_id):
            ids_of.setdefault(token.data, []).append(token_id)
    twice = {data: min(ids) for data, ids in ids_of.items() if len(ids) > 1}
    assert b"t" in twice
    comparison = compare_vocabularies(run, shared_pretrained("gpt2"))
    assert {data: comparison.both[data][0] for data in twice if data in comparison.both} == {
        data: token_id for data, token_id in twice.items() if data in comparison.both}
    reverse = compare_vocabularies(shared_pretrained("gpt2"), run)
    assert {data: reverse.both[data][1] for data in twice if data in reverse.both} == {
        data: token_id for data, token_id in twice.items() if data in reverse.both}
