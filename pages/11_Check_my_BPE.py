"""Check my BPE: upload the merges your own trainer learned and see where they part from the
reference, and the likeliest reason (a classic mistake or another setting), with its fix."""

import time
from dataclasses import replace

import streamlit as st

from bpe.app import pages
from bpe.checking import check_merges, merge_shapes
from bpe.errors import BpeError
from bpe.limits import MAX_UPLOAD_MB
from bpe.presets import PRESETS
from bpe.pretokenize import NAMED_PATTERNS, PRETOKENIZER_HELP
from bpe.tiebreak import TIE_BREAK_RULES
from bpe.vocab import UNITS
from bpe.views.check import (
    CHECK_CSS, attempts_frame, diagnosis_html, difference_html, guess_notice, reference_caption, rest_frame,
    summary_text,
)
from bpe.markdown import escape_markdown
from ui import state
from ui.render import page_setup, show_html

CORPUS_KINDS = {"preset": "A built-in example", "text": "Paste the text", "upload": "Upload a text file"}
EXAMPLE = "s t\ne st\no w\nl ow\n"


def _form():
    return st.session_state[state.CHECK_FORM]


def _update(**changes) -> None:
    st.session_state[state.CHECK_FORM] = replace(_form(), **changes)


def _write(field: str, widget_key: str):
    def callback() -> None:
        _update(**{field: st.session_state[widget_key]})
    return callback


def _read_merges_upload() -> None:
    upload = st.session_state.get("w.check_merges_file")
    if upload is not None:
        _update(merges=upload.getvalue(), merges_name=upload.name)


def _read_merges_paste() -> None:
    _update(merges=st.session_state["w.check_merges_text"].encode("utf-8"), merges_name="pasted merges")


def _read_corpus_upload() -> None:
    upload = st.session_state.get("w.check_corpus_file")
    if upload is not None:
        _update(upload=upload.getvalue(), upload_name=upload.name)


def _choose_preset() -> None:
    st.session_state[state.CHECK_FORM] = _form().with_preset(st.session_state["w.check_preset"])


def merges_section() -> None:
    st.header("1 · Your merges")
    form = _form()
    left, right = st.columns(2, gap="large")
    left.file_uploader(
        "Upload your merges file", key="w.check_merges_file", on_change=_read_merges_upload,
        help=f"Any of: {', '.join(shape.title for shape in merge_shapes().values())}. Up to {MAX_UPLOAD_MB} MB.",
    )
    state.seed("w.check_merges_text", form.merges.decode("utf-8", errors="replace") if form.merges_name == "pasted merges" else "")
    right.text_area(
        "…or paste its lines (Ctrl+Enter to apply)", key="w.check_merges_text", height=120, placeholder=EXAMPLE,
        on_change=_read_merges_paste,
    )
    shapes = merge_shapes()
    state.seed("w.check_shape", form.shape if form.shape in shapes else "")
    left.selectbox("Read it as", ["", *shapes], key="w.check_shape", on_change=_write("shape", "w.check_shape"),
                   format_func=lambda name: shapes[name].title if name else "recognize it from its contents",
                   help="Choose the shape when the file is recognized as another one.")
    if form.merges:
        lines = form.merges.count(b"\n") + (not form.merges.endswith(b"\n"))
        st.caption(f"Checking **{escape_markdown(form.merges_name)}** ({lines:,} lines).")


def corpus_section() -> None:
    st.header("2 · The corpus you trained on")
    form = _form()
    state.seed("w.check_corpus", form.corpus)
    st.radio("Corpus", list(CORPUS_KINDS), format_func=CORPUS_KINDS.get, key="w.check_corpus", horizontal=True,
             on_change=_write("corpus", "w.check_corpus"), label_visibility="collapsed")
    if form.corpus == "preset":
        state.seed("w.check_preset", form.preset)
        st.selectbox("Example", list(PRESETS), format_func=lambda name: PRESETS[name].title, key="w.check_preset",
                     on_change=_choose_preset, help="Choosing one also sets the settings its source used.")
    elif form.corpus == "text":
        state.seed("w.check_text", form.text)
        st.text_area("Corpus text (Ctrl+Enter to apply)", key="w.check_text", height=120,
                     on_change=_write("text", "w.check_text"))
    else:
        st.file_uploader("Corpus file (UTF-8 text)", type=["txt"], key="w.check_corpus_file", on_change=_read_corpus_upload)
        if form.upload_name:
            st.caption(f"Using **{escape_markdown(form.upload_name)}**.")


def settings_section() -> None:
    st.header("3 · The settings you meant")
    form = _form()
    state.seed("w.check_guess", form.guess)
    st.checkbox("I don't know my settings: find the ones that fit best", key="w.check_guess",
                on_change=_write("guess", "w.check_guess"))
    columns = st.columns(5)
    if not form.guess:
        for column, (field, label, options) in zip(columns, (
            ("unit", "Unit", list(UNITS)),
            ("pretokenizer", "Pre-tokenizer", list(dict.fromkeys([*NAMED_PATTERNS, form.pretokenizer]))),
            ("tie_break", "Tie-break rule", list(TIE_BREAK_RULES)),
        )):
            key = f"w.check_{field}"
            state.seed(key, getattr(form, field))
            column.selectbox(label, options, key=key, on_change=_write(field, key))
        columns[1].caption(escape_markdown(PRETOKENIZER_HELP.get(form.pretokenizer, "")))
    texts = [("special_tokens", "Special tokens", "comma-separated, e.g. <|endoftext|>")]
    if not form.guess:  # a guess tries no marker and the one the merges spell
        texts.insert(0, ("end_of_word", "End-of-word marker", "e.g. </w>; empty: none"))
    for column, (field, label, hint) in zip(columns[5 - len(texts):], texts):
        key = f"w.check_{field}"
        state.seed(key, getattr(form, field))
        column.text_input(label, key=key, placeholder=hint, on_change=_write(field, key), max_chars=200)
    state.seed("w.check_vocab_size", form.vocab_size)
    st.number_input("Vocabulary size your trainer was asked for (optional)", min_value=1, max_value=1_000_000,
                    value=None, step=1, key="w.check_vocab_size", on_change=_write("vocab_size", "w.check_vocab_size"),
                    help="Base tokens + merges + special tokens: the check says whether your list stops short or runs on.")


def run_check() -> None:
    try:
        learner, source, settings, keep = _form().inputs()
        started = time.perf_counter()
        result = check_merges(learner.pairs, source, settings, guess=_form().guess, keep=keep, prefer=learner.hints)
        outcome = ("ok", result, merge_shapes()[learner.shape].title, time.perf_counter() - started)
    except BpeError as error:
        outcome = ("error", str(error))
    st.session_state[state.CHECK_RESULT] = outcome


def result_section() -> None:
    outcome = st.session_state[state.CHECK_RESULT]
    if outcome is None:
        return
    if outcome[0] == "error":
        st.error(f"**Cannot check these merges:** {escape_markdown(outcome[1])}", icon="🛑")
        return
    _, result, shape, seconds = outcome
    st.header("Where your merges part from the reference")
    st.caption(reference_caption(result, shape, seconds))
    notice = guess_notice(result)
    if notice is not None:
        level, text = notice
        (st.warning if level == "warning" else st.info)(text, icon=":material/travel_explore:")
    st.metric("Leading merges that match", f"{result.matching:,} / {result.total:,}")
    st.markdown(escape_markdown(summary_text(result)))
    if result.count_note():
        st.info(escape_markdown(result.count_note()), icon=":material/tag:")
    if result.divergence is not None:
        show_html(difference_html(result))
    if result.diagnosis:
        st.subheader("Diagnosis")
        show_html(diagnosis_html(result))
    if result.rest:
        st.subheader("The rest of your list")
        st.dataframe(rest_frame(result), hide_index=True, width="stretch")
    if result.attempts:
        with st.expander("Every re-training tried"):
            st.dataframe(attempts_frame(result), hide_index=True, width="stretch")


def main() -> None:
    page_setup(pages.CHECK)
    show_html(CHECK_CSS)
    st.title(":material/fact_check: Check my BPE")
    st.caption(
        "Wrote your own BPE trainer? Upload its merges and the corpus it learned from: this page trains the "
        "reference on the same corpus, shows the first merge where yours differ, and re-trains under the "
        "classic mistakes and the other settings to tell you the likeliest cause and its fix."
    )
    merges_section()
    corpus_section()
    settings_section()
    if st.button("Check my merges", key="w.check_run", type="primary", icon=":material/fact_check:"):
        with st.spinner("Training the reference and re-training under each classic mistake…"):
            run_check()
    result_section()


main()
