"""Merge k told in plain words: which pair, how often, who tied and why this one won, what it did.

A narration is a list of sentences whose parts are plain strings or :class:`TokenRef` (a token to
show as a chip). :meth:`Narration.to_text` spells tokens in quotes, for tests and captions;
:meth:`Narration.to_html` draws them as chips and escapes everything else.

    >>> from bpe.training.presets import PRESETS
    >>> from bpe.training.trainer import train
    >>> trace = train(PRESETS["wikipedia"].corpus(), PRESETS["wikipedia"].settings)
    >>> print(narrate_step(trace, 1).to_text())
    Merge 1 of 3: 'a' + 'a' → 'aa'
    The pair 'a' + 'a' occurs 4 times, more than any other pair.
    ...
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from ..notation.scores import score_text, worked_score
from ..notation.spelling import spelled
from ..teaching.pretokenization_lab import is_superword
from ..text.pretokenize import PRETOKENIZERS
from ..training.tiebreak import TIE_BREAK_RULES
from ..training.trace import MergeStep, Trace
from .stats import early_stop, per_token
from .token_html import Piece, chips_html

MAX_TIES_SHOWN = 6


@dataclass(frozen=True, slots=True)
class TokenRef:
    token_id: int
    named: bool = True
    """Show the token's Wikipedia-style name if it has one (``False``: always its bytes)."""


@dataclass(frozen=True, slots=True)
class PairRef:
    """A pair of the pair-count chart (1-based ``rank``), drawn so that hovering it marks the
    pair's places in the corpus, as hovering its bar does (see :mod:`bpe.views.merge_html`)."""

    left: int
    right: int
    rank: int


Part = str | TokenRef | PairRef


@dataclass(frozen=True)
class Narration:
    headline: tuple[Part, ...]
    sentences: tuple[tuple[Part, ...], ...]
    trace: Trace
    names: Mapping[int, str]
    new_id: int | None = None

    def _spell(self, ref: TokenRef) -> str:
        if ref.named and ref.token_id in self.names:
            return self.names[ref.token_id]
        return "'" + spelled(self.trace, ref.token_id) + "'"

    def _line_text(self, parts: tuple[Part, ...]) -> str:
        return "".join(
            part if isinstance(part, str)
            else f"{self._spell(TokenRef(part.left))} + {self._spell(TokenRef(part.right))}" if isinstance(part, PairRef)
            else self._spell(part)
            for part in parts
        )

    def to_text(self) -> str:
        return "\n".join(self._line_text(line) for line in (self.headline, *self.sentences))

    def _line_html(self, parts: tuple[Part, ...]) -> str:
        out = []
        for part in parts:
            if isinstance(part, str):
                out.append(html.escape(part))
                continue
            if isinstance(part, PairRef):
                pair = self._line_html((TokenRef(part.left), " + ", TokenRef(part.right)))
                # focusable: a key or a finger marks its places as a mouse does (merge_html's :focus rules)
                out.append(f'<span class="bpe-pairref" data-pair="{part.rank}" tabindex="0">{pair}</span>')
                continue
            token = self.trace.tokens[part.token_id]
            piece = Piece(
                part.token_id, token.data, token.ends_word,
                special=part.token_id in self.trace.special_ids.values(),
                new=part.token_id == self.new_id,
                name=self.names.get(part.token_id) if part.named else None,
            )
            out.append(chips_html([piece], end_of_word=self.trace.settings.end_of_word, wrap=False))
        return "".join(out)

    def to_html(self, *, aside: str = "") -> str:
        """The headline (with ``aside``, e.g. the step's numbers, beside it) then the sentences, in
        one block: :meth:`headline_html` + :meth:`why_html`. ``aside`` is HTML the caller escaped."""
        return self.headline_html(aside=aside) + self.why_html()

    def headline_html(self, *, aside: str = "") -> str:
        """The headline block alone."""
        return (
            f'<div class="bpe-narration"><div class="bpe-head-row"><div class="bpe-headline">'
            f"{self._line_html(self.headline)}</div>{aside}</div></div>"
        )

    def why_html(self) -> str:
        """The sentences: why this pair won, and what the merge did.

        Why apart from the headline: the Train page keeps "why" as a setting (a button, a key, the
        link) and draws this block only while it is on; a ``<details>`` folded in the browser closed
        again at every step, since each step redraws the narration.
        """
        items = "".join(f"<li>{self._line_html(line)}</li>" for line in self.sentences)
        return f'<ul class="bpe-why" aria-label="Why this pair, and what the merge did">{items}</ul>'


NARRATION_CSS = """
<style>
.bpe-narration, .bpe-why { border-left: 6px solid #0072B2; background: #F4F8FB; padding: .3em 1em .15em 1em;
  border-radius: 6px; font-size: .98rem; line-height: 1.5; }
.bpe-head-row { display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: .1em 1.5em; }
.bpe-headline { font-size: 1.35rem; font-weight: 700; }
.bpe-narration .bpe-stats { margin: 0; gap: .1em 1.6em; }
.bpe-narration .bpe-stat-label { font-size: .78rem; }
.bpe-narration .bpe-stat-value { font-size: 1.2rem; line-height: 1.2; }
.bpe-narration .bpe-stat { display: grid; grid-template-columns: auto auto; column-gap: .4em; align-items: baseline; }
.bpe-narration .bpe-stat-label { grid-column: 1 / 3; }
.bpe-narration .bpe-stat-change { font-size: .78rem; }
ul.bpe-why { margin: 0; padding: .3em 1em .3em 2.2em; columns: 2 24rem; column-gap: 2.5em; }
.bpe-why li { break-inside: avoid; }
@media (max-width: 640px) {
  .bpe-narration .bpe-stats { display: grid; grid-template-columns: repeat(4, auto); gap: 0 .8em; width: 100%; }
  .bpe-narration .bpe-stat-label { font-size: .68rem; }
  .bpe-narration .bpe-stat-value { font-size: 1.05rem; }
  .bpe-headline { font-size: 1.2rem; }
}
</style>
"""


def _plural(count: int, word: str, plural: str | None = None) -> str:
    return f"{count:,} {word if count == 1 else (plural or word + 's')}"


def narrate_step(trace: Trace, step: int, *, names: Mapping[int, str] | None = None) -> Narration:
    """The narration of merge ``step`` (1-based); step 0 describes the start and the first merge."""
    names = dict(names or {})
    total = len(trace.steps)
    trace.check_step(step)
    unit = "byte" if trace.settings.unit == "byte" else "character"
    marker = trace.settings.end_of_word

    if step == 0:
        start = (
            f"The corpus starts as {trace.initial_tokens:,} tokens, one per {unit}"
            + ("" if not marker else f" plus a {marker} marker ending each word"
               if trace.settings.end_of_word_mode == "separate" else f", the last of each word carrying {marker}")
            + f"; the vocabulary has {trace.vocab_size(0):,} tokens."
        ) if trace.start is None else (  # a run that continues a tokenizer starts from its tokens
            f"The corpus starts as {trace.initial_tokens:,} tokens, as {trace.start.name or 'the tokenizer'} encodes it; "
            f"the vocabulary has its {trace.vocab_size(0):,} tokens, and new ids start at {len(trace.base):,}."
        )
        sentences: list[tuple[Part, ...]] = [(start,)]
        if trace.steps:
            first = trace.steps[0]
            left, right = TokenRef(first.left), TokenRef(first.right)
            if trace.scores:
                sentences += _score_lines(trace, 1, left, right, will=True)
            else:
                sentences.append((
                    "Merge 1 will join ", left, " + ", right, f", the most frequent pair ({_plural(first.count, 'time')}).",
                ))
            sentences += _tie_lines(trace, first, left, right)
            sentences.append(("Its places are numbered in the corpus. Press Next.",))
        else:
            sentences.append((f"Training stopped before any merge: {trace.stop_detail}.",))
        stopped = early_stop(trace)
        if stopped and trace.steps:
            sentences.append((stopped,))
        return Narration((f"Before any merge ({_plural(total, 'merge')} to come)",), tuple(sentences), trace, names)

    s = trace.steps[step - 1]
    left, right, new = TokenRef(s.left), TokenRef(s.right), TokenRef(s.new_id)
    headline: tuple[Part, ...] = (f"Merge {step} of {total}: ", left, " + ", right, " → ", new)

    sentences = _stage_lines(trace, step)
    chooser = _chooser(trace, step)
    count_line: tuple[Part, ...] = ("The pair ", left, " + ", right, f" occurs {_plural(s.count, 'time')}{chooser}")
    if trace.scores:
        sentences += _score_lines(trace, step, left, right)
        sentences += _tie_lines(trace, s, left, right)
    elif s.tie_count == 1:
        sentences += [(*count_line, ", more than any other pair" + (" there." if chooser else "."))]
    else:
        sentences += [(*count_line, f"; {s.tie_count:,} pairs share that count.")]
        sentences += _tie_lines(trace, s, left, right)
    if trace.stage_change is not None and step > trace.stage_change.step and is_superword(trace.token_text(s.new_id)):
        sentences.append(("A superword: ", new, " holds words and the space between them, which the first stage's split forbade.",))

    # subtle: without a pre-tokenizer the "words" are the text itself (one chunk, or the pieces
    # between special tokens): "1 distinct word" would call a whole text a word
    phrases = trace.stage_change is not None and step > trace.stage_change.step  # SuperBPE's second stage: phrases
    where = (
        ("the text" if s.words_changed == 1 else f"{s.words_changed:,} pieces of text between special tokens")
        if trace.settings.pretokenizer == "none" else _plural(s.words_changed, "distinct chunk" if phrases else "distinct word")
    )
    replaced = f"It replaced the pair {_plural(s.replacements, 'time')} in {where}"
    if s.replacements < s.count:
        # Counting sees overlapping pairs, merging cannot: "aaa" holds (a, a) twice, merges once.
        replaced += " (fewer than the count: overlapping pairs like the two in 'aaa' merge only once)"
    sentences.append((replaced + ".",))

    new_line: list[Part] = ["The new token ", new]
    if s.new_id in names:
        if s.left in names or s.right in names:
            new_line += [" = ", left, right]  # X = ZY: the structure, as Wikipedia writes it
        new_line += [" = ", TokenRef(s.new_id, named=False)]
    new_line.append(f" gets id {s.new_id:,}; the vocabulary now has {trace.vocab_size(step):,} tokens.")
    sentences.append(tuple(new_line))

    before, after = trace.tokens_before(step), s.tokens_after
    shrink = 100 * (before - after) / before if before else 0.0
    label, value = per_token(trace, step)
    sentences.append((
        f"The corpus shrank from {before:,} to {after:,} tokens (−{before - after:,}, {shrink:.1f}%): "
        f"{value:.2f} {label}.",
    ))
    if step == total:
        sentences.append((f"Training stopped here: {trace.stop_detail}.",))
    return Narration(headline, tuple(sentences), trace, names, new_id=s.new_id)


def _stage_lines(trace: Trace, step: int) -> list[tuple[Part, ...]]:
    """What a two-stage run (SuperBPE) changed just before merge ``step``, or says at its last first-stage merge."""
    change = trace.stage_change
    if change is None or step not in (change.step, change.step + 1):
        return []
    split = PRETOKENIZERS[change.split].title
    if step == change.step:
        return [(f"The last merge of the first stage: after it the text is split again by {split}'s split, which no "
                 "longer cuts between words.",)]
    tokens = (
        f"the same {change.tokens_after:,} tokens" if change.tokens_after == change.tokens_before
        else f"{change.tokens_after:,} tokens instead of {change.tokens_before:,}, as the two splits cut digits and "
             "punctuation differently"
    )
    return [(
        f"Stage 2 starts: the text is split again by {split}'s split, which keeps phrases whole, so merges may now cross "
        f"the space between words ({_plural(change.words_after, 'distinct chunk')} instead of {change.words_before:,}; {tokens}).",
    )]


def _chooser(trace: Trace, step: int) -> str:
    """`` in Hindi, the language that is the most tokens now (412)``, for a merge one language chose."""
    if not trace.chosen_by:
        return ""
    language, _ = trace.chosen_by[step - 1]
    cost = trace.language_costs(step - 1)[language]
    return f" in {trace.languages[language]}, the language whose text is the most tokens now ({cost:,})"


def _score_lines(trace: Trace, step: int, left: TokenRef, right: TokenRef, *, will: bool = False) -> list[tuple[Part, ...]]:
    """WordPiece's choice of merge ``step``: the winner's score worked out, and the pair BPE's count would merge."""
    scored, s = trace.scores[step - 1], trace.steps[step - 1]
    chosen, frequent = scored.chosen, scored.by_count_score
    shared = f"; {s.tie_count:,} pairs share that score" if s.tie_count > 1 else ", the best"
    lines: list[tuple[Part, ...]] = [(
        "Merge 1 will join " if will else "The pair ", left, " + ", right,
        f"{', which' if will else ''} occurs {_plural(chosen.count, 'time')}; ", left,
        f" occurs {_plural(chosen.left_count, 'time')} and ", right, f" {chosen.right_count:,}, so its WordPiece score is "
        f"{worked_score(*chosen)}{shared}.",
    )]
    if scored.by_count == (s.left, s.right):
        lines.append(("It is also the most frequent pair: here BPE's count and WordPiece's score agree.",))
    else:
        a, b = TokenRef(scored.by_count[0]), TokenRef(scored.by_count[1])
        why = (
            f"it scores as much, {worked_score(*frequent)}, and the tie-break rule passed it over"
            if frequent.score == chosen.score else f"its tokens are frequent on their own: it scores {worked_score(*frequent)}"
        )
        lines.append(("BPE's count would merge ", a, " + ", b, f" ({_plural(frequent.count, 'time')}), but {why}.",))
    if will:
        lines.append((
            "WordPiece writes a token that continues a word with ## (h ##u ##g); the chips here show each character once, "
            "wherever it stands in a word.",
        ))
    return lines


def _tie_lines(trace: Trace, s: MergeStep, left: TokenRef, right: TokenRef) -> list[tuple[Part, ...]]:
    """Who tied with the chosen pair and why the rule picked it (nothing when there was no tie)."""
    if s.tie_count == 1:
        return []
    rule = TIE_BREAK_RULES[trace.settings.tie_break]
    ranks = {(pair.left, pair.right): rank for rank, pair in enumerate(s.top_pairs, start=1)}
    level = f"score {score_text(trace.scores[s.step - 1].chosen.score)}" if trace.scores else f"{s.count:,}"
    tied: list[Part] = [f"Tied at {level}: "]
    for index, (a, b) in enumerate(s.tied[:MAX_TIES_SHOWN]):
        tied += [", "] if index else []
        tied.append(PairRef(a, b, ranks[a, b]) if (a, b) in ranks else f"{trace.token_text(a)} + {trace.token_text(b)}")
    if s.tie_count > MAX_TIES_SHOWN:
        tied.append(f" and {s.tie_count - MAX_TIES_SHOWN:,} more")
    return [
        tuple(tied) + (" (hover or tap one to mark it).",),
        (f"The {rule.name} rule prefers {rule.summary}, so it picks ", left, " + ", right, "."),
    ]


SETTING_NAMES = MappingProxyType({
    "unit": "unit", "pretokenizer": "pre-tokenizer", "end_of_word": "end-of-word marker",
    "tie_break": "tie-break", "merges": "merges", "vocab_size": "vocabulary size",
    "min_frequency": "minimum pair frequency", "special_tokens": "special tokens", "transition": "SuperBPE transition",
})
"""How the retrain notice names each setting that changed."""


def retrain_notice(old: Trace, new: Trace) -> str:
    """One line saying what changed in a retrained run and from which merge on its merges differ.

    >>> from bpe.training.presets import PRESETS
    >>> from dataclasses import replace
    >>> from bpe.training.trainer import train
    >>> preset = PRESETS["sennrich"]
    >>> before = train(preset.corpus(), preset.settings)
    >>> after = train(preset.corpus(), replace(preset.settings, tie_break="first-seen"))
    >>> retrain_notice(before, after)
    'Retrained with tie-break first-seen: merges now differ from merge 1 on (was s + t, now e + s).'
    """
    old_settings, new_settings = old.settings.to_dict(), new.settings.to_dict()
    changed = [  # subtle: a variant's setting is left out of to_dict() at its default
        f"{SETTING_NAMES[name]} {_setting_text(new_settings.get(name))}"
        for name in SETTING_NAMES if old_settings.get(name) != new_settings.get(name)
    ]
    what = "Retrained with " + ", ".join(changed) if changed else "Retrained on the changed corpus"
    def spell(trace: Trace, step: MergeStep) -> str:  # by bytes: ids differ when the base does (byte/char)
        return f"{trace.token_text(step.left)} + {trace.token_text(step.right)}"

    for number, (was, now) in enumerate(zip(old.steps, new.steps), start=1):
        if spell(old, was) != spell(new, now):
            return f"{what}: merges now differ from merge {number} on (was {spell(old, was)}, now {spell(new, now)})."
    if len(old.steps) != len(new.steps):
        return f"{what}: the same merges, {len(old.steps):,} of them before and {len(new.steps):,} now."
    return f"{what}: the merges are the same as before."


def _setting_text(value: object) -> str:
    if value is None:
        return "none"
    if isinstance(value, list):
        return ", ".join(map(str, value)) or "none"
    return str(value)
