"""A tokenizer read from a subword-nmt codes file: characters the codes never mention pass through.

Why a class of its own: ``apply_bpe`` never refuses a character. A codes file lists merges, not an
alphabet, so a character no merge uses (``(``, ``€``, ``ß`` in subword-nmt's own test corpus) is a
symbol that never merges, and ``apply_bpe`` writes it out as it is. A tokenizer of ids has no id
for it, so this one gives it one past the vocabulary: a character ``c`` is the id
``first_passed_id + 2 * ord(c)``, plus one where it ends a word and carries the marker ``</w>``
(``ß</w>``: ``#version: 0.2`` glues the marker to a word's last character). No merge holds such
an id, so it is never merged, and it decodes to its character. A model trained on the segmented
text would have no row for it: its vocabulary would read it as unknown.

    >>> from bpe.formats.subword_nmt import from_subword_nmt
    >>> codes = from_subword_nmt("#version: 0.2\\ns t</w>\\ne st</w>\\n")
    >>> ids = codes.encode("ßest tß")
    >>> [codes.token_text(i) for i in ids], codes.is_passed_through(ids[0]), codes.decode(ids)
    (['ß', 'est</w>', ' ', 't', 'ß</w>'], True, 'ßest tß')

``tokens`` (a copy, as ever) also answers for these ids (``tokens[id]``), without listing them.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..encoding.tokenizer import Tokenizer
from ..encoding.tokenizer_json import with_kind
from ..tokens.end_of_word import mark_word
from ..tokens.vocab import Token

KIND = "subword-nmt-codes"
"""This class's ``kind`` in BPE Lab JSON (:mod:`bpe.encoding.tokenizer_json`)."""
_CODE_POINTS = 0x110000


class PassedThrough(dict):
    """``id -> Token`` of the vocabulary, answering ``self[id]`` for a passed-through character's id too."""

    def __init__(self, tokens: dict[int, Token], *, first: int) -> None:
        super().__init__(tokens)
        self.first = first

    def passes(self, token_id: int) -> bool:
        """Whether ``token_id`` is a character passed through (no token of the vocabulary)."""
        return token_id not in self and passed_token(token_id, first=self.first) is not None

    def __missing__(self, token_id: int) -> Token:
        token = passed_token(token_id, first=self.first)
        if token is None:
            raise KeyError(token_id)
        return token


def passed_token(token_id: object, *, first: int) -> Token | None:
    """The character an id past the vocabulary stands for (see the module), or None if it is none."""
    offset = token_id - first if isinstance(token_id, int) else -1
    if not 0 <= offset < 2 * _CODE_POINTS or 0xD800 <= offset // 2 <= 0xDFFF:  # a surrogate is no text: never passed
        return None
    return Token(chr(offset // 2).encode("utf-8"), ends_word=bool(offset % 2))


class SubwordNmtTokenizer(Tokenizer):
    """A :class:`Tokenizer` (same constructor) whose unknown characters pass through, as in ``apply_bpe``."""

    json_kind = KIND
    first_passed_id: int
    """The id of U+0000 passed through (the first past the vocabulary); every other character's follows from it."""

    def _adopt(self, table, **settings) -> None:
        super()._adopt(table, **settings)
        self.first_passed_id = max(self._tokens) + 1

    def is_passed_through(self, token_id: int) -> bool:
        return passed_token(token_id, first=self.first_passed_id) is not None

    @property
    def tokens(self) -> PassedThrough:
        return PassedThrough(self._tokens, first=self.first_passed_id)

    def continued(self, trace, *, name: str = "") -> Tokenizer:
        """Extended, still a codes file's tokenizer: unknown characters still pass through."""
        return SubwordNmtTokenizer(**trace.tokenizer_fields(name=name))

    def to_json(self) -> str:
        """BPE Lab JSON of the kind ``subword-nmt-codes``: ``Tokenizer.from_json`` reads it back as one."""
        return with_kind(super().to_json(), KIND, {})

    def _unknown_characters(self, chunk: str) -> list[int]:
        known, first = self._table.char_ids, self.first_passed_id
        return [known[char] if char in known else first + 2 * ord(char) for char in chunk]

    def _initial_ids(self, chunk: str, is_word: bool) -> list[int]:
        ids = super()._initial_ids(chunk, is_word=False)
        if not is_word or self.end_of_word is None:
            return ids
        if ids and self.end_of_word_mode == "attached" and self.is_passed_through(ids[-1]):
            return [*ids[:-1], ids[-1] + 1]  # the character carrying the marker, as apply_bpe glues it on
        return mark_word(ids, mode=self.end_of_word_mode, marker_id=self._table.marker_id, attached=self._table.attached,
                         spell=lambda token_id: repr(self.token_text(token_id)))

    def _token(self, token_id: int) -> Token:
        passed = passed_token(token_id, first=self.first_passed_id)
        return passed if passed is not None else super()._token(token_id)

    def _check_ids(self, ids: list[int]) -> None:
        super()._check_ids([token_id for token_id in ids if not self.is_passed_through(token_id)])

    def decode_tokens_bytes(self, ids: Iterable[int]) -> list[bytes]:
        ids = list(ids)
        self._check_ids(ids)
        return [self._token(token_id).data for token_id in ids]
