"""What was it trained on? A tokenizer's merge list says, through Hayase et al.'s linear program.

First on runs whose answer we know: the learner sets a mix of categories (the Declaration's languages,
code, python-docs, their own text) and the number of merges; BPE Lab trains on it, infers the mix from
the merges alone, and shows the inferred shares beside the true ones and the error after 100, 300,
1,000... merges. Then on the pretrained tokenizers, with what stands in for their unknown data and how
far to trust it. Both run on the server's job board (``ui.analysis_jobs``), outside the page, shared by everyone who
asks the same; the engine is :mod:`bpe.analysis.mixture`, the words :mod:`bpe.teaching.lineage`.
"""

import random

import streamlit as st

from bpe.analysis.samples import CATEGORIES
from bpe.app import pages
from bpe.limits import MAX_OWN_SAMPLE_CHARS
from bpe.notation.markdown import escape_markdown
from bpe.pretrained.registry import PRETRAINED
from bpe.teaching.lineage import HOW_FAR, MIXTURE_PLACES, STAND_INS
from bpe.views.mixture import error_chart, error_frame, mix_chart, mix_frame
from ui import analysis_jobs, links, url
from ui.clicker import pills_walk
from ui.render import page_setup, page_title, show_chart
from ui.state import SessionValue, widget_key

OWN = "own"
"""The learner's own text as a category."""
DEFAULT_MIX = {"eng": 40, "fra": 20, "hin": 10, "code": 30}
MIX = SessionValue("mix_shares", factory=lambda: dict(DEFAULT_MIX))
"""Category -> share in percent (normalised when trained), in the order chosen."""
OWN_TEXT = SessionValue("mix_own_text", "")
MERGES = SessionValue("mix_merges", 3_000)
HELD_OUT = SessionValue("mix_held_out", False)
PRETRAINED_NAME = SessionValue("mix_pretrained", "gpt2")
PRETRAINED_MERGES = SessionValue("mix_pretrained_merges", 1_000)
ASKED = SessionValue("mix_asked", factory=dict)
"""Task -> the request this session last asked the board for (the page shows that job while its request stands)."""
MAX_PRETRAINED_MERGES = 3_000
TITLES = {key: category.title for key, category in CATEGORIES.items()} | {OWN: "Your text"}
PLACES = {place.key: place for place in MIXTURE_PLACES}
VIEW = SessionValue("mix_view", MIXTURE_PLACES[0].key)
"""The part of the lesson shown (``view=``; PageDown / PageUp walk the two)."""


def read_url() -> None:
    url.read(links.MIX_VIEW, VIEW)
    url.read(links.MIX, MIX)
    url.read(links.MIX_MERGES, MERGES)
    url.read(links.MIX_OF, PRETRAINED_NAME)


def choose_mix() -> dict[str, int]:
    chosen = st.multiselect(
        "Categories in the training data", [*CATEGORIES, OWN], default=list(MIX.get()), format_func=TITLES.get,
        key=widget_key("mix", "categories"), help="Two to six make a mix a learner can read; any number works.",
    )
    current = MIX.get()
    shares = {key: current.get(key, 10) for key in chosen}
    columns = st.columns(min(max(len(chosen), 1), 4))
    for index, key in enumerate(chosen):
        shares[key] = columns[index % len(columns)].number_input(
            f"{TITLES[key]} (%)", 1, 100, value=shares[key], step=5, key=widget_key("mix", "share", key))
    if shares != current:
        MIX.set(shares)
    if OWN in chosen:
        st.text_area("Your text, a category of its own (Ctrl+Enter to apply)", height=100, max_chars=MAX_OWN_SAMPLE_CHARS,
                     **OWN_TEXT.widget())
    return shares


def random_mix() -> None:
    keys = random.sample(list(CATEGORIES), random.randint(3, 6))
    MIX.set({key: random.randint(5, 60) for key in keys})
    for key in keys:
        st.session_state.pop(widget_key("mix", "share", key), None)
    st.session_state.pop(widget_key("mix", "categories"), None)


def known_request(shares: dict[str, int]) -> dict | None:
    total = sum(shares.values())
    own = OWN_TEXT.get().strip()
    if len(shares) < 2:
        st.info("Choose two categories or more: a mix of one is no question.", icon="ℹ️")
        return None
    if OWN in shares and not own:
        st.info("Paste your text, or leave your own text out of the mix.", icon="ℹ️")
        return None
    return {
        "categories": [key for key in shares if key != OWN], "own": {OWN: own} if OWN in shares else {},
        "truth": {key: share / total for key, share in shares.items()}, "merges": MERGES.get(), "held_out": HELD_OUT.get(),
    }


def show_known(result: dict) -> None:
    last = result["estimates"][-1]
    st.markdown(f"**After all {last['merges']:,} merges, the inferred shares are off by {last['error']:.2%} on average** "
                f"(mean absolute error over every category, {len(last['proportions'])} weighed).")
    left, right = st.columns([3, 2], gap="large")
    frame = mix_frame(result["truth"], last["proportions"], TITLES)
    with left:
        show_chart(mix_chart(frame).to_dict())
    with right:
        st.markdown("**The error as more merges are read**")
        show_chart(error_chart(error_frame(result["estimates"])).to_dict())
    st.dataframe(frame, hide_index=True, width="stretch",
                 column_config={name: st.column_config.NumberColumn(format="percent") for name in ("true share", "inferred share", "difference")})
    with st.expander("How it was solved"):
        st.markdown("\n".join(
            f"- first **{e['merges']:,}** merges ({e['informative']:,} seen in a sample): error {e['error']:.2%}, "
            f"{e['constraints']:,} constraints in the last of {e['solves']} solves, slack {e['merge_slack'] + e['pair_slack']:,.0f}"
            for e in result["estimates"]))


def known_mix() -> None:
    st.header(PLACES["known"].title)
    shares = choose_mix()
    row = st.container(horizontal=True, vertical_alignment="center")
    row.number_input("Merges", 100, links.MAX_KNOWN_MIX_MERGES, step=100, **MERGES.widget())
    row.toggle("Judge on held-out text", **HELD_OUT.widget(),
               help="Train on half of each text (alternate lines) and infer from the other half: samples that are not the "
                    "training data itself, as with a real tokenizer. Noisier, and slower: the program needs slack.")
    row.button("Random mix", icon=":material/casino:", key=widget_key("mix", "random"), on_click=random_mix)
    request = known_request(shares)
    if request is None:
        return
    if row.button("Train and infer", type="primary", icon=":material/play_arrow:", key=widget_key("mix", "run")):
        ASKED.set({**ASKED.get(), "known-mix": request})
    show_job("known-mix", request, show_known, waiting="Press **Train and infer**: training and the inference take a few "
             "seconds to a minute.", what="Training on the mix, then reading it back from the merges")


def show_job(task: str, request: dict, show, *, waiting: str, what: str) -> None:
    """The job's result once this session asked for it (the board shares it: a classmate's same mix is done)."""
    if ASKED.get().get(task) != request:
        st.caption(waiting)
        return
    view = analysis_jobs.job(task, request)
    result = analysis_jobs.result(view)
    if view.error:
        st.error(escape_markdown(view.error), icon="🛑")
    elif result is None:
        analysis_jobs.progress(task, request, what=what)
    else:
        show(result)


def show_pretrained(result: dict) -> None:
    title = PRETRAINED[result["name"]].title
    slack = result["merge_slack"] + result["pair_slack"]
    st.markdown(f"**{escape_markdown(title)}'s first {result['merges']:,} merges** ({result['informative']:,} of them seen in a "
                f"sample) are best explained by this mix; slack {slack:,.0f}" + (f", within {result['gap']:.0%} of the least" if result["gap"] else ""))
    show_chart(mix_chart(mix_frame(None, result["proportions"], TITLES)).to_dict())


def pretrained_mix() -> None:
    st.header(PLACES["real"].title)
    row = st.container(horizontal=True, vertical_alignment="center")
    names = list(PRETRAINED)
    row.selectbox("Tokenizer", names, format_func=lambda name: PRETRAINED[name].title, **PRETRAINED_NAME.widget(options=names))
    row.number_input("Merges", 100, MAX_PRETRAINED_MERGES, step=100, **PRETRAINED_MERGES.widget())
    request = {"name": PRETRAINED_NAME.get(), "categories": list(CATEGORIES), "own": {}, "merges": PRETRAINED_MERGES.get()}
    if row.button("Infer", type="primary", icon=":material/play_arrow:", key=widget_key("mix", "infer")):
        ASKED.set({**ASKED.get(), "pretrained-mix": request})
    st.markdown(STAND_INS)
    show_job("pretrained-mix", request, show_pretrained, what="Reading the tokenizer's merges over the samples, then solving",
             waiting="Press **Infer**: reading the tokenizer and solving takes from seconds to minutes.")
    st.markdown(HOW_FAR)


def walk() -> str:
    return pills_walk("Part of the lesson", "part", tuple(PLACES), VIEW, lambda key: PLACES[key].title)


def main() -> None:
    page_setup(pages.MIXTURE)
    page_title(pages.MIXTURE)
    st.caption("A merge list is a record of its data: merge t was the most frequent pair after merges 1..t-1, so every merge "
               "is a set of inequalities over the unknown shares of the training mix (Hayase et al., NeurIPS 2024).")
    read_url()
    url.show_url_warnings()
    view = walk()
    st.caption(PLACES[view].explanation)
    if view == "known":
        known_mix()
    else:
        pretrained_mix()
    linked = {key: share for key, share in MIX.get().items() if key != OWN}  # the learner's text stays out of the link
    url.write_url({links.MIX: linked if len(linked) >= 2 else None, links.MIX_MERGES: MERGES.get(),
                   links.MIX_OF: PRETRAINED_NAME.get(), links.MIX_VIEW: VIEW.get()}, lab=False)


main()
