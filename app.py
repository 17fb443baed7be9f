"""BPE Lab's home page: what byte-pair encoding is, and a gallery of examples to open; and the server.

``streamlit run app.py`` finds ``app`` (an ``st.App``) at the bottom of this file and serves it: a server
that imports every page's modules as it starts (:mod:`ui.server_start`), so that no learner's first
visit waits on them. Each session's run of the page is the ``__main__`` branch.
"""

import streamlit as st

from bpe.app import pages
from bpe.app.lab_state import OWN_TABLE_SOURCE, OWN_TEXT_SOURCE, SOURCES, LabState
from bpe.teaching.tour import TOUR
from bpe.training.presets import PRESETS
from ui import lesson_chooser, url
from ui.classroom_views import join_box
from ui.render import page_setup
from ui.server_start import lifespan


def home() -> None:
    """The page: what BPE is, the tour, lessons, the examples and the list of pages."""
    page_setup(pages.HOME)
    with st.container(key="bpe-home"):  # marks the home page: the page's CSS keeps its descriptions on a phone
        st.title("BPE Lab: byte-pair encoding, step by step")
    if lesson_chooser.plan_on_top():  # Home's second place: the lesson's plan is the first screen
        lesson_chooser.home_walk()
        with st.container(border=True, key="bpe-lesson-plan"):
            lesson_chooser.plan(lesson_chooser.chooser())
    join_box()  # first, for a student whose phone opened the app to type the code on the projector
    st.markdown(
        "**Byte-pair encoding (BPE)** turns text into tokens the way GPT-2, GPT-4 and most language models do. "
        "It starts from single bytes (or characters), counts how often each **pair of neighbouring tokens** "
        "occurs, and **merges the most frequent pair** into one new token. Repeat a few thousand times and "
        "frequent words and word pieces (` the`, `ing`, `est`) become single tokens, while any text can "
        "still be written with the bytes underneath. The list of merges, in order, *is* the tokenizer: "
        "encoding new text replays them."
    )
    st.markdown(
        "Pick an example below to open it **step by step**: at each merge you see which pair won and why "
        "(ties are common, and each library breaks them its own way), the corpus re-segmented, and how "
        "much it shrank. Then **encode and decode** new text with the merges learned so far, and explore "
        "the **vocabulary** and each token's merge tree."
    )

    st.page_link(
        pages.WHY.file, label=f"{pages.WHY.title}: {pages.WHY.blurb}", icon=pages.WHY.icon,
        help="Strawberry's r's, long numbers, Hindi, Python's spaces, glitch tokens: what a model gets wrong and which merge is why",
    )
    if not lesson_chooser.plan_on_top():
        lesson_chooser.home_walk()  # a clicker's PageDown: the welcome, the lesson's plan, then its first page

    st.header("A guided tour in five steps")
    st.caption("Each step opens the page that shows it, already set up, with a link on to the next step.")
    for number, (column, step) in enumerate(zip(st.columns(len(TOUR)), TOUR), start=1):
        with column.container(border=True, height="stretch"):
            st.markdown(f"**{number}. {step.title}**")
            st.caption(step.body)
            target = pages.page_for(step.page)
            st.page_link(step.page, label="Open", icon=target.icon, help=f"Opens {target.title}", query_params=step.link_params(number))
            st.caption(f"on *{target.title}*")

    if not lesson_chooser.plan_on_top():
        st.header("Teach a lesson with a clicker")
        st.caption(
            "A lesson is pages in order, each opened at its first place: PageDown walks a page, then opens the next "
            "one; PageUp goes back. Choose one, or order your own; the address bar keeps it, for a bookmark."
        )
        with st.container(border=True, key="bpe-lesson-plan"):
            lesson_chooser.plan(lesson_chooser.chooser())

    st.header("Examples")
    cards = [
        (name, preset.title, preset.description,
         f"{preset.settings.unit} · {preset.settings.pretokenizer} · ties: {preset.settings.tie_break} · "
         f"{preset.settings.target_merges(0):,} merges")
        for name, preset in PRESETS.items()
    ] + [
        (OWN_TEXT_SOURCE, SOURCES[OWN_TEXT_SOURCE], "Paste text or upload a .txt file, then choose every setting yourself.",
         "byte · gpt2 · ties: first-seen · 30 merges"),
        (OWN_TABLE_SOURCE, SOURCES[OWN_TABLE_SOURCE], "Type words and their counts in a table, as in the Sennrich paper.",
         "char · </w> · ties: first-seen · 15 merges"),
    ]
    for row in range(0, len(cards), 4):
        columns = st.columns(4)
        for column, (name, title, description, facts) in zip(columns, cards[row:row + 4]):
            with column.container(border=True, height="stretch"):  # a fixed height scrolls, out of keyboard reach, in presenter mode
                st.markdown(f"**{title}**")
                st.caption(description)
                st.caption(f"`{facts}`")
                st.page_link(pages.TRAIN.file, label="Open step by step", icon=":material/play_circle:", query_params=LabState.for_source(name).to_query())

    st.divider()
    left, right = st.columns(2)
    left.markdown(
        "**The pages** (each is in the sidebar)\n"
        + "".join(f"- **{page.title}** — {page.blurb}\n" for page in pages.PAGES if page is not pages.HOME)
        + "\nTeaching a class? Switch on **Presenter mode** in the sidebar for large type, and on **Predict the next "
        "merge** start a class room: every student answers on their phone, the projector shows the room."
    )
    right.markdown(
        "**Sharing a view**\n\n"
        "The address bar always holds the example, the settings and the step (never your own text): copy it "
        "to show a class exactly this merge."
    )
    url.write_url(lab=False)  # the lesson chosen (and presenter mode) stay in Home's link


if __name__ == "__main__":  # a session's run: Streamlit runs every page as __main__
    home()
else:  # `streamlit run app.py` imports this file once, as the module `app`, for the server below
    app = st.App(__file__, lifespan=lifespan)  # it imports every page's modules before it serves (ui/server_start.py)
