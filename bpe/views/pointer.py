"""Words for the pointer a screen has: "hover" for a mouse, "tap" for a finger, key names only
where there is a keyboard.

The server cannot know the learner's device, so a page writes both and the browser's CSS media
features pick (``hover: none`` or ``pointer: coarse``: a phone or a tablet). :data:`POINTER_CSS` is
added to every page; ``ui.page_css`` hides Streamlit's own shortcut badges by the same test.

    >>> hover_or_tap("Hover", "Tap")
    '<span class="bpe-hover-only">Hover</span><span class="bpe-touch-only">Tap</span>'
    >>> keys_only("Keys 1–4 answer.")
    '<span class="bpe-keys-only">Keys 1–4 answer.</span>'
"""

from __future__ import annotations

import html

TOUCH = "(hover: none), (pointer: coarse)"
"""The media query of a screen driven by a finger (either feature: a tablet may report a fine pointer
yet no hover)."""

POINTER_CSS = f"""
<style>
@media {TOUCH} {{ .bpe-hover-only, .bpe-keys-only {{ display: none; }} }}
@media (hover: hover) and (pointer: fine) {{ .bpe-touch-only {{ display: none; }} }}
</style>
"""


def hover_or_tap(hover: str, tap: str) -> str:
    """``hover`` for a mouse, ``tap`` for a finger (both escaped; the page's CSS shows one)."""
    return f'<span class="bpe-hover-only">{html.escape(hover)}</span><span class="bpe-touch-only">{html.escape(tap)}</span>'


def keys_only(text: str) -> str:
    """``text`` (escaped) only where there is a keyboard."""
    return f'<span class="bpe-keys-only">{html.escape(text)}</span>'
