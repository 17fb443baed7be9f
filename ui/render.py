"""Small drawing helpers every page uses: page setup, token HTML, names, the current tokenizer."""

from __future__ import annotations

from pathlib import Path

import streamlit as st
from streamlit.errors import StreamlitPageNotFoundError

from bpe.app.pages import PAGES, Page
from bpe.encoding.tokenizer import Tokenizer
from bpe.training.trace import Trace
from bpe.views.chart_text import SR_ONLY_CSS, chart_table_html
from bpe.views.clicker import CLICKER_CSS
from bpe.views.encoding import WALK_CSS
from bpe.views.labs import LABS_CSS
from bpe.views.merge_html import MERGE_CSS
from bpe.views.naming import MAX_NAMED_MERGES, wikipedia_names
from bpe.views.narration import NARRATION_CSS
from bpe.views.pointer import POINTER_CSS
from bpe.views.presenter import PRESENTER_SCALE, PRESENTER_STEP_SCALE, scale_fonts
from bpe.views.stats import STATS_CSS
from bpe.views.tables import TABLES_CSS
from bpe.views.token_html import TOKEN_CSS

from . import lesson_bar, state, url
from .page_css import A11Y_CSS, LAYOUT_CSS, PRESENTER_CSS, RECONNECT_CSS, STALE_CSS
from .state import widget_key
from .tour import tour_bar
from .training import Trained

_CSS = (
    A11Y_CSS + POINTER_CSS + CLICKER_CSS + SR_ONLY_CSS + TOKEN_CSS + NARRATION_CSS + STATS_CSS + TABLES_CSS + WALK_CSS + LABS_CSS
    + MERGE_CSS + STALE_CSS + LAYOUT_CSS + RECONNECT_CSS
)


_ROOT = Path(__file__).resolve().parent.parent


def page_setup(page: Page) -> None:
    """The first lines of every page (``page``: its entry in :data:`bpe.app.pages.PAGES`): any new
    link's state, then config."""
    url.apply_url(page)  # first: a link may turn presenter mode on, which changes the config
    presenting = presenter()
    st.set_page_config(
        page_title=f"{page.title} · BPE Lab", page_icon=page.tab_icon, layout="wide",
        initial_sidebar_state="collapsed" if presenting else "auto",
    )
    st.html(_CSS + (PRESENTER_CSS if presenting else ""))  # styles only: no element is drawn
    with st.sidebar:
        st.markdown("### BPE Lab")
        st.toggle(
            "Presenter mode", **url.PRESENT.widget(),
            help="Large type and charts for a projector, with this sidebar folded away (the arrow at the "
            "top left opens it again). A link with present=1 opens in presenter mode.",
        )
        try:
            for listed in PAGES:
                if (_ROOT / listed.file).exists():
                    st.page_link(listed.file, label=listed.title, icon=listed.icon)
        except StreamlitPageNotFoundError:
            pass  # a page run on its own (`streamlit run pages/1_Train.py`) has no other pages
        st.divider()
    tour_bar(page)
    lesson_bar.bar(page)
    if presenting:
        st.button(
            "Leave presenter mode", key=widget_key("leave_present"), icon=":material/close_fullscreen:", type="tertiary",
            on_click=url.PRESENT.set, args=(False,),
        )


def page_title(page: Page) -> None:
    """The page's heading: its title, in words only. A Material icon in a heading is a word to a
    screen reader (":material/school: Train" reads "school Train"); the sidebar's link keeps the icon.
    No anchor link beside it: the keyboard's first stop after "Skip to main content" is the lesson."""
    st.title(page.title, anchor=False)


def presenter() -> bool:
    """True in presenter mode (large type for a projector)."""
    return url.PRESENT.get()


def show_chart(spec: dict, container=None, *, renderer: str = "canvas") -> None:
    """Draw a Vega-Lite spec (``chart.to_dict()``) full width, with projector-sized fonts in
    presenter mode.

    Canvas by default: a chart redrawn on every step then adds no SVG elements for the browser to
    style and lay out on every step, which showed in the browser's time per step. The
    pair-count chart asks for SVG: its bars must be elements, so that hovering one can mark the
    pair's places in the corpus (CSS ``:has()`` on the bar's ``aria-label``, see ``merge_html``)."""
    if presenter():
        spec = scale_fonts(spec, PRESENTER_SCALE, step_scale=PRESENTER_STEP_SCALE)
    spec = {**spec, "usermeta": {**spec.get("usermeta", {}), "embedOptions": {"renderer": renderer}}}
    (container or st).vega_lite_chart(spec, width="stretch")
    if (table := chart_table_html(spec)) is not None:  # a canvas says nothing to a screen reader
        show_html(table, container)


def show_html(body: str, container=None) -> None:
    """Draw already-escaped HTML from :mod:`bpe.views` (styled by the CSS ``page_setup`` added).

    Nothing to draw draws nothing: the views give ``""`` for an empty text (no tokens, no chunks),
    and ``st.html`` raises on a blank body (``StreamlitMissingRequiredParameterError``) instead.
    """
    if body.strip():
        (container or st).html(body)


def can_name(trace: Trace) -> bool:
    """Wikipedia-style names only make sense for a handful of merges."""
    return 0 < len(trace.steps) <= MAX_NAMED_MERGES


def names_for(trained: Trained) -> dict[int, str]:
    """``{new_id: "Z", ...}`` when naming is on and the run is tiny; ``{}`` otherwise."""
    trace = trained.trace
    if not (state.lab().names and can_name(trace)):
        return {}
    avoid = trained.text if trained.text is not None else "".join(word for word, _ in trained.table or ())
    return wikipedia_names(len(trace.steps), first_id=len(trace.base), avoid=avoid)


def tokenizer_at(trained: Trained, step: int, *, whole_words: bool = False) -> Tokenizer:
    """The tokenizer after ``step`` merges. ``whole_words``: treat each input as one word
    (pre-tokenizer ``none``), which is how a word table's words were trained."""
    return Tokenizer.from_trace(trained.trace, step=step, pretokenizer="none" if whole_words else None)
