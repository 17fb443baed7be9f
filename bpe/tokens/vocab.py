"""Tokens and the base vocabulary every run starts from.

Scope: what a token *is* (the bytes it decodes to, plus whether it carries the end-of-word
marker), how it is shown, and the two base vocabularies. Out of scope: how merges grow the
vocabulary (the trainer) and how ids are assigned to special tokens (the trace).

* ``byte`` unit: ids 0..255 are the 256 byte values, as in GPT-2 and minbpe.
* ``char`` unit: ids 0..n-1 are the characters present, sorted by code point (the HF course, the
  Sennrich paper).
* With an end-of-word marker such as ``</w>`` one more base token follows: the marker itself. It
  decodes to nothing; merged tokens that end with it are shown as ``est</w>``.

    >>> [token_text(t, "</w>") for t in base_tokens(unit="char", alphabet="wol", end_of_word="</w>")]
    ['l', 'o', 'w', '</w>']
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

UNITS = ("byte", "char")

Pair = tuple[int, int]
"""Two token ids side by side, left then right: what a merge joins. Every stage names it from here."""


@dataclass(frozen=True, slots=True)
class Token:
    """One vocabulary entry: ``data`` is what it decodes to."""

    data: bytes
    ends_word: bool = False
    """True when the token ends with the end-of-word marker (which decodes to nothing)."""

    def merged_with(self, right: "Token") -> "Token":
        """The token a merge of ``self`` and ``right`` creates (the marker can only come last)."""
        return Token(self.data + right.data, right.ends_word)


def token_text(token: Token, end_of_word: str | None = None) -> str:
    """A token as text: invalid UTF-8 as backslash escapes, the marker spelled out.

    >>> token_text(Token(b"st", ends_word=True), "</w>"), token_text(Token(b"\\xe2\\x82"))
    ('st</w>', '\\\\xe2\\\\x82')
    """
    text = token.data.decode("utf-8", errors="backslashreplace")
    return text + (end_of_word or "") if token.ends_word else text


def token_sort_bytes(token: Token, end_of_word: str | None = None) -> bytes:
    """The bytes the lexicographic tie-break rules compare: the token as it is spelled."""
    return token.data + (end_of_word or "").encode("utf-8") if token.ends_word else token.data


def base_tokens(
    *, unit: str, alphabet: str = "", end_of_word: str | None = None, mode: str = "separate", finals: str = "",
    char_counts: Mapping[str, int] | None = None,
) -> tuple[Token, ...]:
    """The tokens every run starts with; ``alphabet`` is only read for the ``char`` unit.

    With a marker in ``attached`` mode (see ``end_of_word``) the plain tokens are followed by the
    same tokens carrying the marker: all 256 for the byte unit (so any text encodes), and for
    the char unit those of the characters in ``finals``, the ones that end a word (Hugging Face
    counts its ``end_of_word_suffix`` alphabet the same way).

    >>> [token_text(t, "</w>") for t in base_tokens(unit="char", alphabet="wol", end_of_word="</w>",
    ...                                             mode="attached", finals="w")]
    ['l', 'o', 'w', 'w</w>']

    With ``char_counts`` the characters are numbered most frequent first, ties by code point, as
    SentencePiece numbers its characters:

    >>> [token_text(t) for t in base_tokens(unit="char", alphabet="wol", char_counts={"l": 1, "o": 3, "w": 1})]
    ['o', 'l', 'w']
    """
    if unit == "byte":
        tokens = [Token(bytes([value])) for value in range(256)]
    else:
        order = None if char_counts is None else (lambda char: (-char_counts.get(char, 0), char))
        tokens = [Token(char.encode("utf-8")) for char in sorted(set(alphabet), key=order)]
    if not end_of_word:
        return tuple(tokens)
    if mode == "separate":
        return (*tokens, Token(b"", ends_word=True))
    ends = tokens if unit == "byte" else [Token(char.encode("utf-8")) for char in sorted(set(finals))]
    return (*tokens, *(Token(token.data, ends_word=True) for token in ends))
