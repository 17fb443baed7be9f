"""Model names as people paste them: a link to the model's page on the hub, Ollama's ``hf.co/...``, a local folder.

Each must find the tokenizer its plain name finds (``tests/test_model_names.py`` checks the plain names
against the models' own configs).
"""

from __future__ import annotations

import pytest

from bpe.pretrained.model_names import encoding_name_for_model

PASTED = {
    "hf.co/meta-llama/Llama-3.1-8B-Instruct": "meta-llama/Llama-3.1-8B-Instruct",
    "hf.co/Qwen/Qwen2.5-7B-Instruct-GGUF:Q4_K_M": "Qwen2.5-7B-Instruct",   # Ollama's pull from the hub, with a tag
    "https://huggingface.co/mistralai/Mistral-7B-Instruct-v0.3": "mistral-7b-instruct-v0.3",
    "https://huggingface.co/mistralai/Mistral-7B-Instruct-v0.3/tree/main": "mistral-7b-instruct-v0.3",
    "huggingface.co/openai/gpt-oss-20b/": "gpt-oss-20b",
    "meta-llama/Llama-3.1-8B-Instruct/": "meta-llama/Llama-3.1-8B-Instruct",
    "~/models/meta-llama/Llama-3.1-8B-Instruct": "Llama-3.1-8B-Instruct",   # a local copy, as from_pretrained takes it
}


@pytest.mark.parametrize("pasted", list(PASTED))
def test_a_hub_address_finds_the_tokenizer_its_model_name_finds(pasted):
    assert encoding_name_for_model(pasted) == encoding_name_for_model(PASTED[pasted])
