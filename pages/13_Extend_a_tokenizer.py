"""Extend a tokenizer: continue GPT-2 (or Qwen, or your own run) on new text, keeping every old merge.

The lesson is the new merges, one at a time (``at`` in the link; PageDown / PageUp): each narrated,
its pair counts charted and its places marked in the new text, numbered after the old vocabulary.
Then what it changed: tokens per byte of the new text and of every language of the Declaration
before and after, what the old text costs now (nothing, unless the new merges touch it), what the
new ids cost a model, and the extended tokenizer in every format. In presenter mode the lesson comes
first and the choices after it.
"""

import streamlit as st

from bpe.app import pages
from bpe.encoding.tokenizer import Tokenizer
from bpe.notation.markdown import escape_markdown
from bpe.pretrained.registry import PRETRAINED
from bpe.teaching.extension import NEW_TEXTS, OWN, growth, trade_off
from bpe.teaching.udhr import ARTICLE_1
from bpe.views.charts import pair_chart
from bpe.views.corpus_window import chunk_starts
from bpe.views.exports import export_offers
from bpe.views.extension import cost_chart, cost_frame, cost_rows
from bpe.views.narration import narrate_step
from bpe.views.stats import stats_html, step_stats
from bpe.views.train_step import window_block
from ui import extension, tokenizers, url
from ui.exports import download_cards
from ui.lesson import lesson_stepper
from ui.render import page_setup, page_title, presenter, show_chart, show_html
from ui.settings_sidebar import settings_sidebar
from ui.shared_views import shared_view, text_key


def choices() -> None:
    """What to extend, with what, and how far (each bound to the session and the link)."""
    left, right = st.columns(2)
    options = [*PRETRAINED, tokenizers.OURS]
    left.selectbox(
        "Extend", options, **extension.FROM.widget(options=options),
        format_func=lambda choice: "Your run (the sidebar's, at its step)" if choice == tokenizers.OURS else tokenizers.pretrained_label(choice),
    )
    texts = [*NEW_TEXTS, OWN]
    right.selectbox(
        "with new text", texts, **extension.NEW.widget(options=texts),
        format_func=lambda key: "Your own text" if key == OWN else NEW_TEXTS[key].title,
    )
    if extension.NEW.get() == OWN:
        st.text_area("Your text (Ctrl+Enter to apply)", height=120, **extension.OWN_TEXT.widget(), placeholder="Paste text in the language or domain to add")
    left, right = st.columns(2)
    left.number_input("New merges, at most", 1, extension.MAX_ADD, step=50, **extension.ADD.widget())
    right.number_input(
        "Minimum count of a new merge's pair", 1, 1000, **extension.LEAST.widget(),
        help="2: a pair seen once is not merged (it would only memorise the text). 1: merge until every word is one token.",
    )


def lesson(trace, text: str, anchor, key: tuple) -> None:
    """The new merge at the lesson's moment: its narration, the pair counts before it, the new text around it."""
    total = len(trace.steps)
    at = lesson_stepper(
        extension.AT, total, key="extend", name="New merge shown",
        label=lambda step: f"New merge {step:,} of {total:,}" if step else f"Before the new merges ({total:,} to come)",
    )
    narration = narrate_step(trace, at)
    show_html(narration.headline_html(aside=stats_html(step_stats(trace, at))))
    show_html(narration.why_html())
    if total:
        show_chart(shared_view(anchor, "extension pairs", *key, at, build=lambda: pair_chart(trace, max(at, 1)).to_dict()), renderer="svg")
    starts = shared_view(anchor, "extension starts", *key, build=lambda: chunk_starts(
        text, Tokenizer.from_trace(trace, step=0).pretokenizer, ()))
    block, _ = shared_view(anchor, "extension window", *key, at, build=lambda: window_block(trace, text, starts, step=at))
    show_html(block)


def costs(start, extended: Tokenizer, text: str, key: tuple) -> None:
    st.header("What text costs now")
    label = "your text" if extension.NEW.get() == OWN else NEW_TEXTS[extension.NEW.get()].title.split(":")[0]
    texts = {f"new: {label}": ("", text), "old text": ("", start.old_text)}
    texts |= {f"{sentence.language}": (sentence.script, sentence.text) for sentence in ARTICLE_1}
    rows = shared_view(start.anchor, "extension costs", *key, build=lambda: cost_rows(start.tokenizer, extended, texts))
    new, old = rows[0], rows[1]
    st.markdown(
        f"The new text: **{new.before:,} → {new.after:,} tokens** ({new.before / new.bytes:.3f} → {new.after / new.bytes:.3f} "
        f"tokens per byte). The old text ({escape_markdown(start.old_what)}): **{old.before:,} → {old.after:,} tokens**"
        + (" (unchanged: the new merges never apply to it)." if old.before == old.after else
           f" ({old.after - old.before:+,}: some new merges apply to it too).")
    )
    show_chart(cost_chart(rows, before=start.name, after="extended").to_dict())
    st.dataframe(
        cost_frame(rows), hide_index=True, width="stretch",
        column_config={
            "tokens per byte before": st.column_config.NumberColumn(format="%.3f"),
            "tokens per byte after": st.column_config.NumberColumn(format="%.3f"),
        },
    )


def main() -> None:
    page_setup(pages.EXTEND)
    settings_sidebar()
    page_title(pages.EXTEND)
    st.caption(
        "Continue training a tokenizer on new text, keeping every merge it has: the new merges are ranked after "
        "the old ones and get new ids after its last, so text they never touch encodes exactly as before."
    )
    url.read_links(extension.LINKED)
    if extension.FROM.get() != tokenizers.OURS:  # ours: the run's own top says them (ui.preamble.current_run)
        url.show_url_warnings()
    presenting = presenter()
    if not presenting:
        choices()
    start = extension.chosen_start()
    text = extension.new_text()
    if not text.strip():
        st.info("Paste the text to extend the tokenizer with: a language, a domain, your own writing.", icon="ℹ️")
    built = None if start is None or not text.strip() else extension.extension(start, text)
    if built is not None:
        trace, extended = built
        key = (start.step, text_key(text), extension.ADD.get(), extension.LEAST.get())
        grown = growth(trace)
        st.caption(f"{escape_markdown(start.name)}: {escape_markdown(grown.sentence())} ({escape_markdown(trace.stop_detail)})")
        lesson(trace, text, start.anchor, key)
    if presenting:
        with st.container(key="bpe-below"):
            choices()
    if built is not None:
        costs(start, extended, text, key)
        if trace.steps:
            st.info(trade_off(new_tokens=grown.new_tokens, first_id=grown.first_id, name=escape_markdown(start.name)), icon=":material/memory:")
        st.header("Download the extended tokenizer")
        stem = f"{extension.FROM.get()}-extended-{len(trace.steps)}"
        download_cards(shared_view(start.anchor, "extension files", *key, build=lambda: export_offers(extended, stem=stem)), stem=stem, key="extended")
    url.write_url(extension.link_params(), lab=extension.FROM.get() == tokenizers.OURS)


main()
