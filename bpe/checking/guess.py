"""Guessing the settings a learner's trainer used, from their merges and the corpus alone.

Scope: what the merges and the corpus show about each setting, the search over the settings they
leave open, and how good the best guess is. Out of scope: the diagnosis that follows
(:mod:`bpe.checking.diagnose`) and running the re-trainings (:mod:`bpe.checking.search`).

Each setting is narrowed down before anything is trained, from evidence a person could point at:

* the **end-of-word marker** is spelled in the merges (``</w>``); a merge whose right side is the
  marker alone makes it a symbol of its own (``separate``), otherwise it is glued to the last
  symbol (``attached``, as subword-nmt does);
* the **unit**: a merge of half a character (bytes that are not UTF-8) means bytes; whole
  characters only, on a corpus that is not ASCII, means characters first;
* the **pre-tokenizer**: a merged token must lie inside one chunk, so each split is ranked by how
  many of the learner's tokens it would cut (``none`` only when every other split cuts some);
* **special tokens**: strings in the corpus that look like them (``<|endoftext|>``, ``<s>``,
  ``[CLS]``), tried cut out first, or trained as text first when the merges hold pieces of them;
* every **tie rule** at once (:data:`~bpe.checking.ties.TIE_EFFECTS`, learners' own among them), in
  one pass per candidate.

The candidates, likeliest first, are followed along the merges until one reproduces them all; if
none does, each setting is changed in turn from the best one (twice round). The minimum frequency
is read off the end by the diagnosis: a list that stops where the next pair occurs once was cut
by a minimum frequency of 2.

    >>> special_candidates("a<|endoftext|>b [CLS] x [CLS] y <s>")
    ('[CLS]', '<|endoftext|>')
    >>> markings([(b"e", b"s"), (b"es", b"t</w>")]), markings([(b"t", b"</w>")])
    ([('</w>', 'attached'), ('</w>', 'separate'), (None, 'separate')], [('</w>', 'separate'), ('</w>', 'attached'), (None, 'separate')])
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, replace

import regex

from ..text.pretokenize import NAMED_PATTERNS, Pretokenizer
from ..tokens.vocab import UNITS
from ..training.settings import TrainSettings
from .ties import TIE_EFFECTS
from .compact import Spelled
from .handwritten import MARKER_END
from .mistakes import Variant, tie_variant
from .search import Attempt, CheckCorpus, search

SPECIAL_LOOKING = regex.compile(r"<\|[^<>|\s]{1,40}\|>|</?[A-Za-z][A-Za-z0-9_.:-]{0,20}>|\[[A-Z][A-Z_]{1,15}\]")
"""Strings that look like special tokens: ``<|endoftext|>``, ``<s>``, ``</s>``, ``<pad>``, ``[CLS]``."""
MAX_SPECIALS = 8
_GRID = 24
"""At most this many combinations of the narrowed-down settings are followed (each with every tie rule)."""
_PREFERRED = ("gpt2", "gpt4", "gpt4o", "whitespace", "space")
"""The splits a homework trainer most often uses, in that order, among those that cut equally few tokens."""


@dataclass(frozen=True)
class Convention:
    """A well-known trainer's tie rule for the rest of its settings (the README's tie-break table).

    When the guessed settings are exactly one convention's but the ties go another way, the
    convention's rule is the reference's, and the tie rule becomes the diagnosis: that is what a
    learner who meant to follow it needs to hear."""

    name: str
    shape: str
    """Its other settings, in words."""
    tie_break: str
    fits: Callable[[TrainSettings], bool]


CONVENTIONS: tuple[Convention, ...] = (
    Convention("Stanford CS336", "special tokens cut out of the text before counting", "lexicographic-max",
               lambda s: s.end_of_word is None and bool(s.cut_from_corpus)),
    Convention("subword-nmt's learn-bpe", "</w> glued to each word's last character, words cut at spaces",
               "lexicographic-max", lambda s: s.end_of_word == "</w>" and s.end_of_word_mode == "attached"
               and s.pretokenizer == "space"),
)
"""Only settings that single a trainer out (the tie rule aside): cutting special tokens out before
counting is CS336's alone (Hugging Face, minbpe, tiktoken's and rustbpe's trainers count them as
text); a marker glued on and a split at spaces is subword-nmt's. Settings that several trainers
share, or a guess could not tell apart (the unit, on ASCII text), name no convention."""


def convention_for(settings: TrainSettings) -> Convention | None:
    """The one convention these settings follow (None when none, or several, fit)."""
    fitting = [convention for convention in CONVENTIONS if convention.fits(settings)]
    return fitting[0] if len(fitting) == 1 else None


@dataclass(frozen=True)
class Guess:
    settings: TrainSettings
    """The settings that reproduce the learner's merges furthest."""
    reproduced: int
    total: int
    explained: int = 0
    """How many the guess reproduces with the diagnosed mistake added (set by the diagnosis)."""

    @property
    def quality(self) -> str:
        """``all``, ``partial`` (half or more) or ``poor`` (under half: probably not the learner's settings),
        counting what the guess reproduces with the diagnosed mistake."""
        best = max(self.reproduced, self.explained)
        if best == self.total:
            return "all"
        return "partial" if 2 * best >= self.total else "poor"

    def sentence(self) -> str:
        """How good the guess is, in words (a poor guess is never presented silently)."""
        alone = f"The guessed settings reproduce {self.reproduced:,} of your {self.total:,} merges"
        if self.quality == "all":
            return f"{alone}." if self.reproduced == self.total else f"{alone}; with the mistake below, all of them."
        best = max(self.reproduced, self.explained)
        if self.quality == "partial":
            return (f"The best guess reproduces your first {best:,} of {self.total:,} merges"
                    f"{' with the mistake below' if self.explained > self.reproduced else ''}; something else "
                    "differs after that.")
        return (f"The best guess reproduces only {best:,} of your {self.total:,} merges: these settings are probably "
                "not yours. Check the corpus is the one you trained on, or give the settings you know.")


def markers(learner: Sequence[Spelled]) -> list[str]:
    """The end-of-word marker the merges spell most, if any: ``[(b"es", b"t</w>")] -> ["</w>"]``."""
    found: Counter[str] = Counter()
    for _, right in learner:
        match = MARKER_END.search(right.decode("utf-8", errors="replace"))
        if match:
            found[match.group()] += 1
    return [marker for marker, _ in found.most_common(1)]


def markings(learner: Sequence[Spelled]) -> list[tuple[str | None, str]]:
    """``(marker, mode)`` options, likeliest first (see the module docstring)."""
    found = markers(learner)
    if not found:
        return [(None, "separate")]
    marker = found[0]
    alone = any(right == marker.encode() for _, right in learner)
    modes = ("separate", "attached") if alone else ("attached", "separate")
    return [(marker, mode) for mode in modes] + [(None, "separate")]


def merged_texts(learner: Sequence[Spelled]) -> list[str]:
    """Each merge's token as text, its end-of-word marker dropped; half characters are skipped."""
    marker = markers(learner)
    texts = []
    for left, right in learner:
        try:
            text = (left + right).decode("utf-8")
        except UnicodeDecodeError:
            continue
        texts.append(text.removesuffix(marker[0]) if marker else text)
    return texts


def _units(learner: Sequence[Spelled]) -> list[str]:
    """Bytes first, unless a merge takes a character that is not ASCII as it comes (only characters
    start out whole) or the merges spell an end-of-word marker (as character-level trainers do)."""
    made: set[bytes] = set()
    whole_character = False
    for left, right in learner:
        for part in (left, right):
            try:
                text = part.decode("utf-8")
            except UnicodeDecodeError:
                return ["byte"]  # half a character was merged: only bytes split characters
            whole_character |= part not in made and len(text) == 1 and not text.isascii()
        made.add(left + right)
    first = "char" if whole_character or markers(learner) else "byte"
    return [first, *(unit for unit in UNITS if unit != first)]


def pretokenizers(texts: Sequence[str]) -> list[str]:
    """Every named split, those that cut fewest of the learner's tokens first (``none`` cuts none, so it
    goes first only when every other split cuts some)."""
    # tokens without a space: a split that drops the spaces is likelier than GPT-2's, which keeps them
    preferred = _PREFERRED if any(" " in text for text in texts) else ("whitespace", "space", "gpt2", "gpt4", "gpt4o")

    def cuts(name: str) -> int:
        splitter = Pretokenizer.parse(name)
        return sum(1 for text in texts if splitter.words(text) != [text])

    scored = {name: cuts(name) for name in NAMED_PATTERNS if name != "none"}
    order = sorted(scored, key=lambda name: (scored[name], preferred.index(name) if name in preferred else len(preferred)))
    if "none" in NAMED_PATTERNS:
        best_other = min(scored.values(), default=0)
        order.insert(0 if best_other > 0 else len(order), "none")
    return order


def special_candidates(text: str | None) -> tuple[str, ...]:
    """Strings in ``text`` that look like special tokens, most frequent first; a ``<|...|>`` counts once
    seen, the others (``<s>``, ``[CLS]``, which prose can hold too) from twice."""
    if not text:
        return ()
    counts = Counter(SPECIAL_LOOKING.findall(text))
    return tuple(token for token, n in counts.most_common() if n >= 2 or token.startswith("<|"))[:MAX_SPECIALS]


def _special_options(source: CheckCorpus, texts: Sequence[str]) -> list[tuple[str, ...]]:
    found = special_candidates(source.text)
    if not found:
        return [()]
    options = list(dict.fromkeys([found, tuple(t for t in found if t.startswith("<|")) or found, ()]))
    # merges that hold a piece of a special token ("<|", "endoftext") trained it as text
    pieces = any(len(text) > 1 and any(text in token for token in found) for text in texts)
    return options[::-1] if pieces else options


def guess_settings(source: CheckCorpus, learner: Sequence[Spelled], start: TrainSettings, deadline: float, *,
                   keep: Collection[str] = (), prefer: Mapping[str, object] | None = None) -> Guess:
    """The settings that reproduce ``learner`` furthest. ``keep``: settings the learner gave (not guessed);
    ``prefer``: values their file states (``unit``, ``pretokenizer``...), tried first."""
    texts = merged_texts(learner)
    words = source.words is not None  # a word table is already split, and has no special tokens
    options: dict[str, list] = {
        "marking": [(start.end_of_word, start.end_of_word_mode)] if "end_of_word" in keep else markings(learner),
        "unit": [start.unit] if "unit" in keep else _units(learner),
        "pretokenizer": [start.pretokenizer] if words or "pretokenizer" in keep else pretokenizers(texts),
        "special_tokens": [start.special_tokens] if words or "special_tokens" in keep else _special_options(source, texts),
    }
    if options["marking"][0][1] == "attached" and "whitespace" in options["pretokenizer"] and "space" in options["pretokenizer"]:
        options["pretokenizer"].remove("space")  # a glued marker is subword-nmt's, which cuts at spaces only
        options["pretokenizer"].insert(options["pretokenizer"].index("whitespace"), "space")
    prefer = dict(prefer or {})
    if prefer.get("end_of_word"):
        prefer["marking"] = (prefer["end_of_word"], prefer.get("end_of_word_mode", "separate"))
    for name, value in prefer.items():
        if name in options and value in options[name]:
            options[name].remove(value)
            options[name].insert(0, value)
    def candidates(choices: Sequence[dict]) -> list[Variant]:
        made = []
        for choice in choices:
            marker, mode = choice["marking"]
            settings = replace(start, unit=choice["unit"], pretokenizer=choice["pretokenizer"], end_of_word=marker,
                               end_of_word_mode=mode, special_tokens=choice["special_tokens"])
            made += [Variant("", "", settings), *(tie_variant(settings, rule) for rule in TIE_EFFECTS if rule != settings.tie_break)]
        return made

    names = list(options)
    top = {name: values[:3] for name, values in options.items()}
    grid = sorted(itertools.product(*(range(len(top[name])) for name in names)), key=sum)[:_GRID]
    choices = [{name: top[name][index] for name, index in zip(names, combo)} for combo in grid]
    attempts, _, _ = search(source, candidates(choices), learner, deadline, until_all=True)
    best = max(attempts, key=lambda attempt: attempt.matching, default=Attempt(Variant("", "", start), 0))
    for _ in range(2):  # not all reproduced: one setting at a time from the best, every value it can take
        if best.matching == len(learner):
            break
        improved = False
        for name in names:
            current = _choice(best.variant.settings)
            tried, _, _ = search(source, candidates([{**current, name: value} for value in options[name]]), learner,
                                 deadline, until_all=True)
            top_one = max(tried, key=lambda attempt: attempt.matching, default=best)
            if top_one.matching > best.matching:  # a tie keeps the current value
                best, improved = top_one, True
        if not improved:
            break
    return Guess(best.variant.settings, best.matching, len(learner))


def _choice(settings: TrainSettings) -> dict:
    return {"marking": (settings.end_of_word, settings.end_of_word_mode), "unit": settings.unit,
            "pretokenizer": settings.pretokenizer, "special_tokens": settings.special_tokens}
