"""The encode page's views: an encode walkthrough as HTML, ids typed by a person, sample texts.

The walkthrough shows, for each chunk of the pre-tokenized text, its starting symbols and every
merge the tokenizer applied to it, lowest rank first, as ``Tokenizer.encode_walkthrough``
records them:

    chunk ' lowest'  ·|l|o|w|e|s|t
      merge 1  s + t   -> ·|l|o|w|e|st
      merge 2  e + st  -> ·|l|o|w|est
      ...
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from ..encoding.merge_loop import AppliedMerge
from ..encoding.tokenizer import ChunkWalk, Tokenizer
from ..limits import MAX_CHUNK_CHARS, MAX_WALK_CHARS, MAX_WALK_ROWS
from ..notation.markdown import inline_code
from ..notation.spelling import visible_text
from ..text.pretokenize import special_token_pattern, split_special
from ..text.special_text import SPECIAL_TEXT_MODES
from ..tokens.ids import parse_ids  # noqa: F401  (the decode box reads ids with the engine's one rule)
from ..tokens.vocab import Token
from .excerpt import excerpt
from .segmentations import left_to_right_row
from .token_html import Piece, chips_html, pieces_for

SAMPLE_TEXTS: Mapping[str, str] = MappingProxyType({
    "sennrich": " lowest newer wider",
    "cs336": "lowest newer wider",
    "sennrich-paper": "lowest newer wider",
    "wikipedia": "aaabdaaabac",
    "hf-course": "hugs bun pugs",
    "python-docs": "def tokenize(text):\n    return text.split()  # costs 5 €",
})
WALK_CSS = """
<style>
.bpe-walk { font-size: 1rem; margin-bottom: .8em; border: 1px solid #ddd; border-radius: 6px; padding: .4em .8em; }
.bpe-walk-head { font-weight: 700; margin-bottom: .2em; }
.bpe-walk table { border-collapse: collapse; }
.bpe-walk td { padding: .1em .6em .1em 0; vertical-align: middle; }
.bpe-walk td.bpe-what { color: #333; white-space: nowrap; font-size: .92rem; }
</style>
"""


def sample_text(source: str, corpus_text: str = "", special_tokens: Sequence[str] = ()) -> str:
    """A text worth encoding for this example (own text: its first line, cut to 200 characters)."""
    first_line = (corpus_text.strip().splitlines() or ["hello world"])[0]
    text = SAMPLE_TEXTS.get(source) or excerpt(first_line, 200, special_tokens=special_tokens)
    if special_tokens:  # show a special token between two copies of the text
        text = f"{text}{special_tokens[0]}{text}"
    return text


ENCODE_MODES: Mapping[str, dict] = MappingProxyType({name: mode.encode_args for name, mode in SPECIAL_TEXT_MODES.items()})
"""How the Encode page treats special-token text: keyword arguments of ``encode``, both given, so
that the page's choice holds whatever the tokenizer's own default (``specials_in_text``)."""
ENCODE_MODE_LABELS: Mapping[str, str] = MappingProxyType({
    "allowed": "allowed: encode them as special tokens",
    "disallowed": "disallowed: refuse text that contains them (tiktoken's default)",
    "plain": "plain text: encode their characters like any other text",
})
"""Each of :data:`ENCODE_MODES` as the page offers it."""
SHOWN_SPECIALS = 12
"""Special tokens named in the note (DeepSeek has 1,283)."""
OWN_DEFAULTS: Mapping[str, str] = MappingProxyType({
    "special": "This tokenizer's own library encodes special-token text as special tokens when not told "
               '(`allowed_special="all"`): choose *allowed* to do the same.',
    "plain": "This tokenizer's own library never reads its special tokens from text: choose *plain text* to do the same.",
})


def special_tokens_note(tokenizer: Tokenizer) -> str:
    """What the Encode page says about a tokenizer's special tokens (Markdown, names escaped).

    >>> from bpe.pretrained.registry import load_pretrained
    >>> note = special_tokens_note(load_pretrained("qwen2.5"))
    >>> note.startswith("This tokenizer's special tokens: `<|endoftext|>`"), "and 196 more" in note, "allowed_special" in note
    (True, True, True)
    """
    if not tokenizer.special_tokens:
        return "This run has no special tokens: add one in the sidebar (e.g. `<|endoftext|>`) to try this."
    names = list(tokenizer.special_tokens)
    more = f" and {len(names) - SHOWN_SPECIALS:,} more" if len(names) > SHOWN_SPECIALS else ""
    note = "This tokenizer's special tokens: " + ", ".join(map(inline_code, names[:SHOWN_SPECIALS])) + more + "."
    return note + (" " + OWN_DEFAULTS[tokenizer.specials_in_text] if tokenizer.specials_in_text in OWN_DEFAULTS else "")


@dataclass(frozen=True)
class Encoded:
    """A text's ids, and the walkthrough of its first :data:`MAX_WALK_CHARS` characters."""

    ids: tuple[int, ...]
    walks: tuple[ChunkWalk, ...]
    encoded_chars: int
    """How many characters the ids cover (all of them unless a chunk is over :data:`MAX_CHUNK_CHARS`)."""
    walked_chars: int
    """How many characters the walkthrough follows."""


def encodable_prefix(tokenizer: Tokenizer, text: str) -> str:
    """``text``, or, if one of its chunks is longer than :data:`MAX_CHUNK_CHARS`, the text up to
    that many characters into the first such chunk (a chunk is never cut inside a special token).

    >>> from bpe import Corpus, TrainSettings, train
    >>> tok = Tokenizer.from_trace(train(Corpus.from_text("ab", pretokenizer="none"), TrainSettings(pretokenizer="none")))
    >>> len(encodable_prefix(tok, "ab" * 20_000)), len(encodable_prefix(tok, "ab" * 2_000))
    (10000, 4000)
    """
    position = 0
    for piece, is_special in split_special(text, special_token_pattern(list(tokenizer.special_tokens))):
        for chunk, _ in [(piece, True)] if is_special else tokenizer.pretokenizer.split(piece):
            if len(chunk) > MAX_CHUNK_CHARS and not is_special:
                return text[: position + MAX_CHUNK_CHARS]
            position += len(chunk)
    return text


def encode_for_page(tokenizer: Tokenizer, text: str, mode: str) -> Encoded:
    """Encode ``text`` in ``mode`` (a key of :data:`ENCODE_MODES`), and walk through its start.

    The ids cover the whole text (the engine's fast path) unless a chunk is too long to encode
    at once (:func:`encodable_prefix`); the walkthrough, which costs O(characters x merges), only
    the first :data:`MAX_WALK_CHARS` characters, cut where no special token is split (``excerpt``).

    >>> from bpe import Corpus, TrainSettings, train
    >>> tok = Tokenizer.from_trace(train(Corpus.from_text("aaabdaaabac", pretokenizer="none"),
    ...                                  TrainSettings(pretokenizer="none", merges=3)))
    >>> done = encode_for_page(tok, "aaab " * 100, "allowed")
    >>> len(done.ids), done.encoded_chars, done.walked_chars, len(done.walks)
    (200, 500, 199, 1)
    """
    options = ENCODE_MODES[mode]
    encodable = encodable_prefix(tokenizer, text)
    ids = tuple(tokenizer.encode(encodable, **options))
    walked = excerpt(encodable, MAX_WALK_CHARS, special_tokens=list(tokenizer.special_tokens))
    return Encoded(ids, tuple(tokenizer.encode_walkthrough(walked, **options)), len(encodable), len(walked))


def _kind_label(walk: ChunkWalk) -> str:
    return {"word": "chunk", "gap": "gap (not trained on, kept)", "special": "special token"}[walk.kind]


def walkthrough_html(
    tokenizer: Tokenizer,
    walks: Sequence[ChunkWalk],
    *,
    names: Mapping[int, str] | None = None,
    limit: int = 25,
    left_to_right: bool = False,
) -> str:
    """Each chunk's starting symbols, then one row per merge applied (new tokens emphasized);
    ``left_to_right``: then what merging the first known pair met would make of it."""
    tokens: dict[int, Token] = tokenizer.tokens
    specials = list(tokenizer.special_tokens.values())
    eow = tokenizer.end_of_word

    def chips(ids: Sequence[int], new_id: int | None = None) -> str:
        return chips_html(
            pieces_for(ids, tokens, special_ids=specials, new_id=new_id, names=names), end_of_word=eow, wrap=False
        )

    def spell(token_id: int) -> str:
        return _spell(tokens, token_id, eow, names)

    blocks = []
    for walk in walks[:limit]:
        rows = [f'<tr><td class="bpe-what">start</td><td class="bpe-tokens">{chips(walk.initial)}</td></tr>']
        for applied in walk.merges[:MAX_WALK_ROWS]:
            where = ", ".join(str(p) for p in applied.positions)
            what = (
                f"merge {applied.rank + 1}: {spell(applied.left)} + {spell(applied.right)} "
                f"→ {spell(applied.new_id)} (at {where})"
            )
            rows.append(
                f'<tr><td class="bpe-what">{html.escape(what)}</td>'
                f'<td class="bpe-tokens">{chips(applied.ids_after, applied.new_id)}</td></tr>'
            )
        if len(walk.merges) > MAX_WALK_ROWS:
            rows.append(f'<tr><td class="bpe-what">… and {len(walk.merges) - MAX_WALK_ROWS:,} more merges</td><td></td></tr>')
        if walk.kind == "word" and not walk.merges and len(walk.initial) > 1:
            rows.append('<tr><td class="bpe-what">no learned merge applies</td><td></td></tr>')
        if left_to_right:
            rows.append(left_to_right_row(tokenizer, walk))
        head = f"{_kind_label(walk)} “{visible_text(walk.text.encode('utf-8'))}” → {len(walk.ids)} token{'s' if len(walk.ids) != 1 else ''}"
        blocks.append(
            f'<div class="bpe-walk"><div class="bpe-walk-head">{html.escape(head)}</div>'
            f"<table>{''.join(rows)}</table></div>"
        )
    if len(walks) > limit:
        blocks.append(f'<p class="bpe-legend">… and {len(walks) - limit:,} more chunks (the tokens above cover them all)</p>')
    return "".join(blocks)


@dataclass(frozen=True)
class WalkStep:
    """The walked text after every merge up to one rank: one step of the Encode page's merge walk."""

    rank: int | None
    """The merge's rank (0-based: merge ``rank + 1``); ``None`` for the start, before any merge."""
    left: int | None
    right: int | None
    new_id: int | None
    places: int
    """How many times this merge applied across the text's chunks."""
    ids: tuple[int, ...]
    """Every chunk's ids at this step, in text order."""


def merge_walk(walks: Sequence[ChunkWalk]) -> list[WalkStep]:
    """The text merge by merge: the start, then one step per merge that applies anywhere, in rank
    order. Chunks never share a merge's effects, so applying each chunk's merges in global rank
    order ends exactly where encoding ends.

    >>> from bpe import PRESETS, train
    >>> tok = Tokenizer.from_trace(train(PRESETS["sennrich"].corpus(), PRESETS["sennrich"].settings))
    >>> steps = merge_walk(tok.encode_walkthrough(" lowest newest"))
    >>> [(step.rank, step.places, len(step.ids)) for step in steps][:3]
    [(None, 0, 14), (0, 2, 12), (1, 2, 10)]
    >>> steps[-1].ids == tuple(tok.encode(" lowest newest"))
    True
    """
    state = [list(walk.initial) for walk in walks]
    applied: dict[int, list[tuple[int, AppliedMerge]]] = {}
    for index, walk in enumerate(walks):
        for merge in walk.merges:
            applied.setdefault(merge.rank, []).append((index, merge))
    steps = [WalkStep(None, None, None, None, 0, tuple(token for ids in state for token in ids))]
    for rank in sorted(applied):
        for index, merge in applied[rank]:
            state[index] = list(merge.ids_after)
        merge = applied[rank][0][1]
        places = sum(len(merge.positions) for _, merge in applied[rank])
        steps.append(WalkStep(rank, merge.left, merge.right, merge.new_id, places, tuple(t for ids in state for t in ids)))
    return steps


def walk_line(tokenizer: Tokenizer, step: WalkStep, at: int, count: int, *, names: Mapping[int, str] | None = None) -> str:
    """What step ``at`` of ``count`` of the merge walk did, as one line of HTML (escaped here).

    >>> from bpe import PRESETS, train
    >>> tok = Tokenizer.from_trace(train(PRESETS["sennrich"].corpus(), PRESETS["sennrich"].settings))
    >>> steps = merge_walk(tok.encode_walkthrough(" lowest newest"))
    >>> print(walk_line(tok, steps[1], 1, len(steps)))
    <p class="bpe-walk-line"><b>Step 1 of 9</b> · merge 1: s + t → st, at 2 places</p>
    """
    def spell(token_id: int) -> str:
        return _spell(tokenizer.tokens, token_id, tokenizer.end_of_word, names)

    if step.rank is None:
        what = f"the text before any merge: {len(step.ids):,} {'bytes' if tokenizer.unit == 'byte' else 'characters'}"
    else:
        places = "1 place" if step.places == 1 else f"{step.places:,} places"
        what = f"merge {step.rank + 1:,}: {spell(step.left)} + {spell(step.right)} → {spell(step.new_id)}, at {places}"
    return f'<p class="bpe-walk-line"><b>Step {at:,} of {count - 1:,}</b> · {html.escape(what)}</p>'


def _spell(tokens: Mapping[int, Token], token_id: int, end_of_word: str | None, names: Mapping[int, str] | None) -> str:
    """A token as plain text, or its given name (the Wikipedia example's Z, Y, X)."""
    if names and token_id in names:
        return names[token_id]
    token = tokens[token_id]
    return visible_text(token.data, end_of_word, token.ends_word)


def byte_pieces(tokenizer: Tokenizer, ids: Sequence[int]) -> list[Piece]:
    """The pieces of ``ids`` for decoding: each token's own bytes, partial characters included."""
    return pieces_for(ids, tokenizer.tokens, special_ids=list(tokenizer.special_tokens.values()))
