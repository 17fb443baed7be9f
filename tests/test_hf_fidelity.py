"""Hugging Face files as they are: every file BPE Lab writes or reads encodes alike in ``tokenizers``,
and what it cannot carry is refused with the reason.

Golden ids come from ``tokenizers`` itself, loading the very file; where a file is refused, the
test also shows ``tokenizers`` doing what BPE Lab could not replay.
"""

from __future__ import annotations

import json

import pytest
import tiktoken
from tokenizers import Tokenizer as HfTokenizer
from tokenizers import models, pre_tokenizers, trainers

from bpe.encoding.tokenizer import Tokenizer
from bpe.errors import FormatError
from bpe.formats import export_problem, from_hf, import_tokenizer, tiktoken_pattern, to_hf
from bpe.text.corpus import Corpus
from bpe.training.settings import TrainSettings
from bpe.training.trainer import train

EOT = "<|endoftext|>"
CORPUS = "the cat sat on the mat; the end. Then: 12345 cafés naïve 東京 " * 20
SAMPLE = f"the cat{EOT} sat  on Them{EOT}naïve 東京 12345 x"


def ours(*, merges: int = 40, step: int | None = None, specials=(EOT,), pretokenizer: str = "gpt2") -> Tokenizer:
    settings = TrainSettings(merges=merges, special_tokens=specials, pretokenizer=pretokenizer)
    trace = train(Corpus.from_text(CORPUS, special_tokens=specials, pretokenizer=pretokenizer), settings)
    return Tokenizer.from_trace(trace, step=step)


def hf_ids(document: str, text: str = SAMPLE) -> list[int]:
    return HfTokenizer.from_str(document).encode(text, add_special_tokens=False).ids


def with_added(document: str, **flags) -> str:
    """The file with each added token's flags changed."""
    data = json.loads(document)
    for added in data["added_tokens"]:
        added.update(flags)
    return json.dumps(data, ensure_ascii=False)


# -- export ---------------------------------------------------------------------------------------
def test_an_export_at_an_early_step_keeps_the_special_token_ids_in_hugging_face():
    tok = ours(step=3)
    assert tok.special_tokens[EOT] == 256 + 40  # after the last merge of the whole run, not 259
    assert hf_ids(to_hf(tok)) == tok.encode(SAMPLE, allowed_special="all")
    assert from_hf(to_hf(tok)).encode(SAMPLE, allowed_special="all") == tok.encode(SAMPLE, allowed_special="all")


@pytest.mark.parametrize("special", ["x", "Ġ"])  # bytes: in every byte-level vocab
def test_a_special_token_spelled_like_a_vocabulary_entry_is_refused(special):
    tok = ours(specials=(special,))
    assert "is spelled like the vocabulary entry" in export_problem(tok, format="hf")
    # Written anyway, Hugging Face gives the special token the entry's id, not ours.
    data = json.loads(to_hf(ours(specials=())))
    data["added_tokens"] = [{"id": tok.special_tokens[special], "content": special, "single_word": False,
                             "lstrip": False, "rstrip": False, "normalized": False, "special": True}]
    assert HfTokenizer.from_str(json.dumps(data)).token_to_id(special) != tok.special_tokens[special]


def test_a_pattern_with_a_class_then_plus_is_exported_and_splits_alike():
    tok = ours(pretokenizer=r"regex:\p{L}+|\p{N}+|\s+|[^\s\p{L}\p{N}]+")
    assert export_problem(tok, format="hf") is None
    assert hf_ids(to_hf(tok)) == tok.encode(SAMPLE, allowed_special="all")


def test_a_possessive_bounded_repeat_is_still_refused():
    assert "possessive bounded repeat" in export_problem(ours(pretokenizer=r"regex:\p{N}{1,3}+|\D+"), format="hf")


def test_set_operations_are_refused_for_hugging_face_and_tiktoken():
    tok = ours(pretokenizer=r"regex:[\p{L}--[a-z]]+|[^\p{L}]+|[a-z]+")
    assert "set operation" in export_problem(tok, format="hf")
    assert "set operation" in export_problem(tok, format="tiktoken")


@pytest.mark.parametrize("pattern, what", [(r"\X", "grapheme"), (r"[[:alpha:]]+|[^[:alpha:]]+", "POSIX class")])
def test_patterns_tiktoken_cannot_run_are_refused_for_tiktoken(pattern, what):
    tok = ours(pretokenizer=f"regex:{pattern}")
    assert what in export_problem(tok, format="tiktoken")
    if pattern == r"\X":  # and tiktoken does fail on it
        with pytest.raises(ValueError):
            tiktoken.Encoding("x", pat_str=tiktoken_pattern(tok), mergeable_ranks={bytes([b]): b for b in range(256)},
                              special_tokens={})


# -- import ---------------------------------------------------------------------------------------
def test_a_normalized_special_token_reads_and_encodes_as_in_hugging_face():
    document = with_added(to_hf(ours()), normalized=True)
    assert hf_ids(document) == from_hf(document).encode(SAMPLE, allowed_special="all")


@pytest.mark.parametrize("flag", ["lstrip", "rstrip", "single_word"])
def test_added_tokens_that_strip_or_match_whole_words_are_refused(flag):
    document = with_added(to_hf(ours()), **{flag: True})
    with pytest.raises(FormatError, match=f"sets {flag}=true"):
        from_hf(document)
    if flag != "single_word":  # Hugging Face swallows the spaces beside it: other ids than ours
        text = f"a {EOT} b"
        assert hf_ids(document, text) != ours().encode(text, allowed_special="all")


def test_a_non_special_added_token_is_refused_because_hugging_face_cuts_it_out_of_any_text():
    document = with_added(to_hf(ours()), special=False)
    with pytest.raises(FormatError, match="is not special"):
        from_hf(document)
    assert ours().tokens[hf_ids(document)[2]].data == EOT.encode()  # cut out, not merged as text


def test_an_added_token_in_the_vocab_but_made_by_no_merge_reads_as_in_hugging_face():
    document = to_hf(ours(step=5))
    assert EOT in json.loads(document)["model"]["vocab"]
    assert hf_ids(document) == from_hf(document).encode(SAMPLE, allowed_special="all")


def test_an_added_token_that_a_merge_makes_is_refused_with_the_reason():
    data = json.loads(to_hf(ours(specials=())))
    the = data["model"]["vocab"]["the"]
    data["added_tokens"] = [{"id": the, "content": "the", "single_word": False, "lstrip": False, "rstrip": False,
                             "normalized": False, "special": True}]
    with pytest.raises(FormatError, match="is also what a merge makes"):
        from_hf(json.dumps(data))


def test_old_merges_txt_headers_from_hugging_face_are_read(tmp_path):
    hf = HfTokenizer(models.BPE())
    hf.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    hf.train_from_iterator([CORPUS], trainers.BpeTrainer(
        vocab_size=320, show_progress=False, initial_alphabet=pre_tokenizers.ByteLevel.alphabet()))
    vocab_json, merges_txt = hf.model.save(str(tmp_path))
    merges = open(merges_txt, encoding="utf-8").read().split("\n", 1)[1]
    old = "#version: 0.2 - Trained by huggingface/tokenizers\n" + merges
    tok = import_tokenizer(format="gpt2", files={"encoder.json": open(vocab_json, encoding="utf-8").read(),
                                                 "vocab.bpe": old})
    text = SAMPLE.replace(EOT, " ")
    assert tok.encode(text) == hf.encode(text).ids


def test_tiktoken_reads_gpt2_files_only_in_gpt2s_own_layout_as_the_notes_say(tmp_path):
    from tiktoken.load import data_gym_to_mergeable_bpe_ranks

    from bpe.formats import FORMATS, export_tokenizer

    from .shared_tokenizers import shared_pretrained

    assert "data_gym_to_mergeable_bpe_ranks" in FORMATS["gpt2"].note
    for name, tok, readable in (("gpt2", shared_pretrained("gpt2"), True), ("trained", ours(specials=()), False)):
        folder = tmp_path / name
        folder.mkdir()
        for file, text in export_tokenizer(tok, format="gpt2").items():
            (folder / file).write_text(text, encoding="utf-8")
        try:
            data_gym_to_mergeable_bpe_ranks(str(folder / "vocab.bpe"), str(folder / "encoder.json"))
            read = True
        except AssertionError:
            read = False
        assert read is readable, name


# -- anchors and decoders: what Hugging Face reads otherwise ------------------------------------------
ANCHORED = r"^\w+|\S+|\s+"
LINES = "x\nend. the"  # Python's regex: "end." one chunk (merged across the "."); Oniguruma: "end" and "."


def with_split(document: str, pattern: str) -> str:
    data = json.loads(document)
    data["pre_tokenizer"] = {"type": "Sequence", "pretokenizers": [
        {"type": "Split", "pattern": {"Regex": pattern}, "behavior": "Isolated", "invert": False},
        {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": False},
    ]}
    return json.dumps(data, ensure_ascii=False)


def test_a_split_regex_with_line_anchors_is_refused_on_import_with_the_reason():
    settings = TrainSettings(merges=60, special_tokens=(EOT,), pretokenizer=f"regex:{ANCHORED}")
    trace = train(Corpus.from_text(CORPUS, special_tokens=(EOT,), pretokenizer=settings.pretokenizer), settings)
    as_python_reads_it = Tokenizer.from_trace(trace)
    document = with_split(to_hf(Tokenizer.from_trace(trace, pretokenizer=r"regex:\S+|\s+")), ANCHORED)
    assert hf_ids(document, LINES) != as_python_reads_it.encode(LINES)  # Oniguruma's ^ also matches after \n
    with pytest.raises(FormatError, match=r"uses \^ \(at character 0\), which Hugging Face's regex engine \(Oniguruma\) "
                                          r"reads as the start of a line and Python's regex as the start of the text"):
        from_hf(document)


@pytest.mark.parametrize("pattern", [ANCHORED, r"\w+$|\S+|\s+"])
def test_a_split_regex_with_line_anchors_is_refused_on_export_with_the_reason(pattern):
    assert "(?<![^\\n])" in export_problem(ours(pretokenizer=f"regex:{pattern}"), format="hf")


def test_the_line_anchor_spelling_the_message_suggests_splits_alike_in_both():
    portable = r"(?<![^\n])\w+|\S+|\s+"
    tokenizer = ours(pretokenizer=f"regex:{portable}")
    assert hf_ids(to_hf(tokenizer), LINES) == tokenizer.encode(LINES)
    assert from_hf(to_hf(tokenizer)).encode(LINES) == tokenizer.encode(LINES)


@pytest.mark.parametrize("decoder", [None, {"type": "BPEDecoder", "suffix": "</w>"}])
def test_a_file_that_does_not_decode_bytes_is_refused_with_the_reason(decoder):
    data = json.loads(to_hf(ours()))
    data["decoder"] = decoder
    theirs = HfTokenizer.from_str(json.dumps(data))
    assert theirs.decode(theirs.encode("hello world").ids) != "hello world"  # HF: 'hello Ġworld' and the like
    with pytest.raises(FormatError, match=r"decoder is .*, so Hugging Face decodes ids to the tokens' byte-level spellings "
                                          r"\(a space shows as Ġ.*BPE Lab reads files whose decoder is ByteLevel"):
        from_hf(json.dumps(data))
