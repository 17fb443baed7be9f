"""Token colours: light tints of the Okabe-Ito palette, assigned so that neighbours always differ.

Colour is a convenience, never the only cue: every token also has a border (see ``token_html``),
so boundaries stay visible in greyscale, on a washed-out projector, or for colour-blind readers.

A token's colour follows its id (the same token tends to look the same everywhere); when that
would give two neighbours the same colour, the next colour in the palette is taken instead.

    >>> assign_colors([7, 7, 8])   # the second 7 moves on, and so must 8
    [1, 2, 3]
"""

from __future__ import annotations

from collections.abc import Sequence

# Okabe & Ito (2008) colours mixed with 68% white: light enough for black text, distinct under
# the common colour-vision deficiencies. Ordered so that palette neighbours contrast.
TINTS: tuple[str, ...] = (
    "#F7E0AD",  # orange
    "#C9E7F8",  # sky blue
    "#FAF6C3",  # yellow
    "#EFD4E3",  # reddish purple
    "#ADE0D2",  # bluish green
    "#F2CBAD",  # vermillion
)
SPECIAL_TINT = "#E4E4E4"
"""Special tokens are grey (and dashed): they are not learned, so they sit outside the palette."""


def assign_colors(ids: Sequence[int]) -> list[int]:
    """A palette index per token: ``TINTS[id % n]`` unless the left neighbour already has it.

    Deterministic (a function of the ids alone) and never equal for two adjacent tokens.
    """
    n = len(TINTS)
    colors: list[int] = []
    for token_id in ids:
        color = token_id % n
        if colors and colors[-1] == color:
            color = (color + 1) % n
        colors.append(color)
    return colors
