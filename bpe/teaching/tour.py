"""The guided tour: five short steps through BPE on Wikipedia's "aaabdaaabac", each linking to a page.

bytes -> pairs -> merge -> repeat -> encode. Each step has a title, two or three sentences and a
target: the page file to open (from the app's page registry, :mod:`bpe.app.pages`) and the query
parameters that put it in the right state (small URL state only: a preset, a step, a short text).

    >>> from bpe.teaching.tour import TOUR
    >>> [step.title for step in TOUR]
    ['Text is bytes', 'Count the pairs', 'Merge the most frequent pair', 'Repeat', 'Encode new text']
    >>> TOUR[2].page == pages.TRAIN.file, TOUR[2].params
    (True, {'preset': 'wikipedia', 'step': '1', 'names': '0'})
    >>> TOUR[2].url_path()
    'Train?preset=wikipedia&step=1&names=0'
    >>> TOUR[2].link_params(3)
    {'preset': 'wikipedia', 'step': '1', 'names': '0', 'tour': '3'}

Scope: the tour's content and links. Out of scope: how a page reads its query parameters (each
page parses and validates its own) and whether a page exists (a test in the app suite checks that).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from urllib.parse import urlencode

from ..app import pages


@dataclass(frozen=True)
class TourStep:
    title: str
    body: str
    """Two or three sentences."""
    page: str
    """The page file to open, as ``st.switch_page`` and ``st.page_link`` take it (one of :data:`bpe.app.pages.PAGES`)."""
    params: dict[str, str] = field(default_factory=dict)
    """Query parameters that set the page up (all strings, as in a URL)."""

    def url_path(self) -> str:
        """The page's URL path and query, as Streamlit names pages (``Train?preset=wikipedia``)."""
        return pages.page_for(self.page).url_name + (f"?{urlencode(self.params)}" if self.params else "")

    def link_params(self, number: int) -> dict[str, str]:
        """:attr:`params` plus ``tour=<number>`` (1-based), so the page can show where the tour is."""
        return {**self.params, TOUR_PARAM: str(number)}


TOUR_PARAM = "tour"
"""The query parameter a tour link adds: its step number, 1 to ``len(TOUR)``."""
SPELLED = MappingProxyType({"names": "0"})
"""Tokens spelled as their text ('aa', 'aaab') on every page the tour opens: the Train and Encode
pages would name them as Wikipedia does (Z, Y, X), the quiz spells them, and one token under three
names in three steps reads as three tokens."""


TOUR: tuple[TourStep, ...] = (
    TourStep(
        "Text is bytes",
        "A byte-level tokenizer never sees letters: it sees UTF-8 bytes, 256 possible values, so any "
        "text can be encoded. 'a' is one byte, 'é' two and '€' three; these 256 bytes are the "
        "starting vocabulary.",
        pages.BYTE_INSPECTOR.file,
        {"text": "aaabdaaabac é €"},
    ),
    TourStep(
        "Count the pairs",
        "Training counts every pair of neighbouring symbols. In 'aaabdaaabac' the pair (a, a) is "
        "counted 4 times, with overlap: 'aaa' holds it twice.",
        pages.COUNTING_LAB.file,
        {"text": "aaabdaaabac", "left": "a", "right": "a"},
    ),
    TourStep(
        "Merge the most frequent pair",
        "The most frequent pair becomes a new token: a + a -> 'aa', token 256. Every occurrence is "
        "replaced left to right, and the corpus gets shorter.",
        pages.TRAIN.file,
        {"preset": "wikipedia", "step": "1", **SPELLED},
    ),
    TourStep(
        "Repeat",
        "Count again and merge again until the wanted vocabulary size is reached or no pair occurs "
        "twice. At merge 2 two pairs tie at count 2, and the tie-break rule decides: try to predict "
        "it.",
        pages.QUIZ.file,
        {"preset": "wikipedia", "step": "1", **SPELLED},
    ),
    TourStep(
        "Encode new text",
        "To encode, a tokenizer splits text into bytes and replays the learned merges in the order "
        "they were learned. Decoding just joins the tokens' bytes back together.",
        pages.ENCODE.file,
        # Step 3 is the last: Wikipedia's example learns exactly three merges, and encoding is
        # about replaying all of them (at step 0 no learned merge would apply).
        {"preset": "wikipedia", "step": "3", "text": "aaabdaaabac", **SPELLED},
    ),
)
