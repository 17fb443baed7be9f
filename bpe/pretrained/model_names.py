"""Model names to tokenizers: tiktoken's ``encoding_for_model`` convention over the pretrained registry.

A learner knows the model they run (``gpt-4o-mini``, ``llama-3.1-8b``, ``mistral-7b``), rarely the
name of its tokenizer. Each registry entry lists the model names that use it (``models``) and the
beginnings of names that do (``model_prefixes``), as tiktoken's ``MODEL_TO_ENCODING`` and
``MODEL_PREFIX_TO_ENCODING`` do. A name is looked up exactly first, then by its beginning; where two
beginnings match, the longer wins (tiktoken orders its table so that ``gpt-4o-`` is tried before
``gpt-4-``: the longer-prefix rule gives the same answers, a test checks every one of them).

Names are also read as Hugging Face and Ollama write them: in any case, and with the owner in front
(``meta-llama/Llama-3.1-8B-Instruct``); an Ollama tag (``llama3.1:8b``) is part of the name.

    >>> encoding_name_for_model("gpt-4o-mini"), encoding_name_for_model("meta-llama/Llama-3.1-8B-Instruct")
    ('o200k_base', 'llama3')
    >>> encoding_name_for_model("mistral-7b"), encoding_name_for_model("mistral-7b-instruct-v0.3")
    ('mistral-v1', 'mistral-v3')

Out of scope: names of models whose tokenizer BPE Lab does not ship (tiktoken's ``p50k_base``
models, Gemma...): they raise, listing examples of the names it knows.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from ..encoding.tokenizer import Tokenizer
from ..errors import BpeError, RegistryError
from .registry import PRETRAINED, load_pretrained

MODEL_TO_ENCODING: Mapping[str, str] = MappingProxyType({
    model: entry.name for entry in PRETRAINED.values() for model in entry.models
})
"""Exact model names (lower case) -> registry names."""
MODEL_PREFIX_TO_ENCODING: Mapping[str, str] = MappingProxyType({
    prefix: entry.name
    for entry in PRETRAINED.values() for prefix in entry.model_prefixes
})
"""Beginnings of model names (lower case) -> registry names."""
_PREFIXES_LONGEST_FIRST = tuple(sorted(MODEL_PREFIX_TO_ENCODING, key=len, reverse=True))


def _check_registry() -> None:
    """A model name listed twice or not in lower case is a mistake in the registry: fail at import."""
    for listed, table in (([m for e in PRETRAINED.values() for m in e.models], MODEL_TO_ENCODING),
                          ([p for e in PRETRAINED.values() for p in e.model_prefixes], MODEL_PREFIX_TO_ENCODING)):
        if len(listed) != len(table) or any(name != name.lower() for name in listed):
            raise RegistryError(f"model names must be lower case and listed once: {sorted(n for n in listed if listed.count(n) > 1)}")


_check_registry()


_HUB_HOSTS = ("huggingface.co/", "www.huggingface.co/", "hf.co/")
"""Where a model's page lives: its name is the second part of the path after these (``owner/model``)."""


def model_key(model_name: str) -> str:
    """The name as looked up: lower case, without an owner in front, or the hub's address around it
    (a link to the model's page, or Ollama's ``hf.co/owner/model:tag``).

    >>> model_key("  mistralai/Mistral-7B-v0.1 "), model_key("https://huggingface.co/Qwen/Qwen2.5-7B/tree/main")
    ('mistral-7b-v0.1', 'qwen2.5-7b')
    """
    key = model_name.strip().lower().removeprefix("https://").removeprefix("http://")
    host = next((host for host in _HUB_HOSTS if key.startswith(host)), None)
    if host is not None:
        parts = key[len(host):].split("/")
        return parts[1] if len(parts) > 1 else parts[0]
    return key.rstrip("/").rsplit("/", 1)[-1]


def encoding_name_for_model(model_name: str) -> str:
    """The registry name of the tokenizer a model uses; a :class:`BpeError` naming known models if none."""
    key = model_key(model_name)
    if key in MODEL_TO_ENCODING:
        return MODEL_TO_ENCODING[key]
    for prefix in _PREFIXES_LONGEST_FIRST:
        if key.startswith(prefix):
            return MODEL_PREFIX_TO_ENCODING[prefix]
    examples = ", ".join(entry.models[0] for entry in PRETRAINED.values() if entry.models)
    raise BpeError(
        f"no tokenizer known for the model {model_name!r}: try a model name such as {examples}, or pick a "
        f"tokenizer by its own name ({', '.join(PRETRAINED)})"
    )


def encoding_for_model(model_name: str) -> Tokenizer:
    """The pretrained tokenizer a model uses, loaded (tiktoken's ``encoding_for_model``)."""
    return load_pretrained(encoding_name_for_model(model_name))
