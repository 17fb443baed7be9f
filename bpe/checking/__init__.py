"""Check my BPE: where a learner's own merges part from the reference, and why.

One idea per module: ``learner`` reads their merges file (``handwritten``: the shapes their own
code writes), ``rules`` and ``compact`` are a compact trainer with pluggable counting and
replacement, ``normalization`` the ways text is changed before training, ``mistakes`` the registry
of classic mistakes, ``search`` re-trains under many variants, ``guess`` finds unknown settings,
``diagnose`` compares and explains, ``report`` is the JSON, ``command`` the CLI subcommand.
"""

from .compact import replay
from .diagnose import MAX_CHECK_SECONDS, UNEXPLAINED, CheckResult, check_merges
from .learner import LearnerMerges, MergeShape, merge_shapes, read_learner_merges
from .mistakes import MISTAKES, Mistake, Variant
from .report import check_report
from .rules import Rules
from .search import CheckCorpus

__all__ = [
    "MAX_CHECK_SECONDS", "MISTAKES", "UNEXPLAINED", "CheckCorpus", "CheckResult", "LearnerMerges", "MergeShape",
    "Mistake", "Rules", "Variant", "check_merges", "check_report", "merge_shapes", "read_learner_merges", "replay",
]
