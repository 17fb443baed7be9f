"""A tokenizer read from a SentencePiece ``.model``: its user-defined pieces and its decoding as SentencePiece's.

Why a class of its own: two things a ``.model`` does that a trained run does not.

* **User-defined pieces.** SentencePiece finds them in the text before it merges anything,
  wherever they stand (Mistral v3's ``[REFERENCE_DOC_0]``, v7's ``[REF]``), while its *control*
  symbols (``<s>``, ``[INST]``) are never read from text. BPE Lab keeps both kinds as special
  tokens (no merge makes them); this class cuts the user-defined ones out of every text, whatever
  ``allowed_special`` says. The control symbols follow ``specials_in_text`` (``plain``).
* **Decoding.** SentencePiece drops control symbols and strips the dummy prefix (the ``▁`` it
  added in front) from the first piece that is not one, and writes each byte of a broken UTF-8
  sequence from byte fallback as one U+FFFD. BPE Lab shows a special token's text where it stands,
  as tiktoken does; everything between is decoded as SentencePiece decodes it.

    >>> from bpe.tokens.vocab import Token
    >>> tok = SentencePieceModelTokenizer(unit="char", pretokenizer="none", merges=[], specials_in_text="plain",
    ...     base={i: Token(c.encode()) for i, c in enumerate("a<s>")}, special_tokens={"<s>": 4, "[a]": 5},
    ...     user_defined=("[a]",))
    >>> tok.encode("a[a]<s>"), tok.encode_ordinary("[a]"), tok.encode("<s>", allowed_special="all")
    ([0, 5, 1, 2, 3], [5], [4])

Written back by :mod:`bpe.formats.sentencepiece_writer` (a ``.model``, ids and piece types kept) and as BPE
Lab JSON (:meth:`SentencePieceModelTokenizer.to_json`).
"""

from __future__ import annotations

import codecs
from collections.abc import Iterable
from functools import cached_property

from ..encoding.tokenizer import Tokenizer
from ..encoding.tokenizer_json import tokenizer_json, with_kind
from ..errors import FormatError
from ..text.pretokenize import SpecialSet, special_token_pattern, split_special
from ..text.sentencepiece_split import SPACE_SYMBOL
from ..text.special_text import split_special_text

KIND = "sentencepiece-model"
"""This class's ``kind`` in BPE Lab JSON (:mod:`bpe.encoding.tokenizer_json`)."""
_EACH_BYTE = "bpe-lab-sentencepiece-bytes"
# SentencePiece writes every byte of a broken sequence as U+FFFD (Python's "replace": one per maximal part)
codecs.register_error(_EACH_BYTE, lambda error: ("\ufffd" * (error.end - error.start), error.end))


class SentencePieceModelTokenizer(Tokenizer):
    """A :class:`Tokenizer` (same constructor, plus ``user_defined``: special tokens always cut from text)."""

    json_kind = KIND

    def __init__(self, *, user_defined: Iterable[str] = (), **kwargs) -> None:
        super().__init__(**kwargs)
        self._take_user_defined(user_defined)

    @classmethod
    def from_table(cls, table, *, user_defined: Iterable[str] = (), **settings) -> "SentencePieceModelTokenizer":
        """On a ``table`` checked before (the pretrained cache's), with its user-defined pieces."""
        tokenizer = super().from_table(table, **settings)
        tokenizer._take_user_defined(user_defined)
        return tokenizer  # type: ignore[return-value]

    def _take_user_defined(self, user_defined: Iterable[str]) -> None:
        self.user_defined = frozenset(user_defined)
        if not self.user_defined <= self.special_tokens.keys():
            raise FormatError(f"user-defined pieces must be special tokens: {sorted(self.user_defined - self.special_tokens.keys())}")
        self._control_ids = frozenset(token_id for text, token_id in self.special_tokens.items() if text not in self.user_defined)
        self._fallback = self.fallback_bytes
        # SentencePiece strips the dummy prefix from the first piece; a model that also drops repeated
        # spaces (remove_extra_whitespaces) strips it again from the next piece while they come out empty
        self._strips_until_text = self.pretokenizer.normalize(" x") == self.pretokenizer.normalize("x")

    @cached_property
    def _user_defined_cut(self):
        """The cut at user-defined pieces, compiled at the first encode, not when built: a tokenizer just
        imported or loaded is listed before it encodes anything, and the pattern of Mistral's 1,000
        control pieces is slow to compile."""
        return special_token_pattern(tuple(self.special_tokens)) if self.user_defined else None

    def continued(self, trace, *, name: str = "") -> Tokenizer:
        """Extended, still a SentencePiece model: the same user-defined pieces, the same decoding."""
        return SentencePieceModelTokenizer(user_defined=self.user_defined, **trace.tokenizer_fields(name=name))

    def to_json(self) -> str:
        """BPE Lab JSON of the kind ``sentencepiece-model``: ``Tokenizer.from_json`` reads it back as one."""
        return with_kind(super().to_json(), KIND, _kind_options(self.user_defined))

    @staticmethod
    def fields_json(*, user_defined: Iterable[str] = (), **fields) -> str:
        """The JSON :meth:`to_json` writes for the tokenizer these constructor ``fields`` build, written
        without building it (an import's worker sends only the text; the server builds it)."""
        return tokenizer_json(end_of_word=None, kind={"name": KIND, **_kind_options(user_defined)}, **fields)

    def encode_ordinary(self, text: str) -> list[int]:
        """Special-token text as plain text, but for the user-defined pieces (SentencePiece has no other way):
        ``encode(text, allowed_special=frozenset(), disallowed_special=())``, with the cut at user-defined pieces
        prepared once (Mistral names 1,000 control tokens: preparing it per call was half the time of
        Vocabulary health's 600,000 short encodes)."""
        ids: list[int] = []
        for piece, is_user_defined in split_special(self._read(text), self._user_defined_cut, self.user_defined):
            ids.extend((self.special_tokens[piece],) if is_user_defined else self._encode_unicode(piece))
        return self._one_unknown_per_run(ids)

    def _split_special(
        self, text: str, allowed_special: SpecialSet | None, disallowed_special: SpecialSet | None
    ) -> list[tuple[str, bool]]:
        allowed, disallowed = self.special_defaults(allowed_special, disallowed_special)
        if allowed != "all":
            allowed = set(allowed) | self.user_defined
        if disallowed != "all":
            disallowed = set(disallowed) - self.user_defined
        return split_special_text(text, self.special_tokens, allowed, disallowed)

    def decode(self, ids: Iterable[int], errors: str = "replace") -> str:
        """Ids -> text as SentencePiece decodes them, with each control token's text where it stands.

        A piece is written with ``▁`` as a space, but the first piece that is no control token
        loses one leading ``▁`` (the dummy prefix; with ``sentencepiece``'s dropped repeated spaces,
        every piece loses it until one leaves text); byte pieces are gathered and decoded together.

        >>> from bpe.pretrained.registry import load_pretrained
        >>> mistral = load_pretrained("mistral-v1")
        >>> mistral.decode([mistral.special_tokens["<s>"], *mistral.encode("Hello  world")])
        '<s>Hello  world'
        """
        ids = list(ids)
        if errors != "replace":
            return super().decode(ids, errors)
        self._check_ids(ids)
        parts: list[str] = []
        pending = bytearray()  # byte pieces not yet written
        first = True
        for token_id in ids:
            byte = self._fallback.get(token_id)
            if byte is not None:
                pending.append(byte)
                first = False
                continue
            if pending:
                parts.append(pending.decode("utf-8", errors=_EACH_BYTE))
                pending.clear()
            text = self.decode_single_token_bytes(token_id).decode("utf-8")
            if token_id not in self._control_ids:
                text = (text[1:] if first and text.startswith(SPACE_SYMBOL) else text).replace(SPACE_SYMBOL, " ")
                first = first and self._strips_until_text and not text
            parts.append(text)
        return "".join(parts) + pending.decode("utf-8", errors=_EACH_BYTE)


def _kind_options(user_defined: Iterable[str]) -> dict[str, object]:
    """What the JSON's ``kind`` keeps beside its name: the user-defined pieces."""
    return {"user_defined": sorted(user_defined)}
