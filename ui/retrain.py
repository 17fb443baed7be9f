"""The Train page's one-line notice after a setting (or the user's text) changed the run.

"Retrained with tie-break first-seen: merges now differ from merge 1 on (was s + t, now e + s)":
without it, changing a setting mid-run silently rewrites merges the learner has already seen.
The wording is :func:`bpe.views.narration.retrain_notice`; this module only remembers, per
session, which run the page drew last.
"""

from __future__ import annotations

from bpe.views.narration import retrain_notice

from . import state
from .state import SessionValue
from .training import Trained

LAST_RUN = SessionValue("last_run", None)
"""``(source, Trained)`` the Train page last drew, to say what a retrain changed."""
NOTICE = SessionValue("retrain_note", None)
"""The notice about the last retrain, or ``None``."""


def retrain_notice_for(trained: Trained) -> str | None:
    """The notice for ``trained`` if it replaced the session's last run of the same example.

    It stays up while the learner steps through the new run; another example clears it.
    """
    source = state.lab().source
    last = LAST_RUN.get()
    if last is None or last[1] is not trained:
        changed = last is not None and last[0] == source and last[1].trace != trained.trace
        NOTICE.set(retrain_notice(last[1].trace, trained.trace) if changed else None)
        LAST_RUN.set((source, trained))
    return NOTICE.get()
