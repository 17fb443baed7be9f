"""Encode & decode: new text through the merges learned up to step k (or a pretrained tokenizer's),
and ids back to text. Tokens and ids are linked both ways on hover (``bpe.views.linked_tokens``).

Encoding replays the merges in the order they were learned (lowest rank first) inside each chunk
of the pre-tokenized text; the merge walk steps through them one at a time (PageDown / PageUp, as a
clicker sends), and the walkthrough lists every one per chunk. Decoding (``ui.decoding``)
concatenates the tokens' bytes, which may end in the middle of a character: that is what
replacing with � is for. In presenter mode the tokens come first and the inputs after them.
"""

import streamlit as st

from bpe.app import pages
from bpe.errors import BpeError
from bpe.limits import MAX_CHUNK_CHARS, MAX_ENCODE_CHARS, MAX_SHOWN_TOKENS
from bpe.notation.markdown import escape_markdown, inline_code
from bpe.teaching.segment_lesson import MAX_WORDS
from bpe.views.encoding import (
    ENCODE_MODE_LABELS, encode_for_page, merge_walk, sample_text, special_tokens_note, walk_line, walkthrough_html,
)
from bpe.views.linked_tokens import MAX_LINKED, linked_html
from bpe.views.pointer import hover_or_tap
from bpe.views.stats import Stat, stats_html
from bpe.views.token_html import chips_html, pieces_for
from ui import decoding, dropout, encode_lessons, links, state, tokenizers, url
from ui.clicker import Walk, walk_buttons
from ui.code_panel import encode_code
from ui.render import names_for, page_setup, page_title, presenter, show_html, tokenizer_at
from ui.state import SessionValue, widget_key
from ui.shared_views import shared_view, text_key
from ui.preamble import current_run, open_trained, run_summary
from ui.stepper import step_slider
from ui.training import Trained
from ui.settings_sidebar import settings_sidebar

TEXT = SessionValue("encode_text", None)
TEXT_FOR = SessionValue("encode_text_source", None)
"""The example the text was chosen for (a new example gets its own sample)."""
SPECIAL_MODE = SessionValue("special_mode", "allowed")
ENCODE_WITH = SessionValue("encode_with", tokenizers.OURS)
"""``ours``, a pretrained name or ``imported:<name>`` (see ``ui.tokenizers``)."""
WALK = SessionValue("encode_walk", None)
"""``(what was encoded, step)`` of the merge walk, or ``None``: every merge applied."""


def _walk_to(owner: str, position: int | None) -> None:
    WALK.set(None if position is None else (owner, position))


def _walk_at(owner: str) -> int | None:
    """The step of the walk shown for ``owner`` (what is encoded), ``None``: the tokens after every merge."""
    saved = WALK.get()
    return saved[1] if saved and saved[0] == owner else None


def text_to_encode(trained) -> str:
    """The text: the tour's (from its link), else the learner's, else a sample picked for this example."""
    lab = state.lab()
    if TEXT_FOR.get() != lab.source or TEXT.get() is None:
        corpus = trained.text if trained.text is not None else " ".join(word for word, _ in trained.table[:8])
        TEXT.set(sample_text(lab.source, corpus, trained.trace.settings.special_tokens))
        TEXT_FOR.set(lab.source)
    url.read(links.ENCODE_TEXT, TEXT)  # the guided tour links here with a text
    return TEXT.get()


def controls(trained, step: int, tokenizer) -> None:
    """The inputs, in two rows: the tokenizer and the step; the text and how special tokens are read.
    Each writes the session's state, which the lesson reads (so they may be drawn after it)."""
    top = st.columns([1, 1], gap="large", vertical_alignment="bottom")
    with top[0]:
        st.selectbox(
            "Tokenizer", tokenizers.choices(), format_func=lambda choice: tokenizers.label(choice, step),
            help="Import more on the Import & export page. The step slider only moves ours. The pretrained ones:\n"
            + tokenizers.pretrained_help(), **ENCODE_WITH.widget(),
        )
        with st.popover("A model's tokenizer", icon=":material/search:"):
            tokenizers.model_name_input(ENCODE_WITH.set)
    with top[1]:
        step_slider(len(trained.trace.steps), key="encode")
    left, right = st.columns([2, 1], gap="large")
    with left:
        st.text_area("Text to encode (Ctrl+Enter to apply)", height=90, **TEXT.widget())
    with right:
        st.radio(
            "Special tokens in the text are…", list(ENCODE_MODE_LABELS), format_func=ENCODE_MODE_LABELS.get,
            **SPECIAL_MODE.widget(),
        )
        st.caption(special_tokens_note(tokenizer))


def lesson(tokenizer, text: str, names, *, anchor: tuple, owner: str) -> list[int]:
    """The text's tokens and their ids (merge by merge with PageDown / PageUp), then each chunk's
    walkthrough. ``anchor``: what the tokenizer comes from, ``(object, detail)``, to cache the encode on."""
    mode = SPECIAL_MODE.get()
    if not text:
        st.info("Nothing to encode yet: type or paste a text in the box above.", icon="✍️")
        return []
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
    steps = shared_view(*anchor, "merge walk", mode, text_key(text), build=lambda: merge_walk(walks))
    at = _walk_at(owner)
    at = at if at is not None and at < len(steps) else None
    # The numbers are those of what is drawn: a step of the walk counts its own tokens.
    counted, shown_text = (ids, text) if at is None else (steps[at].ids, text[: encoded.walked_chars])
    n_bytes = len(shown_text.encode("utf-8"))
    show_html(stats_html([
        Stat("Tokens", f"{len(counted):,}", change=None if at is None else f"{len(ids):,} after every merge"),
        Stat("Characters", f"{len(shown_text):,}"), Stat("Bytes", f"{n_bytes:,}"),
        Stat("Bytes per token", f"{n_bytes / len(counted):.2f}" if counted else "–"),
    ]))
    merge_walk_buttons(owner, at, len(steps))
    if at is not None:  # a step of the walk: the walked text with that merge's new tokens outlined
        step = steps[at]
        chips = chips_html(pieces_for(step.ids, tokenizer.tokens, special_ids=specials, new_id=step.new_id, names=names),
                           end_of_word=tokenizer.end_of_word)
        show_html(f'<div class="bpe-walk-step">{walk_line(tokenizer, step, at, len(steps), names=names)}{chips}</div>')
        st.code(", ".join(map(str, step.ids)), language=None, wrap_lines=True)
        if encoded.walked_chars < len(text):
            st.caption(f"The walk follows the first {encoded.walked_chars:,} of {len(text):,} characters.")
        return ids
    shown = ids[:MAX_SHOWN_TOKENS]  # drawing 50,000 chips would cost the server and the browser more than it shows
    pieces = pieces_for(shown, tokenizer.tokens, special_ids=specials, names=names)
    show_html(linked_html(pieces, end_of_word=tokenizer.end_of_word))
    cut = f"Showing the first {len(shown):,} of {len(ids):,} tokens. " if len(shown) < len(ids) else ""
    passed = sum(piece.passed for piece in pieces)
    st.caption(
        f"{cut}{hover_or_tap('Hover', 'Tap')} a token to mark its id, or an id to mark its token. A character split over "
        f"several tokens is one chip with each of its ids; dashed grey tokens are special"
        + (f"; the {passed:,} dotted ones passed through: characters the codes never mention, left as they are, as "
           "subword-nmt's apply_bpe leaves them (each an id past the vocabulary)" if passed else "")
        + f". The first {MAX_LINKED:,} tokens are linked; the ids, to copy:", unsafe_allow_html=True,
    )
    if not presenter():  # a class sees the ids beside their tokens; a box to copy them from would say them twice
        st.code(", ".join(map(str, shown)) or "(no tokens)", language=None, wrap_lines=True)
    encode_lessons.token_starts(tokenizer, shown, anchor, (mode, text_key(text)))
    encode_lessons.segmentations(tokenizer, text, mode, anchor, words=training_words(anchor[0]), use=TEXT.set)
    st.header("How each chunk was merged")
    left_to_right = encode_lessons.walk_rule()
    if encoded.walked_chars < len(text):
        st.caption(
            f"The walkthrough follows the first {encoded.walked_chars:,} of {len(text):,} characters (as if the "
            f"text ended there): it redraws a chunk for every merge, so a whole long text would be too much."
        )
    show_html(shared_view(
        *anchor, "walkthrough", mode, left_to_right, tuple(sorted(names.items())), text_key(text),
        build=lambda: walkthrough_html(tokenizer, walks, names=names, left_to_right=left_to_right),
    ))
    with st.expander("The code: the lines of bpe/reference.py that apply one merge to one chunk"):
        encode_code(walks, tokenizer)
    return ids


def training_words(source) -> list[str]:
    """The words our run was trained on (a text's or a word table's), where the three cuts' lesson
    splices a text; ``[]`` for another tokenizer (it splices the text's own words)."""
    if not isinstance(source, Trained):
        return []
    return source.text[:4_000].split() if source.text is not None else [word for word, _ in source.table[:MAX_WORDS]]


def merge_walk_buttons(owner: str, at: int | None, count: int) -> None:
    """Step through the encoding one merge at a time: PageUp / PageDown, as a clicker sends. The
    lesson is the tokens, then the walk from the bytes to the last merge (``count`` steps)."""
    walk = Walk("merge", (None, *range(count)), lambda: _walk_at(owner), lambda position: _walk_to(owner, position), title=None)
    row = walk_buttons(
        walk, previous_label="Previous merge", next_label="Next merge" if at is not None else "Walk merge by merge",
        at_start="These are the tokens: PageDown walks from the bytes, one merge a press.",
    )
    row.button(
        "All merges", key=widget_key("walk", "end"), icon=":material/last_page:", on_click=_walk_to, args=(owner, None), disabled=at is None,
    )


def main() -> None:
    page_setup(pages.ENCODE)
    open_trained()  # opened bare: the example trained, not its step 0
    settings_sidebar()
    page_title(pages.ENCODE)
    trained = current_run()
    if trained is None:
        return
    presenting = presenter()
    step = state.lab().step
    text = text_to_encode(trained)
    if ENCODE_WITH.get() not in tokenizers.choices():  # an import was removed
        ENCODE_WITH.set(tokenizers.OURS)
    choice = ENCODE_WITH.get()
    ours = tokenizer_at(trained, step)
    tokenizer = tokenizers.resolve(choice, ours) or ours
    if not presenting:  # a projector's first screen is the tokens: their inputs follow them
        run_summary(trained.trace)
        controls(trained, step, tokenizer)
    anchor = (trained, step) if tokenizer is ours else (tokenizer, None)
    # Ids change meaning with the tokenizer, the example, its settings and (for your own text) the text.
    owner_key = repr((choice, state.lab().source, trained.trace.settings, hash(trained.text), hash(trained.table)))
    walk_owner = repr((owner_key, step, text_key(text), SPECIAL_MODE.get()))
    url.read(links.WALK, lambda step: _walk_to(walk_owner, step))  # a step of the walk, kept in the link
    encoded = lesson(tokenizer, text, names_for(trained) if tokenizer is ours else {}, anchor=anchor, owner=walk_owner)
    if presenting:
        with st.container(key="bpe-below"):
            controls(trained, step, tokenizer)
    with st.expander("BPE-dropout: one word, many segmentations", expanded=dropout.opened()):
        dropout.dropout_section(tokenizer, text, anchor, mode=SPECIAL_MODE.get())
    decoding.decode_section(tokenizer, encoded, (owner_key, tokenizers.label(choice, step)))
    walking = _walk_at(walk_owner)  # the text is the learner's: a link never carries it (the tour's is read, not written)
    url.write_url({links.WALK: walking, **dropout.link_params()})


main()
