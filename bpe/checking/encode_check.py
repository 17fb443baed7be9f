"""Check my encoder: where a learner's ids part from the tokenizer's, and which classic mistake makes them.

Scope: comparing the learner's ids with the tokenizer's own for each text, the first difference
(the chunk it falls in, both sides spelled in the app's notation: ``·`` for a space), and the
diagnosis: every variant of :data:`~bpe.checking.encode_rules.ENCODER_MISTAKES` re-encodes every
text, and the ones that reproduce *every* id are named, each with its fix. When none does, the
closest is said, and whether the learner's ids even spell their text. Out of scope: reading the
cases (:mod:`bpe.checking.encode_cases`) and drawing the result (:mod:`bpe.views.encode_check`).

    >>> from bpe import Corpus, TrainSettings, train
    >>> from bpe.encoding.tokenizer import Tokenizer
    >>> tok = Tokenizer.from_trace(train(Corpus.from_text("bc bc bc ab ab", pretokenizer="whitespace"),
    ...                                  TrainSettings(pretokenizer="whitespace", merges=2)))
    >>> theirs = [EncodeCase("abc", (tok.encode("ab")[0], tok.encode("c")[0]))]   # ab + c: left to right
    >>> result = check_encoder(tok, theirs)
    >>> result.matching, result.difference.yours_shown, result.difference.reference_shown
    (0, ('ab', 'c'), ('a', 'bc'))
    >>> [cause.code for cause in result.diagnosis]        # on one short text, three mistakes give these ids
    ['left-to-right', 'all-at-once', 'longest-match']
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from ..encoding.segmentation import TokenPieces
from ..encoding.tokenizer import Tokenizer
from ..errors import BpeError
from ..notation.spelling import visible_text
from .diagnose import UNEXPLAINED
from .encode_cases import EncodeCase
from .encode_rules import ENCODER_MISTAKES, MODES, EncodeVariant, encoder_variants

MAX_ENCODE_CHECK_SECONDS = 20.0
"""The diagnosis stops trying variants after this long and says how many it did not try."""
SHOWN_TOKENS = 12
"""Tokens of each side shown around the first difference."""


@dataclass(frozen=True)
class CaseResult:
    text: str
    yours: tuple[int, ...]
    reference: tuple[int, ...]

    @property
    def first_difference(self) -> int | None:
        """Index of the first id that differs (None when all match)."""
        for index, (a, b) in enumerate(zip(self.yours, self.reference)):
            if a != b:
                return index
        return None if len(self.yours) == len(self.reference) else min(len(self.yours), len(self.reference))


@dataclass(frozen=True)
class Difference:
    """The first difference, as a learner reads it."""

    case: int
    """Index of the text (from 0)."""
    token: int
    """Index of the first id that differs."""
    text: str
    where: int
    """The character where the differing tokens start."""
    yours: tuple[int, ...]
    """The learner's ids from there (at most :data:`SHOWN_TOKENS`)."""
    reference: tuple[int, ...]
    yours_shown: tuple[str, ...]
    """Each of ``yours`` in the notation (an id the tokenizer lacks as ``id N?``)."""
    reference_shown: tuple[str, ...]
    evidence: str = ""
    """Which merge made which token, when the ranks tell why the learner's loop went wrong (empty when
    the learner's ids do not even spell the text)."""


@dataclass(frozen=True)
class EncodeCause:
    code: str
    title: str
    message: str


@dataclass(frozen=True)
class Tried:
    variant: EncodeVariant
    reproduced: int
    """How many of the texts it encodes exactly as the learner did."""


@dataclass(frozen=True)
class EncodeCheckResult:
    cases: tuple[CaseResult, ...]
    mode: str
    difference: Difference | None
    diagnosis: tuple[EncodeCause, ...]
    tried: tuple[Tried, ...]
    spells_text: bool
    """Whether the learner's ids decode to their texts (a wrong id numbering does not)."""
    skipped: int = 0

    @property
    def matching(self) -> int:
        return sum(case.first_difference is None for case in self.cases)

    @property
    def total(self) -> int:
        return len(self.cases)


def _spell(tokenizer: Tokenizer, token_id: int) -> str:
    tokens = tokenizer.tokens
    if token_id not in tokens:
        return f"id {token_id}?"
    token = tokens[token_id]
    return visible_text(token.data, tokenizer.end_of_word, token.ends_word)


def _spells(tokenizer: Tokenizer, case: EncodeCase) -> bool:
    try:
        return tokenizer.decode(list(case.ids), errors="strict") == tokenizer.decode(tokenizer.encode(case.text, **MODES["plain"]))
    except BpeError:
        return False


def _evidence(tokenizer: Tokenizer, yours: Sequence[int], reference: Sequence[int]) -> str:
    """Why a merge loop that is not by rank went wrong here: a token the learner made by a later merge
    where BPE makes one, overlapping it, by an earlier one."""
    rank_of = {new_id: rank for rank, (_, _, new_id) in enumerate(TokenPieces.of(tokenizer).merges)}
    tokens = tokenizer.tokens
    spans, position = [], 0
    for token_id in reference:
        length = len(tokens[token_id].data) if token_id in tokens else 0
        spans.append((position, position + length, token_id))
        position += length
    position = 0
    for token_id in yours:
        if token_id not in tokens:
            return ""
        start, end = position, position + len(tokens[token_id].data)
        position = end
        if token_id in reference or token_id not in rank_of:
            continue
        overlapping = [(rank_of[ref], ref) for a, b, ref in spans if a < end and start < b and ref in rank_of]
        earlier = [(rank, ref) for rank, ref in overlapping if rank < rank_of[token_id]]
        if earlier:
            rank, ref = min(earlier)
            return (f"your encoder made {_spell(tokenizer, token_id)} (merge {rank_of[token_id] + 1:,}) where BPE makes "
                    f"{_spell(tokenizer, ref)} (merge {rank + 1:,}), learned earlier, so it goes first")
    return ""


def _difference(tokenizer: Tokenizer, results: Sequence[CaseResult], spells: bool) -> Difference | None:
    for index, result in enumerate(results):
        at = result.first_difference
        if at is None:
            continue
        _, offsets = tokenizer.decode_with_offsets(result.reference)
        where = offsets[at] if at < len(offsets) else len(result.text)
        yours, reference = result.yours[at:at + SHOWN_TOKENS], result.reference[at:at + SHOWN_TOKENS]
        return Difference(index, at, result.text, where, yours, reference,
                          tuple(_spell(tokenizer, token) for token in yours),
                          tuple(_spell(tokenizer, token) for token in reference),
                          _evidence(tokenizer, yours, reference) if spells else "")
    return None


def _reproduces(variant: EncodeVariant, tokenizer: Tokenizer, cases: Sequence[EncodeCase], mode: str) -> int:
    count = 0
    for case in cases:
        try:
            count += tuple(variant.encode(tokenizer, case.text, mode)) == case.ids
        except BpeError:
            pass  # the mistaken encoder cannot encode this text at all: it reproduces nothing here
    return count


def check_encoder(tokenizer: Tokenizer, cases: Sequence[EncodeCase], *, mode: str = "allowed",
                  time_limit_s: float = MAX_ENCODE_CHECK_SECONDS) -> EncodeCheckResult:
    """Compare the learner's ids in ``cases`` with ``tokenizer``'s own, special-token text read as
    ``mode`` (``allowed``: special tokens; ``plain``: text), and diagnose the first difference."""
    if mode not in MODES:
        raise BpeError(f"unknown special-token mode {mode!r}: use one of {', '.join(MODES)}")
    results = tuple(CaseResult(case.text, case.ids, tuple(tokenizer.encode(case.text, **MODES[mode]))) for case in cases)
    spells = all(_spells(tokenizer, case) for case in cases)
    difference = _difference(tokenizer, results, spells)
    if difference is None:
        return EncodeCheckResult(results, mode, None, (), (), spells)
    deadline = time.perf_counter() + time_limit_s
    variants = encoder_variants(tokenizer)
    tried: list[Tried] = []
    for variant in variants:
        if time.perf_counter() > deadline:
            break
        tried.append(Tried(variant, _reproduces(variant, tokenizer, cases, mode)))
    skipped = len(variants) - len(tried)
    winners = [entry for entry in tried if entry.reproduced == len(cases)]
    causes: list[EncodeCause] = []
    for entry in winners:
        if entry.variant.code in {cause.code for cause in causes}:
            continue
        mistake = ENCODER_MISTAKES[entry.variant.code]
        here = f" At the first difference {difference.evidence}." if mistake.about_order and difference.evidence else ""
        causes.append(EncodeCause(mistake.code, mistake.title,
                                  f"{mistake.explanation}{here} Re-encoding with {entry.variant.label} reproduces every "
                                  f"id of your {len(cases)} text{'s' * (len(cases) != 1)}. Fix: {entry.variant.fix}."))
    if not causes:
        causes.append(_unexplained(tried, results, spells, skipped))
    return EncodeCheckResult(results, mode, difference, tuple(causes), tuple(tried), spells, skipped)


def _unexplained(tried: Sequence[Tried], results: Sequence[CaseResult], spells: bool, skipped: int) -> EncodeCause:
    matching = sum(case.first_difference is None for case in results)
    closest = sorted(tried, key=lambda entry: -entry.reproduced)[:3]
    furthest = "; ".join(f"{entry.variant.label}: {entry.reproduced}" for entry in closest if entry.reproduced > matching)
    said = (f" The closest, in texts reproduced: {furthest}, against {matching} by the tokenizer itself."
            if furthest else "")
    spelled = ("" if spells else " Your ids do not even decode to your texts: check how ids are numbered and which "
               "vocabulary your encoder reads.")
    note = f" ({skipped} re-encodings were not tried in the time limit.)" if skipped else ""
    return EncodeCause(UNEXPLAINED, "no single mistake found",
                       f"No single classic mistake reproduces every id of yours.{said}{spelled}{note} Compare your "
                       "tokens with the tokenizer's at the first difference above, merge by merge.")


def encode_report(result: EncodeCheckResult) -> dict:
    """The JSON ``check-encode --json`` prints: stable keys, every token also in the notation."""
    d = result.difference
    return {
        "matching": result.matching,
        "total": result.total,
        "mode": result.mode,
        "spells_text": result.spells_text,
        "first_difference": None if d is None else {
            "text_index": d.case, "token_index": d.token, "text": d.text, "character": d.where,
            "yours": list(d.yours), "reference": list(d.reference),
            "yours_shown": list(d.yours_shown), "reference_shown": list(d.reference_shown), "evidence": d.evidence,
        },
        "diagnosis": [{"code": cause.code, "title": cause.title, "message": cause.message} for cause in result.diagnosis],
        "texts": [{"text": case.text, "yours": list(case.yours), "reference": list(case.reference),
                   "first_difference": case.first_difference} for case in result.cases],
        "tried": [{"code": entry.variant.code, "variant": entry.variant.label, "reproduced": entry.reproduced}
                  for entry in result.tried],
        "skipped": result.skipped,
    }
