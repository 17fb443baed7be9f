"""A score as a learner reads it: WordPiece's count(ab) / (count(a) × count(b)), exact where it is short.

Scores are exact fractions (:class:`~bpe.training.choice.PairScore`); on a toy corpus a learner
checks them by hand, so they read as the course writes them (``1/20``), and on real text, where
the denominator runs to millions, as a decimal that keeps the order of the bars readable.

    >>> from fractions import Fraction
    >>> score_text(Fraction(1, 20)), score_text(Fraction(17, 123456)), score_text(Fraction(3))
    ('1/20', '0.0001377', '3')
    >>> worked_score(5, 20, 5)
    '5 / (20 × 5) = 1/20'
"""

from __future__ import annotations

from fractions import Fraction

SHORT_DENOMINATOR = 1000
"""Up to this denominator a score is written as a fraction, above it as a decimal."""


def score_text(score: Fraction) -> str:
    """``score`` as ``1/20``, or, with a long denominator, four significant digits."""
    if score.denominator == 1:
        return str(score.numerator)
    if score.denominator <= SHORT_DENOMINATOR:
        return f"{score.numerator}/{score.denominator}"
    return f"{float(score):.4g}"


def worked_score(count: int, left: int, right: int) -> str:
    """The score worked out: the pair's count over its two tokens' counts, and what that makes."""
    return f"{count:,} / ({left:,} × {right:,}) = {score_text(Fraction(count, left * right))}"
