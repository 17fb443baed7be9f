"""Check my encoder: where a learner's ids part from the tokenizer's, and which classic mistake makes them.

Scope: comparing the learner's ids with the tokenizer's own for each text, the first difference
(the chunk it falls in, both sides spelled in the app's notation: ``·`` for a space), and the one
verdict: every single mistake of :data:`~bpe.checking.encode_rules.ENCODER_MISTAKES` re-encodes
every text, cheapest first, then two mistakes on two lines at once (a special-token policy with a
merge loop, ids off by one with a split...), within :data:`~bpe.limits.ENCODE_CHECK_BUDGET_S`; the
first that reproduces *every* id is named with its fix and the line it goes on. Mistakes that give
the same ids on the learner's texts are said to be indistinguishable there, with a probe text that
tells them apart (:mod:`bpe.checking.probes`); when every id matches, the mistakes the learner's
texts could not show are named the same way. With no cause, the verdict says "not one of the
mistakes I know", whether the learner's ids even spell their text, and what to print at the first
difference. Out of scope: reading the cases (:mod:`bpe.checking.encode_cases`) and drawing the
result (:mod:`bpe.views.encode_check`).

    >>> from bpe import Corpus, TrainSettings, train
    >>> from bpe.encoding.tokenizer import Tokenizer
    >>> tok = Tokenizer.from_trace(train(Corpus.from_text("bc bc bc ab ab", pretokenizer="whitespace"),
    ...                                  TrainSettings(pretokenizer="whitespace", merges=2)))
    >>> theirs = [EncodeCase("abc", (tok.encode("ab")[0], tok.encode("c")[0]))]   # ab + c: left to right
    >>> result = check_encoder(tok, theirs)
    >>> result.matching, result.difference.yours_shown, result.difference.reference_shown
    (0, ('ab', 'c'), ('a', 'bc'))
    >>> result.verdict_kind, [cause.code for cause in result.diagnosis]
    ('explained', ['left-to-right'])
    >>> [alternative.code for alternative in result.alternatives]   # one short text: others give these ids too
    ['all-at-once', 'longest-match']
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Sequence
from dataclasses import dataclass

from ..encoding.tokenizer import Tokenizer
from ..errors import BpeError
from ..limits import ENCODE_CHECK_BUDGET_S
from ..notation.spelling import visible_text
from .encode_cases import EncodeCase
from .encode_rules import ENCODER_MISTAKES, MODES, EncodeVariant, encoder_variants
from .probes import POOL, Probes, probes_for
from .verdict import CORRECT, EXPLAINED, UNEXPLAINED, UNKNOWN

MAX_ENCODE_CHECK_SECONDS = ENCODE_CHECK_BUDGET_S
"""The search's budget (:data:`bpe.limits.ENCODE_CHECK_BUDGET_S`), under the name earlier releases gave it."""
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
    line: str = ""
    """The line of the learner's encoder the fix goes on."""


@dataclass(frozen=True)
class Indistinguishable:
    """A mistaken encoder that gives the learner's ids on all their texts too (or, when every id is
    right, one their texts cannot show), and a text that tells it apart."""

    label: str
    code: str
    text: str | None
    """A text on which it and the verdict's encoder give different ids (None: none found)."""

    def sentence(self, against: str) -> str:
        if self.text is None:
            return f"{self.label} gives the same ids on every text I have"
        return f"{self.label} gives the same ids on your texts; add the text {self.text!r} to tell it from {against}"


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
    verdict_kind: str = CORRECT
    """``correct``, ``explained`` (a mistake or two reproduce every id) or ``unknown``."""
    headline: str = ""
    """The verdict in words: what the page, the CLI and the JSON say first."""
    alternatives: tuple[Indistinguishable, ...] = ()
    best: EncodeVariant | None = None
    """The re-encoding the verdict names (None: correct, or unknown)."""

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
    rank_of = {new_id: rank for rank, (_, _, new_id) in enumerate(tokenizer.merges)}
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


def _reproduces(variant: EncodeVariant, tokenizer: Tokenizer, cases: Sequence[EncodeCase], mode: str, *,
                stop_early: bool = False) -> int:
    """How many of ``cases`` ``variant`` encodes as the learner did (``stop_early``: stop at the first it misses)."""
    count = 0
    for case in cases:
        try:
            same = tuple(variant.encode(tokenizer, case.text, mode)) == case.ids
        except BpeError:
            same = False  # the mistaken encoder cannot encode this text at all: it reproduces nothing here
        count += same
        if stop_early and not same:
            return count
    return count


def _telling_text(a: EncodeVariant, b: EncodeVariant | None, tokenizer: Tokenizer, mode: str, probes: Probes) -> str | None:
    """A probe (or pool) text on which ``a`` and ``b`` (None: the tokenizer itself) give different ids."""
    def ids(variant: EncodeVariant | None, text: str):
        try:
            return tuple(variant.encode(tokenizer, text, mode)) if variant else tuple(tokenizer.encode(text, **MODES[mode]))
        except BpeError as error:
            return str(error)
    first = probes.witness.get(a.label) if b is None else None
    for text in dict.fromkeys([*([first] if first else []), *probes.texts, *POOL]):
        if ids(a, text) != ids(b, text):
            return text
    return None


def check_encoder(tokenizer: Tokenizer, cases: Sequence[EncodeCase], *, mode: str = "allowed",
                  time_limit_s: float = ENCODE_CHECK_BUDGET_S) -> EncodeCheckResult:
    """Compare the learner's ids in ``cases`` with ``tokenizer``'s own, special-token text read as
    ``mode`` (``allowed``: special tokens; ``plain``: text), and find the verdict."""
    if mode not in MODES:
        raise BpeError(f"unknown special-token mode {mode!r}: use one of {', '.join(MODES)}")
    results = tuple(CaseResult(case.text, case.ids, tuple(tokenizer.encode(case.text, **MODES[mode]))) for case in cases)
    spells = all(_spells(tokenizer, case) for case in cases)
    difference = _difference(tokenizer, results, spells)
    deadline = time.perf_counter() + time_limit_s
    probes = probes_for(tokenizer, mode)
    singles = [v for v in encoder_variants(tokenizer, mode) if v.label not in probes.silent]  # none can show here
    total = len(cases)
    tried: list[Tried] = []
    for variant in singles:
        if time.perf_counter() > deadline:
            break
        tried.append(Tried(variant, _reproduces(variant, tokenizer, cases, mode)))
    full = [entry.variant for entry in tried if entry.reproduced == total]
    skipped = len(singles) - len(tried)
    if difference is None:  # every id right: the mistakes these texts could not show
        hidden = _distinct(full)
        alternatives = tuple(Indistinguishable(v.label, v.code, _telling_text(v, None, tokenizer, mode, probes))
                             for v in hidden)
        headline = f"Your encoder gives the tokenizer’s ids for all {total:,} of your texts."
        if alternatives:
            headline += (" These texts cannot show every mistake, though: " +
                         "; ".join(_hidden_sentence(a) for a in alternatives) + ".")
        return EncodeCheckResult(results, mode, None, (), tuple(tried), spells, skipped, CORRECT, headline, alternatives)
    if not full and time.perf_counter() <= deadline:  # two mistakes on two lines at once, cheapest first
        alone = {entry.variant.label: entry.reproduced for entry in tried}
        pairs = sorted((pair for a, b in itertools.combinations(singles, 2) if a.code != b.code
                        and (pair := a.with_(b)) is not None), key=lambda v: v.cost)
        for number, pair in enumerate(pairs):
            if time.perf_counter() > deadline:
                skipped += len(pairs) - number
                break
            reproduced = _reproduces(pair, tokenizer, cases, mode, stop_early=True)
            tried.append(Tried(pair, reproduced))
            if reproduced == total:
                full = [pair]
                break
    if not full:
        cause = _unexplained(tokenizer, tried, spells, skipped, difference, time_limit_s, mode)
        return EncodeCheckResult(results, mode, difference, (cause,), tuple(tried), spells, skipped, UNKNOWN,
                                 cause.message)
    best = full[0]
    alternatives = tuple(Indistinguishable(v.label, v.code, _telling_text(best, v, tokenizer, mode, probes))
                         for v in _distinct(full[1:], skip={part.code for part in best.single}))
    causes = tuple(_cause(part, difference, total) for part in best.single)
    headline = _explained(best, total, alone if len(best.single) > 1 else {})
    return EncodeCheckResult(results, mode, difference, causes, tuple(tried), spells, skipped, EXPLAINED, headline,
                             alternatives, best)


def _distinct(variants: Sequence[EncodeVariant], skip: set[str] = frozenset()) -> list[EncodeVariant]:
    """One variant per mistake (two splits that agree here have one fix), those of ``skip`` left out."""
    seen, kept = set(skip), []
    for variant in variants:
        if variant.code not in seen:
            seen.add(variant.code)
            kept.append(variant)
    return kept


def _hidden_sentence(hidden: Indistinguishable) -> str:
    title = ENCODER_MISTAKES[hidden.code].title
    if hidden.text is None:
        return f"{title} ({hidden.label}) gives the same ids on every text I have"
    return f"an encoder with {title} ({hidden.label}) gives these ids too; add the text {hidden.text!r} to tell"


def _cause(part: EncodeVariant, difference: Difference, total: int) -> EncodeCause:
    mistake = ENCODER_MISTAKES[part.code]
    here = f" At the first difference {difference.evidence}." if mistake.about_order and difference.evidence else ""
    return EncodeCause(mistake.code, mistake.title,
                       f"{mistake.explanation}{here} Re-encoding with {part.label} reproduces every id of your {total} "
                       f"text{'s' * (total != 1)}. Fix ({mistake.line}): {part.fix}.", mistake.line)


def _explained(best: EncodeVariant, total: int, alone: dict[str, int]) -> str:
    texts = f"{total:,} text{'s' * (total != 1)}"
    if len(best.single) == 1:
        mistake = ENCODER_MISTAKES[best.code]
        return f"Your encoder has {mistake.title} ({mistake.line}): re-encoding with {best.label} gives every id of your {texts}."
    first, second = best.single
    return (f"Two mistakes at once: {first.label} ({ENCODER_MISTAKES[first.code].line}), and {second.label} "
            f"({ENCODER_MISTAKES[second.code].line}). Together they give every id of your {texts}; alone, the first "
            f"gives {alone.get(first.label, 0)} of {total} and the second {alone.get(second.label, 0)} of {total}.")


def _unexplained(tokenizer: Tokenizer, tried: Sequence[Tried], spells: bool, skipped: int, difference: Difference,
                 budget_s: float, mode: str) -> EncodeCause:
    spelled = ("" if spells else " Your ids do not even decode to your texts: check how ids are numbered and which "
               "vocabulary your encoder reads.")
    note = f" ({skipped} re-encodings were not tried within the {budget_s:g} s budget.)" if skipped else ""
    return EncodeCause(UNEXPLAINED, "not one of the mistakes I know",
                       f"Not one of the mistakes I know: none of the {len(tried)} re-encodings I tried (single mistakes, "
                       f"then two at once) gives every id of yours.{spelled}{note} {_what_to_print(tokenizer, difference, mode)}")


def _what_to_print(tokenizer: Tokenizer, d: Difference, mode: str) -> str:
    """At the first difference: the chunk it falls in and the tokenizer's first merges there, to compare
    with what the learner's loop prints."""
    offset = 0
    for walk in tokenizer.encode_walkthrough(d.text, **MODES[mode]):
        end = offset + len(walk.text)
        if offset <= d.where < end or end >= len(d.text):
            shown = visible_text(walk.text.encode("utf-8", errors="surrogatepass"))
            steps = ", then ".join(f"{_spell(tokenizer, m.left)} + {_spell(tokenizer, m.right)} (merge {m.rank + 1:,})"
                                   for m in walk.merges[:3])
            order = f" the tokenizer merges {steps}{' ...' if len(walk.merges) > 3 else ''}" if steps else \
                " the tokenizer merges nothing in it"
            return (f"Text {d.case + 1}'s first difference is in the chunk {shown!r}: print the chunks your encoder "
                    f"cuts that text into, then each pair your loop merges in that chunk, in order; there{order}.")
        offset = end
    return "Print each pair your loop merges, in order, and compare with the tokenizer's merges."


def encode_report(result: EncodeCheckResult) -> dict:
    """The JSON ``check-encode --json`` prints: stable keys, every token also in the notation."""
    d = result.difference
    return {
        "matching": result.matching,
        "total": result.total,
        "mode": result.mode,
        "spells_text": result.spells_text,
        "verdict": result.headline,
        "verdict_kind": result.verdict_kind,
        "best": result.best.label if result.best else None,
        "first_difference": None if d is None else {
            "text_index": d.case, "token_index": d.token, "text": d.text, "character": d.where,
            "yours": list(d.yours), "reference": list(d.reference),
            "yours_shown": list(d.yours_shown), "reference_shown": list(d.reference_shown), "evidence": d.evidence,
        },
        "diagnosis": [{"code": cause.code, "title": cause.title, "message": cause.message, "line": cause.line}
                      for cause in result.diagnosis],
        "cannot_tell_apart": [{"variant": a.label, "code": a.code, "text": a.text} for a in result.alternatives],
        "texts": [{"text": case.text, "yours": list(case.yours), "reference": list(case.reference),
                   "first_difference": case.first_difference} for case in result.cases],
        "tried": [{"code": entry.variant.code, "variant": entry.variant.label, "reproduced": entry.reproduced}
                  for entry in result.tried],
        "skipped": result.skipped,
    }
