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
from bpe.notation.markdown import escape_markdown
from bpe.pretrained.registry import PRETRAINED
from bpe.teaching.extension import NEW_TEXTS, OWN, growth, trade_off
from bpe.views.charts import pair_chart
from bpe.views.corpus_window import chunk_starts
from bpe.views.exports import offers_of
from bpe.views.extension import cost_chart, cost_frame
from bpe.views.narration import narrate_step
from bpe.views.stats import stats_html, step_stats
from bpe.views.train_step import window_block
from ui import extension, tokenizers, url
from ui.exports import download_cards
from ui.lesson import lesson_stepper
from ui.render import page_setup, page_title, presenter, show_chart, show_html
from ui.settings_sidebar import settings_sidebar
from ui.shared_views import shared_view


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


def lesson(trace, text: str, start, key: tuple) -> None:
    """The new merge at the lesson's moment: its narration, the pair counts before it, the new text around it."""
    total, anchor = len(trace.steps), start.anchor
    at = lesson_stepper(
        extension.AT, total, key="extend", name="New merge shown",
        label=lambda step: f"New merge {step:,} of {total:,}" if step else f"Before the new merges ({total:,} to come)",
    )
    narration = narrate_step(trace, at)
    show_html(narration.headline_html(aside=stats_html(step_stats(trace, at))))
    show_html(narration.why_html())
    if total:
        show_chart(shared_view(anchor, "extension pairs", *key, at, build=lambda: pair_chart(trace, max(at, 1)).to_dict()), renderer="svg")
    # the old tokenizer's split is the run's (an extension keeps it)
    starts = shared_view(anchor, "extension starts", *key, build=lambda: chunk_starts(text, start.tokenizer.pretokenizer, ()))
    block, _ = shared_view(anchor, "extension window", *key, at, build=lambda: window_block(trace, text, starts, step=at))
    show_html(block)


def costs(start, rows, key: tuple) -> None:
    st.header("What text costs now")
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
        trace = built.trace
        grown = growth(trace)
        st.caption(f"{escape_markdown(start.name)}: {escape_markdown(grown.sentence())} ({escape_markdown(trace.stop_detail)})")
        lesson(trace, text, start, built.key)
    if presenting:
        with st.container(key="bpe-below"):
            choices()
    if built is not None:
        if built.costs is None:
            extension.still_working(start, text, built, "What text costs now")
        else:
            costs(start, built.costs, built.key)
        if trace.steps:
            st.info(trade_off(new_tokens=grown.new_tokens, first_id=grown.first_id, name=escape_markdown(start.name)), icon=":material/memory:")
        st.header("Download the extended tokenizer")
        if built.files is None:
            if built.costs is not None:
                extension.still_working(start, text, built, "The files")
        else:
            stem = f"{extension.FROM.get()}-extended-{len(trace.steps)}"
            download_cards(offers_of(built.files, stem=stem), stem=stem, key="extended")  # the job's files, shared as they are
    url.write_url(extension.link_params(), lab=extension.FROM.get() == tokenizers.OURS)


main()
