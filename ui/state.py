"""Session-state keys, initialised in one place, and the write-through helpers widgets use.

Why non-widget keys: Streamlit drops a widget's key when the user switches page, so anything that
must survive a page switch (the example, the settings, the step, the user's own text) lives in
the ``bpe.*`` keys below. Widgets get their own ``w.*`` keys, are seeded from the ``bpe.*`` value
before they are drawn, and copy their value back in ``on_change``.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from bpe.presets import SENNRICH_WORDS
from bpe.teaching.quiz import Score
from bpe.app.lab_state import DEFAULT_SOURCE, LabState
from bpe.views.check import CheckForm
from bpe.views.corpus_window import WINDOW_TOKENS

LAB = "bpe.lab"
"""The shareable :class:`LabState`: example, settings, step, naming."""
OWN_TEXT = "bpe.own_text"
"""The learner's own text, as typed (the source `OWN_TEXT_SOURCE` trains on it)."""
OWN_TABLE = "bpe.own_table"
"""The user's word table as a list of ``(word, count)`` rows, as typed (may be invalid)."""
TABLE_VERSION = "bpe.own_table_version"
"""Bumped after each edit, so the data editor starts fresh on the table it just edited."""
UPLOAD_NOTE = "bpe.upload_note"
PLAYING = "bpe.playing"
SPEED = "bpe.speed"
LAST_TICK = "bpe.last_tick"
URL_SEEN = "bpe.url_seen"
"""The query string this session last applied or wrote (to tell a new link from our own)."""
URL_WARNINGS = "bpe.url_warnings"
STEP_FROM_URL = "bpe.step_from_url"
ENCODE_TEXT = "bpe.encode_text"
ENCODE_SOURCE = "bpe.encode_text_source"
"""The example the encode text was chosen for (a new example gets its own sample)."""
SPECIAL_MODE = "bpe.special_mode"
ENCODE_WALK = "bpe.encode_walk"
"""``(what was encoded, step)`` of the Encode page's merge walk, or ``None``: every merge applied."""
DECODE_IDS = "bpe.decode_ids"
DECODE_FOR = "bpe.decode_for"
"""``(tokenizer key, label)`` the Decode ids were typed for; ``None``: Decode follows Encode."""
DECODE_ERRORS = "bpe.decode_errors"
VOCAB_QUERY = "bpe.vocab_query"
TREE_TOKEN = "bpe.tree_token"
VOCAB_OF = "bpe.vocab_of"
"""Whose vocabulary the Vocabulary page shows: ``ours`` or a pretrained name such as ``o200k_base``."""
MERGES_PAGE = "bpe.merges_page"
PRETRAINED_TREE = "bpe.pretrained_tree"
BASE_SIZE = "bpe.base_size"
"""The base vocabulary size of the last run (to turn merges into a vocabulary size and back)."""
IMPORTED = "bpe.imported"
"""Tokenizers the user imported, a tuple of ``bpe.views.compare.NamedTokenizer`` (replaced, never mutated)."""
IMPORT_NOTE = "bpe.import_note"
ENCODE_WITH = "bpe.encode_with"
"""Which tokenizer the encode page uses: ``ours``, a pretrained name (``gpt2``, ``o200k_base``...) or ``imported:<name>``."""
COMPARE_TEXT = "bpe.compare_text"
COMPARE_SOURCE = "bpe.compare_text_source"
"""The example the compare text was chosen for (a new example gets its own sample)."""
COMPARE_WITH = "bpe.compare_with"
VARIANT = "bpe.variant"
"""``(tie_break, unit, pretokenizer)`` of "ours with other settings"; ``None``: derived from the run."""
DIFF_RULES = "bpe.diff_rules"
"""The two tie-break rules of the run diff; ``None``: the run's rule and another."""
PRESENT = "bpe.present"
"""Presenter mode: large type, sidebar collapsed (also ``present=1`` in the URL)."""
WHY = "bpe.why"
"""The Train page shows why each merge happened (its narration's sentences): a setting that stays
across steps, switched by the stepper's Why button (key W); ``why=0`` in the URL when off."""
CORPUS_TOKENS = "bpe.corpus_tokens"
"""About how many tokens of a long corpus the Train page draws per step ("Show more" widens it)."""
URL_NEW = "bpe.url_new"
"""The query parameters of a link opened in this run (``{}`` on reruns): pages read their own."""
QUIZ_SCORE = "bpe.quiz_score"
"""The quiz's running :class:`bpe.teaching.quiz.Score` (immutable, replaced after each answer)."""
QUIZ_SEAT = "bpe.quiz_seat"
"""This learner's seed for the order of the quiz's answers (``seat=`` in the Predict page's link, so a
reload keeps the order; a new learner gets a new one)."""
QUIZ_RESULT = "bpe.quiz_result"
"""``(question key, Result)`` of the last answer, so the verdict stays up until "Next question"."""
TIE_PRESET = "bpe.tie_preset"
COUNT_TEXT = "bpe.count_text"
COUNT_PAIR = "bpe.count_pair"
"""``(left, right)`` spellings of the counting lab's pair."""
COUNT_UNIT = "bpe.count_unit"
PRETOK_TEXT = "bpe.pretok_text"
PRETOK_REGEX = "bpe.pretok_regex"
PRETOK_LESSON = "bpe.pretok_lesson"
"""The title of the example last loaded with its button (its lesson is shown), or ``None``."""
NEWEST_TEXT = "bpe.newest_text"
TOUR_AT = "bpe.tour_at"
"""``(tour step number, page file)`` while a page the guided tour opened is shown; else ``None``."""
BYTE_TEXT = "bpe.byte_text"
BYTE_TOKEN = "bpe.byte_token"
BYTE_FROM = "bpe.byte_from"
BYTE_ID = "bpe.byte_id"
"""The pretrained tokenizer and token id the Byte inspector takes a real token from."""
"""The byte inspector's token, as hex (``e2 82``)."""
CHECK_FORM = "bpe.check_form"
"""What the learner entered on Check my BPE, a :class:`bpe.views.check.CheckForm` (replaced, never mutated)."""
CHECK_RESULT = "bpe.check_result"
"""``("ok", CheckResult, shape, seconds)`` or ``("error", message)`` of the last check, or ``None``."""
LAST_RUN = "bpe.last_run"
"""``(source, Trained)`` the Train page last drew, to say what a retrain changed."""
HOLD_BEFORE = "bpe.hold_before"
"""The Train page shows the corpus *before* each merge until "Before / after" (key B) is pressed again."""
RETRAIN_NOTE = "bpe.retrain_note"
"""The Train page's "Retrained with ...: merges now differ from merge k" line, or ``None``."""

DEFAULT_OWN_TEXT = (
    "The quick brown fox jumps over the lazy dog. The dog sleeps; the fox runs.\n"
    "Byte-pair encoding merges the most frequent pair again and again: th, then the, then ' the'."
)
SPEEDS = {"1 step/s": 1.0, "2 steps/s": 2.0, "5 steps/s": 5.0}  # short: the select is one button wide, even on a phone

_DEFAULTS: dict[str, Any] = {
    LAB: LabState.for_source(DEFAULT_SOURCE),
    OWN_TEXT: DEFAULT_OWN_TEXT,
    OWN_TABLE: list(SENNRICH_WORDS.items()),
    TABLE_VERSION: 0,
    UPLOAD_NOTE: None,
    PLAYING: False,
    SPEED: "2 steps/s",
    LAST_TICK: 0.0,
    URL_SEEN: None,
    URL_WARNINGS: [],
    STEP_FROM_URL: False,
    ENCODE_TEXT: None,
    ENCODE_SOURCE: None,
    SPECIAL_MODE: "allowed",
    ENCODE_WALK: None,
    DECODE_IDS: "",
    DECODE_FOR: None,
    DECODE_ERRORS: "replace",
    VOCAB_QUERY: "",
    TREE_TOKEN: None,
    VOCAB_OF: "ours",
    MERGES_PAGE: 1,
    PRETRAINED_TREE: None,
    BASE_SIZE: None,
    IMPORTED: (),
    IMPORT_NOTE: None,
    ENCODE_WITH: "ours",
    COMPARE_TEXT: None,
    COMPARE_SOURCE: None,
    COMPARE_WITH: ["ours-last", "gpt2", "o200k_base"],  # the first lesson: ours trained vs GPT-2 vs GPT-4o
    VARIANT: None,
    DIFF_RULES: None,
    PRESENT: False,
    WHY: True,
    CORPUS_TOKENS: WINDOW_TOKENS,
    URL_NEW: None,
    QUIZ_SCORE: Score(),
    QUIZ_SEAT: None,
    QUIZ_RESULT: None,
    TIE_PRESET: "wikipedia",
    COUNT_TEXT: "aaaa",
    COUNT_PAIR: ("a", "a"),
    COUNT_UNIT: "char",
    PRETOK_TEXT: "I'm here. I'M HERE.",
    PRETOK_REGEX: r"\w+|[^\w\s]+",
    PRETOK_LESSON: None,
    NEWEST_TEXT: "newest newest newest widest",
    TOUR_AT: None,
    BYTE_TEXT: "aaabdaaabac é € 🙂",
    BYTE_TOKEN: "e2 82",
    CHECK_FORM: CheckForm().with_preset("cs336"),
    CHECK_RESULT: None,
    BYTE_FROM: "o200k_base",
    BYTE_ID: 4103,  # GPT-4o's f0 9f: the first half of most emoji
    LAST_RUN: None,
    HOLD_BEFORE: False,
    RETRAIN_NOTE: None,
}


def init() -> None:
    """Give every key its default (only the missing ones); every page calls this first."""
    for key, value in _DEFAULTS.items():
        if key not in st.session_state:
            st.session_state[key] = list(value) if isinstance(value, list) else value


def default(key: str) -> Any:
    """The value ``key`` starts with (a fresh copy of a list)."""
    value = _DEFAULTS[key]
    return list(value) if isinstance(value, list) else value


def lab() -> LabState:
    return st.session_state[LAB]


def update_lab(**changes: Any) -> None:
    st.session_state[LAB] = lab().replace(**changes)


def seed(widget_key: str, value: Any) -> None:
    """Show ``value`` in the widget ``widget_key`` (call before drawing it, never after)."""
    st.session_state[widget_key] = value


def chosen(state_key: str, options: list) -> Any:
    """The choice remembered in ``state_key``, or the first of ``options`` once it is no longer
    offered (another search, another step)."""
    remembered = st.session_state[state_key]
    return remembered if remembered in options else options[0]


def seed_choice(widget_key: str, state_key: str, options: list) -> None:
    """Show :func:`chosen` in the select ``widget_key``."""
    seed(widget_key, chosen(state_key, options))


def write_through(widget_key: str, state_key: str):
    """An ``on_change`` callback copying the widget's value into a ``bpe.*`` key."""
    def callback() -> None:
        st.session_state[state_key] = st.session_state[widget_key]
    return callback


def write_lab(widget_key: str, field: str, convert=None):
    """An ``on_change`` callback copying the widget's value into one field of :class:`LabState`."""
    def callback() -> None:
        value = st.session_state[widget_key]
        update_lab(**{field: convert(value) if convert else value})
    return callback
