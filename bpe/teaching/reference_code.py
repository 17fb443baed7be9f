"""The lines of ``bpe/reference.py`` that one step runs, with that step's values beside them.

The Train page shows the loop of :func:`bpe.reference.train` for the merge on screen (the pair, its
count, the tie, the new id) and the Encode page the loop of :func:`bpe.reference.encode_chunk` for
one merge applied to one chunk. The values come from the fast engine's records (a trace step, an
encode walkthrough); the reference computes the same ones (``tests/test_reference.py``), which is
why the two can be shown side by side.

    >>> from bpe import PRESETS, train
    >>> trace = train(PRESETS["wikipedia"].corpus(), PRESETS["wikipedia"].settings)
    >>> for line in train_step_lines(trace, 3)[-4:]:
    ...     print(line.number > 0, line.code.strip(), "#", line.value)
    True count = stats[pair] if by_language is None else counted[pair]  # parity-aware: its count in the language that chose # count = 2
    True corpus = [(merge(ids, pair, new_id), n) for ids, n in corpus] # 2 replacements in 1 word
    True vocab[new_id] = vocab[pair[0]] + vocab[pair[1]] # vocab[258] = 'aaab'
    True merges.append(Merge(pair, count, new_id)) # Merge(pair=(256, 257), count=2, new_id=258)

Each line is found in the reference's source by how it starts (:data:`TRAIN_LINES`,
:data:`ENCODE_LINES`); a line that is no longer there is an error when this module is imported.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType, ModuleType
from typing import NamedTuple

from .. import reference
from ..encoding.dropout import Dropout, coin
from ..encoding.merge_loop import AppliedMerge
from ..encoding.tokenizer import ChunkWalk
from ..notation.scores import score_text, worked_score
from ..training.trace import Trace


class CodeLine(NamedTuple):
    number: int
    """Its line number in ``bpe/reference.py``."""
    code: str
    """The line as written, indent included (the loop's body shows as inside it)."""
    value: str
    """What it computes at this step (empty when there is nothing to show)."""


def _find(function: Callable | ModuleType, starts: tuple[str, ...]) -> Mapping[str, tuple[int, str]]:
    """``start -> (line number, the line)`` for the first line of ``function`` that starts so."""
    lines, first = inspect.getsourcelines(function)
    first = first or 1  # a whole module starts at line 1
    found = {}
    for start in starts:
        number = next((first + i for i, line in enumerate(lines) if line.strip().startswith(start)), None)
        if number is None:
            raise RuntimeError(f"bpe/reference.py's {function.__name__} has no line starting {start!r}: update bpe/teaching/reference_code.py")
        found[start] = (number, lines[number - first].rstrip())
    return MappingProxyType(found)  # read-only: a server's modules are shared by every user


TRAIN_LINES = _find(reference.train, (
    "for new_id in", "stats = get_stats", "counted = ", "if wordpiece:", "counted = {pair: score", "best = max", "tied = ",
    "pair = break_tie", "count = ", "corpus = [(merge", "vocab[new_id] =", "merges.append",
))
WORDPIECE_START = ("if wordpiece:", "counted = {pair: score")
"""The lines of the loop only a WordPiece run shows (the score replaces the counts)."""
SCORE_LINES = _find(reference.wordpiece_scores, ("tokens[token] = ", "return {pair: Fraction"))
"""WordPiece's score: each token's count, then each pair's count over the product of its tokens'."""
PARITY_LINES = _find(reference.worst_language_stats, (
    "tokens[language] = ", "for language in sorted", "stats = get_stats", "return stats",
))
"""Parity-aware BPE's choice of counts: each language's tokens, then the first with a pair to merge."""
STAGE_LINES = _find(reference.train, ("if len(merges) == transition", "learned = ", "corpus = [(encode_chunk"))
"""SuperBPE's second stage in the loop: the test every merge runs, and the re-split at the transition."""
ENCODE_LINES = _find(reference.encode_chunk, ("while len(ids)", "stats = get_stats", "pair = min", "ids = merge"))
DROPOUT_LINES = _find(reference.encode_chunk_dropout, (
    "queue = [", "while queue", "if rng.random() < p", "skipped.append", "queue += skipped", "if symbols[i] is None",
    "symbols[i], symbols[j] =", "return [",
))
RULE_LINES = MappingProxyType({
    rule[1:-4]: line for rule, line in _find(reference, tuple(f'"{rule}": (' for rule in reference.TIE_BREAKS)).items()
})
"""Each built-in rule's entry in ``TIE_BREAKS``: its sort key, and whether the smallest or greatest key wins."""


def _pair_text(trace: Trace, pair: tuple[int, int]) -> str:
    return f"{trace.token_text(pair[0])!r} + {trace.token_text(pair[1])!r}"


def train_step_lines(trace: Trace, step: int) -> list[CodeLine]:
    """The loop of ``reference.train`` at merge ``step`` (1-based) of ``trace``, with its values."""
    merge = trace.steps[step - 1]
    pair = (merge.left, merge.right)
    tied = ", ".join(_pair_text(trace, tied) for tied in merge.tied[:3]) + (", …" if merge.tie_count > 3 else "")
    words = f"{merge.words_changed:,} word{'s' * (merge.words_changed != 1)}"
    scored = trace.scores[step - 1] if trace.scores else None
    best = f"{merge.count:,}" if scored is None else f"score {score_text(scored.chosen.score)}"
    values = {
        "for new_id in": f"new_id = {merge.new_id}",
        "stats = get_stats": "every pair of the corpus, counted" if trace.chosen_by else
        "the most frequent: " + ", ".join(f"{_pair_text(trace, (p.left, p.right))} {p.count:,}" for p in _by_count(trace, step)[:3]),
        "counted = ": _counted(trace, step),
        "best = max": f"best = {best}",
        "tied = ": f"{merge.tie_count:,} pair{'s' * (merge.tie_count != 1)} at {best}: {tied}",
        "pair = break_tie": f"pair = {pair}: {_pair_text(trace, pair)} ({trace.settings.tie_break})",
        "count = ": f"count = {merge.count:,}",
        "corpus = [(merge": f"{merge.replacements:,} replacement{'s' * (merge.replacements != 1)} in {words}",
        "vocab[new_id] =": f"vocab[{merge.new_id}] = {trace.token_text(merge.new_id)!r}",
        "merges.append": f"Merge(pair={pair}, count={merge.count}, new_id={merge.new_id})",
    }
    if scored is not None:
        values |= _score_values(trace, step)
    rule = RULE_LINES.get(trace.settings.tie_break)  # None: a rule whose plain key is in its registry entry
    rule_line = [] if rule is None else [CodeLine(*rule, "this run's tie-break rule")]
    shown = [(start, line) for start, line in TRAIN_LINES.items() if scored is not None or start not in WORDPIECE_START]
    return rule_line + [CodeLine(number, code, values[start]) for start, (number, code) in shown] + (
        [] if scored is None else [CodeLine(number, code, values[start]) for start, (number, code) in SCORE_LINES.items()]
    ) + _stage_lines(trace, step)


def _by_count(trace: Trace, step: int) -> list:
    """The step's most frequent pairs: its top pairs in order of count (a WordPiece step ranks them by score)."""
    return sorted(trace.steps[step - 1].top_pairs, key=lambda pair: -pair.count) if trace.scores else list(trace.steps[step - 1].top_pairs)


def _score_values(trace: Trace, step: int) -> dict[str, str]:
    """The values beside WordPiece's lines: the winner's score worked out, and the pair the count alone would merge."""
    scored = trace.scores[step - 1]
    chosen, frequent = scored.chosen, scored.by_count_score
    merge = trace.steps[step - 1]
    return {
        "if wordpiece:": "a WordPiece run: the score chooses, not the count",
        "counted = {pair: score": (
            f"the most frequent pair, {_pair_text(trace, scored.by_count)} ({frequent.count:,}), scores {worked_score(*frequent)}"
        ),
        "tokens[token] = ": (
            f"{trace.token_text(merge.left)!r} occurs {chosen.left_count:,} times, {trace.token_text(merge.right)!r} {chosen.right_count:,}"
        ),
        "return {pair: Fraction": (
            f"{_pair_text(trace, (merge.left, merge.right))}: {worked_score(*chosen)}"
        ),
    }


def _counted(trace: Trace, step: int) -> str:
    """The value beside ``counted = ...``: every pair, or (parity-aware) the choosing language's."""
    if trace.scores:
        return "counted = stats: every pair counted, then scored (below)"
    if not trace.chosen_by:
        return "counted = stats: classic BPE counts every pair"
    language, count = trace.chosen_by[step - 1]
    name, cost = trace.languages[language], trace.language_costs(step - 1)[language]
    return f"the pairs of {name}, the most tokens now ({cost:,}); the best occurs {count:,} times there"


def _stage_lines(trace: Trace, step: int) -> list[CodeLine]:
    """A two-stage run's lines: the test at every merge, and the re-split at the transition."""
    transition = trace.settings.transition
    if transition is None:
        return []
    (test_number, test), (learned_number, learned), (split_number, split) = STAGE_LINES.values()
    if step - 1 != transition:
        return [CodeLine(test_number, test, f"len(merges) = {step - 1:,}, transition = {transition:,}")]
    change = trace.stage_change
    return [
        CodeLine(test_number, test, f"len(merges) = {transition:,}: the second stage starts"),
        CodeLine(learned_number, learned, f"the {transition:,} merges learned so far"),
        CodeLine(split_number, split, f"{change.words_after:,} chunk{'s' * (change.words_after != 1)} split by {change.split}, "
                 f"{change.tokens_after:,} tokens"),
    ]


def encode_merge_lines(walk: ChunkWalk, index: int, spell: Callable[[int], str]) -> list[CodeLine]:
    """The loop of ``reference.encode_chunk`` as it applies ``walk``'s merge ``index`` (0-based) to its
    chunk; ``spell`` names a token id (``tokenizer.token_text``)."""
    applied: AppliedMerge = walk.merges[index]
    before = walk.merges[index - 1].ids_after if index else walk.initial
    pair = (applied.left, applied.right)
    values = {
        "while len(ids)": f"ids = {list(before)}  (chunk {walk.text!r})",
        "stats = get_stats": f"{len(set(zip(before, before[1:])))} distinct pairs in the chunk",
        "pair = min": f"pair = {pair}: {spell(applied.left)!r} + {spell(applied.right)!r}, learned as merge {applied.rank + 1:,}",
        "ids = merge": f"ids = {list(applied.ids_after)}  ({len(applied.positions)} × id {applied.new_id})",
    }
    return [CodeLine(number, code, values[start]) for start, (number, code) in ENCODE_LINES.items()]


def dropout_lines(dropout: Dropout, ids: Sequence[int], spell: Callable[[int], str]) -> list[CodeLine]:
    """The loop of ``reference.encode_chunk_dropout`` over one chunk's ``ids``, with what one sample
    drawn by ``dropout`` (its next draws) did there: how many places were queued, drawn, skipped
    and merged; ``spell`` names a token id (``tokenizer.token_text``)."""
    draws: list[bool] = []
    skip = coin(dropout.p, dropout.rng)

    def counted() -> bool:
        draws.append(skip())
        return draws[-1]

    result = dropout.merge([ids], counted)
    skipped = sum(draws)
    every_place: list[bool] = []  # with every merge skipped, each place at the start is drawn once
    dropout.merge([ids], lambda: every_place.append(True) or True)
    places = len(every_place)
    comeback = (
        "the set-aside places go back into the queue" if dropout.rule.name == "hf"
        else "SentencePiece has no such line: a skipped place is dropped for good"
    )
    values = {
        "queue = [": f"{places} place{'s' * (places != 1)} where a learned merge applies, at the start",
        "while queue": f"{len(draws):,} places taken from the queue, stale ones included",
        "if rng.random() < p": f"p = {dropout.p:g}: {skipped:,} of {len(draws):,} draws skipped",
        "skipped.append": "set aside until the next merge",
        "queue += skipped": comeback,
        "if symbols[i] is None": "a stale place: its pair was merged away, or changed",
        "symbols[i], symbols[j] =": f"{len(ids) - len(result):,} merges made",
        "return [": "result = " + " | ".join(repr(spell(token_id)) for token_id in result),
    }
    return [CodeLine(number, code, values[start]) for start, (number, code) in DROPOUT_LINES.items()]


def parity_lines(trace: Trace, step: int) -> list[CodeLine]:
    """The loop of ``reference.train`` at merge ``step`` of a parity-aware run, with the lines of
    ``worst_language_stats`` that chose whose pairs count."""
    language, count = trace.chosen_by[step - 1]
    costs = trace.language_costs(step - 1)
    ranked = sorted(range(len(costs)), key=lambda index: -costs[index])
    leaders = ", ".join(f"{trace.languages[index]} {costs[index]:,}" for index in ranked[:3])
    merge = trace.steps[step - 1]
    values = {
        "tokens[language] = ": f"{len(costs)} languages; the most tokens: {leaders}, …",
        "for language in sorted": f"language = {trace.languages[ranked[0]]!r} first",
        "stats = get_stats": f"the pairs of {trace.languages[language]}'s words",
        "return stats": f"{trace.languages[language]}'s pairs: the best, {_pair_text(trace, (merge.left, merge.right))}, {count:,} times",
    }
    return train_step_lines(trace, step) + [CodeLine(number, code, values[start]) for start, (number, code) in PARITY_LINES.items()]
