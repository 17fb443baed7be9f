"""Where the end-of-word marker goes: a symbol of its own, or glued to the word's last symbol.

Scope: the registry of end-of-word modes and the one thing a mode changes, the symbols a word
starts from. Out of scope: which marker text is used (``settings``), and the base vocabulary's
id layout (``vocab.base_tokens``).

* ``separate``: the marker is one more symbol after the word, as in the Sennrich paper's
  Algorithm 1 (``l o w </w>``). Merges can join it like any symbol (``t + </w>``).
* ``attached``: the marker is glued to the word's last symbol (``l o w</w>``), so ``w</w>`` is
  one symbol that never meets a plain ``w``. This is what subword-nmt's ``learn_bpe`` (codes
  files ``#version: 0.2``) and Hugging Face's ``end_of_word_suffix`` do. On the Sennrich words
  subword-nmt counts ``(o, w</w>)`` 5 times and ``(o, w)`` 2 times, where ``separate`` counts
  ``(o, w)`` 7 times.

    >>> mark_word([108, 111, 119], mode="separate", marker_id=300, attached={})
    [108, 111, 119, 300]
    >>> mark_word([108, 111, 119], mode="attached", marker_id=None, attached={119: 301})
    [108, 111, 301]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from ..errors import SettingsError, UnknownTokenError
from ..registry import Registry
from .vocab import Token


@dataclass(frozen=True)
class EndOfWordMode:
    name: str
    summary: str
    """One line: where the marker goes."""
    used_by: str
    """Who places it this way."""


END_OF_WORD_MODES: Registry[EndOfWordMode] = Registry("end-of-word mode", error=SettingsError, entries=(
        EndOfWordMode(
            "separate",
            "the marker is a symbol of its own after each word (l o w </w>)",
            "the Sennrich paper's Algorithm 1, the Hugging Face course",
        ),
        EndOfWordMode(
            "attached",
            "the marker is glued to each word's last symbol (l o w</w>), so w</w> is one symbol",
            "subword-nmt's learn_bpe and apply_bpe, Hugging Face's end_of_word_suffix",
        ),
))


def mark_word(
    ids: list[int], *, mode: str, marker_id: int | None, attached: dict[int, int],
    spell: Callable[[int], str] = str,
) -> list[int]:
    """A word's starting symbols with the marker placed as ``mode`` says (``ids`` is not changed).

    ``attached`` maps a plain symbol's id to the id of the same symbol carrying the marker;
    ``spell`` names a symbol in the error raised when it has no such form.
    Subtle: an empty word stays empty; it has no last symbol to carry the marker.
    """
    if mode == "separate":
        return ids + [marker_id] if marker_id is not None else list(ids)
    if not ids:
        return []
    last = attached.get(ids[-1])
    if last is None:
        raise UnknownTokenError(
            f"{spell(ids[-1])} never ended a word in training, so this vocabulary has no end-of-word "
            "form of it; train on text where it ends a word, or use the byte unit, which has every one"
        )
    return ids[:-1] + [last]


def marker_ids(base: Sequence[Token]) -> tuple[int | None, dict[int, int]]:
    """What :func:`mark_word` needs from a base vocabulary (ids are positions in ``base``).

    >>> from bpe.tokens.vocab import base_tokens
    >>> marker_ids(base_tokens(unit="char", alphabet="lw", end_of_word="</w>", mode="attached", finals="w"))
    (None, {1: 2})
    """
    plain = {token.data: token_id for token_id, token in enumerate(base) if not token.ends_word}
    marker = next((token_id for token_id, token in enumerate(base) if token.ends_word and not token.data), None)
    return marker, {plain[token.data]: token_id for token_id, token in enumerate(base) if token.ends_word and token.data}
