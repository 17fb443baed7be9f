"""The Vocabulary health page's words: what each group of tokens is, and the glitch-token lesson.

Plain text (Markdown, nothing from a user in it), read by the page and the tests.

    >>> list(GROUPS)
    ['never emitted', 'unreachable', 'part of a character', 'special']
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from ..errors import RegistryError
from ..notation.health_rows import GROUP_NAMES

GROUPS: Mapping[str, str] = MappingProxyType({
    "never emitted": "made by a merge, but missing from the text's ids: later merges used each one up "
    "(for a run, the text is its own training text: these are its intermediate tokens)",
    "unreachable": "its own text encodes to other ids: its merges build other tokens from its bytes (no text can "
    "produce it), or the split cuts its text (a longer text may keep it whole)",
    "part of a character": "its bytes are not whole UTF-8 characters: a text reaches it only if the characters "
    "around it leave those bytes alone",
    "special": "reached only when the caller allows special tokens, never from plain text",
})
"""The four groups, in the order of the page's lesson (``part=`` in its link), each in a line."""
if tuple(GROUPS) != GROUP_NAMES:  # a mistake in this file: fail at import
    raise RegistryError(f"the health groups explained are {tuple(GROUPS)}, but the report has {GROUP_NAMES}")

GLITCH_LESSON = (
    "**Why it matters: glitch tokens.** A language model learns one embedding row per token id, from the "
    "text it is trained on. A token that encoding never emits, or that no text can produce, never "
    "appears in that text, so its row keeps whatever it started as. Asked about such a token, models "
    "answer nonsense: GPT-2 and GPT-3 could not repeat ` SolidGoldMagikarp` (Rumbelow and Watkins, 2023), a "
    "Reddit user's name frequent in the tokenizer's training text and all but absent from the model's. "
    "Land and Bartolo (2024, \u201cFishing for Magikarp\u201d) found such under-trained tokens in every "
    "model family they looked at, starting from the same groups counted here; Picky BPE and Scaffold-BPE "
    "remove intermediate tokens during training so that no row is wasted on them."
)
