"""The sidebar settings that decide which classic trainer a run reproduces, beside the others.

Scope: where the end-of-word marker goes (``separate`` or ``attached``, each explained with who
uses it) and whether special tokens are trained on as text. Each widget is drawn only when it
matters (a marker is set; special tokens are given for a text corpus) and, like every widget in
:mod:`ui.widgets`, is seeded from the session's state and writes back in ``on_change``.
"""

from __future__ import annotations

from bpe.end_of_word import END_OF_WORD_MODES
from bpe.views.app_state import LabState
from bpe.views.markdown import escape_markdown

from .state import seed, write_lab


def end_of_word_mode_picker(sidebar, current: LabState) -> None:
    """Marker placement, with one line per mode saying what it does and who uses it."""
    if not current.end_of_word:
        return
    seed("w.eow_mode", current.eow_mode)
    sidebar.radio(
        "Marker placement", list(END_OF_WORD_MODES), key="w.eow_mode", horizontal=True,
        on_change=write_lab("w.eow_mode", "eow_mode"),
        help="separate: the marker is a symbol of its own; attached: it is glued to the last symbol.",
    )
    sidebar.caption("  \n".join(
        f"**{mode.name}**: {escape_markdown(mode.summary)}. *Used by {escape_markdown(mode.used_by)}.*"
        for mode in END_OF_WORD_MODES.values()
    ))


def special_text_toggle(sidebar, current: LabState) -> None:
    """Whether special-token text is cut out of the corpus (CS336) or trained on (most trainers)."""
    if not current.special_tokens or current.is_word_table:
        return
    seed("w.special_text", current.specials_as_text)
    sidebar.checkbox(
        "Train on their text too", key="w.special_text", on_change=write_lab("w.special_text", "specials_as_text"),
        help="Off: special tokens are cut out of the corpus before training (Stanford CS336). On: their text "
        "is counted like any other (Hugging Face's trainer, rustbpe, minbpe, tiktoken's trainer).",
    )
