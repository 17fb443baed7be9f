"""Encode & decode: new text through the merges learned up to step k (or a pretrained tokenizer's),
and ids back to text. Tokens and ids are linked both ways on hover (``bpe.views.linked_tokens``).

Encoding replays the merges in the order they were learned (lowest rank first) inside each chunk
of the pre-tokenized text; the walkthrough shows every one. Decoding concatenates the tokens'
bytes, which may end in the middle of a character: that is what replacing with � is for.

Decode follows Encode (its ids are the ids encoded above) until the learner types or picks other
ids; those belong to the tokenizer they were typed for, so when the tokenizer changes Decode
follows Encode again rather than read one tokenizer's ids with another's vocabulary.
"""

import streamlit as st

from bpe.app import pages
from bpe.errors import BpeError
from bpe.limits import MAX_CHUNK_CHARS, MAX_ENCODE_CHARS, MAX_SHOWN_TOKENS
from bpe.views.encoding import byte_ids, byte_pieces, encode_for_page, parse_ids, sample_text, special_tokens_note, walkthrough_html
from bpe.views.linked_tokens import MAX_LINKED, linked_html
from bpe.markdown import escape_markdown, inline_code
from bpe.spelling import visible_text
from bpe.views.token_html import chips_html, pieces_for
from ui import state, tokenizers, url
from ui.code_panel import encode_code
from ui.render import names_for, page_setup, show_html, tokenizer_at
from ui.state import SessionValue
from ui.shared_views import shared_view, text_key
from ui.preamble import run_at_step
from ui.settings_sidebar import settings_sidebar

TEXT = SessionValue("encode_text", None)
TEXT_FOR = SessionValue("encode_text_source", None)
"""The example the text was chosen for (a new example gets its own sample)."""
SPECIAL_MODE = SessionValue("special_mode", "allowed")
ENCODE_WITH = SessionValue("encode_with", tokenizers.OURS)
"""``ours``, a pretrained name or ``imported:<name>`` (see ``ui.tokenizers``)."""
DECODE_IDS = SessionValue("decode_ids", "")
DECODE_FOR = SessionValue("decode_for", None)
"""``(tokenizer key, label)`` the Decode ids were typed for; ``None``: Decode follows Encode."""
DECODE_ERRORS = SessionValue("decode_errors", "replace")
SPECIAL_MODES = {
    "allowed": "allowed: encode them as special tokens",
    "disallowed": "disallowed: refuse text that contains them (tiktoken's default)",
    "plain": "plain text: encode their characters like any other text",
}


def _set_decode_ids(text: str, owner: tuple[str, str]) -> None:
    """Ids the learner chose: Decode stops following Encode, for this tokenizer only."""
    DECODE_IDS.set(text)
    DECODE_FOR.set(owner)


def encode_section(tokenizer, trained, names, *, anchor: tuple) -> list[int]:
    """``anchor``: what the tokenizer comes from, ``(run or tokenizer, step)``, to share the encode on."""
    lab = state.lab()
    settings = trained.trace.settings
    if TEXT_FOR.get() != lab.source or TEXT.get() is None:
        corpus = trained.text if trained.text is not None else " ".join(word for word, _ in trained.table[:8])
        TEXT.set(sample_text(lab.source, corpus, settings.special_tokens))
        TEXT_FOR.set(lab.source)
    if (linked := url.new_param("text")) is not None:  # the guided tour links here with a text
        TEXT.set(linked)
        TEXT_FOR.set(lab.source)
    left, right = st.columns([2, 1], gap="large")
    with left:
        st.text_area("Text to encode (Ctrl+Enter to apply)", height=110, **TEXT.widget())
    with right:
        st.radio(
            "Special tokens in the text are…", list(SPECIAL_MODES), format_func=SPECIAL_MODES.get, **SPECIAL_MODE.widget(),
        )
        st.caption(special_tokens_note(tokenizer))

    text = TEXT.get()
    mode = SPECIAL_MODE.get()
    if len(text) > MAX_ENCODE_CHARS:
        st.error(
            f"**Cannot encode this text:** it has {len(text):,} characters, over the limit of "
            f"{MAX_ENCODE_CHARS:,} for encoding at once; encode a shorter excerpt.",
            icon="🛑",
        )
        return []
    try:  # shared on content: reruns and other sessions reuse it (ui/shared_views.py)
        encoded = shared_view(*anchor, "encode", mode, text_key(text), build=lambda: encode_for_page(tokenizer, text, mode))
    except BpeError as error:
        found = [token for token in tokenizer.special_tokens if token in text] if mode == "disallowed" else []
        # The engine's message teaches the Python call (allowed_special=...); the page names its own choices.
        why = (
            f"it contains the special token {inline_code(found[0])}, and special tokens are set to *disallowed* "
            "(tiktoken's safe default). Choose *allowed* to encode it as one special token, or *plain text* "
            "to encode its characters like any other text."
            if found else escape_markdown(error)
        )
        st.error(f"**Cannot encode this text:** {why}", icon="🛑")
        return []
    ids, walks = list(encoded.ids), encoded.walks
    if encoded.encoded_chars < len(text):
        st.warning(
            f"This text has a chunk of over {MAX_CHUNK_CHARS:,} characters (the `none` split, or a long run with no "
            f"space): the page encodes its first {encoded.encoded_chars:,} of {len(text):,} characters, since one "
            "long chunk takes seconds of the server every student shares. Choose a split that cuts it into words.",
            icon="✂️",
        )
        text = text[: encoded.encoded_chars]

    specials = list(tokenizer.special_tokens.values())
    shown = ids[:MAX_SHOWN_TOKENS]  # drawing 50,000 chips would cost the server and the browser more than it shows
    pieces = pieces_for(shown, tokenizer.tokens, special_ids=specials, names=names)
    st.header(f"{len(ids):,} tokens")
    metrics = st.columns(3)
    n_bytes = len(text.encode("utf-8"))
    metrics[0].metric("Characters", f"{len(text):,}")
    metrics[1].metric("Bytes", f"{n_bytes:,}")
    metrics[2].metric("Bytes per token", f"{n_bytes / len(ids):.2f}" if ids else "–")
    show_html(linked_html(pieces, end_of_word=tokenizer.end_of_word))
    cut = f"Showing the first {len(shown):,} of {len(ids):,} tokens. " if len(shown) < len(ids) else ""
    st.caption(
        f"{cut}Hover a token to mark its id, or an id to mark its token. A character split over several tokens is "
        f"one chip with each of its ids; dashed grey tokens are special. The first {MAX_LINKED:,} tokens are linked; "
        "the ids, to copy:"
    )
    st.code(", ".join(map(str, shown)) or "(no tokens)", language=None, wrap_lines=True)

    st.header("How each chunk was merged")
    st.caption(
        "The pre-tokenizer cuts the text into chunks; inside each chunk the tokenizer applies the learned "
        "merges in the order they were learned (merge 1 first), everywhere it can, until none applies."
    )
    if encoded.walked_chars < len(text):
        st.caption(
            f"The walkthrough follows the first {encoded.walked_chars:,} of {len(text):,} characters (as if the "
            f"text ended there): it redraws a chunk for every merge, so a whole long text would be too much."
        )
    show_html(shared_view(
        *anchor, "walkthrough", mode, tuple(sorted(names.items())), text_key(text),
        build=lambda: walkthrough_html(tokenizer, walks, names=names),
    ))
    with st.expander("The code: the lines of bpe/reference.py that apply one merge to one chunk"):
        encode_code(walks, tokenizer)
    return ids


def choose_tokenizer(ours, step: int):
    """Ours at step k (the default), GPT-2, or an import: watch a real tokenizer apply its merges."""
    options = tokenizers.choices()
    if ENCODE_WITH.get() not in options:  # an import was removed
        ENCODE_WITH.set(tokenizers.OURS)
    st.selectbox(
        "Tokenizer", options, format_func=lambda choice: tokenizers.label(choice, step), **ENCODE_WITH.widget(),
        help="Import more on the Import & export page. The step slider only moves ours.",
    )
    return tokenizers.resolve(ENCODE_WITH.get(), ours) or ours


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
        "Use the ids encoded above", on_click=DECODE_FOR.set, args=(None,), width="stretch", disabled=typed_for is None,
        help="Decode follows Encode until you type or pick other ids.",
    )
    partial = byte_ids(tokenizer, b"\xe2\x82") if tokenizer.unit == "byte" else None  # two of the three bytes of "€"
    buttons[1].button(
        "Try half a character (e2 82)", on_click=_set_decode_ids, args=(", ".join(map(str, partial or ())), owner),
        disabled=partial is None, width="stretch",
        help=f"Byte-level only: ids {' and '.join(map(str, partial or ()))} are the bytes e2 82, two thirds of '€'.",
    )
    buttons[2].button(
        "Try an unknown id", on_click=_set_decode_ids, args=(f"{encoded[0] if encoded else 97}, {tokenizer.n_vocab + 7}", owner),
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


def main() -> None:
    page_setup(pages.ENCODE)
    settings_sidebar()
    st.title(":material/swap_horiz: Encode & decode")
    run = run_at_step(slider_key="encode")
    if run is None:
        return
    trained, step = run
    ours = tokenizer_at(trained, step)
    tokenizer = choose_tokenizer(ours, step)
    anchor = (trained, step) if tokenizer is ours else (tokenizer, None)
    encoded = encode_section(tokenizer, trained, names_for(trained) if tokenizer is ours else {}, anchor=anchor)
    choice = ENCODE_WITH.get()
    # Ids change meaning with the tokenizer, the example, its settings and (for your own text) the text.
    owner_key = repr((choice, state.lab().source, trained.trace.settings, hash(trained.text), hash(trained.table)))
    decode_section(tokenizer, encoded, (owner_key, tokenizers.label(choice, step)))
    url.write_url()


main()
