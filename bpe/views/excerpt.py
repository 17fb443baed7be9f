"""Where to cut a long text for display: at a space when one is near, never inside a special token.

Why: the Train and Predict pages show (and encode) only the first few thousand characters of a
corpus, and the Encode page's sample is the corpus's first line cut short. Special tokens are
cut out of the corpus before training, so with the ``char`` unit their characters (``<``, ``|``)
may be in no token at all: half of ``<|endoftext|>`` left at the end of an excerpt made the page
fail with "cannot encode" on text the user never typed. Whole special tokens encode as themselves.

    >>> excerpt("low lower lowest", 12)
    'low lower'
    >>> excerpt("ab<|endoftext|>cd", 6, special_tokens=["<|endoftext|>"])
    'ab'
    >>> excerpt("short", 100)
    'short'
"""

from __future__ import annotations

from collections.abc import Sequence

from ..text.pretokenize import special_token_pattern


def excerpt(text: str, limit: int, *, special_tokens: Sequence[str] = ()) -> str:
    """The first ``limit`` characters of ``text`` or fewer: back to the last space if that keeps
    at least half, and back to the start of a special token the cut would split.

    subtle: the special tokens are found as encoding finds them (leftmost match first, scanning
    from the start), so the excerpt never keeps a part of a match encoding would have made whole.
    A special token that starts the text and is longer than ``limit`` is kept whole.
    """
    if len(text) <= limit:
        return text
    space = text.rfind(" ", 0, limit)
    cut = space if space > limit // 2 else limit
    pattern = special_token_pattern(list(special_tokens))
    if pattern is None:
        return text[:cut]
    window = text[: cut + max(map(len, special_tokens))]  # every match starting before the cut ends in here
    for match in pattern.finditer(window):
        if match.start() >= cut:
            break
        if match.end() > cut:
            cut = match.start() or match.end()
            break
    return text[:cut]
