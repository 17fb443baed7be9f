"""Pretrained tokenizers built once per test process, for tests that only encode, decode or export with them.

Why: ``bpe.pretrained.registry.load_pretrained`` builds a new tokenizer at each call (a table of up to
200,000 merges), and tests that each built their own spent much of the suite's time without a
browser on it. What a tokenizer changes as it works is only its chunk cache, which
never changes a result, so tests may share one. Tests of loading itself call ``load_pretrained``.

    >>> shared_pretrained("gpt2") is shared_pretrained("gpt2")
    True
"""

from __future__ import annotations

import functools

from bpe.encoding.tokenizer import Tokenizer
from bpe.pretrained.registry import load_pretrained


@functools.cache
def shared_pretrained(name: str) -> Tokenizer:
    return load_pretrained(name)
