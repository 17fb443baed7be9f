"""Widgets shared by the pages: the corpus editor and its box, and the vocabulary search box (the settings
sidebar is :mod:`ui.settings_sidebar`).

Each widget is bound to a :class:`ui.state.SessionValue` (see the guide there), so what the learner
typed survives a page switch even though Streamlit forgets the widgets themselves.
"""

from __future__ import annotations

import streamlit as st

from bpe.app.lab_state import OWN_TABLE_SOURCE, OWN_TEXT_SOURCE
from bpe.errors import BpeError
from bpe.limits import MAX_CORPUS_CHARS, MAX_UPLOAD_MB, check_corpus_size
from bpe.notation.markdown import escape_markdown
from bpe.text.corpus import BOM, decode_text_file
from bpe.training.presets import PRESETS
from bpe.views.tables import apply_table_edits

from .own_corpus import OWN_TABLE, OWN_TEXT, TABLE_VERSION, UPLOAD_NOTE
from .state import SessionValue, bind, lab, update_lab, widget_key

VOCAB_QUERY = SessionValue("vocab_query", "")
"""The Vocabulary page's search (shared by our runs and the pretrained tokenizers)."""
UPLOAD = widget_key("upload")
CORPUS_BOX = widget_key("corpus_box")
HANDED_IN = SessionValue("corpus_handed_in", False)
"""The learner's own text (typed or uploaded) was just handed in: once it trains, the Corpus box folds,
so the step it trained is on the first screen (open, the box pushed it to the bottom of a laptop's)."""


# -- the corpus (main area) ---------------------------------------------------------------------
def _copy_to_own() -> None:
    current = lab()
    preset = PRESETS[current.source]
    if preset.word_counts is not None:
        OWN_TABLE.set(list(preset.word_counts.items()))
        TABLE_VERSION.set(TABLE_VERSION.get() + 1)
        update_lab(source=OWN_TABLE_SOURCE)
    else:
        OWN_TEXT.set(preset.corpus_text)
        update_lab(source=OWN_TEXT_SOURCE)


def _read_upload(upload) -> None:
    if upload is not None:
        read_upload(upload.getvalue(), upload.name, file_id=upload.file_id)


def read_upload(data: bytes, name: str, *, file_id: str | None = None) -> None:
    """Make an uploaded file the corpus, or leave a note saying why not (the text stays as it was);
    the note stays up while that file (``file_id``) sits in the uploader."""
    try:
        text = check_corpus_size(decode_text_file(data, name=name))
    except BpeError as error:
        why = escape_markdown(error)
        if data[:2] in (b"\xff\xfe", b"\xfe\xff") and "UTF-16" not in str(error):  # a UTF-16 byte-order mark
            why = f"{escape_markdown(name)} is UTF-16 text; save it as UTF-8 and upload it again"
        UPLOAD_NOTE.set(("error", f"**Cannot use this file:** {why}. Training still uses the text above.", file_id))
        return
    OWN_TEXT.set(text)
    HANDED_IN.set(True)
    bom = " (its byte-order mark, U+FEFF, removed: it is not part of the text)" if data.startswith(BOM.encode()) else ""
    UPLOAD_NOTE.set(("success", f"Loaded {escape_markdown(name)}{bom}.", file_id))
    update_lab(source=OWN_TEXT_SOURCE)


def _edit_table(edits) -> None:
    OWN_TABLE.set(apply_table_edits(OWN_TABLE.get(), edits))
    TABLE_VERSION.set(TABLE_VERSION.get() + 1)


def corpus_editor() -> None:
    """Show the corpus; for 'your own' sources, edit it (text, .txt upload, or word table)."""
    current = lab()
    if current.source == OWN_TEXT_SOURCE:
        st.text_area("Your text (Ctrl+Enter to train on it)", height=140, **OWN_TEXT.widget(then=lambda: HANDED_IN.set(True)))
        held = st.file_uploader(  # the label names the limit: a bigger file is refused in the browser with only a red "!"
            f"…or upload a .txt file (UTF-8, at most {MAX_UPLOAD_MB} MB)", type=["txt"], **bind(UPLOAD, _read_upload),
            help=f"At most {MAX_UPLOAD_MB} MB and {MAX_CORPUS_CHARS:,} characters.",
        )
        if held is None:  # the file was removed from the uploader: its note goes with it
            UPLOAD_NOTE.set(None)
        st.caption("Links never include your text: a shared link opens with the settings and the step only.")
    elif current.source == OWN_TABLE_SOURCE:
        import pandas as pd

        frame = pd.DataFrame(OWN_TABLE.get(), columns=["word", "count"]).astype({"word": "string", "count": "Int64"})
        st.data_editor(
            frame, **bind(widget_key("table", TABLE_VERSION.get()), _edit_table), num_rows="dynamic", hide_index=True,
            column_config={
                "word": st.column_config.TextColumn("word", required=True),
                # No min_value/required: the editor would silently drop a count-less row and undo a 0.
                "count": st.column_config.NumberColumn("count", step=1, format="%d"),
            },
        )
        st.caption("Edit a cell, add a row at the bottom, or select rows and delete them. Counts are whole numbers ≥ 1.")
    else:
        preset = PRESETS[current.source]
        size = (
            f"{len(preset.corpus_text):,} characters" if preset.word_counts is None
            else f"{len(preset.word_counts):,} distinct words"
        )
        left, right = st.columns([3, 1])
        left.caption(f"**{preset.title}** · {size}. {preset.description}")
        right.button(
            "Edit a copy", on_click=_copy_to_own, width="stretch",
            help="Copy this corpus into 'your own' text or word table, keeping the settings, and edit it.",
        )


def corpus_box(*, trained: bool) -> None:
    """The Corpus box (:func:`corpus_editor` in an expander): open for the learner's own text or
    table, folded once a text they handed in has ``trained``; under it, the note on the last upload."""
    if HANDED_IN.get() and trained:
        st.session_state[CORPUS_BOX] = False  # subtle: before the expander is drawn, as for any widget
        HANDED_IN.set(False)
    source = lab().source
    with st.expander("Corpus", expanded=source in (OWN_TEXT_SOURCE, OWN_TABLE_SOURCE), key=CORPUS_BOX, on_change="rerun"):
        corpus_editor()
    # Under the box, not in it: an upload trains and folds the box, and a note inside went with it
    # after half a second, so the learner never read which file they were training on.
    note = UPLOAD_NOTE.get()
    held = st.session_state.get(UPLOAD) if source == OWN_TEXT_SOURCE else None
    if note and held is not None and note[2] in (None, held.file_id):
        (st.error if note[0] == "error" else st.success)(note[1])


def vocab_search(*, example: str) -> str:
    """The Vocabulary page's search box (our runs and pretrained tokenizers share it, and its text
    survives a page switch); returns the query. ``example``: the placeholder's three kinds of query."""
    st.text_input("Search by text, hex bytes or id", placeholder=f"e.g. {example}", **VOCAB_QUERY.widget())
    return VOCAB_QUERY.get()
