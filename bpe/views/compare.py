"""Side-by-side views: one text under several tokenizers, and where two training runs part ways.

Scope: the numbers table of the Compare page (tokens, characters and bytes per token), the
merge lists of two runs lined up, and the first merge at which they differ explained in plain
words (reusing the tie lab's :func:`~bpe.teaching.tie_lab.first_divergence` and
:func:`~bpe.teaching.tie_lab.why_rule_picks`). Also the small record an imported tokenizer is
kept in, and the helpers that keep a user-given name tidy (``bpe.notation.markdown`` escapes it).

    >>> from bpe import PRESETS, Tokenizer, train
    >>> sennrich = Tokenizer.from_trace(train(PRESETS["sennrich"].corpus(), PRESETS["sennrich"].settings))
    >>> text = "lowest newer"
    >>> compare_frame(text, [("ours", sennrich.encode(text), sennrich.n_vocab)]).iloc[0].to_dict()
    {'tokenizer': 'ours', 'vocabulary': 266, 'tokens': 7, 'characters per token': 1.71, 'bytes per token': 1.71}

Out of scope: encoding itself (``Tokenizer``), drawing tokens (``token_html``) and training
(the app trains through its cache; this module only reads traces).
"""

from __future__ import annotations

import hashlib
import html
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import pandas as pd

from ..encoding.tokenizer import Tokenizer
from ..teaching.tie_lab import first_divergence, merge_label, token_label, why_rule_picks
from ..teaching.why_tokenization import PHENOMENA
from ..training.trace import MergeStep, Trace

MAX_NAME_CHARS = 60
COMPARE_CSS = """
<style>
.bpe-diff { border-left: 4px solid #D55E00; background: #FFF6EE; padding: .6em .9em; border-radius: 4px; }
.bpe-diff p { margin: .25em 0; }
.bpe-diff code { background: #fff; padding: 0 .2em; border-radius: 3px; }
</style>
"""
DIVERGENCE_TINT = "background-color: #FBD9BF; font-weight: 700"


@dataclass(frozen=True)
class NamedTokenizer:
    """A tokenizer the user imported, kept compact: the name they gave it, where it came from, what
    a list shows of it, and its BPE Lab JSON compressed (a built table is about 400 bytes a token;
    the app builds it from this when a page needs it, ``ui.tokenizers``).

    >>> from bpe import PRESETS, Tokenizer, train
    >>> ours = Tokenizer.from_trace(train(PRESETS["sennrich"].corpus(), PRESETS["sennrich"].settings))
    >>> kept = NamedTokenizer.of(ours, name="mine", origin="t.json (BPE Lab JSON)")
    >>> kept.n_vocab, kept.merges, Tokenizer.from_json(kept.json()).encode("lowest") == ours.encode("lowest")
    (266, 10, True)
    """

    name: str
    origin: str
    """E.g. ``"Hugging Face tokenizer.json: tokenizer.json"``."""
    stored: bytes
    """The tokenizer's BPE Lab JSON, zlib-compressed."""
    key: str
    """The JSON's sha256: the same tokenizer, whoever imported it."""
    n_vocab: int
    merges: int
    unit: str
    pretokenizer: str

    @classmethod
    def of(cls, tokenizer: Tokenizer, *, name: str, origin: str, text: str | None = None) -> "NamedTokenizer":
        """``tokenizer`` kept; ``text``: its JSON when already at hand (the import worker sends it)."""
        data = (tokenizer.to_json() if text is None else text).encode("utf-8")
        return cls(name=name, origin=origin, stored=zlib.compress(data, 1), key=hashlib.sha256(data).hexdigest(),
                   n_vocab=tokenizer.n_vocab, merges=len(tokenizer.merges), unit=tokenizer.unit,
                   pretokenizer=tokenizer.pretokenizer.name)

    def json(self) -> str:
        return zlib.decompress(self.stored).decode("utf-8")


# -- names ------------------------------------------------------------------------------------------
def clean_name(raw: str, fallback: str = "imported") -> str:
    """A user-given name on one line, at most :data:`MAX_NAME_CHARS` characters.

    >>> clean_name("  my\\n tokenizer  "), clean_name("   ", "gpt2 files")
    ('my tokenizer', 'gpt2 files')
    """
    name = " ".join(str(raw).split())[:MAX_NAME_CHARS].strip()
    return name or fallback


def unique_name(wanted: str, taken: Iterable[str]) -> str:
    """``wanted``, or ``wanted (2)``, ``(3)``... if that name is taken.

    >>> unique_name("mine", ["mine", "mine (2)"])
    'mine (3)'
    """
    taken = set(taken)
    if wanted not in taken:
        return wanted
    number = 2
    while f"{wanted} ({number})" in taken:
        number += 1
    return f"{wanted} ({number})"


# -- the numbers table ------------------------------------------------------------------------------
def compare_frame(text: str, encoded: Sequence[tuple[str, Sequence[int], int]]) -> pd.DataFrame:
    """One row per tokenizer: ``(name, ids of text, vocabulary size)`` -> counts and ratios.

    Characters and bytes per token say how much text one token carries on average (higher:
    fewer tokens for the same text). An empty encoding gets no ratio.
    """
    n_chars, n_bytes = len(text), len(text.encode("utf-8"))
    rows = [
        {
            "tokenizer": name,
            "vocabulary": vocab,
            "tokens": len(ids),
            "characters per token": round(n_chars / len(ids), 2) if ids else None,
            "bytes per token": round(n_bytes / len(ids), 2) if ids else None,
        }
        for name, ids, vocab in encoded
    ]
    return pd.DataFrame(rows, columns=["tokenizer", "vocabulary", "tokens", "characters per token", "bytes per token"])


# -- the run diff -----------------------------------------------------------------------------------
def merges_side_by_side(a: Trace, b: Trace, *, names: tuple[str, str] = ("A", "B"), upto: int | None = None) -> pd.DataFrame:
    """Merge ``n`` of each run on one row (the pair merged and its count); ``upto`` rows at most.

    >>> from bpe import PRESETS, train
    >>> from dataclasses import replace
    >>> wiki = PRESETS["wikipedia"]
    >>> a = train(wiki.corpus(), wiki.settings)
    >>> b = train(wiki.corpus(), replace(wiki.settings, tie_break="first-seen"))
    >>> merges_side_by_side(a, b, names=("min", "seen"))["seen"].tolist()
    ["'a' + 'a'", "'aa' + 'a'", "'aaa' + 'b'"]
    """
    longest = max(len(a.steps), len(b.steps))
    rows = []
    for index in range(longest if upto is None else min(upto, longest)):
        row: dict[str, object] = {"merge": index + 1}
        for name, trace in zip(names, (a, b)):
            step = trace.steps[index] if index < len(trace.steps) else None
            row[name] = merge_label(trace, (step.left, step.right)) if step else "(stopped)"
            row[f"{name} count"] = step.count if step else None
        rows.append(row)
    columns = ["merge", names[0], f"{names[0]} count", names[1], f"{names[1]} count"]
    return pd.DataFrame(rows, columns=columns).astype({f"{names[0]} count": "Int64", f"{names[1]} count": "Int64"})


def highlight_merge(frame: pd.DataFrame, merge: int | None):
    """A pandas Styler of :func:`merges_side_by_side` with row ``merge`` tinted (the divergence)."""
    def tint(row: pd.Series) -> list[str]:
        return [DIVERGENCE_TINT if row["merge"] == merge else ""] * len(row)
    return frame.style.apply(tint, axis=1)


def _in_other(trace: Trace, other: Trace, pair: tuple[int, int], upto: int) -> tuple[int, int] | None:
    """``pair`` of ``other`` written with ``trace``'s ids (tokens made before merge ``upto``)."""
    by_spelling = {trace.token_text(token_id): token_id for token_id in trace.vocab_ids(upto)}
    left, right = (by_spelling.get(other.token_text(token_id)) for token_id in pair)
    return None if left is None or right is None else (left, right)


def _made(trace: Trace, step: MergeStep) -> str:
    return f"{merge_label(trace, (step.left, step.right))} (making {token_label(trace, step.new_id)}, count {step.count})"


def explain_divergence(a: Trace, b: Trace, *, names: tuple[str, str] = ("A", "B")) -> list[str]:
    """Where two runs of the same corpus first differ, and why, as sentences.

    >>> from bpe import PRESETS, train
    >>> from dataclasses import replace
    >>> wiki = PRESETS["wikipedia"]
    >>> a = train(wiki.corpus(), wiki.settings)
    >>> b = train(wiki.corpus(), replace(wiki.settings, tie_break="first-seen"))
    >>> for sentence in explain_divergence(a, b, names=("lexicographic-min", "first-seen")):
    ...     print(sentence)
    Both runs make merge 1 alike; they part ways at merge 2.
    lexicographic-min merges 'a' + 'b' (making 'ab', count 2); first-seen merges 'aa' + 'a' (making 'aaa', count 2).
    It is a tie: both pairs occur 2 times (2 pairs share the top count), so only the tie-break rule decides.
    lexicographic-min picks 'a' + 'b' because its byte strings are the smallest, comparing the left token first: ('a', 'b') < ('aa', 'a').
    first-seen picks 'aa' + 'a' because it occurs first in the text: its first occurrence comes before any occurrence of 'a' + 'b' (words are read in the order they first appear).
    """
    name_a, name_b = names
    merge = first_divergence(a, b)
    if merge is None:
        ties = sum(step.tie_count > 1 for step in a.steps)
        tie_note = (
            f"{ties} of those merges {'was a tie' if ties == 1 else 'were ties'}, yet both runs chose alike."
            if ties else "No merge was a tie, so the tie-break rule never had to choose."
        )
        return [f"Both runs learn the same {len(a.steps):,} merge{'s' if len(a.steps) != 1 else ''}.", tie_note]
    agreed = (
        "They differ from the very first merge." if merge == 1
        else f"Both runs make merge{'s 1 to' if merge > 2 else ''} {merge - 1} alike; they part ways at merge {merge}."
    )
    sentences = [agreed]
    if merge > len(a.steps) or merge > len(b.steps):
        stopped, going = ((name_a, a), (name_b, b)) if merge > len(a.steps) else ((name_b, b), (name_a, a))
        step = going[1].steps[merge - 1]
        sentences.append(
            f"{stopped[0]} stops after merge {merge - 1} ({stopped[1].stop_detail}); "
            f"{going[0]} goes on with {_made(going[1], step)}."
        )
        return sentences
    step_a, step_b = a.steps[merge - 1], b.steps[merge - 1]
    pair_a, pair_b = (step_a.left, step_a.right), (step_b.left, step_b.right)
    sentences.append(f"{name_a} merges {_made(a, step_a)}; {name_b} merges {_made(b, step_b)}.")
    b_in_a = _in_other(a, b, pair_b, merge - 1)
    a_in_b = _in_other(b, a, pair_a, merge - 1)
    tie = step_a.count == step_b.count and b_in_a in step_a.tied and a_in_b in step_b.tied
    if tie:
        sentences.append(
            f"It is a tie: both pairs occur {step_a.count} times ({step_a.tie_count} pairs share the top count), "
            "so only the tie-break rule decides."
        )
        sentences.append(f"{name_a} picks {merge_label(a, pair_a)} because {why_rule_picks(a, pair_a, b_in_a)}.")
        sentences.append(f"{name_b} picks {merge_label(b, pair_b)} because {why_rule_picks(b, pair_b, a_in_b)}.")
    else:
        sentences.append(
            "Not a tie between the same pairs: the two runs count different things here (another unit, "
            "pre-tokenizer or earlier merge changes which pairs exist and how often), so each simply "
            "takes its own most frequent pair."
        )
    return sentences


def divergence_html(sentences: Sequence[str]) -> str:
    """The explanation as an escaped HTML box (the first sentence in bold)."""
    body = "".join(
        f"<p>{'<b>' if index == 0 else ''}{html.escape(sentence)}{'</b>' if index == 0 else ''}</p>"
        for index, sentence in enumerate(sentences)
    )
    return f'<div class="bpe-diff">{body}</div>'


def lesson_texts(sample: str) -> dict[str, str]:
    """The texts the Compare page's clicker walks, text -> its name: the example's own ``sample``,
    then the first text of each "Why tokenization matters" card.

    >>> list(lesson_texts(" lowest newer wider").items())[:3]
    [(' lowest newer wider', "this example's text"), ('strawberry', 'Spelling'), ('1234567', 'Numbers')]
    """
    return {sample: "this example's text"} | {card.samples[0][1]: card.title for card in PHENOMENA.values()}
