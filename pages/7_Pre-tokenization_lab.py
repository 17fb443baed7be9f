"""Pre-tokenization lab: one text cut by every split pattern, side by side.

Merges never cross a chunk, so the pre-tokenizer decides which tokens can exist at all: GPT-4 cuts
digits in threes, Qwen gives each digit a piece and first normalizes to NFC, SentencePiece writes
spaces as ▁, GPT-2's contractions are case-sensitive, and without any split a trainer happily learns
tokens like "newest newest " that span words.
"""

import streamlit as st

from bpe.app import pages
from bpe.limits import MAX_PRETOKENIZATION_LAB_CHARS
from bpe.notation.markdown import escape_markdown, inline_code
from bpe.teaching.pretokenization_lab import EXAMPLES, compare_splits, without_pretokenization
from bpe.views.labs import learned_html, splits_html
from ui import links, url
from ui.clicker import Walk, walk_buttons
from ui.render import page_setup, page_title, show_html
from ui.state import SessionValue, widget_key

TEXT = SessionValue("pretok_text", EXAMPLES[0].text)
REGEX = SessionValue("pretok_regex", r"\w+|[^\w\s]+")
LESSON = SessionValue("pretok_lesson", EXAMPLES[0].title)
"""The title of the example last loaded with its button (its lesson is shown), or ``None``. The
lab opens on the first example: the clicker's lesson at its first place."""
NEWEST_TEXT = SessionValue("newest_text", "newest newest newest widest")
TEXTS = {example.title: example.text for example in EXAMPLES}
TRANSITION = SessionValue("pretok_transition", 4)
"""SuperBPE's column: how many merges GPT-2's split holds before it is lifted (``transition`` in the link)."""


@st.cache_data(max_entries=64, show_spinner=False)
def learned(text: str, transition: int):
    return without_pretokenization(text, merges=links.LEARN_MERGES, transition=transition)


def _load(title: str | None, text: str) -> None:
    TEXT.set(text)
    LESSON.set(title)


def _load_example(title: str) -> None:
    _load(title, TEXTS[title])


def _example_shown() -> str | None:
    """The title of the example shown (its text unedited), or ``None``."""
    title = LESSON.get()
    return title if title in TEXTS and TEXTS[title] == TEXT.get() else None


def _load_text(text: str) -> None:
    """A text, with its lesson if it is an example's (a link opens an example so)."""
    _load(next((title for title, example in TEXTS.items() if example == text), None), text)


def main() -> None:
    page_setup(pages.PRETOKENIZATION_LAB)
    page_title(pages.PRETOKENIZATION_LAB)
    st.caption(
        "Before counting pairs, a tokenizer cuts the text into chunks with a regex, and merges never cross a "
        "chunk. Compare the patterns on one text: solid boxes are words (trained on), dashed boxes gaps "
        "(kept when encoding, never trained on). · is a space, ↵ a newline."
    )
    url.read(links.PRETOK_TEXT, _load_text)
    url.read(links.TRANSITION, TRANSITION)
    walk_buttons(Walk("example", tuple(TEXTS), _example_shown, _load_example))
    st.markdown("**Telling examples** (one click each):")
    columns = st.columns(3)
    for index, example in enumerate(EXAMPLES):
        columns[index % 3].button(
            example.title, key=widget_key("pretok_example", index), on_click=_load, args=(example.title, example.text),
            width="stretch",
        )
    text_column, regex_column = st.columns([2, 1])
    with text_column:
        st.text_area("Text (Ctrl+Enter to apply)", height=90, max_chars=MAX_PRETOKENIZATION_LAB_CHARS, **TEXT.widget())
    with regex_column:
        st.text_input(
            "Your own split regex", help="Its matches are the words; the text between matches becomes gaps.", **REGEX.widget(),
        )
    text = TEXT.get()
    regex = REGEX.get()

    lesson = next((example.lesson for example in EXAMPLES if example.title == _example_shown()), None)
    if lesson:
        st.info(escape_markdown(lesson), icon="💡")
    splits = compare_splits(text, custom=regex or None)
    for split in splits:
        if split.error is not None:
            st.error(f"**Your regex cannot split the text:** {escape_markdown(split.error)}", icon="🛑")
    show_html(splits_html(splits))
    with st.expander("What each pattern does"):
        for split in splits:
            label = split.title
            st.markdown(f"**{label}**: {escape_markdown(split.help)}")

    st.header("What training learns without pre-tokenization")
    text_box, transition_box = st.columns([2, 1])
    text_box.text_input("Training text", max_chars=MAX_PRETOKENIZATION_LAB_CHARS, **NEWEST_TEXT.widget())
    transition_box.slider(
        "SuperBPE: lift GPT-2's split after merge", 0, links.LEARN_MERGES, **TRANSITION.widget(),
        help="SuperBPE (Liu et al., 2025) learns subwords under GPT-2's split first, then goes on with a split that "
        "keeps phrases whole, so merges cross spaces on purpose.",
    )
    runs = learned(NEWEST_TEXT.get(), TRANSITION.get())
    columns = st.columns(len(runs))
    for column, run in zip(columns, runs):
        with column:
            st.markdown(f"**{escape_markdown(run.title)}** · {len(run.tokens)} merges learned")
            show_html(learned_html(run))
            spanning = f"{len(run.spanning)} token{'s' if len(run.spanning) != 1 else ''} span a word boundary (outlined): "
            spanning += ", ".join(map(inline_code, run.spanning))
            if run.spanning and run.transition is not None:
                st.caption(f"{spanning}: superword tokens, learned on purpose once the split was lifted.")
            elif run.spanning:
                st.caption(f"{spanning}. They waste vocabulary on phrases of this corpus.")
            else:
                st.caption("No token spans a word boundary: a leading space only attaches to its word.")
    url.write_url({links.PRETOK_TEXT: text, links.TRANSITION: TRANSITION.get()}, lab=False)


main()
