"""The Encode & decode page's Decode part: ids back to text, what ``errors="replace"`` does to half
a character, and the error for unknown ids.

Decode follows Encode (its ids are the ids encoded above) until the learner types or picks other
ids; those belong to the tokenizer they were typed for, so when the tokenizer changes Decode
follows Encode again rather than read one tokenizer's ids with another's vocabulary.
"""

from __future__ import annotations

import streamlit as st

from bpe.errors import BpeError
from bpe.limits import MAX_SHOWN_TOKENS
from bpe.notation.markdown import escape_markdown
from bpe.notation.spelling import visible_text
from bpe.views.encoding import byte_pieces, parse_ids
from bpe.views.segmentations import splits_a_character, stream_frame
from bpe.views.token_html import chips_html

from .render import show_html
from .state import SessionValue, widget_key

DECODE_IDS = SessionValue("decode_ids", "")
DECODE_FOR = SessionValue("decode_for", None)
"""``(tokenizer key, label)`` the Decode ids were typed for; ``None``: Decode follows Encode."""
DECODE_ERRORS = SessionValue("decode_errors", "replace")


def _set_decode_ids(text: str, owner: tuple[str, str]) -> None:
    """Ids the learner chose: Decode stops following Encode, for this tokenizer only."""
    DECODE_IDS.set(text)
    DECODE_FOR.set(owner)


def decode_section(tokenizer, encoded: list[int], owner: tuple[str, str]) -> None:
    """``owner``: ``(key, label)`` of the tokenizer in use; the key changes whenever ids change meaning."""
    st.header("Decode")
    typed_for = DECODE_FOR.get()
    if typed_for is not None and typed_for[0] != owner[0]:
        st.info(
            f"The ids you chose were for {escape_markdown(typed_for[1])}; the same id is another token in "
            f"{escape_markdown(owner[1])}, so Decode shows the ids encoded above again.", icon=":material/sync:",
        )
        typed_for = None
        DECODE_FOR.set(None)
    if typed_for is None:
        DECODE_IDS.set(", ".join(map(str, encoded)))
    buttons = st.columns(3)
    buttons[0].button(
        "Use the ids encoded above", key=widget_key("decode_follow"), on_click=DECODE_FOR.set, args=(None,), width="stretch", disabled=typed_for is None,
        help="Decode follows Encode until you type or pick other ids.",
    )
    partial = tokenizer.byte_ids(b"\xe2\x82") if tokenizer.unit == "byte" else None  # two of the three bytes of "€"
    buttons[1].button(
        "Try half a character (e2 82)", key=widget_key("decode_half"), on_click=_set_decode_ids, args=(", ".join(map(str, partial or ())), owner),
        disabled=partial is None, width="stretch",
        help=f"Byte-level only: ids {' and '.join(map(str, partial or ()))} are the bytes e2 82, two thirds of '€'.",
    )
    buttons[2].button(
        "Try an unknown id", key=widget_key("decode_unknown"), on_click=_set_decode_ids, args=(f"{encoded[0] if encoded else 97}, {tokenizer.n_vocab + 7}", owner),
        width="stretch",
    )
    left, right = st.columns([2, 1], gap="large")
    with left:
        st.text_input("Token ids (spaces or commas between them)", **DECODE_IDS.widget(then=lambda: DECODE_FOR.set(owner)))
    with right:
        st.radio(
            "Bytes that are not valid UTF-8", ["replace", "strict"], horizontal=True,
            format_func={"replace": "replace with �", "strict": "strict: raise an error"}.get, **DECODE_ERRORS.widget(),
        )
    try:
        ids = parse_ids(DECODE_IDS.get())
        tokenizer.decode_tokens_bytes(ids)  # raises the teaching error for unknown ids first
    except BpeError as error:
        st.error(f"**Cannot decode:** {escape_markdown(error)}", icon="🛑")
        return
    show_html(chips_html(byte_pieces(tokenizer, ids[:MAX_SHOWN_TOKENS]), end_of_word=tokenizer.end_of_word))
    cut = f"Showing the first {MAX_SHOWN_TOKENS:,} of {len(ids):,} tokens. " if len(ids) > MAX_SHOWN_TOKENS else ""
    st.caption(f"{cut}Each token's own bytes: ‹e2 82› marks bytes that are only part of a character.")
    errors = DECODE_ERRORS.get()
    try:
        text = tokenizer.decode(ids, errors=errors)
    except BpeError as error:
        st.error(f"**Strict decoding failed:** {escape_markdown(error)}", icon="🛑")
        return
    st.markdown("**Decoded text** (whitespace made visible):")
    st.code(visible_text(text.encode("utf-8")) or "(empty)", language=None, wrap_lines=True)
    if "\ufffd" in text:
        st.info(
            "Some bytes were not a whole UTF-8 character, so decoding put **�** (U+FFFD) in "
            "their place. A model emits one token at a time, so a half-finished character is normal "
            "until its next token arrives; switch to *strict* to see the error instead.",
            icon="ℹ️",
        )
    stream_lesson(tokenizer, ids, owner)


STREAM_SAMPLE = "😀 naïve 你好"


def stream_lesson(tokenizer, ids: list[int], owner: tuple[str, str]) -> None:
    """The ids fed one at a time, as a model emits them: decoded alone, and by a buffered decoder."""
    box = st.expander("Decode as a model streams: one id at a time", key="bpe-stream", on_change="rerun")
    with box:
        if not box.open:  # built only when opened
            return
        st.caption("A model emits one id at a time. Decoded alone, an id that holds part of a character shows **�**; "
                   "a buffered decoder holds those bytes back until the character is whole, then shows it.")
        if not splits_a_character(tokenizer, ids):
            try:
                sample = ", ".join(map(str, tokenizer.encode(STREAM_SAMPLE)))
            except BpeError:
                sample = ""
            st.caption("None of these ids holds part of a character, so both ways agree.")
            st.button(f"Stream “{STREAM_SAMPLE}” instead", key=widget_key("decode_stream_sample"), disabled=not sample,
                      on_click=_set_decode_ids, args=(sample, owner))
        st.dataframe(stream_frame(tokenizer, ids), hide_index=True, width="stretch")
