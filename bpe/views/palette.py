"""Token colours: light tints of the Okabe-Ito palette, one per token id.

Colour is a convenience, never the only cue: every token also has a border and a gap beside it
(see ``token_html``), so boundaries stay visible in greyscale, on a washed-out projector, for
colour-blind readers, and between two neighbours that happen to share a tint.

A token's colour is a function of its id alone, so a token looks the same wherever it is drawn on
a page (the corpus before and after a merge, the headline, the walkthrough, every column of a
comparison). Colouring neighbours apart instead drew one token in two colours on one screen,
which told the learner they were two different tokens.

    >>> assign_colors([7, 7, 8, 13])   # 7 and 13 share a tint; the same id always gets the same one
    [1, 1, 2, 1]
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


def token_color(token_id: int) -> int:
    """The palette index of one token: its id modulo the number of tints."""
    return token_id % len(TINTS)


def assign_colors(ids: Sequence[int]) -> list[int]:
    """A palette index per token (:func:`token_color`): deterministic, the same for equal ids."""
    return [token_color(token_id) for token_id in ids]
