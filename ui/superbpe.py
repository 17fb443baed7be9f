"""Compare's side of a two-stage run (SuperBPE): the classic run of the same text and vocabulary size.

SuperBPE's claim is about tokens: at the same vocabulary size, a text takes fewer of them once
merges may cross spaces. So when the run in use has a transition, Compare offers (and, the first
time, picks) the classic run, which is the same example and settings with the transition cleared
(trained and cached like any run), and says how many tokens each needs for the text compared.
"""

from __future__ import annotations

import streamlit as st

from bpe.encoding.tokenizer import Tokenizer

from . import state
from .render import tokenizer_at
from .state import SessionValue
from .training import get_trained

CLASSIC = "classic"
"""Compare's choice: the classic run beside a two-stage one."""
OFFERED = SessionValue("classic_offered", None)
"""The settings a two-stage run was last offered its classic run for (so it is picked once, not forced)."""


def offered(lab) -> bool:
    """Whether Compare offers :data:`CLASSIC`: the run in use has two stages."""
    return lab.transition is not None


def label(total: int) -> str:
    return f"Classic BPE, same text and vocabulary size ({total:,} merges, no stage 2)"


def pick_once(picked: SessionValue, lab) -> None:
    """Put :data:`CLASSIC` beside ours the first time a two-stage run comes to Compare."""
    key = lab.settings_key()
    if offered(lab) and OFFERED.get() != key:
        OFFERED.set(key)
        current = picked.get()
        if CLASSIC not in current:
            picked.set([current[0], CLASSIC, *current[1:]][:5])


def classic_tokenizer(lab) -> tuple[Tokenizer, tuple] | None:
    """``(tokenizer, (run, step))`` of the classic run after all its merges, or ``None`` after an error."""
    trained = get_trained(lab.replace(transition=None))
    if trained is None:
        return None
    total = len(trained.trace.steps)
    return tokenizer_at(trained, total), (trained, total)


def tokens_note(ids_by_choice: dict[str, list[int]], ours: str) -> None:
    """One line: how many tokens the two-stage run (choice ``ours``) and the classic one need for the text."""
    two_stage, classic = ids_by_choice.get(ours), ids_by_choice.get(CLASSIC)
    if two_stage is None or not classic:
        return
    change = (len(two_stage) - len(classic)) / len(classic)
    st.markdown(
        f"**SuperBPE (the split lifted after merge {state.lab().transition:,}) needs {len(two_stage):,} tokens for this "
        f"text; classic BPE of the same corpus and vocabulary size needs {len(classic):,}** ({change:+.1%})."
    )
