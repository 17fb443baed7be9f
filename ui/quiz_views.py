"""What the quiz alone and a class room both draw of an answer: its verdict, in words, colour and icon.

    verdict(grade(question, pair))   # right (green), right count but lost the tie (amber), wrong (red)
    verdict(reveal(question))        # the answer shown without a pick (blue): a class's reveal, "Show the answer"
"""

from __future__ import annotations

import streamlit as st

from bpe.notation.markdown import escape_markdown
from bpe.teaching.quiz import CORRECT, RIGHT_COUNT, WRONG, Result


def verdict(result: Result) -> None:
    """``result``'s explanation as an alert whose colour and icon say the verdict (not by colour alone)."""
    explanation = escape_markdown(result.explanation)
    if result.verdict == CORRECT:
        st.success(explanation, icon="✅")
    elif result.verdict == RIGHT_COUNT:
        st.warning(explanation, icon="⚖️")
    elif result.verdict == WRONG:
        st.error(explanation, icon="❌")
    else:
        st.info(explanation, icon=":material/visibility:")
