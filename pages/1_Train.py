"""Train, step by step: pick a corpus and settings, then walk through the merges one at a time.

At step k everything on the page describes merge k: the narration, the pair counts just before
it, the corpus just before it (the pair's places numbered) and just after it (the new tokens
outlined), one click or key apart, the merges and vocabulary so far, and where k sits on the
compression curve. Step 0 is the corpus before any merge, with merge 1's places numbered.
"""

import streamlit as st

from bpe.app import pages
from bpe.training.trace import STOP_MIN_FREQUENCY, STOP_NO_PAIRS
from bpe.views.charts import (
    COMPRESSION_FIELDS, compression_chart, pair_chart, pair_legend_html, pair_rows, with_rows, with_step,
)
from bpe.views.corpus_window import MAX_WINDOW_TOKENS, WINDOW_TOKENS, run_chunk_starts
from bpe.views.narration import narrate_step
from bpe.views.occurrences import pairs_after_training, training_corpus
from bpe.views.stats import stats_html, step_stats
from bpe.views.tables import latest_rows_html, merges_frame
from bpe.views.train_step import corpus_block, stop_html, window_block
from ui import state, url
from ui.state import LAB, SessionValue, widget_key
from ui.code_panel import train_code
from ui.render import can_name, names_for, page_setup, page_title, presenter, show_chart, show_html
from ui.retrain import retrain_notice_for
from ui.shared_views import shared_view
from ui.training import Trained, clamp_step, get_trained
from ui.stepper import HOLD_BEFORE, step_fragment, stepper
from ui.settings_sidebar import BASE_SIZE, settings_sidebar
from ui.widgets import corpus_box

CORPUS_TOKENS = SessionValue("corpus_tokens", WINDOW_TOKENS)
"""About how many tokens of a long corpus a step draws ("Show more" widens it)."""


def _table_height(rows: int) -> int:
    """Fit small tables (no empty rows on a projector), scroll big ones."""
    return min(36 * (rows + 1) + 3, 360)


def corpus_view(trained: Trained, step: int, names: dict[int, str], *, hold_before: bool, tokens: int) -> tuple[str, bool]:
    """``(HTML, windowed)``: the corpus before and after merge ``step`` as one block: a word table
    whole, a text as about ``tokens`` tokens around the merge's first place (``windowed``: there
    is more of the text than that)."""
    trace = trained.trace
    if trained.table is not None:
        return corpus_block(trace, table=trained.table, step=step, names=names, hold_before=hold_before), False
    text = trained.text
    # Once per run: where the run's pre-tokenizer cuts the whole text (a window never cuts a chunk).
    starts = shared_view(trained, "chunk starts", build=lambda: run_chunk_starts(text, trace))
    return window_block(trace, text, starts, step=step, tokens=tokens, names=names, hold_before=hold_before)


def main() -> None:
    page_setup(pages.TRAIN)
    settings_sidebar()
    page_title(pages.TRAIN)
    st.caption(
        "Byte-pair encoding counts every pair of adjacent tokens, merges the most frequent pair into a "
        "new token, and repeats. Step through the merges and watch each one happen in the corpus."
        + (" This run merges by WordPiece's score instead, count(ab) / (count(a) × count(b)): the Merge rule "
           "in the sidebar." if state.lab().objective == "wordpiece" else ""),
    )
    url.show_url_warnings()
    presenting = presenter()
    above = None if presenting else st.container()  # the Corpus box, drawn once training says whether to fold it
    trained = get_trained(state.lab())
    if above is not None or trained is None:
        with above or st.container():
            corpus_box(trained=trained is not None)
    if trained is None:
        url.write_url()
        return
    BASE_SIZE.set(len(trained.trace.base))
    clamp_step(trained)
    # Everything that depends on the step is one fragment: Next, Previous, the slider, play, why, the
    # names toggle and the tables' tabs rerun (and redraw) only it, not the sidebar, the title and
    # the corpus editor, so a step costs the browser only what changed.
    step_fragment(step_view, trained)
    if presenting:  # the projector's first screen is the lesson; the corpus to edit comes after it
        with st.container(key="bpe-below"):
            corpus_box(trained=True)


def step_view(trained: Trained) -> None:
    """The stepper and everything it drives: the merge's headline, numbers and narration, the pair
    counts beside the corpus before and after the merge, then the merges, vocabulary and
    compression in tabs; then the URL (inside the fragment, so a fragment rerun updates it too).

    Laid out for one screen (1366x768, a 1280x720 projector, a 390x844 phone): controls, headline,
    chart and corpus are all visible without scrolling; a long corpus scrolls inside its panel.
    Every element here is redrawn by the browser on every step, so the view is a few large
    elements rather than many small ones, all computed before the first is drawn (one burst)."""
    trace = trained.trace
    total = len(trace.steps)
    step = state.lab().step  # what the stepper will show: its callbacks ran before this rerun
    names = names_for(trained)
    options = tuple(sorted(names.items()))  # besides the run and the step, what the views depend on

    # Built once per (run, step, options) for the whole server and shared: a class on one example
    # builds each step once (ui.shared_views).
    header = shared_view(trained, "header", step, options, build=lambda: narrate_step(trace, step, names=names).headline_html(
        aside=stats_html(step_stats(trace, step))
    ))
    why = shared_view(trained, "why", step, options, build=lambda: narrate_step(trace, step, names=names).why_html()) \
        if url.WHY.get() else None
    if total:
        template = shared_view(trained, "pair chart", options, build=lambda: pair_chart(trace, 1, names).to_dict())
        pairs_spec = shared_view(trained, "pairs", step, options,
                                 build=lambda: with_rows(template, pair_rows(trace, step, names).to_dict("records")))
    hold_before, tokens = HOLD_BEFORE.get(), CORPUS_TOKENS.get()
    corpus, windowed = shared_view(trained, "corpus", step, options, hold_before, tokens,
                                   build=lambda: corpus_view(trained, step, names, hold_before=hold_before, tokens=tokens))
    if total and step == total:
        stop_pairs = shared_view(trained, "stop pairs", build=lambda: pairs_after_training(
            trace, training_corpus(trace, text=trained.text, table=trained.table)
        ))
        corpus += stop_html(trace, stop_pairs, names)

    stepper(total)
    retrained = retrain_notice_for(trained)
    if retrained:
        st.info(retrained, icon=":material/restart_alt:")
    show_html(header)
    if why is not None:
        with st.container(key="bpe-why"):
            show_html(why)

    with st.container(key="bpe-step-panels"):
        left, right = st.columns([1, 1.35], gap="medium")
    with left:
        if total:
            show_chart(pairs_spec, renderer="svg")
            show_html(pair_legend_html(step, scored=bool(trace.scores)))
        else:
            # the corpus itself gave nothing to merge (empty, one character...): a problem to fix
            (st.warning if trace.stop_reason in (STOP_NO_PAIRS, STOP_MIN_FREQUENCY) else st.info)(
                f"No merge to show: {trace.stop_detail}."
            )
    with right:
        show_html(corpus)
        more = windowed and tokens * 4 <= MAX_WINDOW_TOKENS
        if more or tokens != WINDOW_TOKENS:
            st.button(
                "Show more of the corpus" if more else "Show less of the corpus", key=widget_key("corpus_more"),
                icon=":material/unfold_more:" if more else ":material/unfold_less:", type="tertiary",
                on_click=CORPUS_TOKENS.set, args=(tokens * 4 if more else WINDOW_TOKENS,),
            )
        if can_name(trace):
            st.toggle("Name new tokens as Wikipedia does (Z, Y, X, …)", **LAB.field_widget("names"))

    # Only the open tab is drawn (a tab switch reruns the step fragment): one table or chart pair per step.
    merges_tab, vocab_tab, compression_tab, code_tab = st.tabs(
        ["Merges so far", "Vocabulary so far", "Compression", "The code"], key=widget_key("tables"), on_change="rerun",
    )
    if merges_tab.open or vocab_tab.open:
        frame = shared_view(trained, "merges", options, build=lambda: merges_frame(trace, names))
    if merges_tab.open:
        with merges_tab:
            show_html(
                shared_view(trained, "latest merges", step, options, build=lambda: latest_rows_html(frame, upto=step, what="merges"))
                + '<p class="bpe-legend">Latest merge first. count: occurrences of the pair; tie: how many pairs '
                "shared that count. The Vocabulary page lists every merge.</p>"
                if step else '<p class="bpe-legend">No merge yet: press Next.</p>'
            )
    if vocab_tab.open:
        with vocab_tab:
            learned = frame.iloc[:step][["id", "token", "step", "count"]].iloc[::-1]
            st.dataframe(learned, hide_index=True, width="stretch", height=_table_height(step))
            special = f" + {len(trace.special_ids)} special" if trace.special_ids else ""
            st.caption(
                f"{trace.vocab_size(step):,} tokens: {len(trace.base):,} base + {step:,} learned{special}. "
                "The Vocabulary page lists every one, with merge trees."
            )
    if compression_tab.open:
        with compression_tab:
            for column, field in zip(st.columns(2), COMPRESSION_FIELDS):
                template = shared_view(trained, "compression", field, build=lambda: compression_chart(trace, 0, field).to_dict())
                show_chart(with_step(template, step), column)
            st.caption(f"The diamond marks step {step}. The run stopped after {total:,} merges: {trace.stop_detail}.")
    if code_tab.open:
        with code_tab:
            train_code(trace, step)
    url.write_url()


main()
