"""Pretrained tokenizers built once per test process, for tests that only encode, decode or export with them.

Why: ``bpe.pretrained.load_pretrained`` builds a new tokenizer at each call (0.1 to 0.7 s of CPU, GPT-2
to Qwen3.6), and building pretrained tokenizers again and again was a sixth of the tests' time
without a browser (py-spy). What a tokenizer changes as it works is only its chunk cache, which
never changes a result, so tests may share one. Tests of loading itself call ``load_pretrained``.

    >>> shared_pretrained("gpt2") is shared_pretrained("gpt2")
    True
"""

from __future__ import annotations

import functools

from bpe.pretrained import load_pretrained
from bpe.tokenizer import Tokenizer


@functools.cache
def shared_pretrained(name: str) -> Tokenizer:
    return load_pretrained(name)
