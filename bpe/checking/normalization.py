"""Ways a learner's trainer changes the text before training: one registry, each with its telltale.

Scope: each normalization as a function on text, the Python a learner wrote to get it, and a test
that rules it out from the learner's merges alone. Out of scope: whether it explains the merges
(:mod:`bpe.checking.diagnose` re-trains the normalized corpus to find out).

Ruling out is what keeps the search cheap and honest: a learner whose merges hold a capital letter
did not lowercase, one whose merges hold a line break did not collapse whitespace, so those
re-trainings are never run (and never blamed).

    >>> NORMALIZATIONS["collapse"].apply("a  b\\n c ")
    'a b c'
    >>> NORMALIZATIONS["lowercase"].ruled_out(["The", " cat"]), NORMALIZATIONS["lowercase"].ruled_out([" the"])
    (True, False)
    >>> NORMALIZATIONS["nfkc"].apply("ﬁne ½")
    'fine 1⁄2'
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ..registry import Registry
from ..renamed import renamed


@dataclass(frozen=True)
class LearnerNormalization:
    """A way a learner's trainer changed the text before counting (a tokenizer's own step is
    :class:`bpe.text.named_pretokenizers.Normalization`)."""

    name: str
    label: str
    """What the learner's trainer did, in a few words: "text lowercased first"."""
    apply: Callable[[str], str]
    code: str
    """The Python that does it (what to remove from the learner's trainer)."""
    keeps: Callable[[str], bool]
    """True when a merged token could come out of normalized text (a capital letter cannot, after lowercasing)."""

    def ruled_out(self, tokens: Iterable[str]) -> bool:
        """The learner's merged tokens (as text) show this normalization was not applied."""
        return not all(map(self.keeps, tokens))


def _strip_lines(text: str) -> str:
    return "\n".join(line.strip() for line in text.split("\n"))


NORMALIZATIONS: Registry[LearnerNormalization] = Registry("normalization", entries=(
        LearnerNormalization("lowercase", "text lowercased first", str.lower, "text.lower()",
                             lambda token: token == token.lower()),
        LearnerNormalization("nfc", "text NFC-normalized first", lambda text: unicodedata.normalize("NFC", text),
                             'unicodedata.normalize("NFC", text)', lambda token: unicodedata.is_normalized("NFC", token)),
        LearnerNormalization("nfkc", "text NFKC-normalized first", lambda text: unicodedata.normalize("NFKC", text),
                             'unicodedata.normalize("NFKC", text)', lambda token: unicodedata.is_normalized("NFKC", token)),
        LearnerNormalization("strip", "each line stripped of its outer spaces", _strip_lines,
                             "line.strip()", lambda token: " \n" not in token and "\n " not in token),
        LearnerNormalization("collapse", "whitespace collapsed to single spaces", lambda text: " ".join(text.split()),
                             '" ".join(text.split())', lambda token: not any(c.isspace() and c != " " for c in token)
                             and "  " not in token),
))
"""Every normalization the checker tries, by name."""


# Its name before it told itself apart from a tokenizer's own Normalization (issue 49: one name per concept).
__getattr__ = renamed(__name__, Normalization=LearnerNormalization)
