"""A hostile value for every link parameter, for the page (AppTest) and browser tests.

The lab's parameters come from the link registry (:func:`bpe.app.lab_state.lab_params`, which
reads the setting specs), and each page's own from ``ui/links.py`` (:data:`ui.links.PAGE_LINKS`;
those every page reads, presenter mode and the lesson among them, are sent to one page), so a new
setting or a new page parameter is sent a hostile value without editing a test.

    >>> hostile("eow")
    "<svg/onload=alert('eow')>"
"""

from __future__ import annotations

from pathlib import Path

from bpe.app.lab_state import lab_params
from ui.links import EVERY_PAGE, PAGE_LINKS

EVERY_PAGE_FILE = "pages/1_Train.py"
"""Where a parameter that every page reads (presenter mode, the tour, the lesson) is sent."""


def hostile(param: str) -> str:
    """Markup that would run script if any page drew it unescaped; it names its parameter."""
    return f"<svg/onload=alert('{param}')>"  # no space: pages that show spaces as · show it whole


def lab_links() -> dict[str, str]:
    """``param -> hostile value`` for every parameter a lab link (example, settings, step) carries."""
    return {param: hostile(param) for param in sorted(lab_params())}


def page_params() -> dict[str, set[str]]:
    """``page file -> parameters`` of its own (``ui/links.py``), and those every page reads on :data:`EVERY_PAGE_FILE`."""
    found = {page: {param.name for param in params} for page, params in PAGE_LINKS.items() if params}
    found.setdefault(EVERY_PAGE_FILE, set()).update(param.name for param in EVERY_PAGE)
    return found


def url_path(page: str) -> str:
    """``pages/8_Byte_inspector.py`` -> ``/Byte_inspector``, the path Streamlit serves it on."""
    return "/" + Path(page).stem.split("_", 1)[1]
