"""Probe texts derived from the mistakes: for a tokenizer, texts on which every registered encoder
mistake differs from the right encoder, and every two mistakes differ from each other.

Scope: the candidates (each mistake's own witnesses from :data:`~bpe.checking.encode_rules.ENCODER_MISTAKES`,
a special token between two words, texts built from the tokenizer's own merges, a pool of texts
with spaces, line breaks, digits, code and other scripts), and the choice among them: for each
mistake the first candidate it gets wrong (its *witness*), then, for each two mistakes those
witnesses do not tell apart, the first candidate that does. Out of scope: checking a learner's ids
(:mod:`bpe.checking.encode_check`).

Why derived and not a fixed list: a fixed list misleads. GPT-2's ten probe texts once held no
blank line, so an encoder with no pre-tokenization split passed all ten (``one\\n\\ntwo`` is
``505, 198, 198, 11545`` in GPT-2 and ``505, 628, 11545`` without a split), and a small Train-page
tokenizer may have no merge that ``·embraced`` shows. ``tests/test_probes.py`` checks, for every
tokenizer it builds and every pretrained one, that some probe tells every two registered mistakes
apart and that no registered mistake passes every probe.

    >>> from bpe.pretrained.registry import load_pretrained
    >>> probes = probes_for(load_pretrained("gpt2"))
    >>> probes.witness["no pre-tokenization split (the whole text one chunk)"]
    'one\\n\\ntwo'
    >>> "merges ordered by the id of the token each makes" in probes.silent   # GPT-2 numbers tokens by rank
    True
"""

from __future__ import annotations

import itertools
import weakref
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from ..encoding.tokenizer import Tokenizer
from ..errors import BpeError
from .encode_rules import ENCODER_MISTAKES, EncodeVariant, encoder_variants

POOL = (
    " embraced", "Hello, world!", " lowest newest widest", "aaaa aaab abab", "naïve café, 你好 😀",
    " Все люди и права, ίσοι στην", "  return f(x)\n\tif x:", "don't 12345678", "IIIIIII ========", "one\n\ntwo",
    "x  = 1", "abc123 x_y", "The THE the", "a\n\n\nb", "    indented", "hello world", "é",
    "HelloWorld camelCase HTTPServer", "DON'T it's", "x.\n/y", "½ ² 2024", "a   b", "   x", "2024 1000 123456",
)
"""Texts with what makes an encoder go wrong: merges out of rank order, spaces and line breaks in
runs, digits, punctuation, code, other scripts (each one probe case when chosen)."""
DERIVED = 24
"""Texts built from the tokenizer's own merges (:func:`derived_texts`)."""


@dataclass(frozen=True)
class Probes:
    texts: tuple[str, ...]
    """The probe texts, witnesses first, in the order chosen."""
    witness: Mapping[str, str]
    """Each mistaken encoder's label -> the first probe it gets wrong."""
    silent: tuple[str, ...] = ()
    """Mistaken encoders no candidate text shows (they encode every candidate as the tokenizer does)."""
    unseparated: tuple[tuple[str, str], ...] = ()
    """Pairs of mistaken encoders no candidate text tells apart."""


def special_texts(tokenizer: Tokenizer) -> list[str]:
    """A special token between two words, when the tokenizer has one."""
    return [f"hello{next(iter(tokenizer.special_tokens))} world"] if tokenizer.special_tokens else []


def derived_texts(tokenizer: Tokenizer, limit: int = DERIVED) -> list[str]:
    """Texts built from the tokenizer's own merges, where loops that do not go by rank part from BPE
    (only texts that decode to whole characters):

    * ``a + b + c`` for merges (a, b) and (b, c) where (b, c) was learned first: a loop that merges
      from the left makes ``ab c``, BPE ``a bc``;
    * ``a + b + w + a + b`` for merges (a, b) and (w, a): a loop that merges the first known pair
      there only, then starts again, meets (w, a) before the second (a, b); one that merges it
      everywhere (minbpe's ``merge()``) does not;
    * ``a + b + c`` for merges (a, b) and (b, c) whatever their order, and ``w + a + b`` for (w, a):
      three symbols two merges overlap on, where one sweep and one merge at a time part.
    """
    merges = tokenizer.merges
    by_left: dict[int, list[tuple[int, int]]] = {}
    by_right: dict[int, list[int]] = {}
    for rank, (left, right, _) in enumerate(merges):
        by_left.setdefault(left, []).append((rank, right))
        by_right.setdefault(right, []).append(left)
    found: list[str] = []

    def add(ids: list[int]) -> None:
        try:
            text = tokenizer.decode(ids, errors="strict")
        except BpeError:
            return
        if text not in found:
            found.append(text)

    for rank, (left, right, _) in enumerate(merges):
        if len(found) >= limit:
            break
        for earlier, third in by_left.get(right, ()):
            if earlier < rank:
                add([left, right, third])
                break
        for before in by_right.get(left, ())[:1]:
            add([left, right, before, left, right])
    for left, right, _ in merges:  # then any two merges that overlap, for a small tokenizer's sake
        if len(found) >= limit:
            break
        for _, third in by_left.get(right, ())[:1]:
            add([left, right, third])
        for before in by_right.get(left, ())[:1]:
            add([before, left, right])
    return found[:limit]


_built: "weakref.WeakKeyDictionary[Tokenizer, dict[str, Probes]]" = weakref.WeakKeyDictionary()


def probes_for(tokenizer: Tokenizer, mode: str = "allowed") -> Probes:
    """The probes for ``tokenizer`` with special-token text read as ``mode`` (kept while the tokenizer
    lives: the server's sessions share a pretrained tokenizer, and nothing here changes once built)."""
    by_mode = _built.setdefault(tokenizer, {})
    if mode not in by_mode:
        by_mode[mode] = _derive(tokenizer, mode)
    return by_mode[mode]


def _derive(tokenizer: Tokenizer, mode: str) -> Probes:
    variants = encoder_variants(tokenizer, mode)
    general = list(dict.fromkeys([*special_texts(tokenizer), *derived_texts(tokenizer), *POOL]))
    reference: dict[str, tuple[int, ...]] = {}
    outputs: dict[tuple[str, str], tuple[int, ...] | str] = {}

    def ref(text: str) -> tuple[int, ...]:
        if text not in reference:
            reference[text] = tuple(tokenizer.encode(text, allowed_special="all" if mode == "allowed" else frozenset(),
                                                     disallowed_special="all" if mode == "allowed" else ()))
        return reference[text]

    def out(variant: EncodeVariant, text: str) -> tuple[int, ...] | str:
        key = (variant.label, text)
        if key not in outputs:
            try:
                outputs[key] = tuple(variant.encode(tokenizer, text, mode))
            except BpeError as error:  # it cannot encode this text at all: a difference all the same
                outputs[key] = f"error: {error}"
        return outputs[key]

    chosen: list[str] = []
    witness: dict[str, str] = {}
    silent: list[str] = []
    for variant in variants:
        own = ENCODER_MISTAKES[variant.code].witnesses
        text = next((t for t in dict.fromkeys([*own, *general]) if out(variant, t) != ref(t)), None)
        if text is None:
            silent.append(variant.label)
            continue
        witness[variant.label] = text
        if text not in chosen:
            chosen.append(text)
    shown = [variant for variant in variants if variant.label in witness]
    unseparated = []
    for a, b in itertools.combinations(shown, 2):
        if any(out(a, t) != out(b, t) for t in chosen):
            continue
        text = next((t for t in general if out(a, t) != out(b, t)), None)
        if text is None:
            unseparated.append((a.label, b.label))
        else:
            chosen.append(text)
    return Probes(tuple(chosen), MappingProxyType(witness), tuple(silent), tuple(unseparated))
