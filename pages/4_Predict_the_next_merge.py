"""Predict the next merge: the corpus after k merges, without its pair counts; which pair is next?

The learner picks one of a few candidate pairs; the page then reveals the counts, says right or
wrong and why (ties and the tie-break rule included), keeps score, and moves on to merge k + 1.
It quizzes the same run as the Train page: the example, the settings and the step are shared.

A clicker drives it: PageDown reveals the answer, then moves to the next question; PageUp goes
back one place (an answer shown to its question, a question to the answer before it). The order of the answers is this learner's (their seat, kept in the link: a reload keeps
it, another learner gets another), so the right answer's place tells nothing.
"""

import secrets

import streamlit as st

from bpe.app import pages
from bpe.limits import SHOWN_CORPUS_CHARS
from bpe.notation.markdown import escape_markdown
from bpe.teaching.quiz import Question, Score, grade, make_question, reveal
from bpe.views.excerpt import excerpt
from bpe.views.labs import candidates_html
from bpe.views.merge_html import layer_html
from bpe.views.occurrences import chunks_of
from bpe.views.pointer import keys_only
from bpe.views.stats import Stat, stats_html
from bpe.views.token_html import pieces_for, word_table_html
from ui import links, room_walk, state, url
from ui.classroom_views import show_room, start_button
from ui.clicker import keys
from ui.render import page_setup, page_title, presenter, show_html, tokenizer_at
from ui.training import Trained
from ui.preamble import current_run, run_summary
from ui.quiz_views import verdict
from ui.settings_sidebar import settings_sidebar
from ui.shared_views import shared_view
from ui.state import SessionValue, widget_key

SCORE = SessionValue("quiz_score", factory=Score)
"""The running :class:`~bpe.teaching.quiz.Score` (immutable, replaced after each answer)."""
RESULT = SessionValue("quiz_result", None)
"""``(question key, Result)`` of the last answer or reveal, so it stays up until the next question."""
SHOW_ANSWER = SessionValue("quiz_show_answer", False)
"""Draw the question with its answer shown (PageUp from the next question comes back to it so)."""
SEAT = SessionValue("quiz_seat", None)
"""This learner's seed for the order of the answers (``seat=`` in the link, so a reload keeps the
order; a new learner gets a new one)."""
ANSWER_KEYS = "1234"
BIG_TOKENS = 120  # a short corpus is drawn in large type: it is the whole question


def corpus_view(trained: Trained, step: int) -> None:
    """The corpus after ``step`` merges, the token that merge made outlined; no pair counts. Lines
    break between words only (a word split over two lines reads as two words). Built once per run
    and step for every session (a class room redraws it on every phone at once)."""
    block, caption = shared_view(trained, "quiz corpus", step, build=lambda: _corpus_html(trained, step))
    show_html(block)
    if caption:
        st.caption(caption)


def _corpus_html(trained: Trained, step: int) -> tuple[str, str | None]:
    trace = trained.trace
    new_id = trace.steps[step - 1].new_id if step else None
    eow = trace.settings.end_of_word
    if trained.table is not None:
        tokenizer = tokenizer_at(trained, step, whole_words=True)
        rows = [
            (word, count, pieces_for(tokenizer.encode_ordinary(word), tokenizer.tokens, new_id=new_id))
            for word, count in trained.table
        ]
        return word_table_html(rows, end_of_word=eow), None
    text = excerpt(trained.text, SHOWN_CORPUS_CHARS, special_tokens=trace.settings.special_tokens)
    tokenizer = tokenizer_at(trained, step)
    chunks = chunks_of(tokenizer, text)
    ids = [token_id for chunk in chunks for token_id in chunk.ids]
    pieces = pieces_for(ids, tokenizer.tokens, special_ids=list(trace.special_ids.values()), new_id=new_id)
    words = "".join(layer_html(chunks, pieces, end_of_word=eow))
    shown = f"the first {len(text):,} of {len(trained.text):,} characters, " if len(text) < len(trained.text) else ""
    return (
        f'<div class="bpe-tokens{" bpe-big" if len(ids) <= BIG_TOKENS else ""}">{words}</div>',
        f"Showing {shown}{len(ids):,} tokens. Each box is one token; · is a space, ↵ a newline.",
    )


def seat() -> str:
    """This learner's seat: from the link if it brings one, else one made for this session."""
    url.read(links.SEAT, SEAT)
    if SEAT.get() is None:
        SEAT.set(secrets.token_hex(4))
    return SEAT.get()


# -- callbacks: they run before the page is drawn again, so the page shows their result ----------
def _answer(question: Question, pair: tuple[int, int], key: tuple) -> None:
    result = grade(question, pair)
    RESULT.set((key, result))
    SCORE.set(SCORE.get().add(result))


def _reveal(question: Question, key: tuple) -> None:
    RESULT.set((key, reveal(question)))  # shown, never scored


def _go(step: int) -> None:
    state.update_lab(step=step)
    RESULT.set(None)


def _back(step: int, revealed: bool) -> None:
    """PageUp: an answer shown goes back to its question; a question, to the answer before it."""
    if revealed:
        RESULT.set(None)
    elif step > 0:
        _go(step - 1)
        SHOW_ANSWER.set(True)


def score_panel(score: Score) -> None:
    """The running score, after the question (on a phone it would push the question off the screen)."""
    row = st.container(horizontal=True, vertical_alignment="center")
    with row:
        show_html(stats_html([
            Stat("Answered", f"{score.answered:,}"),
            Stat("Right", f"{score.correct:,}"),
            Stat("Right count, lost the tie", f"{score.right_count:,}"),
            Stat("Streak", f"{score.streak:,}", change=f"best {score.best_streak:,}"),
        ]))
    row.button("Reset the score", key=widget_key("quiz", "reset"), on_click=SCORE.set, args=(Score(),), disabled=not score.answered)


def question_panel(
    question: Question, result, key: tuple, *, step: int, total: int, rule: str, verdict_beside: bool, start_room=None,
) -> None:
    """The question, one button per answer (keys 1-4), then the verdict (unless ``verdict_beside``:
    drawn over the corpus) and the counts; PageDown reveals, then moves on. ``start_room``: draws
    "Start a class room" beside the moves (on a projector, where below the corpus it sat past the screen)."""
    if question.finished:
        st.header("No next merge")
        st.info(escape_markdown(question.prompt), icon="🏁")
        st.button("Start again from step 0", key=widget_key("quiz", "restart"), on_click=_go, args=(0,), type="primary")
        st.button("Previous question", key=widget_key("quiz", "back"), on_click=_back, args=(step, False), type="tertiary",
                  icon=":material/arrow_back:", disabled=step == 0)
        quiz_keys(at=2 * step, count=2 * total + 1, revealed=True)  # the lesson's last place: PageDown goes on from here
        return
    st.header(question.prompt)
    st.caption(
        f"Ties are broken by the **{escape_markdown(rule)}** rule. {keys_only(f'Keys 1–{len(question.candidates)} answer.')}",
        unsafe_allow_html=True,
    )
    for number, candidate in enumerate(question.candidates, start=1):
        # Answered buttons are disabled, and disabled buttons all look alike: say it in words and icons.
        marks = [] if result is None else [
            note for note, pair in (("merged next", result.answer), ("your pick", result.chosen)) if candidate.pair == pair
        ]
        icon = (":material/check_circle:" if "merged next" in marks else ":material/cancel:") if marks else None
        st.button(
            f"{number}. " + escape_markdown(candidate.label) + (f" — {' · '.join(marks)}" if marks else ""),
            key=widget_key("quiz", "answer", number), on_click=_answer, icon=icon,
            args=(question, candidate.pair, key), disabled=result is not None, width="stretch",
            type="primary" if result is not None and candidate.pair == result.answer else "secondary",
            shortcut=ANSWER_KEYS[number - 1] if number <= len(ANSWER_KEYS) else None,
        )
    moves = st.container(horizontal=True, vertical_alignment="center")
    if result is None:
        moves.button(
            "Show the answer", key=widget_key("quiz", "reveal"), on_click=_reveal, args=(question, key), type="primary",
            icon=":material/visibility:", shortcut="PageDown", help="Reveal the counts and the answer (not scored)",
        )
    else:
        moves.button(
            f"Next question (merge {step + 2})" if step + 1 < total else "See where training stopped",
            key=widget_key("quiz", "next"), on_click=_go, args=(step + 1,), type="primary",
            icon=":material/arrow_forward:", shortcut="PageDown",
        )
    moves.button(
        "Back to the question" if result is not None else "Previous question", key=widget_key("quiz", "back"), on_click=_back,
        args=(step, result is not None), type="tertiary", icon=":material/arrow_back:", shortcut="PageUp",
        disabled=step == 0 and result is None,
    )
    with moves:  # the clicker's lesson: each question, then its answer (on a lesson's room stop: the room)
        if start_room is not None:
            start_room()
        quiz_keys(at=2 * step + (result is not None), count=2 * total + 1, revealed=result is not None)
    if result is not None:
        if not verdict_beside:
            verdict(result)
        show_html(candidates_html(result))


def quiz_keys(*, at: int, count: int, revealed: bool) -> None:
    """The clicker's lesson: each question, then its answer (on a lesson's room stop: the class room)."""
    if not room_walk.before_the_room(previous_key=widget_key("quiz", "back")):
        keys(
            next_key=widget_key("quiz", "next" if revealed else "reveal"), previous_key=widget_key("quiz", "back"),
            at=at, count=count, at_end="That was the last merge: training stopped here. PageUp goes back.",
            at_start="This is the first question: PageDown shows its answer.", seek=lambda place: _go(place // 2),
        )


def main() -> None:
    page_setup(pages.QUIZ)
    if show_room(corpus_view):  # a class room, run by its teacher: the room decides the question
        room_walk.on_the_projector()
        return
    settings_sidebar()
    page_title(pages.QUIZ)
    st.caption(
        "Here is the corpus after some merges, without its pair counts. Which pair will the trainer merge "
        "next? Count in your head (pairs overlap: 'aaa' holds a + a twice), and mind the tie-break rule."
    )
    trained = current_run()
    if trained is None:
        return
    trace = trained.trace
    step = state.lab().step
    total = len(trace.steps)
    if not presenter():
        run_summary(trace)
    learner = seat()
    question = make_question(trace, step, seed=learner)
    key = (state.lab().source, state.lab().settings_key(), step, trace.steps[step] if step < total else None)
    linked = url.read(links.REVEAL)  # a link to the answer shown
    if (linked or SHOW_ANSWER.get()) and not question.finished:
        _reveal(question, key)
    SHOW_ANSWER.set(False)
    answered = RESULT.get()
    result = answered[1] if answered and answered[0] == key else None
    # On a projector the answer's reason goes over the corpus, in the left half (its lower part was
    # empty), so the reason and the count table fit one screen (in the right column they ran below it).
    verdict_beside = presenter() and result is not None

    with st.container(key="bpe-quiz"):
        left, right = st.columns([1.3, 1], gap="large")
    with left:
        st.header(f"The corpus after merge {step}" if step else "The corpus before any merge")
        if verdict_beside:
            verdict(result)
        corpus_view(trained, step)
    with right:
        question_panel(question, result, key, step=step, total=total, rule=trace.settings.tie_break, verdict_beside=verdict_beside,
                       start_room=(lambda: start_button(trained, step)) if presenter() else None)
    with st.container(key="bpe-below"):
        score_panel(SCORE.get())
        if not presenter():
            start_button(trained, step)
    url.write_url({links.SEAT: learner, links.REVEAL: result is not None})


main()
