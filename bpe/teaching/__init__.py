"""Teaching aids: the data the lab pages render, as plain data (no Streamlit, no HTML here).

One module per idea: ``quiz`` (predict the next merge), ``tie_lab`` (every tie-break rule on one
corpus), ``counting`` (counted versus replaced pairs), ``pretokenization_lab`` (splits side by
side), ``byte_inspector`` (UTF-8 bytes and GPT-2's stand-ins) and ``tour`` (the guided tour).
"""

from .byte_inspector import ByteRole, CharBytes, TokenBytes, byte_role, inspect_text, inspect_token
from .counting import PairTally, Symbol, count_pair, pairs_present, symbols_at_step, symbols_of, tally
from .pretokenization_lab import (
    EXAMPLES, Learned, Split, SplitExample, compare_splits, learn, spanning_tokens, spans_words,
    without_pretokenization,
)
from .quiz import Candidate, Question, Result, Score, grade, make_question
from .tie_lab import (
    RuleRun, StepRow, TieLab, final_segmentation, first_divergence, run_rules, tie_lab_for_preset,
    why_rule_picks,
)
from .tour import TOUR, TourStep

__all__ = [
    "EXAMPLES", "TOUR", "ByteRole", "Candidate", "CharBytes", "Learned", "PairTally", "Question", "Result",
    "RuleRun", "Score", "Split", "SplitExample", "StepRow", "Symbol", "TieLab", "TokenBytes", "TourStep",
    "byte_role", "compare_splits", "count_pair", "final_segmentation", "first_divergence", "grade",
    "inspect_text", "inspect_token", "learn", "make_question", "pairs_present", "run_rules",
    "spanning_tokens", "spans_words", "symbols_at_step", "symbols_of", "tally", "tie_lab_for_preset",
    "why_rule_picks", "without_pretokenization",
]
