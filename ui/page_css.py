"""The CSS every page adds on top of Streamlit's own: contrast, layout, the stepper, presenter mode.

Each rule on Streamlit's markup names its selector from :mod:`ui.streamlit_dom` (the one list of
what we rely on, checked against the pinned Streamlit by a browser test); our own classes
(``bpe-*``) are styled by the view modules that draw them. Streamlit-free: ``ui.render.page_setup``
adds :data:`A11Y_CSS`, :data:`LAYOUT_CSS` and :data:`STALE_CSS` to every page, and
:data:`PRESENTER_CSS` in presenter mode.
"""

from __future__ import annotations

from bpe.views.pointer import TOUCH

from .streamlit_dom import (
    BUTTON, CAPTION, CHOSEN_PILL, ELEMENT_CONTAINER, GRAPHVIZ, HEADER, HEADING_TEXT, HORIZONTAL_BLOCK, LAYOUT_WRAPPER, MAIN, MAIN_BLOCK,
    MARKDOWN_TEXT, PAGE_LINK_LABEL, PRIMARY_BUTTON, SECONDARY_BUTTON, SECONDARY_KIND, SELECTBOX, SHORTCUT_HINT, SKELETON, SLIDER, STALE,
    TERTIARY_KIND, VERTICAL_BLOCK, keyed,
)

STEPPER = keyed("bpe-stepper")
"""The stepper's row (``ui.stepper.stepper``: a keyed horizontal container)."""
WALK = keyed("bpe-walk-row")
"""A clicker walk's Previous / Next row (``ui.clicker.walk_buttons``: a keyed horizontal container)."""
QUIZ = keyed("bpe-quiz")
"""The quiz's question and corpus (a keyed container of ``pages/4_Predict_the_next_merge.py``)."""
HOME = keyed("bpe-home")
"""The home page's content (its descriptions are the page: a phone keeps them)."""
ROOM = keyed("bpe-room")
"""A class room's screen (``ui.classroom_views.show_room``: a keyed container)."""
ROOM_LINKS = keyed("bpe-room-screen")
"""The projector's way to the teacher's controls and to end the class (``ui.room_teacher_views``)."""
LESSON_BAR = keyed("bpe-lesson-bar")
"""Where a lesson across pages is (``ui.lesson_bar.bar``: a keyed horizontal container)."""

STALE_CSS = f"""
<style>
/* While a rerun is slow (over 0.5 s), Streamlit dims the elements it is about to replace with a
   1 s opacity fade: 60 frames of repainting every element, in every open tab, just when the machine
   is busiest. Dim them in one step after the same delay instead: the same cue, one repaint. */
{STALE} {{ transition: opacity 0s linear 0.5s !important; }}
</style>
"""

_HIDDEN = "position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%);"
"""Visually hidden, still read by screen readers."""

LAYOUT_CSS = f"""
<style>
/* Streamlit leaves a 6rem band above every page (room for its header, which is transparent here):
   keep just enough for the header's buttons, so a lesson's first screen holds the lesson. */
{MAIN_BLOCK} {{ padding-top: 2.6rem; padding-bottom: 3rem; }}
{MAIN} h1 {{ padding-top: 0; }}
/* Nothing drawn moves under the reader: what comes after an element whose code has not arrived yet
   (Streamlit's grey skeleton) waits unseen in its place. Why: a browser slow to draw (a loaded laptop;
   Chromium with its CPU slowed 6x) drew the corpus and the pair chart before the stepper's buttons,
   whose row then wrapped to two lines and pushed them 45 px down: a pointer on a bar was then on
   the bar two above it (tests/test_browser_steady_layout.py). */
{MAIN} :is({ELEMENT_CONTAINER}, {LAYOUT_WRAPPER}):has({SKELETON}) ~ * {{ visibility: hidden; }}
/* The stepper: one compact row (see ui.stepper.stepper). */
{STEPPER} {{ flex-wrap: wrap; row-gap: .3rem; }}
{WALK} {{ flex-wrap: wrap; row-gap: .3rem; }}
{WALK} > * {{ max-width: 100%; min-width: 0; }}  /* a row of pills beside the walk wraps inside the page's width */
{STEPPER} {SLIDER} {{ flex: 1 1 8rem; min-width: 8rem; padding: 0 .6rem; }}
{STEPPER} {BUTTON} button {{ min-height: 2.4rem; }}
/* A clicker's key from far down the page scrolls its buttons to the top: clear of the header's band. */
{STEPPER} {BUTTON} button, {WALK} {BUTTON} button {{ scroll-margin-top: 3.5rem; }}
{keyed("w-first-")} p, {keyed("w-last-")} p, {keyed("w-play-")} p, {keyed("w-moment-")} p {{
  {_HIDDEN} }}
.bpe-pair-legend {{ margin-top: -.6rem; }}
/* A merge tree's labels at the size its DOT asks for (Streamlit's CSS sets them all to 0.6 rem:
   8 px in a tree scaled to its column); revert-layer falls back to the SVG's font-size attribute. */
{GRAPHVIZ} svg text {{ font-size: revert-layer; }}
{PAGE_LINK_LABEL} {{ white-space: normal; }}  /* a long link wraps, as a sentence would, rather than lose its end */
.bpe-swatch {{ display: inline-block; width: .85em; height: .85em; border: 1px solid #222; vertical-align: -.08em; }}
.bpe-stop {{ margin: .3rem 0 0 0; padding: .3rem .6rem; border-left: 4px solid #D55E00; background: #FDF1E9; }}
@media (max-width: 640px) {{
  {MAIN_BLOCK} {{ padding-left: .75rem; padding-right: .75rem; padding-top: 3.8rem; }}
  {MAIN} {VERTICAL_BLOCK} {{ gap: .55rem; }}
  .bpe-layers {{ --bpe-corpus-height: none; }}  /* the page scrolls: a box in a box hid most of the corpus, with no cue to a finger */
  {MAIN} h1 {{ font-size: 1.6rem; }}
  {MAIN}:not(:has({HOME})) {CAPTION} {{ display: none; }}  /* a lesson's intro: the home page's are its content */
  {LAYOUT_WRAPPER}:has(> {keyed("bpe-why")}) {{ order: 1; }}  /* the "why" after the chart and the corpus */
  {keyed("w-tables")} {{ order: 2; }}
  {STEPPER} kbd, {STEPPER} p, {WALK} {BUTTON} kbd, {WALK} {BUTTON} p {{ {_HIDDEN} }}  /* icons only: one row (a walk's pills keep their names) */
  {STEPPER} {{ column-gap: .35rem; }}
  {STEPPER} {BUTTON} button {{ padding: 0 .5rem; min-width: 2.4rem; }}
  {STEPPER} {SELECTBOX} {{ width: 7rem !important; }}
  {STEPPER} {SLIDER} {{ flex-basis: 100%; }}
  {keyed("bpe-step-panels")} {HORIZONTAL_BLOCK} {{ flex-direction: column-reverse; }}
  {MAIN} {{ overflow-x: hidden; }}
}}
</style>
"""

A11Y_CSS = f"""
<style>
/* WCAG 2.2 AA asks 4.5:1 for text. Streamlit draws captions and keyboard-shortcut hints at 60 %
   opacity: 4.37:1 for captions on white, 2.9:1 for PageDown on the primary blue. Opaque, in a
   grey that keeps 4.5:1 on white and on the sidebar (tests/test_browser_a11y.py measures both). */
{CAPTION} {{ opacity: 1 !important; color: #5C6066 !important; }}
{CAPTION} p {{ color: inherit; }}
{SHORTCUT_HINT} {{ opacity: 1 !important; }}
@media {TOUCH} {{ {SHORTCUT_HINT} {{ display: none !important; }} }}  /* "PageDown" means nothing to a finger */
{SECONDARY_KIND} kbd, {TERTIARY_KIND} kbd {{ color: #5C6066 !important; }}
/* A chosen pill's blue text on its blue tint: 3.9:1 while hovered; a darker blue keeps 4.5:1 and more. */
{CHOSEN_PILL} p {{ color: #005A8C; }}
</style>
"""

PRESENTER_ROOT_PX = 22
"""The root font size in presenter mode (16 otherwise): every size Streamlit and our CSS give in
``rem`` grows with it, the sidebar, widgets and token chips included."""

PRESENTER_CSS = f"""
<style>
html {{ font-size: {PRESENTER_ROOT_PX}px !important; }}
/* The lesson gets the screen: the page's title and "Leave presenter mode" sit in the band above it,
   beside the sidebar's button and the app menu (the band lets clicks through to them). */
{HEADER} {{ background: transparent; height: 2.2rem; min-height: 0; }}
{HEADER}, {HEADER} * {{ pointer-events: none; }}
{HEADER} button, {HEADER} button * {{ pointer-events: auto; }}
{MAIN_BLOCK} {{ padding: .45rem 1.2rem 2rem 1.2rem; }}
/* The title, one small line in the band: the lesson starts right under it. Its bottom padding is
   gone, so the pull of 1 rem under a heading (see h2) shrinks to the block's gap, or a row of
   pills covered the title's lower half. */
{MAIN} h1 {{ font-size: 1.05rem; line-height: 1.2; padding: 0 0 0 2.4rem; margin: 0; }}
{MAIN} {HEADING_TEXT}:has(h1) {{ margin-bottom: -.5rem; }}
/* The lesson is large; its headings need not be. Streamlit pulls what follows a heading up by
   1 rem (its markdown box's negative margin, which its own heading padding makes up for): keep
   that 1 rem under the heading, or the next element covers the heading's last line. */
{MAIN} h2 {{ font-size: 1.3rem; padding: .2rem 0 1.15rem 0; }}
{keyed("w-leave_present")} {{ position: fixed; top: .3rem; right: 3rem; z-index: 999991; width: auto !important; }}
/* Where the lesson is, in the projector's bottom right corner: on every page of it, taking none of the lesson's room. */
{LESSON_BAR} {{ position: fixed; right: .5rem; bottom: .35rem; z-index: 999989; width: auto !important; max-width: 70vw;
  padding: .05rem .5rem; border: 1px solid #C9CDD2; border-radius: .4rem; background: #FFF; box-shadow: 0 1px 4px rgba(0, 0, 0, .15); }}
{LESSON_BAR} p {{ font-size: .75rem; margin: 0 !important; line-height: 1.4; }}
/* Its label's box keeps its height: with the paragraph's margin gone, the box's -1 rem put the label
   under the bar's buttons, across the bar's lower border and the screen's last pixels. */
{LESSON_BAR} {MARKDOWN_TEXT} {{ margin-bottom: 0; }}
{LESSON_BAR} {BUTTON} button {{ min-height: 0; padding: 0 .2rem; }}
{LESSON_BAR} {BUTTON} p {{ {_HIDDEN} }}  /* icons: the pages' names are the buttons' help, and a reader's */
{keyed("w-leave_present")} button {{ min-height: 0; padding: .05rem .3rem; }}
{keyed("w-leave_present")} p {{ font-size: .75rem; }}
{MAIN} {VERTICAL_BLOCK} {{ gap: .5rem; }}
{MAIN}:not(:has({HOME})) {ELEMENT_CONTAINER}:has({CAPTION}) {{ display: none; }}  /* the presenter says it */
{MAIN} .bpe-tokens {{ font-size: 1.3rem; }}
{MAIN} .bpe-narration .bpe-tokens {{ font-size: inherit; }}
{MAIN} {PRIMARY_BUTTON} kbd, {MAIN} {SECONDARY_BUTTON} kbd, {MAIN} {TERTIARY_KIND} kbd {{
  display: none; }}  /* the shortcut hints: the presenter knows them, and the labels need the room */
{STEPPER} {BUTTON} button, {WALK} {BUTTON} button {{ min-height: 2rem; padding-top: 0; padding-bottom: 0; }}
{WALK} {BUTTON} p {{ {_HIDDEN} }}  /* a clicker's Previous / Next: icons, beside what they walk */
{MAIN}:has(.bpe-splits) h2 {{ font-size: 1.5rem; }}  /* a card of splits needs the room */
{MAIN} ul.bpe-why {{ font-size: 1rem; line-height: 1.3; columns: 3 15rem; column-gap: 1.4em; }}
{MAIN} .bpe-layers {{ --bpe-corpus-height: max(8rem, calc(100vh - 19.5rem)); }}
/* The quiz's answer: its count table under the answers, every row on the projector's one screen. */
{QUIZ} .bpe-lab-table :is(th, td) {{ padding-top: .12em; padding-bottom: .12em; line-height: 1.25; }}
{QUIZ} .bpe-lab-table {{ font-size: .85rem; }}  /* under "Start a class room" beside the question's moves, its 4th row sat at y 708-750 */
</style>
"""
"""Presenter mode's large type: the root font size, token chips, and room for the lesson."""

ROOM_SCREEN_CSS = f"""
<style>
{ROOM} h1 {{ font-size: 1.7rem; }}
{ROOM} h2 {{ font-size: 1.35rem; padding-top: .2rem; }}
/* Presenter mode: the room's heading wraps before "Leave presenter mode" (fixed at the top right). */
{MAIN}:has({keyed("w-leave_present")}) {ROOM} h1 {{ padding-right: 14rem; font-size: 1.25rem; }}
/* Presenter mode: the question, its corpus, the answers and "Reveal the answers" on one 1280x720 screen
   (on hf-course's five words the reveal sat at y 772-827, and the controls link's click scrolled the
   question's top off the screen to reach it). */
{MAIN}:has({keyed("w-leave_present")}) {ROOM} table.bpe-words :is(td, th) {{ padding-top: .1rem; padding-bottom: .1rem; }}
/* Presenter mode: the teacher's controls link and "End the class" in the projector's bottom right corner, above the
   lesson bar, taking none of the question's room (on hf-course they sat at y 735-765 of 720, below "Reveal the
   answers", and the link's click scrolled the question's top off the screen to reach it). */
{MAIN}:has({keyed("w-leave_present")}) {ROOM_LINKS} {{ position: fixed; right: .5rem; bottom: 2.2rem; z-index: 999988;
  width: auto !important; max-width: 45vw; flex-wrap: wrap; justify-content: flex-end; gap: .2rem .6rem; background: #FFF; }}
{MAIN}:has({keyed("w-leave_present")}) {ROOM_LINKS} :is(button, a) {{ min-height: 0; padding: .05rem .3rem; }}
{MAIN}:has({keyed("w-leave_present")}) {ROOM_LINKS} p {{ font-size: .8rem; }}
/* A phone scrolls the page, never a box inside it that hides part of the lesson. */
{ROOM} .bpe-layers {{ max-height: none; overflow: visible; }}
</style>
"""
"""The class room's screens: the projector's heading clear of the header band, no inner scroll box."""

RECONNECT_CSS = f"""
<style>
/* A Wi-Fi blip: Streamlit's own dialog after a few failed reconnects speaks to a developer ("restart
   it in your terminal: streamlit run yourscript.py"). BPE Lab has no dialogs of its own, so a dialog
   is that one: its words give way to a note for a learner, and Streamlit keeps reconnecting behind it
   (the dialog closes by itself when it is back). */
[role="dialog"] > * {{ visibility: hidden; }}
[role="dialog"]::before {{ content: "📡 Reconnecting… The connection dropped for a moment. This page comes back by itself, with your place and your answers: no need to reload."; position: absolute; inset: 1.2rem; visibility: visible; font-size: 1.05rem; line-height: 1.45; color: {"#1B1F24"}; }}
[role="dialog"] {{ min-height: 7.5rem; }}
</style>
"""
"""A friendly reconnect note instead of Streamlit's connection dialog (every page)."""
