"""Compare tokenizers: one text under two to five tokenizers side by side, and a run diff.

The tokenizers: ours at step k, ours after all its merges, ours trained on the same corpus with
other settings (cached like any run; one click makes it a SentencePiece-style run), the pretrained
ones (GPT-2... Llama, Mistral; also found by a model's name), and whatever the user imported. Under
the chips: their counts, the stretches they cut differently, and what a number costs each
(``ui.compare_lessons``). The step slider is shown only when a tokenizer it moves is chosen (ours at
step k). Chips come first in presenter mode, inputs after. The run diff (``ui.run_diff``) trains the
corpus under two tie-break rules and explains the first merge where their merge lists part ways.
"""

import streamlit as st

from bpe.app import pages
from bpe.app.lab_state import OWN_TABLE_SOURCE, OWN_TEXT_SOURCE
from bpe.errors import BpeError
from bpe.limits import MAX_CHUNK_CHARS, MAX_COMPARE_CHIPS, MAX_ENCODE_CHARS
from bpe.notation.markdown import escape_markdown
from bpe.pretrained.registry import PRETRAINED
from bpe.text.pretokenize import PRETOKENIZERS
from bpe.tokens.vocab import UNITS
from bpe.training.tiebreak import TIE_BREAK_RULES, contrasting_rule
from bpe.views.compare import COMPARE_CSS, lesson_texts
from bpe.views.encoding import encode_for_page, sample_text
from bpe.views.pointer import hover_or_tap
from bpe.views.token_html import chips_html, pieces_for
from ui import compare_lessons, links, run_diff, state, superbpe, token_cost, tokenizers, url
from ui.clicker import Walk, walk_buttons
from ui.preamble import current_run, run_summary
from ui.render import page_setup, page_title, presenter, show_html, tokenizer_at
from ui.settings_sidebar import settings_sidebar
from ui.shared_views import shared_view, text_key
from ui.state import SessionValue
from ui.stepper import step_slider
from ui.training import get_trained
from ui.vocab_overlap import vocabulary_overlap_section

VARIANT, LAST = "variant", "ours-last"
TEXT = SessionValue("compare_text", None)
TEXT_FOR = SessionValue("compare_text_source", None)
"""The example the text was chosen for (a new example gets its own sample)."""
PICKED = SessionValue("compare_with", factory=lambda: [LAST, "gpt2", "o200k_base"])
"""The first lesson: ours trained vs GPT-2 vs GPT-4o."""
VARIANT_SETTINGS = SessionValue("variant", None)
"""``(tie_break, unit, pretokenizer)`` of "ours with other settings"; ``None``: derived from the run."""


def _variant() -> tuple[str, str, str]:
    """``(tie_break, unit, pretokenizer)`` of "ours with other settings" (another tie rule by default)."""
    lab = state.lab()
    return VARIANT_SETTINGS.get() or (contrasting_rule(lab.tie_break), lab.unit, lab.pretokenizer)


SENTENCEPIECE_STYLE = ("sentencepiece", "char", "sentencepiece")  # tie rule, unit, pre-tokenizer


def _sentencepiece_style() -> None:
    VARIANT_SETTINGS.set(SENTENCEPIECE_STYLE)  # the three widgets show it on the rerun (``bind``)


def _variant_label(step: int) -> str:
    tie, unit, pretokenizer = _variant()
    return f"Ours with ties: {tie} · {unit} · {pretokenizer} (step {step:,})"


def variant_settings() -> None:
    lab = state.lab()
    tie, unit, pretokenizer = _variant()
    columns = st.columns(3)
    columns[0].selectbox("Other tie-break rule", list(TIE_BREAK_RULES), **VARIANT_SETTINGS.item_widget(0, "variant_tie", shown=tie, current=_variant))
    columns[1].radio("Other unit", UNITS, horizontal=True, **VARIANT_SETTINGS.item_widget(1, "variant_unit", shown=unit, current=_variant))
    options = list(dict.fromkeys([*PRETOKENIZERS, pretokenizer]))
    columns[2].selectbox(
        "Other pre-tokenizer", options, **VARIANT_SETTINGS.item_widget(2, "variant_pretok", shown=pretokenizer, current=_variant),
        disabled=lab.is_word_table, help="A word table is already split into words." if lab.is_word_table else None,
    )
    st.button("SentencePiece-style", on_click=_sentencepiece_style, help="Characters, ▁ for a space, its splits and ties.")


def variant_tokenizer(step: int):
    """``(tokenizer, (run, step))`` of "ours with other settings", or ``None`` after an error."""
    tie, unit, pretokenizer = _variant()
    trained = get_trained(state.lab().replace(tie_break=tie, unit=unit, pretokenizer=pretokenizer))
    if trained is None:
        return None
    at = min(step, len(trained.trace.steps))
    return tokenizer_at(trained, at), (trained, at)


def encode_all(chosen: list[tuple[str, object, tuple]], text: str, labels: dict[str, str]) -> list[tuple]:
    """``(label, tokenizer, Encoded)`` per tokenizer, all over the same text: if a tokenizer
    encodes only a prefix (a chunk over MAX_CHUNK_CHARS), everyone encodes that prefix, and the
    page says so. Shared on content (ui/shared_views.py), so reruns do not encode again."""
    for attempt in range(2):
        results = []
        for choice, tokenizer, anchor in chosen:
            try:
                results.append((labels[choice], tokenizer, shared_view(
                    *anchor, "compare", text_key(text), build=lambda: encode_for_page(tokenizer, text, "allowed")
                )))
            except BpeError as error:
                if attempt == 0:
                    st.error(f"**{escape_markdown(labels[choice])} cannot encode this text:** {escape_markdown(error)}", icon="🛑")
        shortest = min((encoded.encoded_chars for _, _, encoded in results), default=len(text))
        if shortest == len(text):
            return results
        st.warning(
            f"This text has a chunk of over {MAX_CHUNK_CHARS:,} characters for one of these tokenizers: "
            f"all of them encode its first {shortest:,} of {len(text):,} characters.", icon="✂️",
        )
        text = text[:shortest]
    return results


def compare_inputs(options: list[str], labels: dict[str, str], total: int) -> None:
    """The text, the tokenizers and (only when one of them is ours at a step) the step. Each
    writes the session's state, which the chips read, so they may be drawn after them."""
    st.text_area("Text to compare (Ctrl+Enter to apply)", height=90, **TEXT.widget())
    chosen = st.multiselect(
        "Tokenizers (two to five)", options, format_func=labels.get, max_selections=5,
        **PICKED.widget(show=lambda picked: [choice for choice in picked if choice in options]),
        help="Import more on the Import & export page. The pretrained ones:\n" + tokenizers.pretrained_help(),
    )
    tokenizers.model_name_input(_pick)
    # subtle: the step is ours-at-step-k's alone; beside "Ours after all 10 merges" a slider at 0 read as a contradiction
    if {tokenizers.OURS, VARIANT} & set(chosen):
        step_slider(total, key="compare")
    if VARIANT in chosen:
        variant_settings()


def linked_text() -> dict:
    """``text=`` when the text is a lesson's, not the learner's (typed, or their own corpus's first line)."""
    text, lab = TEXT.get(), state.lab()
    own = lab.source in (OWN_TEXT_SOURCE, OWN_TABLE_SOURCE)
    return {links.COMPARE_TEXT: text} if text in list(lesson_texts(""))[1:] or (not own and text == sample_text(lab.source)) else {}


def _pick(name: str) -> None:
    """A model's tokenizer joins the chosen ones (the oldest leaves if five are chosen)."""
    picked = [choice for choice in PICKED.get() if choice != name]
    PICKED.set([*picked, name][-5:])


def compare_section(trained, step: int) -> None:
    lab = state.lab()
    corpus = trained.text if trained.text is not None else " ".join(word for word, _ in trained.table[:8])
    sample = sample_text(lab.source, corpus)
    if TEXT_FOR.get() != lab.source or TEXT.get() is None:
        TEXT.set(sample)
        TEXT_FOR.set(lab.source)
    url.read(links.COMPARE_TEXT, TEXT)
    total = len(trained.trace.steps)
    options = [tokenizers.OURS, LAST, *[superbpe.CLASSIC] * superbpe.offered(lab), VARIANT, *tokenizers.choices()[1:]]
    labels = {choice: tokenizers.label(choice, step) for choice in options} | {
        VARIANT: _variant_label(step), LAST: f"Ours after all {total:,} merges", superbpe.CLASSIC: superbpe.label(total),
    }
    superbpe.pick_once(PICKED, lab)
    presenting = presenter()
    if not presenting:  # a projector's first screen is the chips side by side: the inputs follow them
        compare_inputs(options, labels, total)
    walk_buttons(Walk("text", tuple(lesson_texts(sample)), TEXT.get, TEXT.set, title=lesson_texts(sample).get))
    compare_chips(trained, step, [choice for choice in PICKED.get() if choice in options], labels)
    if presenting:
        with st.container(key="bpe-below"):
            compare_inputs(options, labels, total)


def compare_chips(trained, step: int, chosen: list[str], labels: dict[str, str]) -> None:
    """Each tokenizer's chips in a column of its own, then the counts side by side."""
    total = len(trained.trace.steps)
    if len(chosen) < 2:
        st.info("Choose at least two tokenizers to compare.", icon="ℹ️")
    text = TEXT.get()
    if len(text) > MAX_ENCODE_CHARS:
        st.error(
            f"**Cannot compare this text:** it has {len(text):,} characters, over the limit of {MAX_ENCODE_CHARS:,}; "
            "paste a shorter excerpt.", icon="🛑",
        )
        return
    ours = tokenizer_at(trained, step)
    # The pretrained ones load in the background: those not ready within a moment get a column that
    # says so, and arrive (the page reruns) as each is ready.
    loaded, loading = tokenizers.pretrained_ready([choice for choice in chosen if choice in PRETRAINED])
    picked = []
    for choice in chosen:
        if choice == VARIANT:
            tokenizer, anchor = variant_tokenizer(step) or (None, None)
        elif choice == superbpe.CLASSIC:
            tokenizer, anchor = superbpe.classic_tokenizer(state.lab()) or (None, None)
        elif choice == LAST:
            tokenizer, anchor = tokenizer_at(trained, total), (trained, total)
        elif choice in PRETRAINED:
            tokenizer, anchor = loaded.get(choice), (loaded.get(choice), None)
        else:
            tokenizer = tokenizers.resolve(choice, ours)
            anchor = (trained, step) if tokenizer is ours else (tokenizer, None)
        if tokenizer is not None:
            picked.append((choice, tokenizer, anchor))
    results = encode_all(picked, text, labels)
    if not results:
        return
    text = text[: min(encoded.encoded_chars for _, _, encoded in results)]
    results = [(name, tokenizer, list(encoded.ids)) for name, tokenizer, encoded in results]
    columns = st.columns(len(results) + len(loading), gap="small")
    for column, choice in zip(columns[len(results):], loading):
        column.markdown(f"**{escape_markdown(labels[choice])}** · loading…")
        column.caption(f"Reading its {PRETRAINED[choice].n_vocab:,} tokens: its chips appear here when ready.")
    if loading:
        tokenizers.arrivals(loading)
    for column, (name, tokenizer, ids) in zip(columns, results):
        with column:
            st.markdown(f"**{escape_markdown(name)}** · {len(ids):,} tokens")
            pieces = pieces_for(ids[:MAX_COMPARE_CHIPS], tokenizer.tokens, special_ids=list(tokenizer.special_tokens.values()))
            show_html(chips_html(pieces, end_of_word=tokenizer.end_of_word))
            if len(ids) > MAX_COMPARE_CHIPS:
                st.caption(f"The first {MAX_COMPARE_CHIPS:,} of {len(ids):,} tokens.")
    st.caption("Colours only tell tokens apart" + hover_or_tap("; hover a token for its id and bytes.", "."), unsafe_allow_html=True)
    ids_by_label = {name: ids for name, _, ids in results}
    superbpe.tokens_note({choice: ids_by_label[labels[choice]] for choice in chosen if labels[choice] in ids_by_label}, LAST)
    compare_lessons.counts_table(text, results, projected=presenter())
    token_cost.cost_section(text, results, key="compare")
    if len(results) > 1:
        compare_lessons.disagreement_section(text, results)
        compare_lessons.numbers_section(results)


def main() -> None:
    page_setup(pages.COMPARE)
    tokenizers.start_loading([choice for choice in PICKED.get() if choice in PRETRAINED])  # while ours trains
    show_html(COMPARE_CSS)
    settings_sidebar()
    page_title(pages.COMPARE)
    st.caption(
        "The same text under two to five tokenizers: how many tokens each needs and where it cuts. "
        "Below, the same corpus trained under two tie-break rules, and the merge where they part ways."
    )
    trained = current_run()
    if trained is None:
        return
    if not presenter():  # the step only where a tokenizer it moves is chosen: beside "after all 10 merges" it read as a contradiction
        run_summary(trained.trace, step={tokenizers.OURS, VARIANT} & set(PICKED.get()))
    compare_section(trained, state.lab().step)
    vocabulary_overlap_section(trained)
    run_diff.run_diff_section()
    url.write_url(linked_text())


main()
