"""Check my encoder, the page (``pages/16_Check_my_encoder.py``): a tokenizer, the texts with the ids
the learner's encoder gave them, and where and why they part from the tokenizer's own.

The form lives in the session (:data:`FORM`, an :class:`~bpe.views.encode_check.EncoderForm`
replaced on every change); the check runs on the button, and its result (:data:`RESULT`) stays
until the next one. The tokenizer is the Train page's example with all its merges, a pretrained
one, or a file the learner uploads (a tokenizer in any one-file format, or the merges their own
trainer wrote, numbered as minbpe numbers them).
"""

from __future__ import annotations

import streamlit as st

from bpe.checking.encode_cases import tokenizer_from_file
from bpe.checking.encode_check import check_encoder
from bpe.errors import BpeError
from bpe.limits import MAX_UPLOAD_MB
from bpe.notation.markdown import escape_markdown
from bpe.pretrained.registry import PRETRAINED
from bpe.text.pretokenize import NAMED_PATTERNS
from bpe.views.check import CHECK_CSS
from bpe.views.encode_check import (
    ENCODER_CSS, MODE_LABELS, VERDICT_ICONS, EncoderForm, diagnosis_html, difference_html, probe_json, summary,
    texts_frame, tried_frame, verdict_markdown,
)

from . import state, tokenizers
from .render import show_html, tokenizer_at
from .state import SessionValue, bind, widget_key
from .training import get_trained

FORM = SessionValue("encoder_form", factory=EncoderForm)
RESULT = SessionValue("encoder_result", None)
"""``("ok", EncodeCheckResult, tokenizer title)`` or ``("error", message)`` of the last check, or ``None``."""
UPLOAD = "upload"
RUN = "run"


def _form() -> EncoderForm:
    return FORM.get()


def _field(field: str, **how) -> dict:
    return FORM.field_widget(field, name=f"encoder_{field}", **how)


def _choices() -> dict[str, str]:
    lab = state.lab()
    return {RUN: f"The Train page's example ({lab.source}), all its merges",
            **{name: tokenizers.pretrained_label(name) for name in PRETRAINED}, UPLOAD: "Upload a tokenizer or merges file"}


def _tokenizer():
    """``(tokenizer, title)`` for the form's choice; a :class:`BpeError` says what is missing."""
    form = _form()
    if form.tokenizer == UPLOAD:
        if not form.upload:
            raise BpeError("no tokenizer file yet: upload a tokenizer (any format Import & export reads) or your merges")
        return tokenizer_from_file(form.upload, name=form.upload_name, pretokenizer=form.pretokenizer), form.upload_name
    if form.tokenizer in PRETRAINED:
        return tokenizers.pretrained(form.tokenizer), PRETRAINED[form.tokenizer].title
    trained = get_trained(state.lab())
    if trained is None:
        raise BpeError("the Train page's example cannot be trained with its settings: fix them there")
    return tokenizer_at(trained, len(trained.trace.steps)), f"{state.lab().source}, all merges"


def _read(kind: str):
    def read(upload) -> None:
        if upload is not None:
            FORM.update(**{f"{kind}_name" if kind == "cases" else "upload_name": upload.name,
                       "cases_file" if kind == "cases" else "upload": upload.getvalue()})
    return read


def tokenizer_section() -> None:
    st.header("1 · The tokenizer")
    choices = _choices()
    st.selectbox("Tokenizer", list(choices), format_func=choices.get, **_field("tokenizer"))
    if _form().tokenizer == UPLOAD:
        left, right = st.columns([2, 1], gap="large")
        left.file_uploader("Your tokenizer or merges file", help=f"Up to {MAX_UPLOAD_MB} MB.",
                           **bind(widget_key("encoder_upload"), _read("tokenizer")))
        right.selectbox("Its pre-tokenizer (if the file does not say)", list(NAMED_PATTERNS), **_field("pretokenizer"))


def _fill_probe_texts() -> None:
    try:
        tokenizer, _ = _tokenizer()
    except BpeError as error:
        RESULT.set(("error", str(error)))
        return
    FORM.set(_form().with_probe_texts(tokenizer, _form().mode))


def cases_section() -> None:
    st.header("2 · Your encoder's ids")
    st.radio("Ids", ["paste", "upload"], horizontal=True, label_visibility="collapsed", **_field("cases"),
             format_func={"paste": "Paste texts and ids", "upload": "Upload a JSON file"}.get)
    form = _form()
    if form.cases == "upload":
        st.file_uploader("Texts with their ids (JSON or JSON Lines)", type=["json", "jsonl", "txt"],
                         help='A list of {"text": ..., "ids": [...]} objects, as your encoder\'s run writes them.',
                         **bind(widget_key("encoder_cases_file"), _read("cases")))
    else:
        left, right = st.columns(2, gap="large")
        left.text_area("Texts, one a line (Ctrl+Enter to apply)", height=180, **_field("texts"),
                       help='A line in double quotes is read as a JSON string, so "one\\n\\ntwo" is one text '
                            "with a blank line in it (the probe texts are written so).")
        right.text_area("Your encoder's ids, one line per text", height=180, placeholder="e.g. [220, 795, 1671]",
                        **_field("ids"))
        left.button("Fill in the probe texts", key=widget_key("encoder_probes"), on_click=_fill_probe_texts,
                    help="Texts that make each classic mistake show. Run your encoder on each and paste its ids.")
    st.radio("Special-token text in the texts is read…", list(MODE_LABELS), format_func=MODE_LABELS.get, horizontal=True,
             **_field("mode"))


def run_check() -> None:
    try:
        tokenizer, title = _tokenizer()
        RESULT.set(("ok", check_encoder(tokenizer, _form().read_cases(), mode=_form().mode), title))
    except BpeError as error:
        RESULT.set(("error", str(error)))


def result_section() -> None:
    outcome = RESULT.get()
    if outcome is None:
        return
    if outcome[0] == "error":
        st.error(f"**Cannot check these ids:** {escape_markdown(outcome[1])}", icon="🛑")
        return
    _, result, title = outcome
    st.header("Where your ids part from the tokenizer's")
    st.caption(escape_markdown(f"Tokenizer: {title}; special-token text read {MODE_LABELS[result.mode]}."))
    st.metric("Texts encoded as the tokenizer does", f"{result.matching:,} / {result.total:,}")
    if result.matching < result.total:  # all right: the verdict says so, once
        st.markdown(escape_markdown(summary(result)))
    level, verdict = verdict_markdown(result)
    (st.success if level == "success" else st.warning)(verdict, icon=VERDICT_ICONS[result.verdict_kind])
    if result.difference is not None:
        show_html(difference_html(result))
    if causes := diagnosis_html(result):
        st.subheader("Why, and the fix")
        show_html(causes)
    st.dataframe(texts_frame(result), hide_index=True, width="stretch")
    if result.tried:
        with st.expander("Every mistaken encoder tried"):
            st.dataframe(tried_frame(result), hide_index=True, width="stretch")


def encoder_page() -> None:
    """The page's body, under its title."""
    show_html(CHECK_CSS + ENCODER_CSS)
    st.caption("Wrote your own BPE encoder? Give the tokenizer and the ids your encoder made for some texts: this page "
               "finds the first id that differs and re-encodes with each classic mistake (left to right instead of by "
               "rank, longest match, no pre-tokenization split, special tokens, characters for bytes, ids off by "
               "one...), then two at once, until one reproduces every id of yours, then says what to change and where.")
    tokenizer_section()
    cases_section()
    if _form().cases == "paste" and _form().texts:
        st.download_button("Download these texts as JSON, to run your encoder on", probe_json(_form()),
                           file_name="texts.json", mime="application/json", key=widget_key("encoder_texts_json"),
                           help="A JSON list of the texts (line breaks kept). Write your ids back as a list of "
                                '{"text": ..., "ids": [...]} and upload it above.')
    if st.button("Check my ids", key=widget_key("encoder_run"), type="primary", icon=":material/fact_check:"):
        with st.spinner("Encoding your texts and re-encoding them under each classic mistake…"):
            run_check()
    result_section()
