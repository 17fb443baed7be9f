"""Check my BPE: upload the merges your own trainer learned and see where they part from the
reference, and the one verdict: a classic mistake (or two at once) that reproduces every merge, with
its fix and the line it goes on, or "not one of the mistakes I know" and what to print. Checking an
encoder's ids is a page of its own (``pages/16_Check_my_encoder.py``); the old link to its tab,
``?check=encoder``, opens that page."""

import time

import streamlit as st

from bpe.app import pages
from bpe.checking import check_merges, merge_shapes
from bpe.errors import BpeError
from bpe.limits import MAX_UPLOAD_MB
from bpe.notation.markdown import escape_markdown
from bpe.text.pretokenize import NAMED_PATTERNS, PRETOKENIZER_HELP
from bpe.tokens.vocab import UNITS
from bpe.training.presets import PRESETS
from bpe.training.tiebreak import TIE_BREAK_RULES
from bpe.views.check import (
    CHECK_CSS, CheckForm, attempts_frame, diagnosis_html, difference_html, guess_notice, merges_caption,
    reference_caption, rest_frame, summary_text, verdict_markdown,
)
from ui import links, url
from ui.render import page_setup, page_title, show_html
from ui.state import SessionValue, bind, widget_key

VERDICT_ICONS = {"correct": ":material/check_circle:", "explained": ":material/bug_report:",
                 "unknown": ":material/help:"}
CORPUS_KINDS = {"preset": "A built-in example", "text": "Paste the text", "upload": "Upload a text file"}
EXAMPLE = "s t\ne st\no w\nl ow\n"
FORM = SessionValue("check_form", factory=lambda: CheckForm().with_preset("cs336"))
"""What the learner entered, a :class:`~bpe.views.check.CheckForm` (replaced, never mutated)."""
RESULT = SessionValue("check_result", None)
"""``("ok", CheckResult, shape, seconds)`` or ``("error", message)`` of the last check, or ``None``."""


def _form() -> CheckForm:
    return FORM.get()


def _field(field: str, **how) -> dict:
    """A widget bound to one field of the form, keyed ``w.check_<field>``."""
    return FORM.field_widget(field, name=f"check_{field}", **how)


def _read_merges_upload(upload) -> None:
    if upload is not None:
        FORM.update(merges=upload.getvalue(), merges_name=upload.name)


def _read_merges_paste(text: str) -> None:
    FORM.update(merges=text.encode("utf-8"), merges_name="pasted merges")


def _read_corpus_upload(upload) -> None:
    if upload is not None:
        FORM.update(upload=upload.getvalue(), upload_name=upload.name)


def _choose_preset(preset: str) -> None:
    FORM.set(_form().with_preset(preset))


def merges_section() -> None:
    st.header("1 · Your merges")
    form = _form()
    left, right = st.columns(2, gap="large")
    left.file_uploader(
        "Upload your merges file", **bind(widget_key("check_merges_file"), _read_merges_upload),
        help=f"Any of: {', '.join(shape.title for shape in merge_shapes().values())}. Up to {MAX_UPLOAD_MB} MB.",
    )
    pasted = form.merges.decode("utf-8", errors="replace") if form.merges_name == "pasted merges" else ""
    right.text_area(
        "…or paste its lines (Ctrl+Enter to apply)", height=120, placeholder=EXAMPLE,
        **bind(widget_key("check_merges_text"), _read_merges_paste, shown=pasted),
    )
    shapes = merge_shapes()
    left.selectbox("Read it as", ["", *shapes], format_func=lambda name: shapes[name].title if name else
                   "recognize it from its contents", help="Choose the shape when the file is recognized as another one.",
                   **_field("shape", show=lambda shape: shape if shape in shapes else ""))
    if form.merges:
        st.caption(merges_caption(form))


def corpus_section() -> None:
    st.header("2 · The corpus you trained on")
    form = _form()
    st.radio("Corpus", list(CORPUS_KINDS), format_func=CORPUS_KINDS.get, horizontal=True, **_field("corpus"),
             label_visibility="collapsed")
    if form.corpus == "preset":
        st.selectbox("Example", list(PRESETS), format_func=lambda name: PRESETS[name].title,
                     **bind(widget_key("check_preset"), _choose_preset, shown=form.preset),
                     help="Choosing one also sets the settings its source used.")
    elif form.corpus == "text":
        st.text_area("Corpus text (Ctrl+Enter to apply)", height=120, **_field("text"))
    else:
        st.file_uploader("Corpus file (UTF-8 text)", type=["txt"], **bind(widget_key("check_corpus_file"), _read_corpus_upload))
        if form.upload_name:
            st.caption(f"Using **{escape_markdown(form.upload_name)}**.")


def settings_section() -> None:
    st.header("3 · The settings you meant")
    form = _form()
    st.checkbox("I don't know my settings: find the ones that fit best", **_field("guess"))
    columns = st.columns(5)
    if not form.guess:
        for column, (field, label, options) in zip(columns, (
            ("unit", "Unit", list(UNITS)),
            ("pretokenizer", "Pre-tokenizer", list(dict.fromkeys([*NAMED_PATTERNS, form.pretokenizer]))),
            ("tie_break", "Tie-break rule", list(TIE_BREAK_RULES)),
        )):
            column.selectbox(label, options, **_field(field))
        columns[1].caption(escape_markdown(PRETOKENIZER_HELP.get(form.pretokenizer, "")))
    texts = [("special_tokens", "Special tokens", "comma-separated, e.g. <|endoftext|>")]
    if not form.guess:  # a guess tries no marker and the one the merges spell
        texts.insert(0, ("end_of_word", "End-of-word marker", "e.g. </w>; empty: none"))
    for column, (field, label, hint) in zip(columns[5 - len(texts):], texts):
        column.text_input(label, placeholder=hint, **_field(field), max_chars=200)
    st.number_input("Vocabulary size your trainer was asked for (optional)", min_value=1, max_value=1_000_000, step=1,
                    help="Base tokens + merges + special tokens: the check says whether your list stops short or runs on.",
                    **_field("vocab_size"))


def run_check() -> None:
    try:
        learner, source, settings, keep = _form().inputs()
        started = time.perf_counter()
        result = check_merges(learner.pairs, source, settings, guess=_form().guess, keep=keep, prefer=learner.hints)
        outcome = ("ok", result, merge_shapes()[learner.shape].title, time.perf_counter() - started)
    except BpeError as error:
        outcome = ("error", str(error))
    RESULT.set(outcome)


def result_section() -> None:
    outcome = RESULT.get()
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
    if result.matching < result.total:  # all match: the verdict says so, once
        st.markdown(escape_markdown(summary_text(result)))
    level, verdict = verdict_markdown(result)
    (st.success if level == "success" else st.warning)(verdict, icon=VERDICT_ICONS[result.verdict.kind])
    if result.count_note():
        st.info(escape_markdown(result.count_note()), icon=":material/tag:")
    if result.divergence is not None:
        show_html(difference_html(result))
    if causes := diagnosis_html(result):
        st.subheader("Why, and the fix")
        show_html(causes)
    if result.rest:
        st.subheader("The rest of your list")
        st.dataframe(rest_frame(result), hide_index=True, width="stretch")
    if result.attempts:
        with st.expander("Every re-training tried"):
            st.dataframe(attempts_frame(result), hide_index=True, width="stretch")


def main() -> None:
    page_setup(pages.CHECK)
    if url.read(links.CHECK_TAB) == "encoder":  # the link to the tab this page once had
        st.switch_page(pages.CHECK_ENCODER.file)
    page_title(pages.CHECK)
    show_html(CHECK_CSS)
    st.caption(
        "Wrote your own BPE trainer? Upload its merges and the corpus it learned from: this page trains the "
        "reference on the same corpus, shows the first merge where yours differ, and re-trains under the "
        "classic mistakes (one, then two at once) and the other settings until one reproduces every merge of "
        "yours, then says what to change and where."
    )
    merges_section()
    corpus_section()
    settings_section()
    if st.button("Check my merges", key=widget_key("check_run"), type="primary", icon=":material/fact_check:"):
        with st.spinner("Training the reference and re-training under each classic mistake…"):
            run_check()
    result_section()
    st.page_link(pages.CHECK_ENCODER.file, label="Wrote an encoder too? Check its ids", icon=pages.CHECK_ENCODER.icon)


main()
