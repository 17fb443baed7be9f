"""An extended tokenizer in every owner's library: GPT-2 extended on the Declaration in Hindi, exported
as ``tokenizer.json``, a tiktoken rank file and GPT-2's ``encoder.json`` + ``vocab.bpe`` (the
subword-nmt-style merges file), loaded by Hugging Face ``tokenizers`` and ``tiktoken``, which
encode and decode exactly as BPE Lab does: on the format samples (special tokens, controls, CJK,
emoji...), the Declaration in 16 languages, many scripts with combining marks, and any text
hypothesis draws. A learner's subword-nmt run, extended, goes through subword-nmt's own ``apply_bpe``.

Why the merges file is read by Hugging Face only: tiktoken's reader of GPT-2's files gives the
n-th merge rank 256 + n and checks that against ``encoder.json``; GPT-2's ``<|endoftext|>`` holds
id 50256, between the old merges and the new, so the new tokens' ids (from 50,257) differ from
those ranks by one, and tiktoken refuses the pair of files (shown below) rather than misread them.
Its own rank file holds the ids themselves.
"""

from __future__ import annotations

import contextlib
import io
import json

import pytest
import tiktoken.load
from hypothesis import given, settings
from hypothesis import strategies as st
from subword_nmt.apply_bpe import BPE
from tokenizers import Tokenizer as HfTokenizer
from tokenizers import decoders, models, pre_tokenizers

from bpe.encoding.tokenizer import Tokenizer
from bpe.formats import export_problem, export_tokenizer, import_tokenizer
from bpe.teaching.udhr import ARTICLE_1
from bpe.training.extend import extend

from .examples import examples
from .multilingual import MULTILINGUAL
from .shared_tokenizers import shared_pretrained
from .test_extend import HINDI
from .test_formats_gpt2 import ENDOFTEXT, SAMPLES
from .test_formats_roundtrip import tiktoken_encoding
from .test_subword_nmt_parity import LEARN_BPE, our_trace, segment, subword_nmt_codes

TEXTS = {
    **SAMPLES, "hindi": HINDI, "multilingual": MULTILINGUAL, "hindi-twice-with-endoftext": f"{HINDI}{ENDOFTEXT}{HINDI}",
    **{f"udhr-{sentence.code}": sentence.text for sentence in ARTICLE_1},
}
ASSIGNED = st.characters(exclude_categories=("Cs", "Cn"))  # as the pretrained parity test draws them
DEVANAGARI = st.characters(min_codepoint=0x0900, max_codepoint=0x097F, exclude_categories=("Cn",))


@pytest.fixture(scope="module")
def extended() -> Tokenizer:
    return Tokenizer.from_trace(extend(shared_pretrained("gpt2"), HINDI, merges=200), name="gpt2-hindi")


def gpt2_files_in_tokenizers(files: dict[str, str]) -> HfTokenizer:
    """What a Hugging Face user does with GPT-2-style ``vocab.json`` / ``merges.txt`` files."""
    vocab = json.loads(files["encoder.json"])
    merges = [tuple(line.split(" ")) for line in files["vocab.bpe"].split("\n")[1:] if line]
    hf = HfTokenizer(models.BPE(vocab, merges))
    hf.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    hf.decoder = decoders.ByteLevel()
    hf.add_special_tokens([ENDOFTEXT])
    return hf


@pytest.fixture(scope="module")
def owners(extended, tmp_path_factory) -> dict:
    folder = tmp_path_factory.mktemp("tiktoken")
    with pytest.MonkeyPatch.context() as monkeypatch:
        encoding = tiktoken_encoding(extended, folder, monkeypatch)
    return {
        "tokenizer.json": HfTokenizer.from_str(export_tokenizer(extended, format="hf")["tokenizer.json"]),
        "merges file": gpt2_files_in_tokenizers(export_tokenizer(extended, format="gpt2")),
        "tiktoken": encoding,
    }


def owner_ids(owner, text: str) -> list[int]:
    if isinstance(owner, HfTokenizer):
        return owner.encode(text, add_special_tokens=False).ids
    return owner.encode(text, allowed_special="all")


def owner_text(owner, ids: list[int]) -> str:
    return owner.decode(ids, skip_special_tokens=False) if isinstance(owner, HfTokenizer) else owner.decode(ids)


@pytest.mark.parametrize("owner", ["tokenizer.json", "merges file", "tiktoken"])
@pytest.mark.parametrize("name", list(TEXTS))
def test_each_owner_encodes_the_extended_gpt2_as_bpe_lab_does(extended, owners, owner, name):
    text = TEXTS[name]
    ids = extended.encode(text, allowed_special="all")
    assert owner_ids(owners[owner], text) == ids
    assert owner_text(owners[owner], ids) == extended.decode(ids) == text


@settings(max_examples=examples(200), deadline=None)
@given(st.text(alphabet=ASSIGNED, max_size=60) | st.text(alphabet=DEVANAGARI | st.sampled_from(" ,।\n1a"), max_size=60))
def test_any_text_encodes_in_each_owner_as_in_bpe_lab(extended, owners, text):
    ids = extended.encode_ordinary(text)
    for owner in owners.values():
        assert owner_ids(owner, text) == ids


def test_the_new_tokens_are_in_every_file_with_their_ids(extended):
    new = {token_id: token for token_id, token in extended.tokens.items() if token_id >= 50_257}
    assert len(new) > 25
    back = import_tokenizer(format="tiktoken", files=export_tokenizer(extended, format="tiktoken"), special_tokens={ENDOFTEXT: 50256})
    assert back.merges == extended.merges and back.tokens == extended.tokens
    for format in ("hf", "gpt2", "ours"):
        assert import_tokenizer(format=format, files=export_tokenizer(extended, format=format)).merges == extended.merges


def test_formats_that_cannot_hold_it_say_why(extended):
    assert "numbers bytes 0-255 by value" in export_problem(extended, format="minbpe")  # GPT-2's byte ids
    assert "merges of characters" in export_problem(extended, format="subword-nmt")


def test_tiktokens_reader_of_gpt2_files_refuses_the_extended_pair_rather_than_misread_it(extended, tmp_path):
    files = export_tokenizer(extended, format="gpt2")
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    with pytest.raises(AssertionError):
        tiktoken.load.data_gym_to_mergeable_bpe_ranks(str(tmp_path / "vocab.bpe"), str(tmp_path / "encoder.json"))


OLD_TEXT = "low lower lowest newer newest wider widest " * 4
NEW_TEXT = "the quick brown fox jumps over the lazy dog and the lazier fox " * 4


def test_a_subword_nmt_run_extended_segments_in_subword_nmt_as_in_bpe_lab():
    """subword-nmt's answer to continuing (its issue 118): concatenated codes files work, in order."""
    old = Tokenizer.from_trace(our_trace(OLD_TEXT))
    assert to_codes(old) == subword_nmt_codes(OLD_TEXT)  # the run is subword-nmt's own
    extended = Tokenizer.from_trace(extend(old, NEW_TEXT, merges=1000, tie_break=LEARN_BPE.tie_break))
    codes = to_codes(extended)
    assert codes.startswith(to_codes(old))  # the old codes first, as they were
    with contextlib.redirect_stderr(io.StringIO()):
        applied = BPE(io.StringIO(codes))
    for line in (OLD_TEXT, NEW_TEXT, "the lowest fox jumps wider"):
        assert applied.segment(line).strip() == segment(extended, line)


def to_codes(tokenizer: Tokenizer) -> str:
    return export_tokenizer(tokenizer, format="subword-nmt")["bpe.codes"]
