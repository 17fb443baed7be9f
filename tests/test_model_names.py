"""Model names find their tokenizer as the owners' own tables say (``bpe.pretrained.model_names``).

The expected tokenizer of each name comes from its owner's code, never from our registry: tiktoken's
``MODEL_TO_ENCODING`` and ``MODEL_PREFIX_TO_ENCODING``, ``mistral-common``'s
``MODEL_NAME_TO_TOKENIZER_CLS`` (which file each model's tokenizer reads) and ``llama-models``'s list of
Meta's models (each with its family and Hugging Face name).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tiktoken.model import MODEL_PREFIX_TO_ENCODING, MODEL_TO_ENCODING

from bpe.errors import BpeError
from bpe.pretrained.model_names import encoding_for_model, encoding_name_for_model
from bpe.pretrained.registry import PRETRAINED, pretrained_file_paths

from .test_cli_bad_input import assert_refused, run_bpe

SHIPPED = set(PRETRAINED)


def test_every_tiktoken_model_name_of_a_shipped_encoding_finds_it():
    names = {name: encoding for name, encoding in MODEL_TO_ENCODING.items() if encoding in SHIPPED}
    assert len(names) >= 15
    assert {name: encoding_name_for_model(name) for name in names} == names


def test_every_tiktoken_model_prefix_of_a_shipped_encoding_finds_it_whatever_follows():
    prefixes = {prefix: encoding for prefix, encoding in MODEL_PREFIX_TO_ENCODING.items() if encoding in SHIPPED}
    assert {"gpt-4o-", "gpt-4-", "gpt-oss-", "ft:gpt-4o"} <= prefixes.keys()
    for suffix in ("2024-05-13", "x", "mini"):
        assert {prefix: encoding_name_for_model(prefix + suffix) for prefix in prefixes} == prefixes, suffix


def test_every_mistral_model_whose_file_is_shipped_finds_the_entry_of_that_file(monkeypatch):
    from mistral_common.tokens.tokenizers.mistral import MODEL_NAME_TO_TOKENIZER_CLS, MistralTokenizer

    monkeypatch.setattr(MistralTokenizer, "from_file", classmethod(lambda cls, path, mode=None: Path(path).name))
    ours = {pretrained_file_paths(name)[0].name: name for name, entry in PRETRAINED.items() if entry.package == "mistral_common"}
    expected = {model: ours[file] for model, load in MODEL_NAME_TO_TOKENIZER_CLS.items() if (file := load()) in ours}
    assert len(expected) >= 10
    assert {model: encoding_name_for_model(model) for model in expected} == expected


def test_every_llama_3_and_4_model_finds_its_tokenizer_by_meta_s_and_hugging_face_s_names():
    from llama_models.sku_list import all_registered_models

    family_tokenizer = {"llama3": "llama3", "llama3_1": "llama3", "llama3_2": "llama3", "llama3_3": "llama3", "llama4": "llama4"}
    models = [model for model in all_registered_models() if model.model_family.value in family_tokenizer]
    assert len(models) >= 30
    for model in models:
        wanted = family_tokenizer[model.model_family.value]
        assert encoding_name_for_model(model.descriptor()) == wanted, model.descriptor()
        assert encoding_name_for_model(model.huggingface_repo) == wanted, model.huggingface_repo


@pytest.mark.parametrize("name, expected", [
    ("llama-3.1-8b", "llama3"), ("llama3.2:3b", "llama3"), ("llama4:scout", "llama4"),
    ("mistral-7b", "mistral-v1"), ("mistralai/Mistral-7B-Instruct-v0.3", "mistral-v3"), ("mistral-nemo:12b", "tekken-240718"),
    ("Qwen/Qwen2.5-7B-Instruct", "qwen2.5"), ("gpt-oss-20b", "o200k_harmony"), ("GPT-4o", "o200k_base"),
])
def test_names_as_hugging_face_and_ollama_write_them_find_their_tokenizer(name, expected):
    assert encoding_name_for_model(name) == expected


def test_an_unknown_model_says_which_names_it_knows():
    with pytest.raises(BpeError, match=r"no tokenizer known for the model 'gemma-2b': try a model name such as .*mistral-7b"):
        encoding_name_for_model("gemma-2b")


def test_encoding_for_model_loads_the_same_tokenizer_as_its_name():
    assert encoding_for_model("gpt-3.5-turbo-0125").encode("hello world") == [15339, 1917]


def test_the_cli_takes_a_model_name_and_refuses_an_unknown_one():
    result = run_bpe("encode", "--model", "gpt-4o-mini", "--text", "hello world")
    assert (result.returncode, result.stdout.split()) == (0, [b"24912", b"2375"])
    assert_refused(run_bpe("encode", "--model", "gemma-2b", "--text", "x"), "no tokenizer known for the model 'gemma-2b'")
