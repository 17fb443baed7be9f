"""Special-token text in what a tokenizer encodes: cut out as the special token, refused, or read as
plain text; and which of these a tokenizer does when not told.

Scope: the three ways, declared once (:data:`SPECIAL_TEXT_MODES`, what the Encode page, the
checkers and the command line offer), :data:`SPECIAL_DEFAULTS`, which of them a tokenizer takes when
not told (tiktoken refuses special-token text unless allowed; Qwen's and Hugging Face's tokenizers
encode it as the special token; SentencePiece never reads its control symbols from text), and :func:`split_special_text`, which checks tiktoken's ``allowed_special`` /
``disallowed_special`` arguments and cuts the text around the allowed tokens. Out of scope:
encoding the pieces between them (``tokenizer``).

    >>> split_special_text("a<|e|>b", {"<|e|>": 3}, allowed_special="all", disallowed_special="all")
    [('a', False), ('<|e|>', True), ('b', False)]
    >>> split_special_text("a<|e|>b", {"<|e|>": 3}, *SPECIAL_DEFAULTS["plain"])
    [('a<|e|>b', False)]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from ..errors import SpecialTokenError
from ..registry import Registry
from .pretokenize import SpecialSet, special_token_pattern, split_special


@dataclass(frozen=True)
class SpecialTextMode:
    """One way to read special-token text: ``encode``'s two arguments for it."""

    name: str
    default_name: str
    """Its name as a tokenizer's own default (``specials_in_text``, in every tokenizer file written):
    what the tokenizers that default to it do with such text."""
    allowed_special: SpecialSet
    disallowed_special: SpecialSet

    @property
    def encode_args(self) -> dict[str, SpecialSet]:
        """``encode``'s keyword arguments for this mode, both given, so it holds whatever the tokenizer's default."""
        return {"allowed_special": self.allowed_special, "disallowed_special": self.disallowed_special}


SPECIAL_TEXT_MODES: Registry[SpecialTextMode] = Registry("special-token mode", error=SpecialTokenError, entries=(
    SpecialTextMode("allowed", "special", "all", "all"),  # Qwen's and Hugging Face's: the special token
    SpecialTextMode("disallowed", "refuse", frozenset(), "all"),  # tiktoken's safe default: text holding one raises
    SpecialTextMode("plain", "plain", frozenset(), ()),  # SentencePiece's control symbols: never read from text
))
"""The three ways to read special-token text, in the order the pages list them."""
SPECIAL_DEFAULTS: Mapping[str, tuple[SpecialSet, SpecialSet]] = MappingProxyType({
    mode.default_name: (mode.allowed_special, mode.disallowed_special) for mode in SPECIAL_TEXT_MODES.values()
})
"""Per ``specials_in_text`` (a tokenizer's default mode, by its default name), the ``(allowed_special,
disallowed_special)`` an ``encode`` without them uses."""


def split_special_text(
    text: str, special_tokens: Mapping[str, int], allowed_special: SpecialSet, disallowed_special: SpecialSet,
) -> list[tuple[str, bool]]:
    """``(piece, is_special)`` pieces of ``text``, cut at the allowed special tokens; a
    :class:`SpecialTokenError` that teaches both fixes if a disallowed one occurs."""
    every = set(special_tokens)
    allowed = every if allowed_special == "all" else set(allowed_special)
    disallowed = every - allowed if disallowed_special == "all" else set(disallowed_special)
    unknown = sorted((allowed | disallowed) - every)
    if unknown:
        raise SpecialTokenError(
            f"{', '.join(map(repr, unknown))} {'is not a special token' if len(unknown) == 1 else 'are not special tokens'}"
            f" of this tokenizer (it has: {', '.join(map(repr, sorted(every))) or 'none'})"
        )
    if disallowed:
        found = special_token_pattern(disallowed).search(text)
        if found:
            token = found.group()
            raise SpecialTokenError(
                f"the text contains the special token {token!r}, which is not allowed. To encode it "
                f"as a special token pass allowed_special={{{token!r}}} (or \"all\"); to encode it "
                "as plain text pass disallowed_special=()"
            )
    if allowed == every:
        return split_special(text, special_token_pattern(every))
    return split_special(text, special_token_pattern(every) if allowed else None, allowed)  # tiktoken's rule
