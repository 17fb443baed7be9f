"""Special-token text in what a tokenizer encodes: cut out as the special token, refused, or read as
plain text; and which of these a tokenizer does when not told.

Scope: :data:`SPECIAL_DEFAULTS` (tiktoken refuses special-token text unless allowed; Qwen's and
Hugging Face's tokenizers encode it as the special token; SentencePiece never reads its control
symbols from text) and :func:`split_special_text`, which checks tiktoken's ``allowed_special`` /
``disallowed_special`` arguments and cuts the text around the allowed tokens. Out of scope:
encoding the pieces between them (``tokenizer``).

    >>> split_special_text("a<|e|>b", {"<|e|>": 3}, allowed_special="all", disallowed_special="all")
    [('a', False), ('<|e|>', True), ('b', False)]
    >>> split_special_text("a<|e|>b", {"<|e|>": 3}, *SPECIAL_DEFAULTS["plain"])
    [('a<|e|>b', False)]
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from ..errors import SpecialTokenError
from .pretokenize import SpecialSet, special_token_pattern, split_special

SPECIAL_DEFAULTS: Mapping[str, tuple[SpecialSet, SpecialSet]] = MappingProxyType({
    "refuse": (frozenset(), "all"),  # tiktoken's safe default: text holding a special token raises
    "special": ("all", ()),  # Qwen's and Hugging Face's: special-token text becomes the special token
    "plain": (frozenset(), ()),  # SentencePiece's control symbols: never read from text
})
"""Per ``specials_in_text``, the ``(allowed_special, disallowed_special)`` an ``encode`` without them uses."""


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
