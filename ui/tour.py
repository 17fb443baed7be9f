"""The guided tour's bar on the pages it opens: "Tour step 2 of 5 · Next: Merge the most frequent pair".

A tour link carries ``tour=<n>`` (:meth:`bpe.teaching.tour.TourStep.link_params`). The page that
opens remembers the number for as long as the learner stays on it (its own reruns drop the
parameter from the address bar), and shows the bar with a link to the next step, already set up,
or back to the start after the last.
"""

from __future__ import annotations

import streamlit as st

from bpe.app.pages import HOME, WHY, Page
from bpe.teaching.tour import TOUR

from . import links, url
from .state import SessionValue

TOUR_AT = SessionValue("tour_at", None)
"""``(tour step number, page file)`` while a page the guided tour opened is shown; else ``None``."""


def tour_bar(page: Page) -> None:
    """Draw the bar on ``page`` if the tour opened it (call after the page config)."""
    if url.linked(links.TOUR_STEP):
        number = url.read(links.TOUR_STEP)  # a bad one is said, and leaves the tour
        TOUR_AT.set((number, page.file) if number else None)
    elif url.opened_by_link():  # any other link leaves the tour
        TOUR_AT.set(None)
    at = TOUR_AT.get()
    if at is None or at[1] != page.file:
        return
    number = at[0]
    with st.container(horizontal=True, vertical_alignment="center"):
        st.markdown(f"**Tour step {number} of {len(TOUR)}:** {TOUR[number - 1].title}")
        if number < len(TOUR):
            following = TOUR[number]
            st.page_link(
                following.page, label=f"Next: {following.title}", icon=":material/arrow_forward:",
                query_params=following.link_params(number + 1),
            )
        else:
            st.page_link(WHY.file, label=f"The tour is done. Next: {WHY.title.lower()}", icon=WHY.icon)
            st.page_link(HOME.file, label="Back to the start", icon=HOME.icon)
