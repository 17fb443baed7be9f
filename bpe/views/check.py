"""The Check my BPE page's views: the form it keeps, the first difference side by side, the diagnosis.

Scope: pure builders from a :class:`~bpe.checking.CheckResult` to escaped HTML and a table, and
the immutable record of what the learner entered (it crosses reruns in the session). Out of scope:
the check itself (:mod:`bpe.checking`) and Streamlit (the page composes these).

Every string that comes from the learner's file or corpus (tokens, words, the messages that quote
them) goes through :func:`html.escape`: a merges file is untrusted input.

    >>> from bpe.checking import CheckCorpus, check_merges
    >>> from bpe import TrainSettings
    >>> result = check_merges([(b"<", b"x>")], CheckCorpus(text="<x> <x>"), TrainSettings(min_frequency=1))
    >>> page = difference_html(result)
    >>> "x>" in page, "x&gt;" in page
    (False, True)
"""

from __future__ import annotations

import functools
import hashlib
import html
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType

import pandas as pd

from ..checking import MISTAKES, UNEXPLAINED, CheckCorpus, CheckResult, LearnerMerges, read_learner_merges
from ..checking.compact import PairStat
from ..checking.report import shown_pair, shown_word
from ..errors import BpeError
from ..formats.bounded_import import import_tokenizer_bounded
from ..limits import check_corpus_size
from ..notation.markdown import escape_markdown
from ..notation.spelling import visible_text
from ..text.corpus import decode_text_file
from ..training.presets import get_preset
from ..training.settings import TrainSettings

CHECK_CSS = """
<style>
.bpe-check { border-collapse: collapse; width: 100%; margin: .4em 0 .8em; table-layout: fixed; }
.bpe-check th, .bpe-check td { border: 1px solid #d0d4da; padding: .45em .7em; text-align: left; vertical-align: top;
  overflow-wrap: anywhere; }
.bpe-check th:first-child { width: 24%; }
.bpe-check th { background: #f3f5f8; }
.bpe-check .pair { font-family: ui-monospace, monospace; font-size: 1.15em; white-space: pre; }
.bpe-check .pair span { background: #E8F1FA; border: 1px solid #9FC3E7; border-radius: 4px; padding: 0 .25em; }
.bpe-check .yours .pair span { background: #FFF1E6; border-color: #E5A36F; }
.bpe-cause { border-left: 4px solid #D55E00; background: #FFF6EE; padding: .6em .9em; border-radius: 4px; margin: .4em 0; }
.bpe-cause.unexplained { border-color: #5b6470; background: #F3F5F8; }
.bpe-cause b.code, .bpe-cause code { font-family: ui-monospace, monospace; }
.bpe-cause code { background: #F3F5F8; border-radius: 3px; padding: 0 .2em; overflow-wrap: anywhere; }
</style>
"""


@dataclass(frozen=True)
class CheckForm:
    """What the learner entered on the page; replaced, never mutated."""

    merges_name: str = ""
    merges: bytes = b""
    """The merges file's bytes (uploaded or pasted)."""
    corpus: str = "preset"
    """``preset``, ``text`` or ``upload``."""
    preset: str = "cs336"
    text: str = ""
    upload_name: str = ""
    upload: bytes = b""
    guess: bool = False
    """"I don't know my settings"."""
    unit: str = "byte"
    pretokenizer: str = "gpt2"
    tie_break: str = "lexicographic-max"
    end_of_word: str = ""
    special_tokens: str = ""
    """Comma-separated."""
    vocab_size: int | None = None
    """The vocabulary size the learner's trainer was asked for, if they say (to check the number of merges)."""
    shape: str = ""
    """The merges shape to read the file as (a :func:`~bpe.checking.merge_shapes` name); empty: recognize it."""

    def with_preset(self, name: str) -> "CheckForm":
        """This form on preset ``name``, with the settings its source used (the likeliest ones meant)."""
        settings = get_preset(name).settings
        return replace(self, corpus="preset", preset=name, unit=settings.unit, pretokenizer=settings.pretokenizer,
                       tie_break=settings.tie_break, end_of_word=settings.end_of_word or "",
                       special_tokens=",".join(settings.special_tokens))

    def inputs(self) -> tuple[LearnerMerges, CheckCorpus, TrainSettings, tuple[str, ...]]:
        """The learner's merges, the corpus, the settings and the settings a guess keeps (those typed in);
        a :class:`BpeError` says what to fix."""
        if not self.merges:
            raise BpeError("no merges yet: upload your merges file or paste its lines")
        learner = read_learner_merges(self.merges, name=self.merges_name or "your merges", shape=self.shape or None,
                                      read_tokenizer=import_tokenizer_bounded)
        if self.corpus == "preset":
            preset = get_preset(self.preset)
            source = CheckCorpus(words=preset.word_counts) if preset.word_counts else CheckCorpus(text=preset.corpus_text)
        elif self.corpus == "upload":
            if not self.upload:
                raise BpeError("no corpus file yet: upload the text your trainer learned from")
            source = CheckCorpus(text=check_corpus_size(decode_text_file(self.upload, name=self.upload_name)))
        else:
            if not self.text:
                raise BpeError("the corpus is empty: paste the text your trainer learned from")
            source = CheckCorpus(text=check_corpus_size(self.text))
        specials = tuple(token.strip() for token in self.special_tokens.split(",") if token.strip())
        settings = TrainSettings(unit=self.unit, pretokenizer=self.pretokenizer, tie_break=self.tie_break,
                                 end_of_word=self.end_of_word.strip() or None, special_tokens=specials, min_frequency=1,
                                 vocab_size=self.vocab_size)
        if self.guess:  # found from the merges, except the special tokens typed in
            settings = TrainSettings(min_frequency=1, special_tokens=specials, vocab_size=self.vocab_size)
        return learner, source, settings, ("special_tokens",) if self.guess and specials else ()


def _pair(pair: tuple[bytes, bytes]) -> str:
    left, right = (html.escape(visible_text(part)) for part in pair)
    return f'<span class="pair"><span>{left}</span> + <span>{right}</span></span>'


def _words(stat: PairStat | None) -> str:
    if stat is None or not stat.words:
        return "occurs nowhere at this step" if stat is not None and stat.count == 0 else ""
    shown = ", ".join(f"{html.escape(shown_word(word))} ×{weight:,}"
                      + (f" ({times} times in it)" if times > 1 else "") for word, weight, times in stat.words)
    return f"in {shown}"


def _count(stat: PairStat | None) -> str:
    if stat is None:
        return "—"
    return "unknown (the replay ran out of time)" if stat.count is None else f"{stat.count:,}"


def reference_caption(result: CheckResult, shape: str, seconds: float) -> str:
    """Markdown (escaped): how the file was read and the reference's settings, guessed or given."""
    s = result.settings
    how = ""
    if result.guessed:
        how = " (settings guessed from your merges" + (
            f"; ties as {result.convention.name} breaks them" if result.convention else "") + ")"
    marker = f"{s.end_of_word} {s.end_of_word_mode}" if s.end_of_word else "none"
    return escape_markdown(
        f"Read as {shape}; checked in {seconds:.1f} s. Reference{how}: {s.unit}s, pre-tokenizer {s.pretokenizer}, "
        f"ties {s.tie_break}, end-of-word {marker}, special tokens {', '.join(s.special_tokens) or 'none'}, "
        f"minimum frequency {s.min_frequency}."
    )


def guess_notice(result: CheckResult) -> tuple[str, str] | None:
    """``(level, Markdown)`` saying how good the guessed settings are; None when the settings were given,
    or when the guess is poor: the verdict itself says so then (one place, never a contradiction)."""
    guess = result.guess
    if guess is None or guess.quality == "poor":
        return None
    text = guess.sentence()
    if result.convention is not None:
        text += (f" For settings like these ({result.convention.shape}), {result.convention.name} breaks ties by "
                 f"{result.settings.tie_break}: the reference does too.")
    return ("warning" if guess.quality == "poor" else "info"), escape_markdown(text)


VERDICT_LEVELS = MappingProxyType({"correct": "success", "explained": "warning", "unknown": "warning"})
"""How the page draws each kind of verdict (Streamlit's alert that carries it)."""


def markdown_with_code(text: str) -> str:
    """``text`` as Markdown that shows it as written, but each span in backticks drawn as code, and its
    paragraphs (blank lines) kept. Everything outside a span is escaped (it quotes the learner's
    tokens); a span is literal in Markdown already. An odd backtick leaves the paragraph all text.

    >>> print(markdown_with_code("take `max(stats, key=stats.get)` *here*"))
    take `max(stats, key=stats.get)` \*here\*
    """
    paragraphs = []
    for paragraph in text.split("\n\n"):
        parts = paragraph.split("`")
        if len(parts) % 2 == 0:
            paragraphs.append(escape_markdown(paragraph))
        else:
            paragraphs.append("".join(escape_markdown(part) if i % 2 == 0 else f"`{part}`" for i, part in enumerate(parts)))
    return "\n\n".join(paragraphs)


def html_with_code(text: str) -> str:
    """``text`` escaped as HTML, each span in backticks as ``<code>`` (see :func:`markdown_with_code`).

    >>> html_with_code("use `a < b` <b>")
    'use <code>a &lt; b</code> &lt;b&gt;'
    """
    parts = text.split("`")
    if len(parts) % 2 == 0:
        return html.escape(text)
    return "".join(html.escape(part) if i % 2 == 0 else f"<code>{html.escape(part)}</code>" for i, part in enumerate(parts))


def verdict_markdown(result: CheckResult) -> tuple[str, str]:
    """``(level, Markdown)``: the one verdict, then the re-trainings this corpus cannot tell apart from it
    (escaped: it quotes the learner's tokens; code in backticks drawn as code)."""
    verdict = result.verdict
    text = verdict.headline
    if also := verdict.alternatives_sentence(result.best.label if verdict.kind == "explained" else "your trainer"):
        text += "\n\n" + also
    return VERDICT_LEVELS[verdict.kind], markdown_with_code(text)


def merges_caption(form: "CheckForm") -> str:
    """Markdown (escaped): the file being checked and how many merges it holds (not its lines: a JSON file
    is one line), or why it cannot be read."""
    file = _File(hashlib.sha256(form.merges).hexdigest(), form.merges)
    return escape_markdown(f"Checking {form.merges_name}: {_merges_read(form.merges_name, form.shape, file)}")


@dataclass(frozen=True)
class _File:
    """A file's bytes, known to the cache below by their digest (hashing megabytes at every rerun is waste)."""

    digest: str
    data: bytes = field(compare=False, hash=False)


@functools.lru_cache(maxsize=32)
def _merges_read(name: str, shape: str, file: _File) -> str:
    """How the file reads, kept for the last files seen (the caption is drawn on every rerun; reading a
    tokenizer file starts a worker). Shared by the server's sessions: safe, as it depends only on the bytes."""
    try:
        count = len(read_learner_merges(file.data, name=name or "your merges", shape=shape or None,
                                        read_tokenizer=import_tokenizer_bounded).pairs)
        return f"{count:,} merge{'s' * (count != 1)}."
    except BpeError as error:
        return f"it cannot be read ({error})"


def summary_text(result: CheckResult) -> str:
    """One sentence: how far the learner matches."""
    if result.matching == result.total:
        return f"All {result.total:,} of your merges match the reference."
    if result.matching == 0:
        return f"Your very first merge differs from the reference's (you have {result.total:,})."
    return f"Your first {result.matching:,} merges of {result.total:,} match the reference; merge {result.matching + 1:,} differs."


def difference_html(result: CheckResult) -> str:
    """The first difference: both pairs side by side, their counts at that step in the reference's
    training and in the learner's (as re-trained), where each occurs, and the tie."""
    d = result.divergence
    if d is None:
        return ""
    yours = result.yours
    reference = _pair(d.ours.spelled) if d.ours is not None else "no pair left: the reference stopped"
    rows = [
        ("Merge", _pair(d.theirs.spelled), reference),
        ("Count in the reference's training", _count(d.theirs), _count(d.ours)),
    ]
    if yours is not None:
        rows += [(f"Count in your training (re-trained with {html.escape(yours.retrained_with)})",
                  _count(yours.yours), _count(yours.reference)),
                 ("Where it occurs most in your training", _words(yours.yours), _words(yours.reference))]
    else:
        rows.append(("Count in your training", f"not re-derived: none of the re-trainings reproduces your merge "
                     f"{d.step:,}; print your trainer's count of this pair before that merge to compare",
                     "the same: print it for this pair too"))
    rows.append(("Where it occurs most in the reference's training", _words(d.theirs), _words(d.ours)))
    body = "".join(
        f'<tr><th scope="row">{label}</th><td class="yours">{mine}</td><td>{ref}</td></tr>' for label, mine, ref in rows
    )
    tie = ""
    if d.tie_count > 1:
        tied = ", ".join(_pair(pair) for pair in d.tied[:8])
        more = f" and {d.tie_count - 8:,} more" if d.tie_count > 8 else ""
        tie = f"<p>A tie: {d.tie_count:,} pairs share the top count ({tied}{more}); the reference's rule, " \
              f"{html.escape(result.settings.tie_break)}, takes the first.</p>"
    return (
        f'<table class="bpe-check"><thead><tr><th>Merge {d.step:,}</th><th>Yours</th><th>Reference</th></tr></thead>'
        f"<tbody>{body}</tbody></table>{tie}"
    )


def diagnosis_html(result: CheckResult) -> str:
    """Each cause of the verdict with its code, the line of the trainer it is in, its explanation and fix
    (all escaped); none for "not one of the mistakes I know", whose words are the verdict's."""
    return causes_html([(cause.code, f"{MISTAKES[cause.code].title}, in {cause.line or MISTAKES[cause.code].line}",
                         cause.message) for cause in result.diagnosis if cause.code != UNEXPLAINED])


def causes_html(causes: Sequence[tuple[str, str, str]]) -> str:
    """``(code, title, message)`` of each cause as a card (all escaped); ``unexplained`` drawn grey.
    Check my BPE and Check my encoder both draw their diagnoses with it."""
    return "".join(
        f'<div class="bpe-cause{" unexplained" if code == UNEXPLAINED else ""}"><p><b class="code">{html.escape(code)}'
        f"</b> · {html.escape(title)}</p><p>{html_with_code(message)}</p></div>"
        for code, title, message in causes
    )


def rest_frame(result: CheckResult) -> pd.DataFrame:
    """Your merges from the first difference on, each marked "also in the reference at step k" or "never learned"."""
    rows = [
        {
            "step": step,
            "your merge": shown_pair(pair),
            "in the reference": f"also at step {at:,}" if at else f"never learned (in its first {result.total:,})",
        }
        for step, pair, at in result.rest
    ]
    return pd.DataFrame(rows, columns=["step", "your merge", "in the reference"])


def attempts_frame(result: CheckResult) -> pd.DataFrame:
    """Every re-training tried and how many of the learner's merges it reproduces, best first."""
    rows = [{"re-trained with": a.label, "mistake": a.variant.code, "merges reproduced": a.matching}
            for a in sorted(result.attempts, key=lambda a: -a.matching)]
    return pd.DataFrame(rows, columns=["re-trained with", "mistake", "merges reproduced"])
