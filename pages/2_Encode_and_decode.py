"""Encode & decode: new text through the merges learned up to step k (or GPT-2's, GPT-4's, GPT-4o's),
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
from bpe.views.encoding import byte_ids, byte_pieces, encode_for_page, parse_ids, sample_text, walkthrough_html
from bpe.views.linked_tokens import MAX_LINKED, linked_html
from bpe.markdown import escape_markdown, inline_code
from bpe.spelling import visible_text
from bpe.views.token_html import chips_html, pieces_for
from ui import state, tokenizers, url
from ui.render import names_for, page_setup, show_html, tokenizer_at
from ui.view_cache import cached_view
from ui.preamble import run_at_step
from ui.settings_sidebar import settings_sidebar

SPECIAL_MODES = {
    "allowed": "allowed: encode them as special tokens",
    "disallowed": "disallowed: refuse text that contains them (tiktoken's default)",
    "plain": "plain text: encode their characters like any other text",
}


def _set_decode_ids(text: str, owner: tuple[str, str]) -> None:
    """Ids the learner chose: Decode stops following Encode, for this tokenizer only."""
    st.session_state[state.DECODE_IDS] = text
    st.session_state[state.DECODE_FOR] = owner


def _type_decode_ids(owner: tuple[str, str]) -> None:
    _set_decode_ids(st.session_state["w.decode_ids"], owner)


def _follow_encode() -> None:
    st.session_state[state.DECODE_FOR] = None


def encode_section(tokenizer, trained, names, *, anchor: tuple) -> list[int]:
    """``anchor``: what the tokenizer comes from, ``(object, detail)``, to cache the encode on."""
    lab = state.lab()
    settings = trained.trace.settings
    if st.session_state[state.ENCODE_SOURCE] != lab.source or st.session_state[state.ENCODE_TEXT] is None:
        corpus = trained.text if trained.text is not None else " ".join(word for word, _ in trained.table[:8])
        st.session_state[state.ENCODE_TEXT] = sample_text(lab.source, corpus, settings.special_tokens)
        st.session_state[state.ENCODE_SOURCE] = lab.source
    if (linked := url.new_param("text")) is not None:  # the guided tour links here with a text
        st.session_state[state.ENCODE_TEXT] = linked
        st.session_state[state.ENCODE_SOURCE] = lab.source
    left, right = st.columns([2, 1], gap="large")
    with left:
        state.seed("w.encode_text", st.session_state[state.ENCODE_TEXT])
        st.text_area(
            "Text to encode (Ctrl+Enter to apply)", key="w.encode_text", height=110,
            on_change=state.write_through("w.encode_text", state.ENCODE_TEXT),
        )
    with right:
        state.seed("w.special_mode", st.session_state[state.SPECIAL_MODE])
        st.radio(
            "Special tokens in the text are…", list(SPECIAL_MODES), key="w.special_mode",
            format_func=SPECIAL_MODES.get, on_change=state.write_through("w.special_mode", state.SPECIAL_MODE),
        )
        if tokenizer.special_tokens:
            st.caption("This tokenizer's special tokens: " + ", ".join(map(inline_code, tokenizer.special_tokens)))
        else:
            st.caption("This run has no special tokens: add one in the sidebar (e.g. `<|endoftext|>`) to try this.")

    text = st.session_state[state.ENCODE_TEXT]
    mode = st.session_state[state.SPECIAL_MODE]
    if len(text) > MAX_ENCODE_CHARS:
        st.error(
            f"**Cannot encode this text:** it has {len(text):,} characters, over the limit of "
            f"{MAX_ENCODE_CHARS:,} for encoding at once; encode a shorter excerpt.",
            icon="🛑",
        )
        return []
    try:  # cached on content: reruns and other sessions reuse it (ui/view_cache.py)
        encoded = cached_view(anchor[0], ("encode", anchor[1], mode), text, lambda: encode_for_page(tokenizer, text, mode))
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
    walk_key = ("walkthrough", anchor[1], mode, tuple(sorted(names.items())))
    show_html(cached_view(anchor[0], walk_key, text, lambda: walkthrough_html(tokenizer, walks, names=names)))
    return ids


def choose_tokenizer(ours, step: int):
    """Ours at step k (the default), GPT-2, or an import: watch a real tokenizer apply its merges."""
    options = tokenizers.choices()
    if st.session_state[state.ENCODE_WITH] not in options:  # an import was removed
        st.session_state[state.ENCODE_WITH] = tokenizers.OURS
    state.seed("w.encode_with", st.session_state[state.ENCODE_WITH])
    st.selectbox(
        "Tokenizer", options, key="w.encode_with", format_func=lambda choice: tokenizers.label(choice, step),
        on_change=state.write_through("w.encode_with", state.ENCODE_WITH),
        help="Import more on the Import & export page. The step slider only moves ours.",
    )
    return tokenizers.resolve(st.session_state[state.ENCODE_WITH], ours) or ours


def decode_section(tokenizer, encoded: list[int], owner: tuple[str, str]) -> None:
    """``owner``: ``(key, label)`` of the tokenizer in use; the key changes whenever ids change meaning."""
    st.header("Decode")
    typed_for = st.session_state[state.DECODE_FOR]
    if typed_for is not None and typed_for[0] != owner[0]:
        st.info(
            f"The ids you chose were for {escape_markdown(typed_for[1])}; the same id is another token in "
            f"{escape_markdown(owner[1])}, so Decode shows the ids encoded above again.", icon=":material/sync:",
        )
        typed_for = st.session_state[state.DECODE_FOR] = None
    if typed_for is None:
        st.session_state[state.DECODE_IDS] = ", ".join(map(str, encoded))
    buttons = st.columns(3)
    buttons[0].button(
        "Use the ids encoded above", on_click=_follow_encode, width="stretch", disabled=typed_for is None,
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
        state.seed("w.decode_ids", st.session_state[state.DECODE_IDS])
        st.text_input(
            "Token ids (spaces or commas between them)", key="w.decode_ids", on_change=_type_decode_ids, args=(owner,),
        )
    with right:
        state.seed("w.decode_errors", st.session_state[state.DECODE_ERRORS])
        st.radio(
            "Bytes that are not valid UTF-8", ["replace", "strict"], key="w.decode_errors", horizontal=True,
            format_func={"replace": "replace with �", "strict": "strict: raise an error"}.get,
            on_change=state.write_through("w.decode_errors", state.DECODE_ERRORS),
        )
    try:
        ids = parse_ids(st.session_state[state.DECODE_IDS])
        tokenizer.decode_tokens_bytes(ids)  # raises the teaching error for unknown ids first
    except BpeError as error:
        st.error(f"**Cannot decode:** {escape_markdown(error)}", icon="🛑")
        return
    show_html(chips_html(byte_pieces(tokenizer, ids[:MAX_SHOWN_TOKENS]), end_of_word=tokenizer.end_of_word))
    cut = f"Showing the first {MAX_SHOWN_TOKENS:,} of {len(ids):,} tokens. " if len(ids) > MAX_SHOWN_TOKENS else ""
    st.caption(f"{cut}Each token's own bytes: ‹e2 82› marks bytes that are only part of a character.")
    errors = st.session_state[state.DECODE_ERRORS]
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
    anchor = (trained.trace, step) if tokenizer is ours else (tokenizer, None)
    encoded = encode_section(tokenizer, trained, names_for(trained) if tokenizer is ours else {}, anchor=anchor)
    choice = st.session_state[state.ENCODE_WITH]
    # Ids change meaning with the tokenizer, the example, its settings and (for your own text) the text.
    owner_key = repr((choice, state.lab().source, trained.trace.settings, hash(trained.text), hash(trained.table)))
    decode_section(tokenizer, encoded, (owner_key, tokenizers.label(choice, step)))
    url.write_url()


main()
