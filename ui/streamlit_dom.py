"""Every selector BPE Lab's CSS uses on Streamlit's own markup, named once, with why.

Streamlit gives no public API for most of what a teaching app must adjust (caption contrast, the
band above a page, presenter-sized text), so :mod:`ui.page_css` styles its markup: class names and
``data-testid`` attributes that a Streamlit release may rename without notice. They live here and
nowhere else. ``tests/test_browser_streamlit_dom.py`` opens a page of the pinned Streamlit
(requirements.txt) and fails if any of them matches nothing, and ``tests/test_streamlit_dom.py``
fails if CSS anywhere else in the project names a Streamlit class or test id directly.

What is public, and so not listed: a widget or container ``key=`` becomes the CSS class
``st-key-<key>`` (Streamlit's documented way to style one element; :func:`keyed`), and the theme in
``.streamlit/config.toml``.

Streamlit-free on purpose (plain strings), so the tests read it without a running app.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

MAIN = ".stMain"
"""The main area (not the sidebar)."""
MAIN_BLOCK = ".stMainBlockContainer"
"""The main area's padded column: its padding is the band above every page."""
STALE = '[data-stale="true"]'
"""An element Streamlit is about to replace during a slow rerun (it fades these)."""
CAPTION = '[data-testid="stCaptionContainer"]'
"""``st.caption``'s text."""
SLIDER = '[data-testid="stSlider"]'
SELECTBOX = '[data-testid="stSelectbox"]'
BUTTON = ".stButton"
"""A button's wrapper."""
PRIMARY_BUTTON = '[data-testid="stBaseButton-primary"]'
SECONDARY_BUTTON = '[data-testid="stBaseButton-secondary"]'
SECONDARY_KIND = 'button[kind^="secondary"]'
"""A secondary button, by the ``kind`` attribute (any size)."""
TERTIARY_KIND = 'button[kind^="tertiary"]'
SHORTCUT_HINT = "button kbd"
"""The keyboard-shortcut badge Streamlit draws inside a button given ``shortcut=``."""
VERTICAL_BLOCK = '[data-testid="stVerticalBlock"]'
ELEMENT_CONTAINER = '[data-testid="stElementContainer"]'
"""The box around one element in a block: the block's gap is between these (and layout wrappers)."""
LAYOUT_WRAPPER = '[data-testid="stLayoutWrapper"]'
"""The box around a container (``st.container``, ``st.columns``) in its parent block; a keyed
container's ``st-key-*`` class is on the block inside it."""
HEADER = '[data-testid="stHeader"]'
"""The band above every page: the sidebar's open button on the left, the app menu on the right."""
GRAPHVIZ = '[data-testid="stGraphVizChart"]'
"""``st.graphviz_chart``'s box (its CSS sets every label inside to 0.6 rem, whatever the DOT asked)."""
CHOSEN_PILL = '[data-testid="stButtonGroup"] button[aria-checked="true"]'
"""A chosen ``st.pills`` option: the theme's blue on its blue tint, 3.9:1 when hovered."""
HORIZONTAL_BLOCK = '[data-testid="stHorizontalBlock"]'
"""``st.columns``' row."""
PAGE_LINK_LABEL = '[data-testid="stPageLink-NavLink"] span'
"""``st.page_link``'s label: one line, cut at the link's width (a long label lost its end)."""
HEADING_TEXT = '[data-testid="stHeading"] [data-testid="stMarkdownContainer"]'
"""The box of a heading's text (``st.title``, ``st.header``): its bottom margin of -1 rem pulls
the next element up under the heading, which the heading's own bottom padding makes up for."""
MARKDOWN_TEXT = '[data-testid="stMarkdownContainer"]'
"""The box of any ``st.markdown`` text: the same bottom margin of -1 rem, made up for by its last
paragraph's bottom margin (where CSS takes that margin away, the box must lose its own too)."""
SKELETON = '[data-testid="stSkeleton"]'
"""The grey box Streamlit draws in place of an element whose code has not arrived yet (a widget,
``st.html``: each kind's script is fetched the first time a page shows one). The element drawn
in its place is often taller (a row of buttons wraps), which moves everything after it."""

INTERNALS: Mapping[str, str] = MappingProxyType({
    MAIN: MAIN,
    MAIN_BLOCK: MAIN_BLOCK,
    # subtle: data-stale is "true" only while a slow rerun is under way; the attribute is always there
    STALE: "[data-stale]",
    CAPTION: CAPTION,
    SLIDER: SLIDER,
    SELECTBOX: SELECTBOX,
    BUTTON: BUTTON,
    PRIMARY_BUTTON: PRIMARY_BUTTON,
    SECONDARY_BUTTON: SECONDARY_BUTTON,
    SECONDARY_KIND: SECONDARY_KIND,
    TERTIARY_KIND: TERTIARY_KIND,
    SHORTCUT_HINT: SHORTCUT_HINT,
    VERTICAL_BLOCK: VERTICAL_BLOCK,
    ELEMENT_CONTAINER: ELEMENT_CONTAINER,
    LAYOUT_WRAPPER: LAYOUT_WRAPPER,
    HEADER: HEADER,
    GRAPHVIZ: GRAPHVIZ,
    CHOSEN_PILL: CHOSEN_PILL,
    HORIZONTAL_BLOCK: HORIZONTAL_BLOCK,
    PAGE_LINK_LABEL: PAGE_LINK_LABEL,
    HEADING_TEXT: HEADING_TEXT,
    MARKDOWN_TEXT: MARKDOWN_TEXT,
    SKELETON: SKELETON,
})
"""Each selector on Streamlit's internals -> a probe that matches on the Train page in presenter
mode (or on the page :data:`PROBED_ON` names) whenever Streamlit still draws that markup (the
browser test's checklist)."""

PROBED_ON: Mapping[str, str] = MappingProxyType({
    GRAPHVIZ: "Vocabulary", CHOSEN_PILL: "Why_tokenization_matters", PAGE_LINK_LABEL: "",
})
"""Selectors of elements the Train page does not draw, and the address of a page that does (the
browser test opens it as a lesson does: the Vocabulary page at a step with a merge tree)."""

SEEN_WHILE_DRAWING = frozenset({SKELETON})
"""Selectors that match only while a page is still being drawn, never on a page drawn whole: the
probe on a drawn page leaves them out, and ``tests/test_browser_steady_layout.py`` checks them on
a page whose buttons' script it holds back, so the skeleton stays until it lets the script in."""


def keyed(key_prefix: str) -> str:
    """Elements whose ``key=`` starts with ``key_prefix`` (Streamlit's public ``st-key-<key>`` class).

    >>> keyed("bpe-stepper")
    '[class*="st-key-bpe-stepper"]'
    """
    return f'[class*="st-key-{key_prefix}"]'
