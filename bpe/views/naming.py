"""Wikipedia-style names for merged tokens: the first merge is Z, the next Y, then X, ...

Wikipedia's walk-through writes "aaabdaaabac" as ZabdZabac (Z=aa), then ZYdZYac (Y=ab), then
XdXac (X=ZY). Naming a token by a single letter makes the *structure* of a tiny example visible,
so the app offers it when a run has few merges.

    >>> names = wikipedia_names(3, first_id=256, avoid="aaabdaaabac")
    >>> names
    {256: 'Z', 257: 'Y', 258: 'X'}

Letters already in the corpus are skipped (a corpus with "Z" in it names its first merge Y), and
runs with more merges than free capital letters get no names (``{}``): the option is for tiny
examples only.
"""

from __future__ import annotations

import string

MAX_NAMED_MERGES = 26


def wikipedia_names(merges: int, *, first_id: int, avoid: str = "") -> dict[int, str]:
    """``{new_id: letter}`` for ``merges`` merges whose ids start at ``first_id``; ``{}`` if too many."""
    letters = [letter for letter in reversed(string.ascii_uppercase) if letter not in set(avoid)]
    if merges > len(letters):
        return {}
    return {first_id + index: letters[index] for index in range(merges)}
