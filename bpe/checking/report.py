"""A check's result as plain data: the JSON ``python -m bpe check --json`` prints.

Scope: one dict per result, keys stable (automated checks read them). Out of scope: computing it
(:mod:`bpe.checking.diagnose`) and drawing it (:mod:`bpe.views.check`).

    >>> pair_record((b"es", b"t</w>"), 9)
    {'left': 'es', 'right': 't</w>', 'count': 9, 'left_hex': '6573', 'right_hex': '743c2f773e'}
"""

from __future__ import annotations

from .diagnose import CheckResult
from .learner import Spelled, spelled_text
from .compact import PairStat


def pair_record(pair: Spelled, count: int | None) -> dict:
    left, right = pair
    return {"left": spelled_text(left), "right": spelled_text(right), "count": count,
            "left_hex": left.hex(), "right_hex": right.hex()}


def _stat(stat: PairStat | None) -> dict | None:
    if stat is None:
        return None
    record = pair_record(stat.spelled, stat.count)
    record["words"] = [{"word": word, "weight": weight, "times": times} for word, weight, times in stat.words]
    return record


def check_report(result: CheckResult, *, shape: str = "", elapsed_s: float | None = None) -> dict:
    """Every key of the CLI contract (``matching``, ``total``, ``first_difference``, ``diagnosis``,
    ``best_match``) and the evidence behind them."""
    divergence = result.divergence
    first = None
    if divergence is not None:
        first = {
            "step": divergence.step, "yours": _stat(divergence.theirs), "reference": _stat(divergence.ours),
            "tie_count": divergence.tie_count, "tied": [[spelled_text(a), spelled_text(b)] for a, b in divergence.tied],
        }
    best = result.best
    return {
        "matching": result.matching,
        "total": result.total,
        "first_difference": first,
        "diagnosis": [{"code": cause.code, "message": cause.message} for cause in result.diagnosis],
        "best_match": {
            "settings": best.variant.settings.to_dict(), "mistake": best.variant.code or None,
            "variant": best.label, "matching": best.matching,
        },
        "settings": result.settings.to_dict(),
        "guessed_settings": result.guessed,
        "shape": shape,
        "rest": [
            {**pair_record(pair, None), "step": step, "reference_step": at} for step, pair, at in result.rest
        ],
        "tried": [
            {"code": a.variant.code, "variant": a.label, "matching": a.matching, "timed_out": a.timed_out}
            for a in result.attempts
        ],
        "skipped": result.skipped,
        "elapsed_s": elapsed_s,
    }
