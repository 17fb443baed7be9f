"""Malformed files of every format raise FormatError (a ValueError) naming the file, the line
where there is one, and the problem; fuzzed input never raises anything else."""

from __future__ import annotations

import json
from functools import lru_cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bpe.encoding.tokenizer import Tokenizer
from bpe.errors import FormatError
from bpe.formats import from_gpt2, from_hf, from_minbpe, from_ours, from_tiktoken, to_gpt2, to_hf, to_minbpe, to_tiktoken
from bpe.text.corpus import Corpus
from bpe.tokens.vocab import Token
from bpe.training.settings import TrainSettings
from bpe.training.trainer import train

from .examples import examples

NOT_UTF8 = b"\xff\xfe\x00bad"


@lru_cache(maxsize=1)
def small() -> Tokenizer:
    settings = TrainSettings(merges=12, special_tokens=("<|endoftext|>",))
    text = "the theme of these three theses: then there, than them " * 3
    return Tokenizer.from_trace(train(Corpus.from_text(text, special_tokens=("<|endoftext|>",)), settings))


def good_files() -> dict[str, object]:
    tokenizer = small()
    model, _ = to_minbpe(tokenizer)
    encoder, merges = to_gpt2(tokenizer)
    return {"ours": tokenizer.to_json(), "minbpe": model, "hf": to_hf(tokenizer), "tiktoken": to_tiktoken(tokenizer),
            "encoder": encoder, "merges": merges}


def whole_word_merged_otherwise() -> str:
    """A ``tokenizer.json`` with ``ignore_merges`` whose token ``abc`` (a + bc) its own merges make ab + c:
    Hugging Face looks the word up whole, BPE Lab would merge it."""
    a, b, c = b"abc"
    merges = [(a, b, 256), (b, c, 257), (a, 257, 258)]
    document = json.loads(to_hf(Tokenizer(unit="byte", pretokenizer="gpt2", base={i: Token(bytes([i])) for i in range(256)}, merges=merges)))
    document["model"]["ignore_merges"] = True
    return json.dumps(document)


def read_gpt2_merges(merges: str | bytes):
    return from_gpt2(encoder_json=good_files()["encoder"], vocab_bpe=merges)


def read_gpt2_encoder(encoder: str | bytes):
    return from_gpt2(encoder_json=encoder, vocab_bpe=good_files()["merges"])


def replace_line(text: str, index: int, line: str) -> str:
    lines = text.split("\n")
    lines[index] = line
    return "\n".join(lines)


def hf_with(**model_changes) -> str:
    document = json.loads(good_files()["hf"])
    document["model"].update(model_changes)
    return json.dumps(document)


def test_good_files_read_back():
    files = good_files()
    for tokenizer in (
        from_ours(files["ours"]), from_minbpe(files["minbpe"]), from_hf(files["hf"]),
        from_tiktoken(files["tiktoken"], special_tokens=small().special_tokens), read_gpt2_merges(files["merges"]),
    ):
        assert tokenizer.merges == small().merges


MALFORMED = {
    # name: (reader, contents (callable for lazily built ones), expected message pattern)
    "ours-truncated": (from_ours, lambda f: f["ours"][:50], r"not valid JSON.*cut short"),
    "ours-wrong-version": (from_ours, lambda f: f["ours"].replace('"version":1', '"version":7'), r"version 7 is not supported"),
    "ours-not-utf8": (from_ours, lambda f: NOT_UTF8, r"tokenizer.json is not UTF-8 text \(byte 0"),
    "ours-unknown-merge-id": (from_ours, lambda f: f["ours"].replace('"merges":[[', '"merges":[[9999,1,256],['),
                              r"merge 1 uses token id 9999"),
    "ours-null-pretokenizer": (from_ours, lambda f: f["ours"].replace('"pretokenizer":"gpt2"', '"pretokenizer":null'),
                               r"malformed"),
    "minbpe-empty": (from_minbpe, lambda f: "", r"tokenizer.model line 1: expected 'minbpe v1', found an empty file"),
    "minbpe-wrong-version": (from_minbpe, lambda f: f["minbpe"].replace("minbpe v1", "minbpe v2"),
                             r"line 1: expected 'minbpe v1', found 'minbpe v2'"),
    "minbpe-truncated-header": (from_minbpe, lambda f: "minbpe v1\n", r"ends after line 1"),
    "minbpe-truncated-specials": (from_minbpe, lambda f: "minbpe v1\n\n2\n<a> 300\n", r"before its 2 special tokens"),
    "minbpe-bad-count": (from_minbpe, lambda f: "minbpe v1\n\nmany\n", r"line 3: the number of special tokens 'many'"),
    "minbpe-id-out-of-range": (from_minbpe, lambda f: replace_line(f["minbpe"], 5, "999 1"),
                               r"line 6: merges id 999, but only ids below 257"),
    "minbpe-duplicate-merge": (from_minbpe, lambda f: f["minbpe"] + f["minbpe"].split("\n")[4] + "\n",
                               r"line 17: repeats the merge .* of line 5"),
    "minbpe-half-merge": (from_minbpe, lambda f: f["minbpe"] + "104\n", r"line 17: expected a merge as two ids"),
    "minbpe-not-utf8": (from_minbpe, lambda f: NOT_UTF8, r"not UTF-8"),
    "minbpe-bad-pattern": (from_minbpe, lambda f: replace_line(f["minbpe"], 1, "(("), r"not a valid regex"),
    "hf-truncated": (from_hf, lambda f: f["hf"][: len(f["hf"]) // 2], r"tokenizer.json is not valid JSON"),
    "hf-not-utf8": (from_hf, lambda f: NOT_UTF8, r"not UTF-8"),
    "hf-no-model": (from_hf, lambda f: "{}", r"no \"model\" object"),
    "hf-wordpiece": (from_hf, lambda f: hf_with(type="WordPiece"), r"the model is 'WordPiece'; only BPE"),
    "hf-unknown-merge-token": (from_hf, lambda f: hf_with(merges=[["th", "e"]]), r"merge 1: merges 'th'"),
    "hf-repeat-used-before": (from_hf, lambda f: hf_with(merges=[*json.loads(f["hf"])["model"]["merges"], "t h"]),
                              r"merge 13: repeats the merge t h of merge 1; .* but merge 2 already joins 'th'"),
    "hf-merge-result-missing": (from_hf, lambda f: hf_with(merges=[["q", "z"]]), r"makes 'qz', which the vocab has no id"),
    "hf-negative-id": (from_hf, lambda f: hf_with(vocab={**json.loads(f["hf"])["model"]["vocab"], "zz": -3}),
                       r"'zz': id -3 is not a whole number"),
    "hf-missing-bytes": (from_hf, lambda f: hf_with(vocab={"a": 0}, merges=[]), r"lacks 255 of the 256 single bytes"),
    "hf-prefix-space": (from_hf, lambda f: f["hf"].replace('"add_prefix_space": false', '"add_prefix_space": true', 1),
                        r"add_prefix_space=true"),
    "hf-ignore-merges-on-a-word-merged-otherwise": (from_hf, lambda f: whole_word_merged_otherwise(),
                                                   r"ignore_merges is on, so Hugging Face encodes the word 'abc' as its token 258, while its merges make \[256, 99\]"),
    "tiktoken-not-base64": (from_tiktoken, lambda f: "!!!! 0\n", r"rank file line 1: '!!!!' is not base64"),
    "tiktoken-bad-rank": (from_tiktoken, lambda f: "YQ== first\n", r"line 1: the rank 'first' is not a whole number"),
    "tiktoken-duplicate-rank": (from_tiktoken, lambda f: f["tiktoken"] + "enp6 3\n", r"line 269: rank 3 was already given on line 4"),
    "tiktoken-duplicate-token": (from_tiktoken, lambda f: f["tiktoken"] + "YQ== 9999\n", r"line 269: the token b'a' was already ranked"),
    "tiktoken-missing-bytes": (from_tiktoken, lambda f: "YQ== 0\n", r"255 of the 256 single bytes have no rank"),
    "tiktoken-not-utf8": (from_tiktoken, lambda f: NOT_UTF8, r"not UTF-8"),
    "tiktoken-one-field": (from_tiktoken, lambda f: "YQ==\n", r"line 1: expected 'base64-token rank'"),
    "gpt2-wrong-version": (read_gpt2_merges, lambda f: f["merges"].replace("#version: 0.2", "#version: 0.3"),
                           r"vocab.bpe line 1: '#version: 0.3' is not supported"),
    "gpt2-unknown-token": (read_gpt2_merges, lambda f: f["merges"] + "Ġzz q\n",
                           r"vocab.bpe line 14: merges 'Ġzz', which neither a byte nor an earlier line makes"),
    "gpt2-repeat-used-before": (read_gpt2_merges, lambda f: f["merges"] + f["merges"].split("\n")[1] + "\n",
                                r"vocab.bpe line 14: repeats the merge t h of line 2; .* but line 3 already joins 'th'"),
    "gpt2-truncated-line": (read_gpt2_merges, lambda f: f["merges"] + "Ġth", r"line 14: expected two tokens"),
    "gpt2-result-not-in-encoder": (read_gpt2_merges, lambda f: f["merges"] + "q z\n",
                                   r"line 14: q z makes 'qz', which encoder.json has no id for"),
    "gpt2-merges-not-utf8": (read_gpt2_merges, lambda f: NOT_UTF8, r"vocab.bpe is not UTF-8"),
    "gpt2-encoder-truncated": (read_gpt2_encoder, lambda f: f["encoder"][:100], r"encoder.json is not valid JSON"),
    "gpt2-encoder-list": (read_gpt2_encoder, lambda f: "[1, 2]", r"must be a JSON object of token -> id"),
    "gpt2-encoder-shared-id": (read_gpt2_encoder, lambda f: f["encoder"].replace('"#": 35', '"#": 34'),
                               r"id 34 is given to both"),
    "gpt2-encoder-huge-int": (read_gpt2_encoder, lambda f: '{"a": ' + "9" * 5000 + "}", r"not valid JSON"),
}


@pytest.mark.parametrize("name", list(MALFORMED))
def test_malformed_file_raises_a_format_error_naming_the_problem(name):
    reader, contents, message = MALFORMED[name]
    with pytest.raises(FormatError, match=message):
        reader(contents(good_files()))


def test_format_errors_are_value_errors():
    assert issubclass(FormatError, ValueError)


# -- fuzz: nothing but FormatError ---------------------------------------------------------------
PARSERS = {
    "ours": from_ours,
    "minbpe": from_minbpe,
    "hf": from_hf,
    "tiktoken": from_tiktoken,
    "gpt2-encoder": read_gpt2_encoder,
    "gpt2-merges": read_gpt2_merges,
}
GOOD = {"ours": "ours", "minbpe": "minbpe", "hf": "hf", "tiktoken": "tiktoken", "gpt2-encoder": "encoder",
        "gpt2-merges": "merges"}


def parses_or_format_error(parser, contents) -> None:
    try:
        parser(contents)
    except FormatError:
        pass


@pytest.mark.parametrize("parser", list(PARSERS))
@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(contents=st.binary(max_size=300) | st.text(max_size=300))
def test_random_bytes_and_text_raise_only_format_errors(parser, contents):
    parses_or_format_error(PARSERS[parser], contents)


@pytest.mark.parametrize("parser", list(PARSERS))
@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_damaged_good_files_raise_only_format_errors(parser, data):
    """Random cuts, deletions and insertions in a valid file: closer to real damage than noise."""
    text = good_files()[GOOD[parser]]
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, min(len(text), start + 40)))
    insert = data.draw(st.text(alphabet=st.sampled_from('0123456789 \n"[]{},:-abĠ<|>#'), max_size=8))
    parses_or_format_error(PARSERS[parser], text[:start] + insert + text[end:])


@settings(max_examples=examples(100), deadline=None)
@given(st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=20,
))
def test_json_of_any_shape_raises_only_format_errors(value):
    contents = json.dumps(value)
    for parser in (from_ours, from_hf, read_gpt2_encoder):
        parses_or_format_error(parser, contents)
    document = json.loads(good_files()["hf"])
    for key in ("model", "pre_tokenizer", "added_tokens"):
        parses_or_format_error(from_hf, json.dumps({**document, key: value}))
    ours = json.loads(good_files()["ours"])
    for key in ("base", "merges", "special_tokens", "unit", "pretokenizer"):
        parses_or_format_error(from_ours, json.dumps({**ours, key: value}))
