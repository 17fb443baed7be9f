"""Counting lab: how often a pair is *counted* beside how often a merge can *replace* it.

Trainers count pairs with overlap ("aaaa" holds a + a three times: at 0, 1 and 2), but a merge
replaces left to right without overlap ("aaaa" -> "aa aa": two replacements). Both are shown on
the text, occurrence by occurrence.
"""

from collections.abc import Callable

import streamlit as st

from bpe.app import pages
from bpe.limits import MAX_COUNTING_LAB_CHARS
from bpe.notation.markdown import escape_markdown, inline_code
from bpe.notation.spelling import quote
from bpe.teaching.counting import count_pair, pairs_present, symbols_of
from bpe.views.labs import counting_html, merged_html, pair_counts_html
from bpe.views.stats import Stat, stats_html
from ui import links, url
from ui.clicker import Walk, walk_buttons
from ui.render import page_setup, page_title, presenter, show_html
from ui.state import SessionValue, widget_key

EXAMPLES = ("aaaa", "aaabdaaabac", "banana bandana", "ööö")
"""The one-click examples: the clicker's lesson."""
UNITS = {"char": "characters", "byte": "UTF-8 bytes"}
TEXT = SessionValue("count_text", "aaaa")
PAIR = SessionValue("count_pair", ("a", "a"))
"""``(left, right)`` spellings of the pair counted."""
UNIT = SessionValue("count_unit", "char")


def _load(example: str) -> None:
    """An example, with its most counted pair (a pair the last text had may not occur in this one)."""
    TEXT.set(example)
    symbols = symbols_of(example, unit=UNIT.get())
    spelled = {symbol.id: symbol.text for symbol in symbols}
    top = pairs_present(symbols)[0]
    PAIR.set((spelled[top.left], spelled[top.right]))


def _pair_half(index: int) -> Callable[[str], None]:
    """A link's ``left`` (0) or ``right`` (1) symbol into the pair counted, the other half kept."""
    return lambda symbol: PAIR.set(tuple(symbol if place == index else kept for place, kept in enumerate(PAIR.get())))


def inputs() -> None:
    st.text_area("Text (Ctrl+Enter to apply)", height=80, max_chars=MAX_COUNTING_LAB_CHARS, **TEXT.widget())
    row = st.container(horizontal=True, vertical_alignment="center")
    row.caption("Try:")
    for example in EXAMPLES:
        row.button(escape_markdown(example), key=widget_key("count_example", example), on_click=_load, args=(example,))
    left, right, unit = st.columns([1, 1, 2])
    pair = PAIR.get()
    left.text_input("Left symbol", **PAIR.item_widget(0, "count_left", shown=pair[0]))
    right.text_input("Right symbol", **PAIR.item_widget(1, "count_right", shown=pair[1]))
    unit.radio(
        "Symbols are", list(UNITS), format_func=UNITS.get, horizontal=True, **UNIT.widget(),
        help="Before any merge a byte-level tokenizer sees bytes (é is two of them); a character-level one characters.",
    )


def pair_buttons(top: list, spelled: dict[int, str]) -> None:
    """The most counted pairs of the text, one click each."""
    if not top:
        return
    row = st.container(horizontal=True, vertical_alignment="center")
    row.caption("Count another pair:")
    for pair in top[:6]:
        left, right = spelled[pair.left], spelled[pair.right]
        row.button(
            escape_markdown(f"{quote(left)} + {quote(right)}"), key=widget_key("count_pair", pair.left, pair.right),
            on_click=PAIR.set, args=((left, right),), icon=":material/merge:",
        )


def main() -> None:
    page_setup(pages.COUNTING_LAB)
    page_title(pages.COUNTING_LAB)
    st.caption(
        "Training counts every occurrence of a pair, overlaps included; merging replaces occurrences left to "
        "right and cannot reuse a symbol. So a count can promise more merges than a merge delivers."
    )
    url.read(links.COUNT_TEXT, TEXT)
    url.read(links.LEFT, _pair_half(0))
    url.read(links.RIGHT, _pair_half(1))
    walk_buttons(Walk("example", tuple(EXAMPLES), TEXT.get, _load))
    presenting = presenter()
    if not presenting:  # a projector's first screen is the lesson: the inputs follow it
        inputs()
    text = TEXT.get()
    unit = UNIT.get()
    left, right = PAIR.get()
    symbols = symbols_of(text, unit=unit)
    top = pairs_present(symbols)
    spelled = {symbol.id: symbol.text for symbol in symbols}
    if not text:
        st.info("Type a text, or pick one of the examples.", icon="✏️")
    else:
        lesson(text, unit, (left, right), top, spelled, presenting=presenting)
    with st.container(key="bpe-below"):
        if presenting:
            inputs()
        pair_buttons(top, spelled)
    url.write_url({links.COUNT_TEXT: text, links.LEFT: left, links.RIGHT: right}, lab=False)


def lesson(text: str, unit: str, pair: tuple[str, str], top: list, spelled: dict[int, str], *, presenting: bool) -> None:
    """First every pair and its count, as a learner would tally them; then the subtlety: one pair,
    counted with overlaps, and what one merge of it replaces (side by side when ``presenting``)."""
    st.header("Every pair of neighbours, counted")
    show_html(pair_counts_html([(spelled[p.left], spelled[p.right], p.count) for p in top], chosen=pair))
    left, right = pair
    try:
        if not left or not right:
            raise ValueError("type one symbol on each side of the pair (for example a and a)")
        tally = count_pair(text, (left, right), unit=unit)
    except ValueError as error:
        st.error(f"**Cannot count this pair:** {escape_markdown(error)}.", icon="🛑")
        return
    shown = f"{inline_code(left)} + {inline_code(right)}"
    lost = len(tally.overlapped)
    named = f"{quote(left)} + {quote(right)}"
    st.header(  # the heading says what this text shows: an overlap-free pair's merge replaces every occurrence
        f"But one merge of {named} replaces fewer" if lost
        else f"One merge of {named} replaces every occurrence" if tally.count else f"Counting {named}"
    )
    show_html(stats_html([
        Stat("Counted (with overlap)", f"{tally.count:,}"),
        Stat("Replaced by one merge", f"{tally.replacements:,}"),
        Stat("Counted but not replaced", f"{lost:,}"),
    ]))
    # Side by side on a projector: one above the other, the sentence that draws the lesson's conclusion
    # fell below its 1280x720 screen, under the lesson bar.
    counted, replaced = st.columns(2, gap="large") if presenting else (st.container(), st.container())
    with counted:
        show_html(f'<p class="bpe-legend">Counted: every occurrence, overlaps included</p>{counting_html(tally)}')
        st.caption(
            "Each numbered badge sits between the two symbols of one counted occurrence. Solid orange: the merge "
            "replaces it. Dashed: it overlaps the occurrence before it (they share a symbol), so it is counted "
            "but cannot be replaced."
        )
    before, after = len(tally.symbols), len(tally.merged_texts())
    with replaced:
        show_html(
            f'<p class="bpe-legend">Replaced: the text after merging, left to right ({before:,} symbols → {after:,})</p>'
            + merged_html(tally)
        )
        st.caption("The outlined tokens are the new ones, each numbered in the order the merge makes it.")
    opening = f"The pair {shown} is counted **{tally.count}** time{'s' if tally.count != 1 else ''}"
    if lost:
        st.markdown(
            f"{opening}, but one merge replaces it only **{tally.replacements}** "
            f"time{'s' if tally.replacements != 1 else ''}: {lost} occurrence{'s' if lost != 1 else ''} "
            f"overlap{'s' if lost == 1 else ''} the one before, whose symbols the merge has already taken. Trainers "
            "still rank pairs by the overlapping count (minbpe, tiktoken and Hugging Face all do), which is why "
            "'aaaa' can look like a better merge than it is."
        )
    elif tally.count:
        every = "it" if tally.count == 1 else f"all **{tally.count}**"
        st.markdown(f"{opening}, and one merge replaces {every}: here no occurrence overlaps another, so the two numbers agree.")
    else:
        st.info(f"The pair {shown} does not occur in this text: pick one of the pairs counted above.", icon="🔍")


main()
