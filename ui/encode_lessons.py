"""The Encode & decode page's lessons on applying merges, drawn into the page by a call each.

* :func:`walk_rule`: the rule the walkthrough follows, and a toggle to show what merging left to
  right would make of each chunk beside it;
* :func:`token_starts`: where each token starts in the text (``decode_with_offsets``);
* :func:`segmentations`: the text cut three ways (BPE's own, fewest tokens, longest match), the
  tokens BPE does not make marked, and why a model needs BPE's own.

Every view is built once per (tokenizer, text, options) and shared (``ui.shared_views``).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence

import streamlit as st

from bpe.encoding.segmentation import segment
from bpe.limits import MAX_SEGMENT_CHARS
from bpe.teaching.segment_lesson import AGREE, MAX_WORDS, parting_text
from bpe.views.encoding import ENCODE_MODES
from bpe.views.segmentations import WALK_RULE, WHY_BPE, offsets_frame, segmentations_html

from .render import show_html
from .shared_views import shared_view, text_key
from .state import SessionValue, widget_key

LEFT_TO_RIGHT = SessionValue("walk_left_to_right", False)
"""Whether the walkthrough also shows what merging left to right would make of each chunk."""


def walk_rule() -> bool:
    """The rule the walkthrough follows, and the toggle beside it; whether left to right is shown."""
    st.caption(WALK_RULE)
    st.toggle("Show what left to right would make of each chunk", **LEFT_TO_RIGHT.widget(),
              help="A well-known course's encoder merges the first pair it meets that has a merge, then starts "
                   "again: each chunk gets a row with what that makes, and whether it is BPE's own.")
    return LEFT_TO_RIGHT.get()


def token_starts(tokenizer, ids: list[int], anchor: tuple, key: Hashable) -> None:
    """Where each token starts in the text, as tiktoken's ``decode_with_offsets`` gives it."""
    box = st.expander("Where each token starts in the text (decode_with_offsets)", key="bpe-offsets", on_change="rerun")
    with box:
        if not box.open:  # built only when opened: a closed expander costs the server nothing
            return
        st.caption("The character each token starts at. A token that starts in the middle of a character (its first "
                   "byte continues the character before it) gets that character's place, so two tokens can share one.")
        st.dataframe(shared_view(*anchor, "offsets", key, build=lambda: offsets_frame(tokenizer, ids)),
                     hide_index=True, width="stretch")


def segmentations(tokenizer, text: str, mode: str, anchor: tuple, *, words: Sequence[str] = (),
                  use: Callable[[str], None] | None = None) -> None:
    """The text cut three ways over the same vocabulary, with the token counts and where they differ.
    Where the three agree on the text, it says so and why, and cuts a text spliced from ``words``
    (the run's training words) where they part, with a button that encodes it (``use``)."""
    cut = text[:MAX_SEGMENT_CHARS]
    box = st.expander("Three ways to cut this text: BPE's own, the fewest tokens, the longest match", key="bpe-segments",
                      on_change="rerun")
    with box:
        if not box.open:
            return
        if len(cut) < len(text):
            st.caption(f"The first {len(cut):,} of {len(text):,} characters.")
        cuts = shared_view(*anchor, "cuts", mode, text_key(cut), build=lambda: segment(tokenizer, cut, **ENCODE_MODES[mode]))
        show_html(shared_view(*anchor, "segmentations", mode, text_key(cut), build=lambda: segmentations_html(tokenizer, cuts)))
        if not any(chunk.differs for chunk in cuts):
            parting = shared_view(*anchor, "parting text", tuple(words[:MAX_WORDS]) or tuple(cut.split()[:MAX_WORDS]),
                                  build=lambda: parting_text(tokenizer, list(words) or cut.split()))
            st.info(AGREE + (f" They part on “{parting}”:" if parting else " No word spliced from the run's own parts them."),
                    icon=":material/balance:")
            if parting:
                show_html(shared_view(*anchor, "segmentations", mode, text_key(parting),
                                      build=lambda: segmentations_html(tokenizer, segment(tokenizer, parting))))
                if use is not None:
                    st.button(f"Encode “{parting}”", key=widget_key("segments", "use"), on_click=use, args=(parting,),
                              icon=":material/content_cut:")
        st.caption("A dashed outline: a token BPE does not make at that place. " + WHY_BPE)
