"""Byte inspector: what a byte-level tokenizer sees, character by character.

Any text as UTF-8 bytes in hex and as GPT-2's printable stand-ins for them (why a space shows as
"Ġ"), and any token's bytes, typed or taken from GPT-2, GPT-4 or GPT-4o by id: whole characters,
or part of one, which decodes alone as "�".
"""

import re

import pandas as pd
import streamlit as st

from bpe.app import pages
from bpe.errors import BpeError
from bpe.limits import MAX_BYTE_INSPECTOR_CHARS
from bpe.notation.markdown import escape_markdown, inline_code
from bpe.notation.spelling import name as mark_name
from bpe.notation.spelling import spell
from bpe.pretrained.registry import PRETRAINED
from bpe.teaching.byte_inspector import byte_role, inspect_text, inspect_token
from bpe.views.labs import bytes_html, token_bytes_html
from bpe.views.pointer import hover_or_tap
from ui import links, tokenizers, url
from ui.clicker import Walk, walk_buttons
from ui.render import page_setup, page_title, show_html
from ui.state import SessionValue, widget_key

TOKEN_EXAMPLES = (
    ("'·the' (whole)", "20 74 68 65"),
    ("€ without its last byte", "e2 82"),
    ("€ without its first byte", "82 ac"),
    ("é (two bytes)", "c3 a9"),
    ("a byte UTF-8 never uses", "ff"),
)
TEXT = SessionValue("byte_text", "aaabdaaabac é € 🙂")
TOKEN = SessionValue("byte_token", TOKEN_EXAMPLES[0][1])
"""The token inspected, as hex (``e2 82``; ``bytes=`` in the link): the page opens at its first example."""
TOKEN_FROM = SessionValue("byte_from", "o200k_base")
TOKEN_ID = SessionValue("byte_id", 4103)  # GPT-4o's f0 9f: the first half of most emoji
"""The pretrained tokenizer and token id a real token's bytes are taken from."""


def parse_hex(text: str) -> bytes:
    """``"e2 82"``, ``"e282"``, ``"0xe2, 0x82"`` or ``"\\xe2\\x82"`` -> bytes; ``ValueError`` that teaches."""
    cleaned = re.sub(r"0x|\\x|[\s,]", "", text.strip(), flags=re.IGNORECASE)
    if not cleaned:
        raise ValueError("type the token's bytes in hex, for example e2 82")
    if not re.fullmatch(r"[0-9a-fA-F]+", cleaned):
        bad = next(char for char in cleaned if char not in "0123456789abcdefABCDEF")
        raise ValueError(f"{bad!r} is not a hex digit: use 0-9 and a-f, two per byte (e2 82)")
    if len(cleaned) % 2:
        raise ValueError(f"{len(cleaned)} hex digits is not a whole number of bytes: each byte takes two (e2 82)")
    return bytes.fromhex(cleaned)


def text_section() -> None:
    st.text_input("Text", max_chars=MAX_BYTE_INSPECTOR_CHARS, **TEXT.widget())
    text = TEXT.get()
    if not text:
        st.info("Type some text above: try an accented letter, a euro sign or an emoji.", icon="✏️")
        return
    rows = inspect_text(text)
    size = sum(len(row.utf8) for row in rows)
    metrics = st.columns(3)
    metrics[0].metric("Characters", f"{len(rows):,}")
    metrics[1].metric("UTF-8 bytes", f"{size:,}", help="The 256 byte values are a byte-level tokenizer's starting vocabulary.")
    remapped = sum(row.remapped_bytes for row in rows)
    metrics[2].metric(
        "Bytes GPT-2 shows differently", f"{remapped:,}",
        help=f"The orange stand-ins: bytes that are not printable, in {sum(row.remapped for row in rows):,} of the characters.",
    )
    show_html(bytes_html(rows))
    st.caption(
        "Each box is one character: its code point, its UTF-8 bytes in hex (blue) and GPT-2's stand-in "
        "character for each byte (amber; orange when GPT-2 shows the byte as another character). "
        + hover_or_tap("Hover a box for the character's Unicode name.", "The table below names each character."),
        unsafe_allow_html=True,
    )
    frame = pd.DataFrame(
        [(spell(row.char), row.codepoint, row.name or mark_name(row.char) or "(no name)", row.hex, row.gpt2) for row in rows],
        columns=["character", "code point", "Unicode name", "UTF-8 bytes", "GPT-2 shows"],
    )
    with st.expander("As a table"):
        st.dataframe(frame, hide_index=True, width="stretch")


def why_g_with_dot() -> None:
    st.header("Why a space shows as Ġ")
    space, newline = byte_role(0x20), byte_role(0x0A)
    st.markdown(
        "GPT-2 stores its vocabulary and merges as *text*, so every byte needs a printable character. The "
        "188 bytes that are already printable (letters, digits, punctuation, most of Latin-1) stand for "
        "themselves; the other 68 (space, newline, control bytes…) are moved up to U+0100 and beyond, in "
        f"order. For example, {escape_markdown(space.why_gpt2)}; and {escape_markdown(newline.why_gpt2)}. "
        f"That is why GPT-2's vocabulary has {inline_code('Ġthe')} for a space then \"the\" ({inline_code('·the')} on the other pages)."
    )


def pretrained_token() -> None:
    """Take a real token's bytes from a pretrained tokenizer by id (GPT-4o's 4103 is half an emoji)."""
    columns = st.columns([1.2, 1, 2], vertical_alignment="bottom")
    columns[0].selectbox(
        "…or a real token of", list(PRETRAINED), format_func=tokenizers.pretrained_label, **TOKEN_FROM.widget(),
    )
    columns[1].number_input("Token id", min_value=0, max_value=10**6, step=1, **TOKEN_ID.widget())
    tokenizer = tokenizers.pretrained(TOKEN_FROM.get())
    if tokenizer is None:
        return
    try:
        data = tokenizer.decode_single_token_bytes(int(TOKEN_ID.get()))
    except BpeError as error:
        columns[2].error(escape_markdown(error), icon="🛑")
        return
    columns[2].button(
        f"Inspect its bytes: {data.hex(' ')}", key=widget_key("byte_take"), on_click=TOKEN.set, args=(data.hex(" "),),
        width="stretch",
    )


def token_section() -> None:
    st.header("One token's bytes, decoded on its own")
    st.caption(
        "Byte-level BPE may merge part of a character into a token. Decoding that token alone (as a "
        "streaming API does) cannot make a character of it, so the decoder puts the replacement character � in its place."
    )
    labels = {value: label for label, value in TOKEN_EXAMPLES}
    walk_buttons(Walk("example", tuple(labels), TOKEN.get, TOKEN.set, title=labels.get))
    columns = st.columns(len(TOKEN_EXAMPLES))
    for column, (label, value) in zip(columns, TOKEN_EXAMPLES):
        column.button(label, key=widget_key("byte_example", value), on_click=TOKEN.set, args=(value,), width="stretch")
    pretrained_token()
    st.text_input("The token's bytes, in hex", max_chars=links.MAX_HEX_CHARS, **TOKEN.widget())
    try:
        data = parse_hex(TOKEN.get())
    except ValueError as error:
        st.error(f"**Cannot read these bytes:** {escape_markdown(error)}.", icon="🛑")
        return
    token = inspect_token(data)
    metrics = st.columns(3)
    metrics[0].metric("Bytes", token.hex)
    metrics[1].metric("GPT-2 shows", token.gpt2)
    metrics[2].metric("Decoded alone", spell(token.shown) or "(nothing)")
    (st.success if token.whole else st.warning)(escape_markdown(token.explanation), icon="✅" if token.whole else "⚠️")
    show_html(token_bytes_html(token))


def main() -> None:
    page_setup(pages.BYTE_INSPECTOR)
    page_title(pages.BYTE_INSPECTOR)
    st.caption(
        "A byte-level tokenizer never sees letters: it sees UTF-8 bytes, 256 possible values. 'a' is one "
        "byte, 'é' two, '€' three and most emoji four."
    )
    url.read(links.BYTES_TEXT, TEXT)
    url.read(links.BYTES, TOKEN)
    text_section()
    why_g_with_dot()
    token_section()
    text = TEXT.get()
    url.write_url({links.BYTES_TEXT: text, links.BYTES: TOKEN.get()}, lab=False)


main()
