"""Compare tokenizers: one text under two to five tokenizers side by side, and a run diff.

The tokenizers: ours at step k, ours after all its merges, ours trained on the same corpus with
other settings (cached like any run; one click makes it a SentencePiece-style run), the pretrained
ones (GPT-2, GPT-4, GPT-4o, Qwen2.5, Qwen3.6, DeepSeek), and whatever the user imported. It opens
on ours after all its merges beside GPT-2 and GPT-4o: the step slider starts at 0, where ours is
still bytes, and a first look should show three real tokenizers. The run diff trains the corpus under two tie-break
rules and explains the first merge at which their merge lists part ways.
"""


import streamlit as st

from bpe.app import pages
from bpe.errors import BpeError
from bpe.limits import MAX_CHUNK_CHARS, MAX_COMPARE_CHIPS, MAX_ENCODE_CHARS
from bpe.pretokenize import PRETOKENIZERS
from bpe.teaching.tie_lab import first_divergence
from bpe.tiebreak import TIE_BREAK_RULES, contrasting_rule
from bpe.vocab import UNITS
from bpe.views.compare import COMPARE_CSS, compare_frame, divergence_html, explain_divergence, highlight_merge, merges_side_by_side
from bpe.views.encoding import encode_for_page, sample_text
from bpe.markdown import escape_markdown
from bpe.views.token_html import chips_html, pieces_for
from ui import state, tokenizers, url
from ui.render import page_setup, show_html, tokenizer_at
from ui.state import SessionValue, bind, widget_key
from ui.training import get_trained
from ui.shared_views import shared_view, text_key
from ui.preamble import run_at_step
from ui.settings_sidebar import settings_sidebar

VARIANT = "variant"
LAST = "ours-last"
TEXT = SessionValue("compare_text", None)
TEXT_FOR = SessionValue("compare_text_source", None)
"""The example the text was chosen for (a new example gets its own sample)."""
PICKED = SessionValue("compare_with", factory=lambda: [LAST, "gpt2", "o200k_base"])
"""The first lesson: ours trained vs GPT-2 vs GPT-4o."""
VARIANT_SETTINGS = SessionValue("variant", None)
"""``(tie_break, unit, pretokenizer)`` of "ours with other settings"; ``None``: derived from the run."""
DIFF_RULES = SessionValue("diff_rules", None)
"""The two tie-break rules of the run diff; ``None``: the run's rule and another."""


def _variant() -> tuple[str, str, str]:
    """``(tie_break, unit, pretokenizer)`` of "ours with other settings" (another tie rule by default)."""
    lab = state.lab()
    return VARIANT_SETTINGS.get() or (contrasting_rule(lab.tie_break), lab.unit, lab.pretokenizer)


def _one_of(value: SessionValue, current, index: int, key: str, shown) -> dict:
    """A widget for item ``index`` of the tuple ``current()``, kept in ``value`` once changed."""
    def write(new) -> None:
        items = list(current())
        items[index] = new
        value.set(tuple(items))
    return bind(widget_key(key), write, shown=shown)


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
    columns[0].selectbox("Other tie-break rule", list(TIE_BREAK_RULES), **_one_of(VARIANT_SETTINGS, _variant, 0, "variant_tie", tie))
    columns[1].radio("Other unit", UNITS, horizontal=True, **_one_of(VARIANT_SETTINGS, _variant, 1, "variant_unit", unit))
    options = list(dict.fromkeys([*PRETOKENIZERS, pretokenizer]))
    columns[2].selectbox(
        "Other pre-tokenizer", options, **_one_of(VARIANT_SETTINGS, _variant, 2, "variant_pretok", pretokenizer),
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


def compare_section(trained, step: int) -> None:
    lab = state.lab()
    if TEXT_FOR.get() != lab.source or TEXT.get() is None:
        corpus = trained.text if trained.text is not None else " ".join(word for word, _ in trained.table[:8])
        TEXT.set(sample_text(lab.source, corpus))
        TEXT_FOR.set(lab.source)
    st.text_area("Text to compare (Ctrl+Enter to apply)", height=90, **TEXT.widget())
    total = len(trained.trace.steps)
    options = [tokenizers.OURS, LAST, VARIANT, *tokenizers.choices()[1:]]
    labels = {choice: tokenizers.label(choice, step) for choice in options} | {
        VARIANT: _variant_label(step), LAST: f"Ours after all {total:,} merges",
    }
    chosen = st.multiselect(
        "Tokenizers (two to five)", options, format_func=labels.get, max_selections=5,
        **PICKED.widget(show=lambda picked: [choice for choice in picked if choice in options]),
        help="Import more on the Import & export page.",
    )
    if VARIANT in chosen:
        variant_settings()
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
    chosen_tokenizers = []
    for choice in chosen:
        if choice == VARIANT:
            tokenizer, anchor = variant_tokenizer(step) or (None, None)
        elif choice == LAST:
            tokenizer, anchor = tokenizer_at(trained, total), (trained, total)
        else:
            tokenizer = tokenizers.resolve(choice, ours)
            anchor = (trained, step) if tokenizer is ours else (tokenizer, None)
        if tokenizer is not None:
            chosen_tokenizers.append((choice, tokenizer, anchor))
    results = encode_all(chosen_tokenizers, text, labels)
    if not results:
        return
    text = text[: min(encoded.encoded_chars for _, _, encoded in results)]
    results = [(name, tokenizer, list(encoded.ids)) for name, tokenizer, encoded in results]
    st.dataframe(
        compare_frame(text, [(name, ids, tokenizer.n_vocab) for name, tokenizer, ids in results]),
        hide_index=True, width="stretch",
        column_config={
            "vocabulary": st.column_config.NumberColumn(format="localized", help="Tokens in the vocabulary"),
            "characters per token": st.column_config.NumberColumn(format="%.2f", help="Higher: each token carries more text"),
            "bytes per token": st.column_config.NumberColumn(format="%.2f", help="UTF-8 bytes of the text / tokens"),
        },
    )
    for column, (name, tokenizer, ids) in zip(st.columns(len(results), gap="medium"), results):
        with column:
            st.markdown(f"**{escape_markdown(name)}** · {len(ids):,} tokens")
            pieces = pieces_for(ids[:MAX_COMPARE_CHIPS], tokenizer.tokens, special_ids=list(tokenizer.special_tokens.values()))
            show_html(chips_html(pieces, end_of_word=tokenizer.end_of_word))
            if len(ids) > MAX_COMPARE_CHIPS:
                st.caption(f"The first {MAX_COMPARE_CHIPS:,} of {len(ids):,} tokens.")
    st.caption("Colours only tell neighbouring tokens apart; hover a token for its id and bytes.")


def _diff_rules() -> tuple[str, str]:
    rule = state.lab().tie_break
    return DIFF_RULES.get() or (rule, contrasting_rule(rule))


def run_diff_section() -> None:
    st.header("Run diff: the same corpus, two tie-break rules")
    st.caption("Both runs use this example's corpus and every other setting in the sidebar; only the tie-break rule differs.")
    rule_a, rule_b = _diff_rules()
    columns = st.columns(2)
    for index, (column, rule) in enumerate(zip(columns, (rule_a, rule_b))):
        column.selectbox(
            f"Run {'AB'[index]}: tie-break rule", list(TIE_BREAK_RULES),
            **_one_of(DIFF_RULES, _diff_rules, index, f"diff_rule_{'ab'[index]}", rule),
        )
    lab = state.lab()
    run_a = get_trained(lab.replace(tie_break=rule_a))
    run_b = get_trained(lab.replace(tie_break=rule_b))
    if run_a is None or run_b is None:
        return
    a, b = run_a.trace, run_b.trace
    merge = first_divergence(a, b)
    names = (f"A · {rule_a}", f"B · {rule_b}")
    st.subheader(f"The merge lists first differ at merge {merge}" if merge else "The merge lists never differ")
    show_html(divergence_html(explain_divergence(a, b, names=(rule_a, rule_b))))
    longest = max(len(a.steps), len(b.steps))
    upto = min(longest, max(8, (merge or 0) + 3))
    first = max(1, upto - 8)  # the table opens on the merge that matters, with a few agreeing ones before it
    if upto:
        frame = merges_side_by_side(a, b, names=names, upto=upto)
        st.dataframe(highlight_merge(frame[frame["merge"] >= first], merge), hide_index=True, width="stretch")
        same = f"; merges 1 to {first - 1:,} are the same in both runs" if first > 1 else ""
        st.caption(
            f"Merges {first:,} to {upto:,} of {longest:,}{same}"
            + (f"; merge {merge:,} (tinted) is where they part ways." if merge else ".")
        )


def main() -> None:
    page_setup(pages.COMPARE)
    show_html(COMPARE_CSS)
    settings_sidebar()
    st.title(":material/compare: Compare tokenizers")
    st.caption(
        "The same text under two to five tokenizers: how many tokens each needs and where it cuts. "
        "Below, the same corpus trained under two tie-break rules, and the merge where they part ways."
    )
    run = run_at_step(slider_key="compare")
    if run is None:
        return
    trained, step = run
    compare_section(trained, step)
    run_diff_section()
    url.write_url()


main()
