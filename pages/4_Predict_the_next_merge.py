"""Predict the next merge: the corpus after k merges, without its pair counts; which pair is next?

The learner picks one of a few candidate pairs; the page then reveals the counts, says right or
wrong and why (ties and the tie-break rule included), keeps score, and moves on to merge k + 1.
It quizzes the same run as the Train page: the example, the settings and the step are shared.
"""

import streamlit as st

from bpe.app import pages
from bpe.limits import SHOWN_CORPUS_CHARS
from bpe.teaching.quiz import CORRECT, RIGHT_COUNT, Question, Score, grade, make_question
from bpe.views.excerpt import excerpt
from bpe.views.labs import candidates_html
from bpe.markdown import escape_markdown
from bpe.views.token_html import chips_html, pieces_for, word_table_html
from ui import state, url
from ui.classroom_views import show_room, start_button
from ui.render import page_setup, show_html, tokenizer_at
from ui.training import Trained
from ui.preamble import current_run, run_summary
from ui.settings_sidebar import settings_sidebar
from ui.state import SessionValue, widget_key

SCORE = SessionValue("quiz_score", factory=Score)
"""The running :class:`~bpe.teaching.quiz.Score` (immutable, replaced after each answer)."""
RESULT = SessionValue("quiz_result", None)
"""``(question key, Result)`` of the last answer, so the verdict stays up until "Next question"."""
ANSWER_KEYS = "1234"
BIG_TOKENS = 120  # a short corpus is drawn in large type: it is the whole question


def corpus_view(trained: Trained, step: int) -> None:
    """The corpus after ``step`` merges, the token that merge made outlined; no pair counts."""
    trace = trained.trace
    new_id = trace.steps[step - 1].new_id if step else None
    eow = trace.settings.end_of_word
    if trained.table is not None:
        tokenizer = tokenizer_at(trained, step, whole_words=True)
        rows = [
            (word, count, pieces_for(tokenizer.encode_ordinary(word), tokenizer.tokens, new_id=new_id))
            for word, count in trained.table
        ]
        show_html(word_table_html(rows, end_of_word=eow))
        return
    text = excerpt(trained.text, SHOWN_CORPUS_CHARS, special_tokens=trace.settings.special_tokens)
    tokenizer = tokenizer_at(trained, step)
    ids = tokenizer.encode(text, allowed_special="all")
    specials = list(trace.special_ids.values())
    chips = chips_html(pieces_for(ids, tokenizer.tokens, special_ids=specials, new_id=new_id), end_of_word=eow)
    show_html(f'<div class="bpe-big">{chips}</div>' if len(ids) <= BIG_TOKENS else chips)
    shown = f"the first {len(text):,} of {len(trained.text):,} characters, " if len(text) < len(trained.text) else ""
    st.caption(f"Showing {shown}{len(ids):,} tokens. Each box is one token; · is a space, ↵ a newline.")


# -- callbacks: they run before the page is drawn again, so the page shows their result ----------
def _answer(question: Question, pair: tuple[int, int], key: tuple) -> None:
    result = grade(question, pair)
    RESULT.set((key, result))
    SCORE.set(SCORE.get().add(result))


def _go(step: int) -> None:
    state.update_lab(step=step)
    RESULT.set(None)


def score_line(score: Score) -> None:
    columns = st.columns([1, 1, 1, 1, 1.2])
    columns[0].metric("Answered", score.answered)
    columns[1].metric("Right", score.correct, help="Picked exactly the pair the trainer merges.")
    columns[2].metric(
        "Right count, lost the tie", score.right_count,
        help="Picked a pair with the top count that lost the tie-break: almost right.",
    )
    columns[3].metric("Streak", score.streak, help=f"Best streak so far: {score.best_streak}.")
    columns[4].button(
        "Reset the score", key=widget_key("quiz", "reset"), on_click=SCORE.set, args=(Score(),), disabled=not score.answered,
    )


def verdict(result) -> None:
    explanation = escape_markdown(result.explanation)
    if result.verdict == CORRECT:
        st.success(explanation, icon="✅")
    elif result.verdict == RIGHT_COUNT:
        st.warning(explanation, icon="⚖️")
    else:
        st.error(explanation, icon="❌")


def main() -> None:
    page_setup(pages.QUIZ)
    if show_room(corpus_view):  # a class room, run by its teacher: the room decides the question
        return
    settings_sidebar()
    st.title(":material/quiz: Predict the next merge")
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
    run_summary(trace)
    start_button(trained, step)
    score = SCORE.get()
    score_line(score)

    question = make_question(trace, step)
    key = (state.lab().source, state.lab().settings_key(), step, trace.steps[step] if step < total else None)
    answered = RESULT.get()
    result = answered[1] if answered and answered[0] == key else None

    left, right = st.columns([1.3, 1], gap="large")
    with left:
        st.header(f"The corpus after merge {step}" if step else "The corpus before any merge")
        corpus_view(trained, step)
    with right:
        st.header(question.prompt if not question.finished else "No next merge")
        if question.finished:
            st.info(escape_markdown(question.prompt), icon="🏁")
            st.button("Start again from step 0", key=widget_key("quiz", "restart"), on_click=_go, args=(0,), type="primary")
        else:
            st.caption(f"Ties are broken by the **{trace.settings.tie_break}** rule. Keys 1–{len(question.candidates)} answer.")
            for number, candidate in enumerate(question.candidates, start=1):
                # Answered buttons are disabled, and disabled buttons all look alike: say it in words and icons.
                marks = [] if result is None else [
                    note for note, pair in (("merged next", result.answer), ("your pick", result.chosen))
                    if candidate.pair == pair
                ]
                icon = (":material/check_circle:" if "merged next" in marks else ":material/cancel:") if marks else None
                st.button(
                    escape_markdown(candidate.label) + (f" — {' · '.join(marks)}" if marks else ""),
                    key=widget_key("quiz", "answer", number), on_click=_answer, icon=icon,
                    args=(question, candidate.pair, key), disabled=result is not None, width="stretch",
                    type="primary" if result is not None and candidate.pair == result.answer else "secondary",
                    shortcut=ANSWER_KEYS[number - 1] if number <= len(ANSWER_KEYS) else None,
                )
            if result is not None:
                verdict(result)
                show_html(candidates_html(result))
                st.button(
                    f"Next question (merge {step + 2})" if step + 1 < total else "See where training stopped",
                    key=widget_key("quiz", "next"), on_click=_go, args=(step + 1,), type="primary", width="stretch",
                    icon=":material/arrow_forward:", shortcut="PageDown",
                )
            else:
                st.button(
                    "Skip this one", key=widget_key("quiz", "skip"), on_click=_go, args=(step + 1,), type="tertiary",
                    icon=":material/skip_next:",
                )
    url.write_url()


main()
