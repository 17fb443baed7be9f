"""How a learner's trainer breaks ties, named from the effect: one registry the checker follows.

Scope: every tie rule a learner's code is found to follow, each with what it takes among the pairs
that share the top count (in words), the line of Python that does it (the shape the verdict's fix
points at), and its sort key over the compact trainer's state. Out of scope: the reference
trainer's own rules (:data:`bpe.training.tiebreak.TIE_BREAK_RULES`), which this registry reuses
where they exist, so a verdict and a training run never disagree about what a rule does.

Why a registry of its own: learners' code follows rules no library uses. ``sorted(stats.items(),
key=lambda kv: kv[1])[-1]`` is stable, so among tied pairs it takes the *last* the count met (the
pair that first appears latest in the text); a count kept from step to step, new pairs added at its
end, takes the pair that *entered the count* first, which is not the pair that occurs first once
merges have made new tokens early in the text. ``Counter.most_common(1)`` is ``max`` over the
insertion order: first seen on counts made afresh each step, insertion order on a running Counter.
Where two rules give the same merges on a corpus, the check says so and looks for a line that
would tell them apart (:mod:`bpe.checking.separation`).

Adding a rule is one entry: a name, the effect, the pick line, a key; ``tests/learner_suite``
holds a trainer written the learner's way for each.

    >>> TIE_EFFECTS["last-seen"].effect
    'the pair that first appears latest in the text'
    >>> [name for name, rule in TIE_EFFECTS.items() if rule.engine is None]
    ['last-seen', 'greatest-ids', 'insertion-order']
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..errors import RegistryError
from ..registry import Registry
from ..training.tiebreak import TIE_BREAK_RULES

SortKey = Callable[[Any], object]


@dataclass(frozen=True)
class TieEffect:
    name: str
    effect: str
    """What it takes among the pairs tied at the top count, in words ("the pair that occurs first...")."""
    pick: str
    """The line of Python a learner writes for it (the shape of the fix)."""
    key: Callable[[Any], SortKey]
    """Given the compact trainer's state (its ``context``, a :class:`~bpe.training.tiebreak.TieContext`,
    and its ``birth`` of each pair), the sort key of a pair."""
    greatest_wins: bool = False
    engine: str | None = None
    """The reference trainer's rule that does the same (None: the checker's alone, followed by the
    compact trainer only)."""
    needs_births: bool = False
    """The key reads when each pair entered the count (the compact trainer then records it)."""


def _engine(name: str, effect: str, pick: str) -> TieEffect:
    rule = TIE_BREAK_RULES[name]
    return TieEffect(name, effect, pick, lambda state: rule.key(state.context), rule.greatest_wins, engine=name)


_PICK_FIRST = "`max(stats, key=stats.get)` or `stats.most_common(1)` on counts made afresh each step"
TIE_EFFECTS: Registry[TieEffect] = Registry("tie rule", entries=(
        _engine("first-seen", "the pair that occurs first in the text", _PICK_FIRST),
        TieEffect("last-seen", "the pair that first appears latest in the text",
                  "`sorted(stats.items(), key=lambda kv: kv[1])[-1]` (a stable sort leaves the last tied pair last), "
                  "or a loop that keeps a pair whose count is `>=` the best so far",
                  key=lambda state: state.context.first_occurrence, greatest_wins=True),
        _engine("lexicographic-max", "the greatest pair of byte strings", "`max(stats, key=lambda p: (stats[p], p))`"),
        _engine("lexicographic-min", "the smallest pair of byte strings",
                "`min(stats, key=lambda p: (-stats[p], p))`, or a heap of `(-count, pair)`"),
        _engine("smallest-ids", "the pair with the smallest ids, left id first (bytes are 0-255, merge k makes 256 + k)",
                "`min(stats, key=lambda p: (-stats[p], p))` over pairs of ids"),
        TieEffect("greatest-ids", "the pair with the greatest ids, left id first (bytes are 0-255, merge k makes "
                  "256 + k)", "`max(stats, key=lambda p: (stats[p], p))` over pairs of ids (the greater pair of "
                  "byte strings needs the bytes: `(stats[p], vocab[p[0]], vocab[p[1]])`)",
                  key=lambda state: lambda pair: pair, greatest_wins=True),
        TieEffect("insertion-order", "the pair that entered your running count first, a count kept from step to step "
                  "with each new token's pairs added at its end",
                  "`max(stats, key=stats.get)` or `stats.most_common(1)` over one `stats` dict (or Counter) updated "
                  "after each merge instead of counted afresh",
                  key=lambda state: state.birth, needs_births=True),
        _engine("hf", "the pair with the smallest ids in Hugging Face's numbering, its alphabet sorted by character",
                "Hugging Face's BpeTrainer"),
        _engine("sentencepiece", "the shorter merged piece, then the first in code point order",
                "SentencePiece's BPE trainer"),
))
"""Every tie rule the checker recognises, by name; the reference's rules keep their names."""

missing = set(TIE_BREAK_RULES) - set(TIE_EFFECTS)
if missing:  # a rule the reference trainer has must be one the checker can name
    raise RegistryError(f"tie rules {sorted(missing)} have no entry in TIE_EFFECTS: add one (name, effect, pick)")
del missing


