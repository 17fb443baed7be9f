"""Why tokenization matters: what language models get wrong because of their tokenizer, one card each.

Each card tokenizes the same texts under ours (the run in the sidebar, at its step) and a pretrained
tokenizer per pre-tokenizer (``all_tokenizers``), with the counts, a note on what to see, the explanation in
terms of merges and pre-tokenization, and links to the page that shows the mechanism. The content
is :mod:`bpe.teaching.why_tokenization`; the HTML and the chart, :mod:`bpe.views.why_cards`.

"Try your own" counts while the learner types: ``st.text_input(live=...)`` commits after a pause
in typing, inside a fragment, so only the box and its counts rerun (``benchmarks/live_typing.py``
measures the pause; the README has the figures).
"""

import streamlit as st

from bpe.app import pages
from bpe.limits import MAX_WHY_CHARS
from bpe.notation.markdown import escape_markdown
from bpe.pretrained.registry import PRETRAINED
from bpe.teaching.why_tokenization import PHENOMENA, Phenomenon, language_rows, one_per_split, refusal, tokenize_with
from bpe.views.pointer import hover_or_tap
from bpe.views.why_cards import (
    WHY_CSS, WHY_PRESENTER_CSS, Loading, counts_line, language_chart, language_table_html, split_rows_html,
)
from ui import links, token_cost, tokenizers, url
from ui.clicker import pills_walk
from ui.preamble import current_run
from ui.render import page_setup, page_title, presenter, show_chart, show_html, tokenizer_at
from ui.state import SessionValue, lab

LIVE_TYPING = "300ms"
"""How long typing must pause before the counts update (Streamlit's ``live``; measured, see above)."""
CARD = SessionValue("why_card", next(iter(PHENOMENA)))
"""Which card is shown (a link's ``card=`` picks it)."""
SAMPLES = {key: SessionValue(f"why_sample.{key}", card.samples[0][0]) for key, card in PHENOMENA.items()}
"""Per card: the label of the sample text shown."""
TRIED = {key: SessionValue(f"why_try.{key}", card.try_text) for key, card in PHENOMENA.items()}
"""Per card: the learner's own text in its "try your own" box."""
MAX_PILLS = 8
"""More sample texts than this are offered in a menu."""
MAX_BESIDE = 3
"""This many sample texts (or a menu) sit beside the question; more go under it."""


SHOWN = one_per_split()


def all_tokenizers() -> tuple[dict, list[str]]:
    """The tokenizers of ``SHOWN`` loaded so far, then ours at the lab's step (when its run trains),
    by name; and the names of those still loading (their rows arrive as each is ready).

    Ours comes last: the real models' rows are the lesson, and a toy run at step 0 is all bytes."""
    trained = current_run()  # first: the pretrained ones load meanwhile (main started them)
    loaded, loading = tokenizers.pretrained_ready(SHOWN)
    chosen = {PRETRAINED[name].title: tokenizer for name, tokenizer in loaded.items()}
    if trained is not None:
        step = lab().step
        chosen[f"Ours (step {step:,})"] = tokenizer_at(trained, step)
    return chosen, loading


def with_loading(rows: list, loading: list[str]) -> list:
    """The split rows, with a row for each tokenizer still loading in its registry place."""
    by_title = {row.name: row for row in rows} | {
        PRETRAINED[name].title: Loading(PRETRAINED[name].title, PRETRAINED[name].n_vocab) for name in loading
    }
    titles = [entry.title for entry in PRETRAINED.values()]
    return [by_title[title] for title in titles if title in by_title] + [row for row in rows if row.name not in titles]


def choose_card() -> Phenomenon:
    titles = {key: card.title for key, card in PHENOMENA.items()}
    return PHENOMENA[pills_walk("Phenomenon", "card", tuple(PHENOMENA), CARD, titles.get, width="content", wrap=True)]


def choose_sample(card: Phenomenon) -> str:
    labels = [label for label, _ in card.samples]
    chosen = SAMPLES[card.key]
    if len(labels) > MAX_PILLS:  # a menu: sixteen languages as pills take two rows of a projector
        st.selectbox("Language", labels, label_visibility="collapsed", width=320, **chosen.widget(options=labels))
    elif len(labels) > 1:
        st.pills(
            "Text", labels, label_visibility="collapsed", wrap=True,  # in a column they would scroll, hiding some
            **chosen.widget(options=labels, convert=lambda label: label or chosen.get()),
        )
    return dict(card.samples).get(SAMPLES[card.key].get(), card.samples[0][1])


@st.fragment
def try_your_own(card: Phenomenon, chosen: dict, priced: dict) -> None:
    """A text box whose counts follow the typing: only this fragment reruns after each pause
    (the cost card's: priced under ``priced``, every tokenizer loaded)."""
    text = st.text_input(
        "Try your own text", max_chars=MAX_WHY_CHARS, live=LIVE_TYPING,
        help="The counts update when you pause typing; no Enter needed.", **TRIED[card.key].widget(),
    )
    rows = tokenize_with(card, text, chosen)
    st.markdown(f"**{escape_markdown(counts_line(rows))}**")
    show_html(split_rows_html(rows))
    if card.key == "cost":  # the learner's own text, priced at the same window, chunk and price
        token_cost.cost_table(text, priced, token_cost.current_rates())


def languages(chosen: dict) -> None:
    rows = language_rows(chosen)
    st.header("The same sentence in every language")
    left_out = [name for name in chosen if name not in {row.tokenizer for row in rows}]
    st.caption(
        "The first article of the Universal Declaration of Human Rights, in the UN's translations: tokens "
        "as a multiple of the English sentence's, per tokenizer (1 = as cheap as English). The numbers are "
        "in the table below."
        + (f" Left out: {escape_markdown(', '.join(left_out))}, which cannot encode the English sentence." if left_out else "")
    )
    show_chart(language_chart(rows).to_dict())
    show_html(language_table_html(rows))


def costs(text: str, chosen: dict, loading: list[str]) -> tuple[dict, list[str]]:
    """The cost card's table: the sentence under ours and every pretrained tokenizer, at the learner's
    window, chunk and price; returns those tokenizers by title, and every tokenizer still loading
    (its rows arrive as each is ready)."""
    everyone = list(PRETRAINED)
    tokenizers.start_loading(everyone)
    ready, waiting = tokenizers.pretrained_ready(everyone)
    ours = {name: tokenizer for name, tokenizer in chosen.items() if name.startswith("Ours")}
    priced = {PRETRAINED[name].title: tokenizer for name, tokenizer in ready.items()} | ours
    st.subheader("What this sentence costs")
    rates = token_cost.rates_inputs(key="why")
    token_cost.cost_table(text, priced, rates)
    return priced, sorted(set(loading) | set(waiting), key=everyone.index)


def main() -> None:
    page_setup(pages.WHY)
    tokenizers.start_loading(SHOWN)  # while the page reads its link and trains its own run
    show_html(WHY_CSS)
    page_title(pages.WHY)
    url.read(links.CARD, CARD)
    card = choose_card()
    chosen, loading = all_tokenizers()
    # A few sample texts fit beside the question: one row less above the chips on a projector.
    beside = len(card.samples) <= MAX_BESIDE or len(card.samples) > MAX_PILLS
    question, samples = st.columns([3, 2], vertical_alignment="center") if beside else (st.container(), st.container())
    question.header(card.question)
    with samples:
        text = choose_sample(card)
    if presenter():
        show_html(WHY_PRESENTER_CSS)
    show_html(split_rows_html(with_loading(tokenize_with(card, text, chosen), loading)))  # every card: chips first
    priced = {}
    if card.key == "cost":  # every pretrained tokenizer, not one per split: the rest load meanwhile
        priced, loading = costs(text, chosen, loading)
    if loading:
        tokenizers.arrivals(loading)
    if card.special and (refused := refusal(chosen, text)):
        st.error(f"**{escape_markdown(refused[0])}'s `encode` by default:** {escape_markdown(refused[1])}", icon="🛑")
    st.caption(f"{hover_or_tap('Hover', 'Tap')} a token to mark its ids, or an id to mark its token; · is a space, ↵ a newline.",
               unsafe_allow_html=True)
    why, mechanism = st.columns([3, 2], gap="large")
    why.markdown(card.explanation)
    with mechanism:
        st.markdown("**See the mechanism**")
        for link in card.links:
            st.page_link(link.page, label=link.label, icon=pages.page_for(link.page).icon, query_params=dict(link.params))
    if card.key == "languages":
        languages(chosen)
    try_your_own(card, chosen, priced)
    url.write_url({links.CARD: card.key})


main()
