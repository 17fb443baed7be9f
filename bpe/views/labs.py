"""HTML for the teaching labs: counted pairs, splits side by side, bytes per character, tie tables.

Pure builders from the records in :mod:`bpe.teaching` to HTML strings, styled by :data:`LABS_CSS`
(and the token chips of :mod:`bpe.views.token_html`). Every piece of user, corpus or token text
passes through :func:`html.escape`, so ``<script>`` in a text is shown, never run.

    >>> from bpe.teaching.counting import count_pair
    >>> markup = counting_html(count_pair("aaaa", ("a", "a"), unit="char"))
    >>> markup.count('class="bpe-join bpe-join-replaced"'), markup.count('class="bpe-join bpe-join-overlap"')
    (2, 1)

Scope: markup only. Out of scope: the data (``bpe.teaching``) and Streamlit (the pages).
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence

from ..notation.spelling import name as mark_name
from ..notation.spelling import spell, visible_text
from ..teaching.byte_inspector import CharBytes, TokenBytes
from ..teaching.counting import PairTally, Symbol
from ..teaching.pretokenization_lab import Learned, Split
from ..teaching.quiz import Result
from ..teaching.tie_lab import TieLab
from .palette import TINTS, assign_colors
from .plain_tables import scroll_box

LABS_CSS = """
<style>
.bpe-join { display: inline-block; min-width: 1.3em; text-align: center; font-size: .7em;
  font-weight: 700; border-radius: 999px; margin: 0 1px 2px 0; padding: 0 .25em; line-height: 1.5;
  vertical-align: middle; font-family: sans-serif; }
.bpe-join-replaced { background: #D55E00; color: #fff; border: 2px solid #D55E00; }
.bpe-join-overlap { background: #fff; color: #8a3d68; border: 2px dashed #CC79A7; }
.bpe-join-none { min-width: .3em; padding: 0; }
.bpe-made-number { display: inline-block; font-size: .55em; font-weight: 700; color: #8a3400;
  font-family: sans-serif; vertical-align: top; margin: 0 3px 0 -1px; }
.bpe-made-number::after { content: attr(data-n); }
.bpe-pair-counts { display: flex; flex-wrap: wrap; gap: .3em .5em; list-style: none; padding: 0; margin: 0; }
.bpe-pair-counts li { display: inline-flex; align-items: center; gap: .3em; border: 1px solid #ccc;
  border-radius: 6px; padding: .1em .4em; font-size: 1.1rem; }
.bpe-pair-counts li.bpe-chosen { border: 2.5px solid #0072B2; }
.bpe-pair-counts .bpe-tok { margin: 0; }
.bpe-pair-counts .bpe-pair-count { font-variant-numeric: tabular-nums; min-width: 1.2em; text-align: right; }
.bpe-pair-counts li.bpe-more { border: none; color: #555; font-size: .9rem; }
.bpe-chunk-break { display: inline-block; width: 2px; height: 1.4em; background: #999;
  margin: 0 5px; vertical-align: middle; }
.bpe-tok.bpe-dim { background: #fff !important; color: #888; border-style: dotted; }
.bpe-tok.bpe-hit { border: 2px solid #0072B2; }
.bpe-tok.bpe-merged { border: 2.5px solid #D55E00; font-weight: 700; }
.bpe-tok.bpe-gap { background: #fff !important; color: #777; border-style: dashed; }
.bpe-lab-table { border-collapse: collapse; font-size: 1rem; width: 100%; }
.bpe-lab-table th, .bpe-lab-table td { padding: .35em .6em; border-bottom: 1px solid #ddd;
  text-align: left; vertical-align: top; }
.bpe-lab-table th { background: #F2F5F8; }
.bpe-lab-table td.bpe-num { text-align: right; font-variant-numeric: tabular-nums; color: #555; }
.bpe-lab-table tr.bpe-differ td { background: #FFF4D6; }
.bpe-lab-table td.bpe-odd { box-shadow: inset 4px 0 0 #D55E00; font-weight: 700; }
.bpe-lab-table .bpe-pair { color: #555; font-size: .85em; font-family: ui-monospace, monospace; white-space: nowrap; }
.bpe-lab-table th .bpe-pair { white-space: normal; font-family: inherit; font-weight: 400; }
.bpe-big .bpe-tokens, .bpe-tokens.bpe-big { font-size: 1.5rem; }
.bpe-lab-table .bpe-error { color: #b00020; }
.bpe-bytes { display: flex; flex-wrap: wrap; gap: 8px; font-size: 1.05rem; }
.bpe-char { border: 1px solid #bbb; border-radius: 6px; padding: .3em .5em; text-align: center;
  background: #fafafa; }
.bpe-char .bpe-glyph { font-size: 1.6em; font-family: ui-monospace, monospace; line-height: 1.2; }
.bpe-char .bpe-cp { color: #666; font-size: .75em; }
.bpe-char .bpe-row { display: flex; gap: 3px; justify-content: center; margin-top: .2em; }
.bpe-char .bpe-row span { font-family: ui-monospace, monospace; border-radius: 3px; padding: 0 .3em;
  min-width: 1.6em; }
.bpe-char .bpe-hexbyte { background: #C9E7F8; }
.bpe-char .bpe-g2 { background: #F7E0AD; }
.bpe-char .bpe-g2.bpe-remapped { background: #D55E00; color: #fff; font-weight: 700; }
.bpe-bytes-legend { color: #555; font-size: .85rem; margin-top: .4em; }
</style>
"""


def _glyph(text: str) -> str:
    """A symbol's text with every invisible character marked (:mod:`bpe.notation.spelling`), escaped."""
    return html.escape(spell(text))


def _chip(text: str, tint: str, classes: str = "", title: str = "") -> str:
    title_attr = f' title="{html.escape(title, quote=True)}"' if title else ""
    return (
        f'<span class="bpe-tok{" " + classes if classes else ""}" style="background:{tint}"{title_attr}>'
        f"{_glyph(text) or '∅'}</span>"
    )


# -- counting lab -------------------------------------------------------------------------------
def counting_html(tally: PairTally) -> str:
    """The symbols with a numbered badge at every counted occurrence of the pair.

    A solid badge is an occurrence the merge replaces; a dashed one overlaps the occurrence before
    it (they share a symbol), so it is counted but cannot be replaced.
    """
    counted = set(tally.counted)
    replaced = set(tally.replaced)
    in_pair = counted | {i + 1 for i in counted}
    out: list[str] = []
    number = 0
    symbols = tally.symbols
    for i, symbol in enumerate(symbols):
        out.append(_symbol_chip(symbol, i in in_pair))
        if i + 1 == len(symbols):
            break
        if i in counted:
            number += 1
            kind = "replaced" if i in replaced else "overlap"
            what = "counted and replaced by the merge" if i in replaced else "counted, but overlaps the one before"
            out.append(
                f'<span class="bpe-join bpe-join-{kind}" title="occurrence {number}: {what}">{number}</span>'
            )
        elif symbols[i + 1].chunk != symbol.chunk:
            out.append('<span class="bpe-chunk-break" title="chunk boundary: no pair is counted across it"></span>')
    return f'<div class="bpe-tokens bpe-big">{"".join(out)}</div>'


def _symbol_chip(symbol: Symbol, hit: bool) -> str:
    if not symbol.counted:
        return _chip(symbol.text, "#fff", "bpe-dim", "not counted: outside the pre-tokenizer's words")
    return _chip(symbol.text, TINTS[1] if hit else "#fff", "bpe-hit" if hit else "")


MAX_PAIRS_LISTED = 40
"""Pairs :func:`pair_counts_html` lists (a 2,000-character text can hold hundreds, counted once each)."""


def pair_counts_html(pairs: Sequence[tuple[str, str, int]], *, chosen: tuple[str, str] | None = None) -> str:
    """Every pair the trainer counts and its count, most counted first: the plain table a learner
    fills in by hand (``aa 4, ab 2, bd 1, ...``), the chosen pair outlined. ``pairs`` are
    ``(left, right, count)`` as spelled.

    >>> markup = pair_counts_html([("a", "a", 4), ("a", "b", 2)], chosen=("a", "a"))
    >>> markup.count("<li"), "bpe-chosen" in markup, ">4<" in markup
    (2, True, True)
    """
    items = []
    for left, right, count in pairs[:MAX_PAIRS_LISTED]:
        mark = ' class="bpe-chosen"' if (left, right) == chosen else ""
        items.append(
            f'<li{mark}><span class="bpe-pair-chips">{_chip(left, TINTS[1])}{_chip(right, TINTS[1])}</span>'
            f'<b class="bpe-pair-count">{count:,}</b></li>'
        )
    more = len(pairs) - MAX_PAIRS_LISTED
    rest = f'<li class="bpe-more">… and {more:,} more pairs</li>' if more > 0 else ""
    return f'<ol class="bpe-pair-counts" aria-label="Every pair of neighbours and its count">{"".join(items)}{rest}</ol>'


def merged_html(tally: PairTally) -> str:
    """The symbols after the merge, the new tokens outlined and numbered in replacement order."""
    starts = set(tally.replaced)
    out: list[str] = []
    i = 0
    number = 0
    symbols = tally.symbols
    while i < len(symbols):
        if i in starts:
            number += 1
            text = symbols[i].text + symbols[i + 1].text
            out.append(_chip(text, TINTS[5], "bpe-merged", f"replacement {number}"))
            # subtle: drawn by CSS (data-n), so the text stays the text; the chip's title says it in words
            out.append(f'<span class="bpe-made-number" data-n="{number}"></span>')
            i += 2
        else:
            out.append(_symbol_chip(symbols[i], False))
            i += 1
        if i < len(symbols) and symbols[i].chunk != symbols[i - 1].chunk:
            out.append('<span class="bpe-chunk-break"></span>')
    return f'<div class="bpe-tokens bpe-big">{"".join(out)}</div>'


# -- pre-tokenization lab -----------------------------------------------------------------------
def splits_html(splits: Sequence[Split], labels: Mapping[str, str] | None = None) -> str:
    """One row per pre-tokenizer: its name (and the normalization step that ran first, when it changed
    the text: the chunks are of the text it made), the chunks (gaps dashed), the number of words.

    >>> from bpe.teaching.pretokenization_lab import compare_splits
    >>> "after NFC" in splits_html(compare_splits("Cafe\u0301", specs=("qwen2",)))
    True
    """
    labels = labels or {}
    rows = []
    for split in splits:
        name = html.escape(labels.get(split.spec, split.title))
        if split.normalization is not None:
            name += '<br><span class="bpe-pair">after ' + html.escape(split.normalization) + "</span>"
        if split.error is not None:
            body = f'<span class="bpe-error">{html.escape(split.error)}</span>'
            words = "–"
        else:
            colors = assign_colors(list(range(len(split.pieces))))
            chips = []
            for (piece, is_word), color in zip(split.pieces, colors):
                shown = visible_text(piece.encode("utf-8"))
                if is_word:
                    chips.append(_chip_plain(shown, TINTS[color], "", "a word: trained on"))
                else:
                    chips.append(_chip_plain(shown, "#fff", "bpe-gap", "a gap: kept when encoding, never trained on"))
            body = f'<div class="bpe-tokens">{"".join(chips) or "∅"}</div>'
            words = f"{len(split.words):,}"
        rows.append(f'<tr><th scope="row">{name}</th><td>{body}</td><td class="bpe-num">{words}</td></tr>')
    return scroll_box(
        '<table class="bpe-lab-table"><thead><tr><th>pre-tokenizer</th><th>chunks</th><th>words</th></tr></thead>'
        f'<tbody>{"".join(rows)}</tbody></table>', "Each pre-tokenizer's chunks",
    )


def _chip_plain(shown: str, tint: str, classes: str, title: str) -> str:
    """A chip for text already made visible (no second glyph mapping)."""
    return (
        f'<span class="bpe-tok{" " + classes if classes else ""}" style="background:{tint}" '
        f'title="{html.escape(title, quote=True)}">{html.escape(shown) or "∅"}</span>'
    )


def learned_html(learned: Learned) -> str:
    """The tokens a run learned, in merge order; those spanning a word boundary outlined.

    >>> from bpe.teaching.pretokenization_lab import Learned
    >>> learned_html(Learned("none", ("ne", "newest "), ("newest ",))).count("bpe-merged")
    1
    """
    chips = [
        _chip(token, TINTS[index % len(TINTS)], "bpe-merged" if token in learned.spanning else "",
              "spans a word boundary" if token in learned.spanning else "")
        for index, token in enumerate(learned.tokens)
    ]
    return f'<div class="bpe-tokens">{"".join(chips) or "∅ (no pair occurs twice)"}</div>'


# -- byte inspector -----------------------------------------------------------------------------
def bytes_html(rows: Sequence[CharBytes]) -> str:
    """One box per character: the character, its code point, its UTF-8 bytes and GPT-2's stand-ins.

    >>> from bpe.teaching.byte_inspector import inspect_text
    >>> 'bpe-g2 bpe-remapped">Ġ<' in bytes_html(inspect_text(" "))
    True
    """
    boxes = []
    for row in rows:
        hex_bytes = "".join(f'<span class="bpe-hexbyte">{value:02x}</span>' for value in row.utf8)
        stand_ins = "".join(
            f'<span class="bpe-g2{" bpe-remapped" if stand_in != chr(value) else ""}">{html.escape(stand_in)}</span>'
            for value, stand_in in zip(row.utf8, row.gpt2)
        )
        glyph = _glyph(row.char)  # ZWJ, RLO and BEL each get their own mark, never a shared "␀"
        title = html.escape(f"{row.codepoint} {row.name or mark_name(row.char) or ''}".strip(), quote=True)
        boxes.append(
            f'<div class="bpe-char" title="{title}"><div class="bpe-glyph">{glyph}</div>'
            f'<div class="bpe-cp">{row.codepoint}</div><div class="bpe-row">{hex_bytes}</div>'
            f'<div class="bpe-row">{stand_ins}</div></div>'
        )
    return f'<div class="bpe-bytes">{"".join(boxes)}</div>'


def token_bytes_html(token: TokenBytes) -> str:
    """A token's bytes as a table: hex, GPT-2's stand-in, and the byte's role in UTF-8."""
    cells = "".join(
        f'<tr><td class="bpe-num">{role.value:02x}</td><td>{html.escape(role.gpt2)}</td>'
        f"<td>{html.escape(role.role)}</td><td>{html.escape(role.why_gpt2)}</td></tr>"
        for role in token.roles
    )
    return scroll_box(
        '<table class="bpe-lab-table"><thead><tr><th>byte</th><th>GPT-2 shows</th><th>role in UTF-8</th>'
        f"<th>why GPT-2 shows it so</th></tr></thead><tbody>{cells}</tbody></table>", "The token's bytes",
    )


# -- tie-break lab ------------------------------------------------------------------------------
def tie_table_html(lab: TieLab, *, limit: int = 60, rules_used_by: Mapping[str, str] | None = None) -> str:
    """Merge by merge, the token each rule made; rows where the rules disagree are highlighted,
    and in them each cell that differs from the most common choice is marked.

    The table opens a few rows before the first disagreement, so the row that matters is on
    screen; a note says the merges before it are the same under every rule.

    >>> from bpe.teaching.tie_lab import tie_lab_for_preset
    >>> table = tie_table_html(tie_lab_for_preset("hf-course"), limit=4)  # rules first disagree at merge 5
    >>> '<td class="bpe-num">2</td>' in table, "bpe-differ" in table, "Merges 1 to 1 are the same" in table
    (True, True, True)
    """
    rules = list(lab.runs)
    used_by = rules_used_by or {}
    head = "".join(
        f"<th>{html.escape(rule)}"
        + (f'<br><span class="bpe-pair">{html.escape(used_by[rule])}</span>' if rule in used_by else "")
        + "</th>"
        for rule in rules
    )
    first = max((lab.first_disagreement or 1) - 3, 1)
    body = []
    for row in lab.rows[first - 1:first - 1 + limit]:
        choices = list(row.merged.values())
        usual = max(choices, key=choices.count)
        cells = []
        for rule in rules:
            made, merged = row.made[rule], row.merged[rule]
            odd = not row.agree and merged != usual
            if made is None:
                content = '<span class="bpe-pair">(stopped)</span>'
            else:
                content = (
                    f'{_chip(made, TINTS[0])}<br><span class="bpe-pair">{html.escape(merged or "")}</span>'
                )
            cells.append(f'<td class="{"bpe-odd" if odd else ""}">{content}</td>')
        differ = "" if row.agree else ' class="bpe-differ"'
        body.append(f'<tr{differ}><td class="bpe-num">{row.step}</td>{"".join(cells)}</tr>')
    later = len(lab.rows) - (first - 1 + limit)
    more = f'<p class="bpe-legend">… and {later:,} more merges</p>' if later > 0 else ""
    same = (
        f'<p class="bpe-legend">Merges 1 to {first - 1:,} are the same under every rule (not shown).</p>'
        if first > 1 else ""
    )
    table = (
        f'<table class="bpe-lab-table bpe-tie-table"><thead><tr><th>merge</th>{head}</tr></thead>'
        f'<tbody>{"".join(body)}</tbody></table>'
    )
    return f"{same}{scroll_box(table, 'Merge by merge, the token each rule made')}{more}"


# -- predict the next merge ---------------------------------------------------------------------
def candidates_html(result: Result) -> str:
    """The quiz's candidates with their counts revealed, the merged pair and the learner's pick marked.

    >>> from bpe.teaching.quiz import Candidate, Result
    >>> pick, answer = Candidate(1, 2, "'a' + 'b'", 3), Candidate(3, 4, "'<' + 'b'", 5)
    >>> markup = candidates_html(Result(0, (1, 2), (3, 4), "wrong", (answer, pick), ""))
    >>> "&#x27;&lt;&#x27; + &#x27;b&#x27;" in markup, markup.count("bpe-differ")
    (True, 1)
    """
    rows = []
    for candidate in result.counts:
        notes = []
        if candidate.pair == result.answer:
            notes.append("merged next")
        if candidate.pair == result.chosen:
            notes.append("your pick")
        count = "not recorded" if candidate.count is None else f"{candidate.count:,}"
        marked = ' class="bpe-differ"' if candidate.pair == result.answer else ""
        rows.append(
            f'<tr{marked}><td><span class="bpe-pair">{html.escape(candidate.label)}</span></td>'
            f'<td class="bpe-num">{count}</td><td>{html.escape(" · ".join(notes))}</td></tr>'
        )
    return (
        '<table class="bpe-lab-table"><thead><tr><th>pair</th><th>count</th><th></th></tr></thead>'
        f'<tbody>{"".join(rows)}</tbody></table>'
    )
