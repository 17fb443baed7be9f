"""BPE-dropout drawn: a text's segmentations over many samples, each as chips beside its share.

The histogram is a table rather than a chart, because each bar's label is a segmentation drawn as
token chips (a chart's axis can only write text). Each row: the chips, a bar as long as the row's
share of the samples, the count, the share and, when the distribution was small enough to
enumerate, the exact probability (:func:`bpe.encoding.dropout.exact_distribution`), so a learner sees how far
a sample of a few hundred wanders. The segmentation without dropout is marked. Every string is
escaped by the chips' builder; the numbers are formatted here.

    >>> from bpe import Corpus, Tokenizer, TrainSettings, train
    >>> from bpe.encoding.dropout import sample_segmentations
    >>> tok = Tokenizer.from_trace(train(Corpus.from_text("aaabdaaabac", pretokenizer="none"),
    ...                                  TrainSettings(pretokenizer="none", tie_break="lexicographic-min")))
    >>> sample = sample_segmentations(tok, "aaab", p=0.5, samples=100, seed=0)
    >>> table = histogram_html(sample, tok)
    >>> table.count("<tr class="), "without dropout" in table, "16.4%" in table    # 6 segmentations; 0.1640625
    (6, True, True)
    >>> [(stat.label, stat.value) for stat in dropout_stats(sample)][:3]
    [('Segmentations', '6 in 100 samples'), ('Without dropout', '1 token'), ('Mean with dropout', '2.56 tokens')]
"""

from __future__ import annotations

from ..encoding.dropout import DropoutSample
from ..encoding.tokenizer import Tokenizer
from ..errors import BpeError
from .plain_tables import scroll_box
from .stats import Stat
from .token_html import chips_html, pieces_for

DROPOUT_CSS = """
<style>
.bpe-dropout { border-collapse: collapse; width: 100%; }
.bpe-dropout th, .bpe-dropout td { padding: .2em .6em .2em 0; text-align: left; vertical-align: middle; border-bottom: 1px solid #e4e4e4; }
.bpe-dropout th { font-size: .85rem; color: #444; font-weight: 600; }
.bpe-dropout td.bpe-number { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.bpe-dropout .bpe-bar-cell { width: 30%; min-width: 6rem; }
.bpe-dropout .bpe-bar { height: .9em; background: #0072B2; border-radius: 2px; min-width: 1px; }
.bpe-dropout tr.bpe-plain td:first-child { box-shadow: inset 4px 0 0 #D55E00; padding-left: .5em; }
.bpe-dropout .bpe-plain-note { font-size: .8rem; color: #8a3b00; margin-left: .4em; }
.bpe-dropout .bpe-tokens { line-height: 1.7; }
.bpe-dropout-stats .bpe-stat-value { font-size: 1.35rem; }  /* a sample's numbers beside its histogram, not a lesson's headline */
</style>
"""
"""The histogram's styles (bars in the palette's blue, the plain segmentation ruled in its vermilion)."""


def _percent(share: float) -> str:
    return f"{100 * share:.1f}%"


def histogram_html(sample: DropoutSample, tokenizer: Tokenizer, *, limit: int = 12) -> str:
    """The ``limit`` most frequent segmentations of ``sample`` as a table (the rest counted below it)."""
    specials = list(tokenizer.special_tokens.values())
    tokens = tokenizer.tokens
    top = sample.segmentations[0].count if sample.segmentations else 1
    rows = []
    for seg in sample.segmentations[:limit]:
        plain = seg.ids == sample.plain
        chips = chips_html(pieces_for(seg.ids, tokens, special_ids=specials), end_of_word=tokenizer.end_of_word)
        note = '<span class="bpe-plain-note">without dropout</span>' if plain else ""
        exact = _percent(seg.probability) if seg.probability is not None else "–"
        rows.append(
            f'<tr class="{"bpe-plain" if plain else "bpe-sampled"}"><td>{chips}{note}</td>'
            f'<td class="bpe-number">{len(seg.ids):,}</td>'
            f'<td class="bpe-bar-cell"><div class="bpe-bar" style="width:{100 * seg.count / top:.1f}%" aria-hidden="true"></div></td>'
            f'<td class="bpe-number">{seg.count:,}</td><td class="bpe-number">{_percent(seg.count / sample.samples)}</td>'
            f'<td class="bpe-number">{exact}</td></tr>'
        )
    rest = sample.segmentations[limit:]
    more = (
        f'<p class="bpe-legend">… and {len(rest):,} more segmentations, {sum(seg.count for seg in rest):,} samples in all.</p>'
        if rest else ""
    )
    table = (
        '<table class="bpe-dropout"><caption class="bpe-sr-only">Each segmentation drawn, how many samples came out '
        "that way, their share and the exact probability</caption><thead><tr><th>segmentation</th><th>tokens</th>"
        "<th>samples</th><th></th><th>share</th><th>exact</th></tr></thead><tbody>" + "".join(rows) + "</tbody></table>"
    )
    return scroll_box(table, f"How {sample.samples:,} samples of {sample.text!r} were cut") + more


def dropout_stats(sample: DropoutSample) -> list[Stat]:
    """The sample's headline numbers: how many segmentations, the plain and mean token counts, and
    how much of the sample the most frequent few take (Cognetta et al., 2024: the samples are
    heavily biased towards a few segmentations)."""
    plain = len(sample.plain)
    top3 = sum(seg.count for seg in sample.segmentations[:3]) / sample.samples if sample.samples else 0.0
    return [
        Stat("Segmentations", f"{len(sample.segmentations):,} in {sample.samples:,} samples"),
        Stat("Without dropout", f"{plain:,} token{'s' * (plain != 1)}"),
        Stat("Mean with dropout", f"{sample.mean_tokens:.2f} tokens"),
        Stat("The three most frequent", f"{_percent(top3)} of the samples"),
    ]


def samples_html(samples: list[list[int]], tokenizer: Tokenizer) -> str:
    """A few whole-text samples, one line of chips each, numbered."""
    specials = list(tokenizer.special_tokens.values())
    lines = "".join(
        f'<li><span class="bpe-legend">{len(ids):,} tokens</span>'
        f"{chips_html(pieces_for(ids, tokenizer.tokens, special_ids=specials), end_of_word=tokenizer.end_of_word)}</li>"
        for ids in samples
    )
    return f'<ol class="bpe-dropout-samples">{lines}</ol>'



def default_word(tokenizer: Tokenizer, text: str, *, longest: int = 24) -> str:
    """The chunk of ``text`` a dropout lesson samples first: its longest that the tokenizer can encode
    (the first on a tie, at most ``longest`` characters, special tokens left out), as the encoder cuts
    it (``" newest"`` keeps its space under GPT-2's split).

    >>> from bpe.pretrained.registry import load_pretrained
    >>> default_word(load_pretrained("gpt2"), "the lowest and the newest<|endoftext|>")
    ' lowest'
    """
    head = text[:2_000]
    for special in tokenizer.special_tokens:
        head = head.replace(special, " ")
    pretokenizer = tokenizer.pretokenizer
    words = pretokenizer.words(head) if pretokenizer.normalization is None else head.split()
    for word in sorted((word for word in words if len(word) <= longest and word.strip()), key=len, reverse=True):
        try:
            tokenizer.encode_ordinary(word)
        except BpeError:  # a character a char-level vocabulary lacks
            continue
        return word
    return " "
