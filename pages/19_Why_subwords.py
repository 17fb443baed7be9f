"""Why subwords: the sidebar's example cut by words, characters, bytes and BPE, measured on text held out.

The lesson a course gives before its first merge: a word vocabulary (the N most frequent words
plus [UNK]) leaves held-out words unknown however large N grows, characters and bytes know every
word but make sequences long, and BPE's k merges sit in between. The four tokenizers' numbers on
the held-out text, their curves over N and k with this run's places marked, and the held-out text
as the one chosen cuts it (each [UNK] shown); then WordPiece's score, which chooses merges another
way, on the Hugging Face course's words. The teaching is :mod:`bpe.teaching.subwords` and
:mod:`bpe.teaching.wordpiece`, the drawing :mod:`bpe.views.subwords`, the run ``ui/subwords.py``.
PageDown / PageUp walk the four tokenizers (``cut=`` in the link); ``heldout=`` and ``n=`` are kept too.
"""

import streamlit as st

from bpe.app import pages
from bpe.app.lab_state import LabState
from bpe.teaching.subwords import KINDS
from bpe.teaching.wordpiece import COURSE_PRESET, course_run, course_splits, encoder_cuts, worked_steps
from bpe.views.subwords import (
    FIELDS, SUBWORDS_CSS, TITLES, cost_chart, curve_frame, encoder_cuts_html, held_out_html, label, measures_table_html,
    wordpiece_steps_html,
)
from ui import links, subwords, url
from ui.clicker import pills_walk
from ui.render import page_setup, page_title, presenter, show_chart, show_html
from ui.settings_sidebar import settings_sidebar
from ui.shared_views import shared_view
from ui.state import SessionValue

CUT = SessionValue("subwords_cut", KINDS[0])
"""Which tokenizer draws the held-out text (the lesson's place: ``cut=`` in the link)."""
EXAMPLE = SessionValue("subwords_example", subwords.PYTHON_DOCS)
"""The example measured (``corpus=``): a preset, or the sidebar's run."""
HELD_OUT = SessionValue("subwords_held_out", subwords.SPLIT)
WORDS = SessionValue("subwords_n", None)
"""N, the word vocabulary's size (``n=``); ``None``: as many words as BPE has tokens at k (a fair match)."""
MERGES = SessionValue("subwords_k", None)
"""k, BPE's merges (``k=``); ``None``: every merge of the run."""
DRAWN_TOKENS = 240
"""The held-out text's first tokens drawn (its numbers are always whole)."""
WORKED_MERGES = 3
ENCODED = "pugs hugs bugs"


def read_url() -> None:
    """A just-opened link's parameters (declared in ``ui/links.py``); a bad one is said on the page and the value kept."""
    url.read(links.SUBWORDS_EXAMPLE, EXAMPLE)
    url.read(links.SUBWORDS_CUT, CUT)
    url.read(links.SUBWORDS_HELD_OUT, HELD_OUT, example=EXAMPLE.get())
    url.read(links.SUBWORDS_N, WORDS)
    url.read(links.SUBWORDS_K, MERGES)


def choose_cut() -> str:
    return pills_walk("Cut by", "tokenizer", tuple(KINDS), CUT, TITLES.get, width="content")


def controls(choices: dict[str, str], *, n: int, most: int, k: int, steps: int) -> None:
    """The example, the held-out text, N and k; each writes the session, which the views read."""
    examples = subwords.example_choices()
    left, right = st.columns(2, gap="medium")
    left.selectbox("Example", list(examples), format_func=examples.get, **EXAMPLE.widget(options=list(examples)))
    left.selectbox("Held-out text", list(choices), format_func=choices.get, **HELD_OUT.widget(options=list(choices)))
    right.number_input("N: the word vocabulary's most frequent words", 1, max(most, 1), step=100, **WORDS.widget(show=lambda _: n))
    if steps:
        right.slider("k: BPE's merges", 0, steps, **MERGES.widget(show=lambda _: k))
    if WORDS.get() is None:
        right.caption("N starts at BPE's vocabulary size at k, so the two compare at one size.")


def wordpiece_section() -> None:
    st.header("WordPiece: a score instead of a count")
    run = course_run()
    st.markdown(
        "WordPiece (BERT's tokenizer) learns merges as BPE does, but picks the pair with the best **score**, "
        "count(ab) / (count(a) × count(b)): a pair of tokens that seldom occur apart beats a frequent pair of "
        "frequent tokens. The Hugging Face course works it on its five words, writing a token that continues a "
        "word with ##:"
    )
    show_html(wordpiece_steps_html(worked_steps(run, WORKED_MERGES)))
    words = ", ".join(f"({' '.join(split)}, {count})" for split, count in course_splits(run, 1))
    st.caption(f"After merge 1: {words}.")
    st.markdown(
        "Its **encoder** differs too: it keeps no merge list, only the vocabulary, and cuts each word by the "
        "**longest token that starts here**, then on from its end; a word it cannot cover is one [UNK] whole. "
        "With the course's vocabulary:"
    )
    show_html(encoder_cuts_html(encoder_cuts(run, ENCODED)))
    left, right = st.columns(2)
    course = LabState.for_source(COURSE_PRESET).replace(objective="wordpiece")  # the lab's link, spelled by the lab
    left.page_link(pages.TRAIN.file, label="Step WordPiece's merges on Train", icon=pages.TRAIN.icon,
                   query_params=course.replace(step=1).to_query())
    right.page_link(pages.ENCODE.file, label="Encode & decode: the three cuts (BPE's, fewest, longest match)",
                    icon=pages.ENCODE.icon, query_params=course.replace(step=len(run.steps)).to_query()
                    | {links.ENCODE_TEXT.name: ENCODED})


def main() -> None:
    page_setup(pages.SUBWORDS)
    show_html(SUBWORDS_CSS)
    read_url()
    example = EXAMPLE.among(list(subwords.example_choices()))
    if example == subwords.SIDEBAR:
        settings_sidebar()
    page_title(pages.SUBWORDS)
    st.caption(
        "Before the first merge: why tokenizers cut text into subwords. One example, part of it held out, cut four ways: "
        "whole words (the N most frequent, [UNK] for the rest), characters, bytes, and BPE's merges."
    )
    url.show_url_warnings()
    cut = choose_cut()
    choices = subwords.held_out_choices(example)
    held = HELD_OUT.among(list(choices))
    measured = subwords.subword_lab(example, held)
    if measured is None:
        return
    steps = len(measured.trace.steps)
    k = min(steps if MERGES.get() is None else MERGES.get(), steps)
    n = min(WORDS.get() or measured.bpe_at(k).vocabulary, max(len(measured.ranked_words), 1))
    presenting = presenter()
    inputs = dict(n=n, most=len(measured.ranked_words), k=k, steps=steps)
    if not presenting:  # a projector's first screen is the lesson; the inputs follow it
        controls(choices, **inputs)
    measures = [measured.words_at(n), measured.characters(), measured.bytes(), measured.bpe_at(k)]
    show_html(measures_table_html(measures, shown=cut))
    st.caption(
        f"Held out: {choices[held]} ({len(measured.held_out_words):,} words). Tokens per word: how long a sequence "
        "gets; [UNK] rate: the share of tokens whose text a model never sees."
    )
    shown = next(measure for measure in measures if measure.kind == cut)
    st.header(f"The held-out text cut by {label(shown)}")
    size = n if cut == "words" else k
    show_html(held_out_html(measured.tokens(cut, size, limit=DRAWN_TOKENS), kind=cut, end_of_word=measured.trace.settings.end_of_word))
    st.caption((f"The first {DRAWN_TOKENS:,} of {shown.tokens:,} tokens. " if shown.tokens > DRAWN_TOKENS else "")
               + "A dashed [UNK] chip is a word or character outside the vocabulary.")
    frame = shared_view(measured, "subword curves", n, k, build=lambda: curve_frame(measured, n=n, k=k))
    for field in FIELDS:  # one above the other, each the page's width: the labels need the room
        show_chart(cost_chart(frame, field).to_dict())
    st.caption("Each line is one tokenizer at every size (N words, k merges); the diamonds are this run's places.")
    if presenting:
        with st.container(key="bpe-below"):
            controls(choices, **inputs)
    wordpiece_section()
    url.write_url({links.SUBWORDS_EXAMPLE: example, links.SUBWORDS_CUT: cut, links.SUBWORDS_HELD_OUT: held,
                   links.SUBWORDS_N: WORDS.get(), links.SUBWORDS_K: MERGES.get()}, lab=example == subwords.SIDEBAR)


main()
