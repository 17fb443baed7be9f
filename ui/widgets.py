"""Widgets shared by the pages: the example and settings sidebar and the corpus editor.

Each widget has a ``w.*`` key, is seeded from the session's ``bpe.*`` state just before it is
drawn (see :mod:`ui.state`) and writes back in ``on_change``; so the state survives a page switch
even though Streamlit forgets the widgets themselves.
"""

from __future__ import annotations

import streamlit as st

from bpe.corpus import BOM, decode_text_file
from bpe.errors import BpeError
from bpe.limits import MAX_CORPUS_CHARS, MAX_MERGES, MAX_UPLOAD_MB, check_corpus_size
from bpe.presets import PRESETS
from bpe.pretokenize import NAMED_PATTERNS, PRETOKENIZER_HELP
from bpe.tiebreak import TIE_BREAK_RULES
from bpe.views.app_state import OWN_TABLE, OWN_TEXT, SOURCES, LabState
from bpe.views.markdown import escape_markdown
from bpe.views.tables import apply_table_edits

from . import state, url
from .fidelity_settings import end_of_word_mode_picker, special_text_toggle
from .state import lab, seed, update_lab, write_lab

CUSTOM_REGEX = "custom regex"
DEFAULT_CUSTOM_PATTERN = r"\w+|[^\w\s]+"


# -- example and settings (sidebar) -------------------------------------------------------------
def _choose_source() -> None:
    source = st.session_state["w.source"]
    update = LabState.for_source(source, step=0)
    st.session_state[state.LAB] = update
    st.session_state[state.PLAYING] = False


def _choose_pretokenizer() -> None:
    choice = st.session_state["w.pretok"]
    if choice == CUSTOM_REGEX:
        pattern = st.session_state.get("w.regex") or DEFAULT_CUSTOM_PATTERN
        update_lab(pretokenizer=f"regex:{pattern}")
    else:
        update_lab(pretokenizer=choice)


def _reset_settings() -> None:
    current = lab()
    st.session_state[state.LAB] = LabState.for_source(current.source, step=current.step)


def settings_sidebar() -> None:
    """The example picker and every training setting, in the sidebar."""
    url.write_lab_now()  # before the page draws: the address bar names the step about to be shown
    current = lab()
    sidebar = st.sidebar
    sidebar.header("Example")
    seed("w.source", current.source)
    sidebar.selectbox(
        "Corpus", list(SOURCES), key="w.source", format_func=SOURCES.get, on_change=_choose_source,
        help="A built-in example with its source's own settings, or your own text / word table.",
    )
    if current.source in PRESETS:
        sidebar.caption(PRESETS[current.source].description)

    sidebar.header("Settings")
    seed("w.unit", current.unit)
    sidebar.radio(
        "Unit", ["byte", "char"], key="w.unit", horizontal=True, on_change=write_lab("w.unit", "unit"),
        help="byte: start from the 256 byte values (GPT-2, tiktoken). char: start from the characters "
        "that occur (the Sennrich paper, the Hugging Face course).",
    )

    custom = current.pretokenizer.startswith("regex:")
    seed("w.pretok", CUSTOM_REGEX if custom else current.pretokenizer)
    sidebar.selectbox(
        "Pre-tokenizer", [*NAMED_PATTERNS, CUSTOM_REGEX], key="w.pretok", on_change=_choose_pretokenizer,
        disabled=current.is_word_table,
        help="How text is cut into words before counting pairs; merges never cross a word boundary.",
    )
    if current.is_word_table:
        sidebar.caption("A word table is already split into words, so no pre-tokenizer runs.")
    elif custom:
        seed("w.regex", current.pretokenizer[len("regex:"):])
        sidebar.text_input(
            "Your split regex", key="w.regex", on_change=write_lab("w.regex", "pretokenizer", lambda p: f"regex:{p}"),
            help="Its matches are the words; text between matches is kept but never trained on.",
        )
        sidebar.caption(PRETOKENIZER_HELP["regex:PATTERN"])
    else:
        sidebar.caption(PRETOKENIZER_HELP[current.pretokenizer])

    seed("w.eow", current.end_of_word or "")
    sidebar.text_input(
        "End-of-word marker", key="w.eow", placeholder="none (e.g. </w>)",
        on_change=write_lab("w.eow", "end_of_word", lambda text: text or None),
        help="Appended to every word before training (Sennrich's </w>), so 'est</w>' (a suffix) "
        "differs from 'est' inside a word. Leave empty for none.",
    )
    end_of_word_mode_picker(sidebar, current)

    seed("w.tie", current.tie_break)
    sidebar.selectbox(
        "Tie-break rule", list(TIE_BREAK_RULES), key="w.tie", on_change=write_lab("w.tie", "tie_break"),
        help="Which pair wins when several share the top count.",
    )
    rule = TIE_BREAK_RULES[current.tie_break]
    sidebar.caption(f"Prefers {rule.summary}. Used by {rule.used_by}.")
    with sidebar.expander("All tie-break rules"):
        for other in TIE_BREAK_RULES.values():
            st.markdown(f"**{other.name}**: {other.summary}. *Used by {other.used_by}.*")

    seed("w.stop_by", current.stop_by)
    sidebar.radio(
        "Stop after", ["merges", "vocab_size"], key="w.stop_by", horizontal=True,
        format_func={"merges": "a number of merges", "vocab_size": "a vocabulary size"}.get,
        on_change=_switch_stop_by,
    )
    seed("w.amount", current.amount)
    sidebar.number_input(
        f"Merges (at most {MAX_MERGES:,})" if current.stop_by == "merges" else "Vocabulary size (base + merges + special)",
        min_value=0 if current.stop_by == "merges" else 1,
        max_value=MAX_MERGES if current.stop_by == "merges" else None,
        step=1, key="w.amount", on_change=write_lab("w.amount", "amount", int),
    )
    seed("w.minfreq", current.min_frequency)
    sidebar.number_input(
        "Minimum pair frequency", min_value=1, step=1, key="w.minfreq",
        on_change=write_lab("w.minfreq", "min_frequency", int),
        help="Stop when the best pair occurs fewer times than this (2 by default: a pair seen once only "
        "memorises the corpus).",
    )
    seed("w.special", "\n".join(current.special_tokens))
    sidebar.text_area(
        "Special tokens (one per line)", key="w.special", height=80, placeholder="<|endoftext|>",
        on_change=write_lab("w.special", "special_tokens", _special_lines),
        help="Never split or merged; they get the last ids. In a text corpus they are cut out before training.",
    )
    special_text_toggle(sidebar, current)
    sidebar.button("Reset to the example's settings", on_click=_reset_settings, width="stretch")


def _special_lines(text: str) -> tuple[str, ...]:
    return tuple(line.rstrip("\r") for line in text.split("\n") if line.strip())


def _switch_stop_by() -> None:
    stop_by = st.session_state["w.stop_by"]
    current = lab()
    if stop_by == current.stop_by:
        return
    # Keep the same run when switching: 10 merges on bytes <-> a vocabulary of 266.
    # The base size is known once a run was trained; before that, bytes give a fair guess.
    base = st.session_state[state.BASE_SIZE] or 256
    extra = len(current.special_tokens)
    amount = current.amount + base + extra if stop_by == "vocab_size" else max(current.amount - base - extra, 0)
    update_lab(stop_by=stop_by, amount=amount)


# -- the corpus (main area) ---------------------------------------------------------------------
def _copy_to_own() -> None:
    current = lab()
    preset = PRESETS[current.source]
    if preset.word_counts is not None:
        st.session_state[state.OWN_TABLE] = list(preset.word_counts.items())
        st.session_state[state.TABLE_VERSION] += 1
        update_lab(source=OWN_TABLE)
    else:
        st.session_state[state.OWN_TEXT] = preset.corpus_text
        update_lab(source=OWN_TEXT)


def _read_upload() -> None:
    upload = st.session_state.get("w.upload")
    if upload is None:
        return
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
        st.session_state[state.UPLOAD_NOTE] = (
            "error", f"**Cannot use this file:** {why}. Training still uses the text above.", file_id,
        )
        return
    st.session_state[state.OWN_TEXT] = text
    bom = " (its byte-order mark, U+FEFF, removed: it is not part of the text)" if data.startswith(BOM.encode()) else ""
    st.session_state[state.UPLOAD_NOTE] = ("success", f"Loaded {escape_markdown(name)}{bom}.", file_id)
    update_lab(source=OWN_TEXT)


def _edit_table() -> None:
    key = f"w.table.{st.session_state[state.TABLE_VERSION]}"
    st.session_state[state.OWN_TABLE] = apply_table_edits(st.session_state[state.OWN_TABLE], st.session_state[key])
    st.session_state[state.TABLE_VERSION] += 1


def corpus_editor() -> None:
    """Show the corpus; for 'your own' sources, edit it (text, .txt upload, or word table)."""
    current = lab()
    if current.source == OWN_TEXT:
        seed("w.own_text", st.session_state[state.OWN_TEXT])
        st.text_area(
            "Your text (Ctrl+Enter to train on it)", key="w.own_text", height=140,
            on_change=state.write_through("w.own_text", state.OWN_TEXT),
        )
        st.file_uploader(  # the label names the limit: a bigger file is refused in the browser with only a red "!"
            f"…or upload a .txt file (UTF-8, at most {MAX_UPLOAD_MB} MB)", type=["txt"], key="w.upload",
            on_change=_read_upload, help=f"At most {MAX_UPLOAD_MB} MB and {MAX_CORPUS_CHARS:,} characters.",
        )
        note = st.session_state[state.UPLOAD_NOTE]
        held = st.session_state.get("w.upload")
        if note and held is not None and note[2] in (None, held.file_id):
            (st.error if note[0] == "error" else st.success)(note[1])
        else:  # the file was removed from the uploader: its note goes with it
            st.session_state[state.UPLOAD_NOTE] = None
        st.caption("Links never include your text: a shared link opens with the settings and the step only.")
    elif current.source == OWN_TABLE:
        import pandas as pd

        rows = st.session_state[state.OWN_TABLE]
        frame = pd.DataFrame(rows, columns=["word", "count"]).astype({"word": "string", "count": "Int64"})
        st.data_editor(
            frame, key=f"w.table.{st.session_state[state.TABLE_VERSION]}", num_rows="dynamic",
            on_change=_edit_table, hide_index=True,
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


def vocab_search(*, example: str) -> str:
    """The Vocabulary page's search box (our runs and pretrained tokenizers share it, and its text
    survives a page switch); returns the query. ``example``: the placeholder's three kinds of query."""
    seed("w.vocab_query", st.session_state[state.VOCAB_QUERY])
    st.text_input(
        "Search by text, hex bytes or id", key="w.vocab_query", placeholder=f"e.g. {example}",
        on_change=state.write_through("w.vocab_query", state.VOCAB_QUERY),
    )
    return st.session_state[state.VOCAB_QUERY]
