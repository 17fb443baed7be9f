"""What the Why subwords page measures: its examples and the texts it can hold out, by the names a link uses.

    >>> list(example_choices())[:2], list(example_choices())[-1]
    (['python-docs', 'sennrich'], 'sidebar')
    >>> "python-docs" in held_out_choices("sennrich"), "python-docs" in held_out_choices("python-docs")
    (True, False)
    >>> list(held_out_choices("sennrich"))[:2]
    ['split', 'udhr:eng']

Scope: the names and their labels (pure: the page's link declarations in ``ui/links.py`` and its
run in ``ui/subwords.py`` both read them). Out of scope: building the texts (``ui/subwords.py``).
"""

from __future__ import annotations

from ..training.presets import PRESETS
from .udhr import ARTICLE_1

SPLIT = "split"
"""Held out: the example's last tenth (the run trains on the rest)."""
SIDEBAR = "sidebar"
"""The example: the sidebar's run, with its settings."""
PYTHON_DOCS = "python-docs"
UDHR_PREFIX = "udhr:"
"""Held out: the Declaration's first article in a language (``udhr:fra``)."""


def example_choices() -> dict[str, str]:
    """``choice -> label``: python-docs first, the other presets, then the sidebar's run."""
    ordered = [PYTHON_DOCS, *(name for name in PRESETS if name != PYTHON_DOCS)]
    return {name: PRESETS[name].title for name in ordered} | {SIDEBAR: "the sidebar's run (its example and settings)"}


def held_out_choices(example: str) -> dict[str, str]:
    """``choice -> label``: the split, each language of the Declaration, python-docs (not when it is the example)."""
    choices = {SPLIT: "its last tenth (the run trains on the rest)"}
    choices |= {UDHR_PREFIX + s.code: f"the Declaration's first article in {s.language}" for s in ARTICLE_1}
    if example != PYTHON_DOCS:
        choices[PYTHON_DOCS] = "an excerpt of Python's documentation"
    return choices
