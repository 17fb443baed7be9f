"""Import & export: this run's tokenizer at step k in every standard format, and other tokenizers in.

A format that cannot hold this tokenizer (char-level, an end-of-word marker...) says why instead of
offering a file. An imported tokenizer is kept for this session and can be picked on the Encode &
decode and Compare pages.
"""

import streamlit as st

from bpe.app import pages
from bpe.formats import all_formats, tokenizer_format
from bpe.notation.markdown import escape_markdown
from bpe.text.pretokenize import PRETOKENIZER_HELP, PRETOKENIZERS
from bpe.views.exports import export_offers, upload_hint
from ui import state, tokenizers, url
from ui.exports import download_cards
from ui.render import page_setup, page_title, tokenizer_at
from ui.state import widget_key
from ui.shared_views import shared_view
from ui.preamble import run_at_step
from ui.settings_sidebar import settings_sidebar

BYTE_LEVEL_SPLITS = [name for name, entry in PRETOKENIZERS.items() if not entry.char_unit_only]
"""The splits a byte-level file (tiktoken's, GPT-2's) can be read with: Qwen's rank files need theirs."""

# The import form's widgets: read when Import is pressed, kept nowhere else.
FORMAT = widget_key("import_format")
FILES = widget_key("import_files")
SPLIT = widget_key("import_pretok")
NAME = widget_key("import_name")


def export_section(trained, step: int) -> None:
    st.header("Export this tokenizer")
    total = len(trained.trace.steps)
    # Step 0 means bytes only, here as everywhere: the whole run is a choice of its own (the default:
    # a tokenizer of bare bytes is rarely what someone came to export), not what step 0 stands for.
    whole = st.toggle(
        f"All {total:,} merges (the whole run)", value=True, key=widget_key("export_whole"),
        help="Off: the merges up to the step above (step 0: the bytes alone, no merge)",
    )
    step = total if whole else step
    tokenizer = tokenizer_at(trained, step)
    what = "no merge yet: the base tokens alone" if step == 0 else f"{step:,} of this run's {total:,} merges"
    st.caption(
        f"The tokenizer after {what}: {tokenizer.n_vocab:,} tokens "
        f"({tokenizer.unit}-level, pre-tokenizer {escape_markdown(tokenizer.pretokenizer.name)})."
    )
    stem = f"{state.lab().source}-step{step}"  # serialising 20,000 merges five ways takes seconds: once per run and step
    download_cards(shared_view(trained, "export", step, stem, build=lambda: export_offers(tokenizer, stem=stem)), stem=stem)


def _import() -> None:
    uploads = st.session_state.get(FILES) or []
    entry = tokenizer_format(st.session_state[FORMAT])
    tokenizers.add_import(
        format=entry.name,
        files={upload.name: upload.getvalue() for upload in uploads},
        pretokenizer="gpt2" if entry.stores_pattern else st.session_state.get(SPLIT, "gpt2"),
        name=st.session_state.get(NAME, ""),
    )


def import_section() -> None:
    st.header("Import a tokenizer")
    left, right = st.columns([1, 1], gap="large")
    with left:
        names = [entry.name for entry in all_formats()]
        entry = tokenizer_format(st.selectbox(
            "Format", names, format_func=lambda name: tokenizer_format(name).title, key=FORMAT
        ))
        st.caption(upload_hint(entry))
        st.file_uploader(
            "Tokenizer file(s)", accept_multiple_files=True, key=FILES,
            help="One file, or GPT-2's two files together. Nothing leaves this session.",
        )
    with right:
        if not entry.stores_pattern:
            st.selectbox(
                "Split pattern (these files do not store it)", BYTE_LEVEL_SPLITS, index=BYTE_LEVEL_SPLITS.index("gpt2"),
                key=SPLIT, help="The pre-tokenizer the tokenizer was trained with; GPT-2's own files need gpt2.",
            )
            st.caption(PRETOKENIZER_HELP[st.session_state[SPLIT]])
        st.text_input("Name it", key=NAME, placeholder="e.g. my tokenizer", max_chars=60)
        # Disabled until the files are uploaded: a click while a big file is still on its way came in a run
        # without it, and the note that said so was gone with the upload's own run (nothing seemed to happen).
        waiting = not st.session_state.get(FILES)
        st.button("Import", key=widget_key("import"), type="primary", icon=":material/upload:", on_click=_import,
                  disabled=waiting, help="Choose the file(s) first; the button waits for their upload." if waiting else None)
    note = tokenizers.IMPORT_NOTE.get()
    if note:
        (st.error if note[0] == "error" else st.success)(
            note[1], icon=":material/error:" if note[0] == "error" else ":material/check_circle:"
        )
        tokenizers.IMPORT_NOTE.set(None)

    kept = tokenizers.imported()
    st.subheader("Imported this session")
    if not kept:
        st.caption("Nothing yet. Tip: export a tokenizer above, then import the file here.")
        return
    for item in kept:
        row = st.columns([4, 1], vertical_alignment="center")
        row[0].markdown(
            f"**{escape_markdown(item.name)}** · {item.n_vocab:,} tokens · {item.merges:,} merges · "
            f"{item.unit}-level · pre-tokenizer {escape_markdown(item.pretokenizer)} · "
            f"from {escape_markdown(item.origin)}"
        )
        row[1].button(
            "Remove", key=widget_key("remove", item.name), icon=":material/delete:", on_click=tokenizers.remove_import,
            args=(item.name,), width="stretch",
        )


def main() -> None:
    page_setup(pages.IMPORT_EXPORT)
    settings_sidebar()
    page_title(pages.IMPORT_EXPORT)
    st.caption(
        "Download this run's tokenizer in the files other libraries read, or upload theirs (GPT-2's, a "
        "Hugging Face tokenizer.json...) to encode with it and compare it with ours."
    )
    run = run_at_step(slider_key="export")
    if run is not None:
        export_section(*run)
    import_section()
    url.write_url()


main()
