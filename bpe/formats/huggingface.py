"""Hugging Face ``tokenizer.json`` with a byte-level BPE model (what ``Tokenizer.from_str`` loads).

Scope: the byte-level BPE subset of the ``tokenizers`` library's JSON: a ``BPE`` model (vocab in
GPT-2's byte alphabet, merges as ``"a b"`` strings or ``["a", "b"]`` pairs, both read), special
tokens as ``added_tokens``, and a pre-tokenizer that splits like ours:

* ``gpt2``: ``ByteLevel(add_prefix_space=False, use_regex=True)``, GPT-2's own split.
* ``gpt4``, ``whitespace``, ``regex:P``: ``Sequence[Split(P, behavior="Isolated"),
  ByteLevel(use_regex=False)]``; ``Isolated`` keeps the text between matches as pieces of their
  own, as our gaps are.
* ``none``: ``ByteLevel(use_regex=False)``: the whole text is one piece.
* a named pre-tokenizer with a normalization or several split rules (Qwen's, DeepSeek's): its
  ``Split`` rules in order, then ``ByteLevel(use_regex=False)``, with an ``NFC`` normalizer for
  Qwen's; read back by comparing with :data:`~bpe.text.pretokenize.PRETOKENIZERS`.

GPT-4's pattern is written with ``\\p{N}{1,3}`` for ``\\p{N}{1,3}+`` (Oniguruma does not read the
latter as possessive) and read back as ``gpt4``. ``add_prefix_space`` must be False (its default is True, which would encode "hi" as " hi"), and
the decoder must be ``ByteLevel`` (without one, or with ``BPEDecoder``, Hugging Face decodes to the
byte-level spellings, "hello Ġworld"). A custom pattern with ``^`` or ``$`` is refused both ways:
Oniguruma reads them as line anchors, Python's ``regex`` as text anchors.

Deliberately left out, and refused with a FormatError when read: normalizers other than NFC for a
pre-tokenizer that has it (an empty ``Sequence`` is none), other models
(WordPiece, Unigram), dropout, subword prefixes/suffixes, byte fallback, and
post-processors that add tokens (``TemplateProcessing``), and added tokens BPE Lab would match
differently: non-special ones (HF cuts them out of any text) and ones with ``lstrip``, ``rstrip``
or ``single_word`` (``normalized`` is harmless without a normalizer). Special tokens are written
into ``model.vocab`` as well: HF keeps an added token's id only when the vocab agrees. Custom patterns are written as they are,
but HF runs them with Oniguruma, not Python's ``regex``: exotic syntax may split differently.
Only byte-level tokenizers without an end-of-word marker can be written, with no two ids
decoding to the same bytes (the vocab is keyed by them).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from types import MappingProxyType

from ..encoding.tokenizer import Tokenizer
from ..errors import FormatError, PatternError
from ..text.pattern_guard import pattern_shape
from ..text.pretokenize import NAMED_PATTERNS, PRETOKENIZERS
from ..text.split_rules import SplitRule
from ..tokens.byte_level import to_byte_text
from .common import (
    SET_OPERATION, TokenizerFormat, as_text, build_tokenizer, byte_base, check_id, check_vocab, duplicate_bytes_problem,
    foreign_syntax_problem, json_object, one_file, pretokenizer_name,
)
from .huggingface_merges import read_merges, whole_words_problem

_SIMPLE_POST = (None, "ByteLevel")  # post-processors that only adjust offsets
# Oniguruma (HF's regex engine) reads "X{1,3}+" as "(X{1,3})+", any number of digits, not as a
# possessive repeat; plain {1,3} splits the same here (nothing after it in its branch can fail).
_HF_PATTERNS: Mapping[str, str] = MappingProxyType(
    {"gpt4": NAMED_PATTERNS["gpt4"].replace(r"\p{N}{1,3}+", r"\p{N}{1,3}")}  # type: ignore[union-attr]
)
_POSSESSIVE_BOUNDED = re.compile(r"(?<!\\[pPN])\{\d*,?\d*\}\+")  # X{1,3}+, not \p{L}+ (a class, then +)


def from_hf(
    contents: str | bytes, *, name: str = "", source: str = "tokenizer.json", cut_added_tokens: bool = False,
) -> Tokenizer:
    """Read a byte-level BPE ``tokenizer.json``; ``source`` names it in error messages.

    ``cut_added_tokens``: read added tokens that are not special too, as special tokens of a
    tokenizer that encodes special-token text as such by default, which is what Hugging Face does
    with every added token (refused otherwise: see :func:`_check_added`).
    """
    text = as_text(contents, source=source)
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as error:  # ValueError: also ints too long to read
        raise FormatError(f"{source} is not valid JSON ({error}); was it cut short?") from None
    try:
        return _from_data(data, name=name, source=source, cut_added_tokens=cut_added_tokens)
    except FormatError:
        raise
    except (AttributeError, KeyError, TypeError, ValueError) as error:
        raise FormatError(f"{source} is malformed: {type(error).__name__} {error}") from None


def _from_data(data: object, *, name: str, source: str, cut_added_tokens: bool) -> Tokenizer:
    if not isinstance(data, dict) or not isinstance(data.get("model"), dict):
        raise FormatError(f"{source} has no \"model\" object: is it a Hugging Face tokenizer.json?")
    model = data["model"]
    if model.get("type", "BPE") != "BPE":
        raise FormatError(f"{source}: the model is {model.get('type')!r}; only BPE models can be read")
    for field, allowed in (
        ("dropout", (None, 0, 0.0)), ("continuing_subword_prefix", (None, "")), ("end_of_word_suffix", (None, "")),
        ("byte_fallback", (None, False)), ("ignore_merges", (None, False, True)),
    ):
        if model.get(field) not in allowed:
            raise FormatError(f"{source}: the BPE model sets {field}={model.get(field)!r}, which BPE Lab cannot replay")
    post = data.get("post_processor")
    if _type(post) not in _SIMPLE_POST:
        raise FormatError(f"{source}: the post-processor {_type(post)} adds tokens, which BPE Lab does not do")
    if _type(data.get("decoder")) != "ByteLevel":
        raise FormatError(
            f"{source}: the decoder is {_type(data.get('decoder'))}, so Hugging Face decodes ids to the tokens' "
            "byte-level spellings (a space shows as Ġ; with no decoder the tokens are also joined by spaces), "
            "while BPE Lab decodes their bytes; BPE Lab reads files whose decoder is ByteLevel"
        )
    pretokenizer = _pretokenizer_name(data.get("pre_tokenizer"), _normalization(data.get("normalizer"), source=source), source=source)

    vocab = check_vocab(model.get("vocab"), source=source, what="model.vocab")
    owner = {token_id: token_text for token_text, token_id in vocab.items()}
    special_tokens: dict[str, int] = {}
    for index, added in enumerate(data.get("added_tokens") or []):
        content, token_id = added["content"], check_id(added["id"], where=f"{source}, added token {index + 1}")
        if not isinstance(content, str):
            raise FormatError(f"{source}: added token {index + 1} has no text content")
        if vocab.get(content, token_id) != token_id or owner.get(token_id, content) != content:
            raise FormatError(f"{source}: added token {content!r} disagrees with the vocab about its id {token_id}")
        _check_added(added, content, source=source, cut_added_tokens=cut_added_tokens)
        special_tokens[content] = token_id

    base = byte_base(vocab, source=source)
    ignore_merges = bool(model.get("ignore_merges"))
    merges, whole_only = read_merges(model.get("merges") or [], vocab, {i: to_byte_text(t.data) for i, t in base.items()},
                                     source=source, specials=special_tokens, ignore_merges=ignore_merges)
    tokenizer = build_tokenizer(
        source=source, unit="byte", pretokenizer=pretokenizer, base=base, merges=merges, whole_only=whole_only,
        special_tokens=special_tokens, name=name, specials_in_text="special" if cut_added_tokens else "refuse",
    )
    if ignore_merges and (problem := whole_words_problem(tokenizer)):
        raise FormatError(f"{source}: {problem}")
    return tokenizer


def _check_added(added: dict, content: str, *, source: str, cut_added_tokens: bool = False) -> None:
    """Refuse an added token BPE Lab would replay differently from Hugging Face, saying why.

    ``normalized`` is harmless here: without a normalizer (others are refused) it matches the
    text as it is. The other flags change where the token matches, which special tokens cannot.
    """
    if not added.get("special", False) and not cut_added_tokens:
        raise FormatError(
            f"{source}: the added token {content!r} is not special, yet Hugging Face cuts it out of any "
            "text as an added token; BPE Lab only cuts out special tokens (and only when allowed), so it "
            "would encode such text differently. Mark it \"special\": true, or remove it"
        )
    for flag, effect in (
        ("lstrip", "swallows the spaces before it"), ("rstrip", "swallows the spaces after it"),
        ("single_word", "only matches as a whole word"),
    ):
        if added.get(flag, False):
            raise FormatError(
                f"{source}: the added token {content!r} sets {flag}=true (it {effect}), which BPE Lab's "
                f"special tokens do not do; set it to false to read the file"
            )


def _type(component: object) -> str | None:
    if component is None:
        return None
    return component.get("type") if isinstance(component, dict) else repr(component)[:40]


def _byte_level(component: object, *, use_regex: bool, source: str) -> bool:
    if _type(component) != "ByteLevel":
        return False
    assert isinstance(component, dict)
    if component.get("add_prefix_space", True):
        raise FormatError(
            f"{source}: ByteLevel has add_prefix_space=true (it encodes 'hi' as ' hi'), which BPE Lab "
            "cannot replay; set it to false"
        )
    return bool(component.get("use_regex", True)) == use_regex


_BEHAVIORS: Mapping[str, str] = MappingProxyType({
    "Isolated": "isolated", "Removed": "removed", "MergedWithPrevious": "merged_with_previous",
    "MergedWithNext": "merged_with_next", "Contiguous": "contiguous",
})
Rule = tuple[str, str, bool]
"""A ``Split`` step as the file says it, ``(pattern, behavior, invert)``: never compiled here, since a
custom pattern must pass :mod:`bpe.text.pattern_guard` first (``Pretokenizer.parse`` does that)."""


def _normalization(component: object, *, source: str) -> str | None:
    """The name of the file's normalizer as BPE Lab knows it: ``None`` or ``NFC``."""
    if component is None or (_type(component) == "Sequence" and not component.get("normalizers")):
        return None
    if _type(component) == "NFC":
        return "NFC"
    raise FormatError(f"{source}: it has a normalizer ({_type(component)}), which BPE Lab does not run")


def _split_rule(step: dict) -> Rule | None:
    pattern = step.get("pattern") or {}
    behavior = _BEHAVIORS.get(step.get("behavior"))
    if not isinstance(pattern.get("Regex"), str) or not pattern["Regex"] or behavior is None:
        return None
    return pattern["Regex"], behavior, bool(step.get("invert", False))


def _pretokenizer_name(component: object, normalization: str | None, *, source: str) -> str:
    if normalization is None and _byte_level(component, use_regex=True, source=source):
        return "gpt2"
    if normalization is None and _byte_level(component, use_regex=False, source=source):
        return "none"
    if _type(component) == "Sequence" and isinstance(component, dict):
        steps = component.get("pretokenizers") or []
        if len(steps) >= 2 and _byte_level(steps[-1], use_regex=False, source=source):
            rules = [_split_rule(step) if _type(step) == "Split" else None for step in steps[:-1]]
            if None not in rules:
                named = _named_with(tuple(rules), normalization)  # type: ignore[arg-type]
                if named is not None:
                    return named
                pattern, behavior, invert = rules[0]
                if normalization is None and len(rules) == 1 and behavior == "isolated" and not invert:
                    name = pretokenizer_name(pattern, aliases=[(p, n) for n, p in _HF_PATTERNS.items()])
                    if problem := _anchor_problem(name):
                        raise FormatError(f"{source}: the Split {problem}")
                    return name
    raise FormatError(
        f"{source}: the pre-tokenizer {_type(component)} is not one BPE Lab can replay; it reads "
        "ByteLevel(add_prefix_space=false) alone or after Split(Regex, behavior=Isolated), or the split "
        "rules and normalizer of a named pre-tokenizer (" + ", ".join(_with_rules()) + ")"
    )


def _rules_of(name: str) -> tuple[SplitRule, ...]:
    """The ``Split`` rules a named pre-tokenizer is written as (one for a single regex)."""
    entry = PRETOKENIZERS[name]
    return entry.rules or (SplitRule(_HF_PATTERNS.get(name) or entry.pattern),)


def _with_rules() -> list[str]:
    """The named pre-tokenizers this format writes as ``Split`` rules beyond a single regex."""
    return [name for name, entry in PRETOKENIZERS.items() if entry.rules or (entry.pattern and entry.normalization)]


def _named_with(rules: tuple[Rule, ...], normalization: str | None) -> str | None:
    for name in _with_rules():
        entry = PRETOKENIZERS[name]
        if tuple((rule.pattern, rule.behavior, rule.invert) for rule in _rules_of(name)) == rules and (entry.normalization and entry.normalization.name) == normalization:
            return name
    return None


def _anchor_problem(pretokenizer: str) -> str | None:
    """Why a custom split pattern with ``^`` or ``$`` splits otherwise in Hugging Face; None if it has neither."""
    if not pretokenizer.startswith("regex:"):
        return None  # the named patterns are checked token for token against their owners
    pattern = pretokenizer[len("regex:"):]
    try:
        anchors = pattern_shape(pattern).anchors
    except PatternError:
        return None  # refused for a graver reason where the pattern is compiled, which says why
    if not anchors:
        return None
    where, start = anchors[0], pattern[anchors[0]] == "^"
    return (
        f"pattern uses {pattern[where]} (at character {where}), which Hugging Face's regex engine (Oniguruma) reads "
        f"as the {'start' if start else 'end'} of a line and Python's regex as the {'start' if start else 'end'} "
        "of the text, so the two split 'x\\nend.' differently; write anchors both read alike: "
        "(?<![^\\n]) for the start of a line, (?![^\\n]) for its end, \\A for the start of the text"
    )


def _problem(tokenizer: Tokenizer) -> str | None:
    """Why a byte-level ``tokenizer.json`` cannot hold a byte-level ``tokenizer``; None if it can."""
    if anchored := _anchor_problem(tokenizer.pretokenizer.name):
        return f"the split {anchored}"
    if tokenizer.pretokenizer.is_custom and _POSSESSIVE_BOUNDED.search(tokenizer.pretokenizer.name):
        return (
            "the split pattern has a possessive bounded repeat like X{1,3}+, which Hugging Face's regex "
            "engine (Oniguruma) reads as (X{1,3})+; write it as (?>X{1,3}) to export it"
        )
    entry = tokenizer.pretokenizer.entry
    if entry is not None and entry.splitter is not None:
        return f"{HF.title} has no pre-tokenizer that splits as {entry.title} does; save it as BPE Lab JSON"
    problem = foreign_syntax_problem(
        tokenizer, title=HF.title, engine="Oniguruma (Hugging Face's regex engine)", cannot=(SET_OPERATION,)
    )
    if problem:
        return problem
    named = {}
    for text, token_id in tokenizer.special_tokens.items():
        if token_id in named:  # Hugging Face cuts only the last added token of an id out of text
            return (f"the special tokens {named[token_id]!r} and {text!r} share the id {token_id}, and Hugging Face keeps "
                    "one added token per id (the other would be read as plain text): save it as BPE Lab JSON or a "
                    "tiktoken rank file, which hold both")
        named[token_id] = text
    vocab = _vocab(tokenizer)  # once: spelling 200,000 tokens per special token took minutes (gpt-oss has 1,091)
    for text, token_id in tokenizer.special_tokens.items():
        if text in vocab:
            return (
                f"the special token {text!r} is spelled like the vocabulary entry {text!r} (id "
                f"{vocab[text]}), so Hugging Face would give it that entry's id; choose "
                "special tokens that no byte or merged token spells, e.g. <|x|>"
            )
    return duplicate_bytes_problem(tokenizer, title=HF.title)


def _spelled(tokenizer: Tokenizer) -> dict[int, str]:
    """Each token but the special ones, by id, spelled in GPT-2's byte alphabet (once per export: 200,000 of them)."""
    return {token_id: to_byte_text(token.data) for token_id, token in sorted(tokenizer.tokens.items()) if not tokenizer.is_special(token_id)}


def _vocab(tokenizer: Tokenizer) -> dict[str, int]:
    """``model.vocab`` without the special tokens."""
    return {text: token_id for token_id, text in _spelled(tokenizer).items()}


def _write(tokenizer: Tokenizer) -> str:
    """The ``tokenizer.json`` text, loadable with ``tokenizers.Tokenizer.from_str``."""
    spelled = _spelled(tokenizer)
    name = tokenizer.pretokenizer.name
    byte_level = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": name == "gpt2"}
    if name in ("gpt2", "none"):
        pre_tokenizer: dict = byte_level
    else:
        named = {behavior: written for written, behavior in _BEHAVIORS.items()}
        # A custom pattern is written as given (a SplitRule would compile it into regex's module cache).
        rules = ([(rule.pattern, rule.behavior, rule.invert) for rule in _rules_of(name)] if name in PRETOKENIZERS
                 else [(name[len("regex:"):], "isolated", False)])
        pre_tokenizer = {
            "type": "Sequence",
            "pretokenizers": [
                *({"type": "Split", "pattern": {"Regex": pattern}, "behavior": named[behavior], "invert": invert}
                  for pattern, behavior, invert in rules),
                byte_level,
            ],
        }
    normalization = tokenizer.pretokenizer.normalization
    document = {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": [
            {
                "id": token_id, "content": text, "single_word": False, "lstrip": False, "rstrip": False,
                "normalized": False, "special": True,
            }
            for text, token_id in tokenizer.special_tokens.items()
        ],
        "normalizer": None if normalization is None else {"type": normalization.name},
        "pre_tokenizer": pre_tokenizer,
        "post_processor": None,
        "decoder": {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": True},
        "model": {
            "type": "BPE", "dropout": None, "unk_token": None, "continuing_subword_prefix": None,
            # a rank file's whole-chunk tokens: Hugging Face looks a word up whole first, as tiktoken does
            "end_of_word_suffix": None, "fuse_unk": False, "byte_fallback": False, "ignore_merges": bool(tokenizer.whole_only),
            # Special tokens are in the vocab too: Hugging Face honours an added token's id only
            # when the vocab agrees (at an early step ours are far above the merged ids).
            "vocab": {**{text: token_id for token_id, text in spelled.items()}, **tokenizer.special_tokens},
            "merges": [[spelled[left], spelled[right]] for left, right, _ in tokenizer.merges],
        },
    }
    return json.dumps(document, ensure_ascii=False)


HF = TokenizerFormat(
    name="hf", title="Hugging Face tokenizer.json", file_names=("tokenizer.json",),
    note="Hugging Face `tokenizers.Tokenizer.from_file()` or `PreTrainedTokenizerFast(tokenizer_file=...)`.",
    write=_write, read=one_file(from_hf), problem=_problem,
    recognizes=lambda contents: "model" in (json_object(contents) or {}),
    byte_level_why="BPE Lab writes the byte-level layout only (Llama 2's and Mistral's own char-level files, "
                   "with byte fallback, are a layout it does not write: use SentencePiece .model for those)",
)


def to_hf(tokenizer: Tokenizer) -> str:
    """The ``tokenizer.json`` text, loadable with ``tokenizers.Tokenizer.from_str``; FormatError
    (saying why) if Hugging Face's tokenizer.json cannot hold ``tokenizer``."""
    return HF.texts(tokenizer)  # type: ignore[return-value]
