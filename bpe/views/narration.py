"""Merge k told in plain words: which pair, how often, who tied and why this one won, what it did.

A narration is a list of sentences whose parts are plain strings or :class:`TokenRef` (a token to
show as a chip). :meth:`Narration.to_text` spells tokens in quotes, for tests and captions;
:meth:`Narration.to_html` draws them as chips and escapes everything else.

    >>> from bpe.presets import PRESETS
    >>> from bpe.trainer import train
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

from ..tiebreak import TIE_BREAK_RULES
from ..trace import Trace
from .token_html import Piece, chips_html, visible_text

MAX_TIES_SHOWN = 6


@dataclass(frozen=True, slots=True)
class TokenRef:
    token_id: int
    named: bool = True
    """Show the token's Wikipedia-style name if it has one (``False``: always its bytes)."""


Part = str | TokenRef


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
        token = self.trace.tokens[ref.token_id]
        return "'" + visible_text(token.data, self.trace.settings.end_of_word, token.ends_word) + "'"

    def _line_text(self, parts: tuple[Part, ...]) -> str:
        return "".join(part if isinstance(part, str) else self._spell(part) for part in parts)

    def to_text(self) -> str:
        return "\n".join(self._line_text(line) for line in (self.headline, *self.sentences))

    def _line_html(self, parts: tuple[Part, ...]) -> str:
        out = []
        for part in parts:
            if isinstance(part, str):
                out.append(html.escape(part))
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

    def to_html(self) -> str:
        items = "".join(f"<li>{self._line_html(line)}</li>" for line in self.sentences)
        return (
            f'<div class="bpe-narration"><div class="bpe-headline">{self._line_html(self.headline)}</div>'
            f"<ul>{items}</ul></div>"
        )


NARRATION_CSS = """
<style>
.bpe-narration { border-left: 6px solid #0072B2; background: #F4F8FB; padding: .6em 1em .3em 1em;
  border-radius: 6px; font-size: 1.08rem; line-height: 1.9; }
.bpe-headline { font-size: 1.35rem; font-weight: 700; margin-bottom: .2em; }
.bpe-narration ul { margin: 0 0 .3em 0; padding-left: 1.2em; }
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
        )
        sentences: list[tuple[Part, ...]] = [(start,)]
        if trace.steps:
            first = trace.steps[0]
            sentences.append((
                "Merge 1 will join ", TokenRef(first.left), " + ", TokenRef(first.right),
                f", the most frequent pair ({_plural(first.count, 'time')}). Press Next.",
            ))
        else:
            sentences.append((f"Training stopped before any merge: {trace.stop_detail}.",))
        return Narration((f"Before any merge ({_plural(total, 'merge')} to come)",), tuple(sentences), trace, names)

    s = trace.steps[step - 1]
    left, right, new = TokenRef(s.left), TokenRef(s.right), TokenRef(s.new_id)
    headline: tuple[Part, ...] = (f"Merge {step} of {total}: ", left, " + ", right, " → ", new)

    count_line: tuple[Part, ...] = ("The pair ", left, " + ", right, f" occurs {_plural(s.count, 'time')}")
    if s.tie_count == 1:
        sentences = [(*count_line, ", more than any other pair.")]
    else:
        rule = TIE_BREAK_RULES[trace.settings.tie_break]
        sentences = [(*count_line, f"; {s.tie_count:,} pairs share that count.")]
        tied: list[Part] = [f"Tied at {s.count:,}: "]
        for index, (a, b) in enumerate(s.tied[:MAX_TIES_SHOWN]):
            tied += ([", "] if index else []) + [TokenRef(a), " + ", TokenRef(b)]
        if s.tie_count > MAX_TIES_SHOWN:
            tied.append(f" and {s.tie_count - MAX_TIES_SHOWN:,} more")
        sentences.append(tuple(tied) + (".",))
        sentences.append((
            f"The {rule.name} rule prefers {rule.summary}, so it picks ", left, " + ", right, ".",
        ))

    replaced = f"It replaced the pair {_plural(s.replacements, 'time')} in {_plural(s.words_changed, 'distinct word')}"
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

    before, after = trace.tokens_after(step - 1), s.tokens_after
    shrink = 100 * (before - after) / before if before else 0.0
    per_token = trace.corpus_bytes / after if after else 0.0
    sentences.append((
        f"The corpus shrank from {before:,} to {after:,} tokens (−{before - after:,}, {shrink:.1f}%): "
        f"{per_token:.2f} bytes per token.",
    ))
    if step == total:
        sentences.append((f"Training stopped here: {trace.stop_detail}.",))
    return Narration(headline, tuple(sentences), trace, names, new_id=s.new_id)
