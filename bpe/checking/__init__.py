"""Check my BPE and Check my encoder: where a learner's own merges or ids part from the reference,
and the one verdict that says why.

One idea per module. The trainer's check: ``learner`` reads their merges file (``handwritten``: the
shapes their own code writes), ``rules`` and ``compact`` are a compact trainer with pluggable
counting and replacement (``records``: what it records), ``ties`` the tie rules named by their
effect, ``normalization`` the ways text is changed before training, ``mistakes`` the registry of
classic mistakes, ``search`` re-trains under many variants, ``guess`` finds unknown settings,
``separation`` finds a line that tells two re-trainings apart, ``diagnose`` compares and searches,
``verdict`` words the one verdict, ``report`` is the JSON. The encoder's check: ``encode_cases``
reads their ids, ``encode_stages`` is an encoder in five stages, ``encode_rules`` the registry of
its mistakes, ``probes`` the texts derived from them, ``encode_check`` the search and the verdict.
"""

from .compact import replay
from .diagnose import MAX_CHECK_SECONDS, UNEXPLAINED, CheckResult, check_merges
from .learner import LearnerMerges, MergeShape, merge_shapes, read_learner_merges
from .mistakes import MISTAKES, Mistake, Variant
from .report import check_report
from .rules import Rules
from .search import CheckCorpus
from .ties import TIE_EFFECTS, TieEffect
from .verdict import Verdict

__all__ = [
    "MAX_CHECK_SECONDS", "MISTAKES", "TIE_EFFECTS", "UNEXPLAINED", "CheckCorpus", "CheckResult", "LearnerMerges",
    "MergeShape", "Mistake", "Rules", "TieEffect", "Variant", "Verdict", "check_merges", "check_report", "merge_shapes",
    "read_learner_merges", "replay",
]
