"""A check's result as plain data: the JSON ``python -m bpe check --json`` prints.

Scope: one dict per result, keys stable (automated checks read them). Out of scope: computing it
(:mod:`bpe.checking.diagnose`) and drawing it (:mod:`bpe.views.check`).

A pair's ``left`` and ``right`` are its text (bytes that are not UTF-8 as backslash escapes) with
the exact bytes in ``left_hex`` and ``right_hex``; ``shown`` is the pair as every page draws it
(``·`` for a space, ``‹e2 82›`` for part of a character), as are the tokens in every message.

    >>> pair_record((b" t", b"he"), 9)
    {'left': ' t', 'right': 'he', 'count': 9, 'left_hex': '2074', 'right_hex': '6865', 'shown': '·t + he'}
"""

from __future__ import annotations

from ..notation.spelling import visible_text
from .compact import PairStat, Spelled, shown_pair  # noqa: F401  (shown_pair: the report's notation, with shown_word)
from .diagnose import CheckResult


def shown_word(word: str, limit: int = 40) -> str:
    """A word where a pair occurs, as tables and messages show it: in the notation, a long one (a whole
    text, when nothing splits it) cut to ``limit`` characters and an ellipsis.

    >>> shown_word(" low"), shown_word("ab" * 30, limit=6)
    ('·low', 'ababab…')
    """
    shown = visible_text(word.encode("utf-8", errors="surrogatepass"))
    return shown if len(shown) <= limit else shown[:limit] + "…"


def pair_record(pair: Spelled, count: int | None) -> dict:
    left, right = pair
    return {"left": left.decode("utf-8", errors="backslashreplace"), "right": right.decode("utf-8", errors="backslashreplace"),
            "count": count, "left_hex": left.hex(), "right_hex": right.hex(), "shown": shown_pair(pair)}


def _words(stat: PairStat) -> list[dict]:
    """Where a pair occurs most; ``word`` is the word as text (cut to 200 characters: a whole text when
    nothing splits it), ``shown`` in the notation."""
    return [{"word": word[:200], "shown": shown_word(word), "weight": weight, "times": times}
            for word, weight, times in stat.words]


def _stat(stat: PairStat | None, yours: PairStat | None) -> dict | None:
    if stat is None:
        return None
    record = pair_record(stat.spelled, stat.count)
    record["words"] = _words(stat)
    record["your_training"] = None if yours is None else {"count": yours.count, "words": _words(yours)}
    return record


def _first_difference(result: CheckResult) -> dict | None:
    divergence, yours = result.divergence, result.yours
    if divergence is None:
        return None
    return {
        "step": divergence.step,
        "yours": _stat(divergence.theirs, yours and yours.yours),
        "reference": _stat(divergence.ours, yours and yours.reference),
        "yours_count": yours.yours.count if yours else None,
        "reference_count": divergence.ours.count if divergence.ours else None,
        "retrained_with": yours.retrained_with if yours else None,
        "tie_count": divergence.tie_count,
        "tied": [[visible_text(a), visible_text(b)] for a, b in divergence.tied],
    }


def check_report(result: CheckResult, *, shape: str = "", elapsed_s: float | None = None,
                 cpu_s: float | None = None) -> dict:
    """Every key of the CLI contract (``matching``, ``total``, ``first_difference``, ``diagnosis``,
    ``best_match``; ``guess_quality`` when the settings were guessed) and the evidence behind them;
    ``verdict`` is the one verdict in words and ``verdict_kind`` its kind (``correct``, ``explained`` or
    ``unknown``); ``cannot_tell_apart`` lists the re-trainings that make the same merges on this corpus,
    each with a line that would tell them apart.

    ``first_difference.yours_count`` is the learner's pair's count in their own training (the
    re-training that reproduces them; None when none does) and ``reference_count`` the reference's
    pair's count in the reference's; each side's ``count`` is its count in the reference's training.
    """
    best, guess = result.best, result.guess
    report = {
        "matching": result.matching,
        "total": result.total,
        "first_difference": _first_difference(result),
        "diagnosis": [{"code": cause.code, "message": cause.message, "line": cause.line} for cause in result.diagnosis],
        "best_match": {
            "settings": best.variant.settings.to_dict(), "mistake": best.variant.code or None,
            "variant": best.label, "matching": best.matching,
        },
        "note": result.count_note(),
        "verdict": result.verdict.headline,
        "verdict_kind": result.verdict.kind,
        "tie": result.verdict.is_tie,
        "cannot_tell_apart": [
            {"variant": a.label, "code": a.code, "sentence": a.sentence(best.label),
             "line": a.separation.line if a.separation else None} for a in result.verdict.alternatives
        ],
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
        "cpu_s": cpu_s,
    }
    if guess is not None:
        report["guess_quality"] = {
            "reproduced": guess.reproduced, "total": guess.total, "quality": guess.quality, "sentence": guess.sentence(),
            "guessed": guess.settings.to_dict(),
            "convention": result.convention.name if result.convention else None,
        }
    return report
