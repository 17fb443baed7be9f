"""The words of the Lineage and "What was it trained on?" pages: the lesson's places and what to trust.

Plain data, so the pages only compose, and a test reads every place the link can name.

    >>> [place.key for place in LINEAGE_PLACES]
    ['ranks', 'parting', 'new', 'gone', 'order', 'family']
    >>> LINEAGE_PLACES[0].title
    'Rank by rank'
"""

from __future__ import annotations

from typing import NamedTuple


class Place(NamedTuple):
    key: str
    """The link's ``view=``."""
    title: str
    explanation: str
    """Markdown (no user text in it)."""


LINEAGE_PLACES: tuple[Place, ...] = (
    Place("ranks", "Rank by rank",
          "A merge list is ordered: rank 0, 1, 2... Walk both lists from the top and stop at the first rank where "
          "the tokens differ: that is their **common prefix**. If one list ends inside it, the longer one "
          "**extends** the shorter: it was trained from where the other stopped, or copied it and went on."),
    Place("parting", "Where they part",
          "The first rank where the two lists hold different tokens. Before it, the two trainings made the same "
          "choice at every step; after it, each went its own way (or one was not trained by BPE from the other at all)."),
    Place("new", "What the second adds",
          "The tokens the second tokenizer has and the first lacks, grouped by the kind of text they are for: a script, "
          "code, digits, whitespace. A byte-level token can be part of a character; it is grouped by the character "
          "it starts. Pick a chip to see its merge tree: the merges that built it, down to bytes."),
    Place("gone", "What the first has alone",
          "The first tokenizer's tokens the second lacks: what a tokenizer that builds on another dropped, or what "
          "an unrelated one chose differently."),
    Place("order", "The same tokens, another order",
          "Tokens both have can still be ranked differently. Count how many would have to move for both lists to "
          "order their shared tokens alike (all shared tokens minus the longest run in the same order): 0 means one "
          "list is the other with tokens inserted or removed, never reordered."),
    Place("family", "The family tree",
          "The same facts for every pretrained tokenizer BPE Lab ships, read from their files: a tokenizer hangs under "
          "the smaller one whose tokens it keeps, in that one's order, the most of (at least 90 %). Nothing here is "
          "typed in: change a file and the tree changes."),
)
"""The lesson, in order (PageDown walks it)."""

MIXTURE_PLACES: tuple[Place, ...] = (
    Place("known", "A run with a known answer",
          "Set a mix, train on it here, then let the linear program read the mix back from the merges alone."),
    Place("real", "A real tokenizer",
          "The same question of a tokenizer whose training data nobody here knows: what its first merges say."),
)
"""What was it trained on?, in order: first where the answer is known, then where it is not."""

STAND_INS = (
    "**What stands in for the unknown training data.** The inference weighs categories by sample texts: "
    "the Universal Declaration of Human Rights for each of 16 languages (legal prose, 1,800 English words), "
    "Python's standard library for code, Python's help topics for English prose about code, and your own text "
    "if you add it. A real tokenizer was trained on the web, books, code in many languages, and the shares "
    "below are of *these* categories: the mix of them that best explains the tokenizer's first merges, not "
    "its real data. A language missing from the list is explained by those that resemble it; a category whose "
    "sample is small or unusual (one legal text per language) gives noisy counts."
)
HOW_FAR = (
    "**How far to trust it.** On runs trained here the answer is near exact when the samples are the texts "
    "trained on, and off by a few points when they are other text of the same kind (the benchmark's figures "
    "are in docs/lineage.md). For a real tokenizer, the slack says how badly the samples fit: it is how much "
    "the merges would have to be bent (in counts per million bytes) to be explained by any mix of these "
    "categories. Large slack: read the shares as a hint, not a measurement."
)
