"""The Train page's one-line notice after a setting (or the user's text) changed the run.

"Retrained with tie-break first-seen: merges now differ from merge 1 on (was s + t, now e + s)":
without it, changing a setting mid-run silently rewrites merges the learner has already seen.
The wording is :func:`bpe.views.narration.retrain_notice`; this module only remembers, per
session, which run the page drew last.
"""

from __future__ import annotations

import streamlit as st

from bpe.views.narration import retrain_notice

from . import state
from .training import Trained


def retrain_notice_for(trained: Trained) -> str | None:
    """The notice for ``trained`` if it replaced the session's last run of the same example.

    It stays up while the learner steps through the new run; another example clears it.
    """
    source = state.lab().source
    last = st.session_state[state.LAST_RUN]
    if last is None or last[1] is not trained:
        changed = last is not None and last[0] == source and last[1].trace != trained.trace
        st.session_state[state.RETRAIN_NOTE] = retrain_notice(last[1].trace, trained.trace) if changed else None
        st.session_state[state.LAST_RUN] = (source, trained)
    return st.session_state[state.RETRAIN_NOTE]
