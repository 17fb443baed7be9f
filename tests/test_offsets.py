"""``decode_with_offsets`` is tiktoken's: the same text and offsets on every pretrained tokenizer,
on hard text, and tiktoken's own expected offsets for its test prompts; the streaming decoder's
pieces join to the whole decode.

tiktoken is the oracle: GPT-2, GPT-4 and GPT-4o are tiktoken's own encodings, read offline
(``tests/peers.py``); every other pretrained tokenizer is checked against a ``tiktoken.Encoding``
built from its token bytes, so the offsets come from tiktoken's code, never from ours.
"""

from __future__ import annotations

import pytest
import tiktoken
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe.encoding.offsets import StreamDecoder, stream_steps
from bpe.errors import BpeError
from bpe.pretrained.registry import PRETRAINED

from .examples import examples
from .hostile_text_suite import HOSTILE_TEXTS, TIKTOKEN_PROMPTS
from .peers import TIKTOKEN_ENCODINGS, tiktoken_encoding
from .shared_tokenizers import shared_pretrained

# tiktoken's tests/test_offsets.py, test_basic_offsets, on cl100k_base
TIKTOKEN_EXPECTED = {
    "hello world": [0, 5],
    "special token between words": [0, 5, 11, 24, 30],
    "Chinese (tiktoken's test)": [0, 1, 2, 3, 3, 4, 4, 5, 6, 7, 8, 8, 9, 10, 11, 12, 13],
    "Tamil (tiktoken's test)": [0, 0, 1, 1, 2, 3, 4, 4, 5, 6, 7, 8, 8, 9, 9, 10, 11, 12, 12],
    "GPT-2's stand-in Ġ typed (tiktoken's test)": [0, 1],
}


def reference_offsets(tokenizer, ids: list[int]) -> list[int]:
    """tiktoken's definition (its tests' ``_token_offsets_reference``): where the text decoded
    from the tokens before each one stops agreeing with the whole text."""
    text = tokenizer.decode(ids, errors="strict")
    offsets = []
    for i in range(len(ids)):
        before = tokenizer.decode(ids[:i], errors="ignore")
        offsets.append(next((k for k, (a, b) in enumerate(zip(text, before)) if a != b), min(len(text), len(before))))
    return offsets


def tiktoken_for(name: str):
    """tiktoken's own encoding where it has one, else a tiktoken Encoding over our token bytes; None
    where two tokens spell the same bytes (a SentencePiece model's ``<0x41>`` beside ``A``), which a
    tiktoken Encoding cannot hold."""
    if name in TIKTOKEN_ENCODINGS:
        return tiktoken_encoding(name)
    tokenizer = shared_pretrained(name)
    specials = tokenizer.special_tokens
    special_ids = set(specials.values())
    ranks = {token.data: token_id for token_id, token in tokenizer.tokens.items() if token_id not in special_ids}
    if len(ranks) < len(tokenizer.tokens) - len(specials):
        return None
    return tiktoken.Encoding(name, pat_str=r"\S+|\s+", mergeable_ranks=ranks, special_tokens=dict(specials))


@pytest.mark.parametrize("prompt", list(TIKTOKEN_PROMPTS))
def test_gpt4_gives_tiktokens_own_expected_offsets_for_its_test_prompts(prompt):
    gpt4 = shared_pretrained("cl100k_base")
    ids = gpt4.encode(TIKTOKEN_PROMPTS[prompt], allowed_special="all")
    assert gpt4.decode_with_offsets(ids) == (TIKTOKEN_PROMPTS[prompt], TIKTOKEN_EXPECTED[prompt])


@pytest.mark.parametrize("name", TIKTOKEN_ENCODINGS)
@pytest.mark.parametrize("text", list(HOSTILE_TEXTS))
def test_offsets_equal_tiktokens_on_the_hostile_text_suite(name, text):
    ours, theirs = shared_pretrained(name), tiktoken_encoding(name)
    ids = ours.encode(HOSTILE_TEXTS[text], allowed_special="all")
    assert ids == theirs.encode(HOSTILE_TEXTS[text], allowed_special="all")
    assert ours.decode_with_offsets(ids) == theirs.decode_with_offsets(ids)


@pytest.mark.parametrize("name", list(PRETRAINED))
def test_every_pretrained_tokenizer_gives_tiktokens_offsets(name):
    ours, theirs = shared_pretrained(name), tiktoken_for(name)
    for text in HOSTILE_TEXTS.values():
        ids = ours.encode(text, allowed_special="all")
        # Without a tiktoken Encoding, tiktoken's tests' own definition of the offsets is the oracle.
        expected = theirs.decode_with_offsets(ids) if theirs else (ours.decode(ids), reference_offsets(ours, ids))
        assert ours.decode_with_offsets(ids) == expected, text


@pytest.mark.parametrize("name", ["gpt2", "o200k_base"])
@settings(max_examples=examples(100), deadline=None)
@given(data=st.data())
def test_offsets_of_any_ids_that_decode_to_text_equal_tiktokens(name, data):
    # tiktoken's own property test: random ids, made valid UTF-8 by a decode and an encode
    ours, theirs = shared_pretrained(name), tiktoken_encoding(name)
    drawn = data.draw(st.lists(st.integers(0, theirs.max_token_value), min_size=1, max_size=20))
    drawn = [token for token in drawn if token in ours.tokens]
    ids = ours.encode(ours.decode(drawn, errors="ignore"), allowed_special="all")
    assert ours.decode_with_offsets(ids) == theirs.decode_with_offsets(ids)


def test_ids_that_end_inside_a_character_have_no_offsets_and_the_error_says_how_to_see_them():
    gpt4 = shared_pretrained("cl100k_base")
    with pytest.raises(BpeError, match="not whole UTF-8 characters .* errors='replace'"):
        gpt4.decode_with_offsets(gpt4.encode("😀")[:1])


@pytest.mark.parametrize("name", ["gpt2", "cl100k_base", "qwen2.5"])
@pytest.mark.parametrize("text", ["Tamil (tiktoken's test)", "emoji with joiners, skin tones, flags, keycaps", "mixed scripts"])
def test_streamed_pieces_join_to_the_whole_decode_and_hold_no_half_characters(name, text):
    tokenizer = shared_pretrained(name)
    ids = tokenizer.encode(HOSTILE_TEXTS[text])
    steps = stream_steps(tokenizer, ids)
    assert "".join(step.shown for step in steps) == tokenizer.decode(ids)
    assert all("\ufffd" not in step.shown for step in steps)
    assert any(step.held for step in steps) and any("\ufffd" in step.naive for step in steps)  # the lesson shows


def test_bytes_that_never_complete_a_character_come_out_as_a_replacement_at_the_end():
    gpt2 = shared_pretrained("gpt2")
    stream = StreamDecoder(gpt2)
    half = gpt2.byte_ids(b"\xe2\x82")  # two of the three bytes of "€"
    assert [stream.feed(token) for token in half] == ["", ""] and stream.held == b"\xe2\x82"
    assert stream.finish() == "\ufffd"


def test_a_sentencepiece_tokenizer_streams_and_offsets_its_text_without_the_dummy_prefix():
    from bpe import Corpus, TrainSettings, train
    from bpe.encoding.tokenizer import Tokenizer

    text = "hello world, hello there\nworld hello"
    settings = TrainSettings(unit="char", pretokenizer="sentencepiece", tie_break="sentencepiece", merges=12)
    tokenizer = Tokenizer.from_trace(train(Corpus.from_text(text, pretokenizer="sentencepiece"), settings))
    ids = tokenizer.encode("hello world")
    decoded, offsets = tokenizer.decode_with_offsets(ids)
    pieces = [tokenizer.decode_single_token_bytes(token).decode() for token in ids]
    assert decoded == "hello world" and pieces[0].startswith("\u2581")
    assert offsets == reference_offsets(tokenizer, ids)
    assert "".join(step.shown for step in stream_steps(tokenizer, ids)) == decoded
