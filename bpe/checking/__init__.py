"""Check my BPE: where a learner's own merges part from the reference, and why.

One idea per module: ``learner`` reads their merges file, ``compact`` is a compact trainer with
pluggable counting and replacement, ``mistakes`` is the registry of classic mistakes,
``diagnose`` compares and searches, ``report`` is the JSON, ``command`` the CLI subcommand.
"""

from .diagnose import MAX_CHECK_SECONDS, UNEXPLAINED, CheckCorpus, CheckResult, check_merges
from .learner import SHAPES, LearnerMerges, read_learner_merges, spelled_text
from .mistakes import MISTAKES, Mistake, Variant
from .compact import Rules, replay
from .report import check_report

__all__ = [
    "MAX_CHECK_SECONDS", "MISTAKES", "SHAPES", "UNEXPLAINED", "CheckCorpus", "CheckResult", "LearnerMerges",
    "Mistake", "Rules", "Variant", "check_merges", "check_report", "read_learner_merges", "replay", "spelled_text",
]
