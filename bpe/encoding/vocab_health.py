"""A vocabulary's health: which tokens its own encoder never uses, and which no text can reach.

Research on under-trained "glitch" tokens (Land & Bartolo 2024, "Fishing for Magikarp"; Picky BPE,
Scaffold-BPE) looks at the same four groups this module counts, for any tokenizer:

* **never emitted**: tokens missing from the ids of a text, for a run its own training text (the
  corpus words, encoded as the trainer left them). A merged one is an *intermediate* token: later
  merges used it up (``rank``, ``st`` made ``rankst``... until no ``rank`` was left alone); each is
  listed with the merges that use it as a part.
* **unreachable**: tokens whose own text does not encode to them. Why, in one word each: ``merges``
  (the merge loop builds other tokens from these bytes: no text can ever produce it, since inside a
  longer chunk its bytes only merge the way they do alone, or not at all), ``split`` (the
  pre-tokenizer cuts its text; a longer text may still keep it in one piece) or ``normalized``
  (Qwen's NFC changes its text first).
* **part of a character**: tokens whose bytes are not whole UTF-8 characters (GPT-2's ``b"\\xe2\\x80"``).
  No text is spelled like one, so whether one is reachable depends on the characters around it: the
  search below tries each way to complete its cut characters.
* **special** tokens, which only a caller who allows them gets.

A *witness* is a text whose ids hold the token: for ``split``, ``normalized`` and part-of-a-character
tokens the search tries the token's text with one more character on a side (completing a cut
character with every character whose UTF-8 fits, in code point order), and stops at the first one
that reaches it, or after ``max_tries`` texts. GPT-4's ``b" \\xec\\x8b\\xa4\\xed"`` (" 실" and a lead byte)
is reached by " 실퀀".

    >>> from bpe.pretrained.registry import load_pretrained
    >>> health = vocabulary_health(load_pretrained("gpt2"), text="hello world")
    >>> len(health.special), len(health.unreachable), len(health.partial), health.partial[94].witness  # ‹a1›
    (1, 0, 344, '¡')
    >>> 31373 in health.emitted, len(health.never_emitted)   # "hello" and " world": 2 of 50,000 merges
    (True, 49998)

Out of scope: what a model learned for each token (weights are not here); this is what the tokenizer
alone decides.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from itertools import chain, product
from types import MappingProxyType
from typing import NamedTuple

from ..errors import BpeError
from .tokenizer import Tokenizer

MAX_TRIES = 5_000
"""Texts the witness search tries for one token at most (a lone lead byte of a 4-byte character has
over 100,000 completions)."""
NOT_IN_UTF8 = frozenset({0xC0, 0xC1, *range(0xF5, 0x100)})
"""Bytes no UTF-8 text holds: a token with one is reached by no text at all."""
CONTEXT = tuple(" !'.,:;-_/0123456789aAeEsStTzZ\n\t()[]{}\"éß東😀")
"""The characters tried beside a whole token's text when the pre-tokenizer or normalization cuts it."""


class Reach(NamedTuple):
    """Why a token's own text is not it, and what the search found."""

    why: str
    """``merges``, ``split``, ``normalized``, ``partial`` (part of a character) or ``not UTF-8``."""
    instead: tuple[int, ...]
    """What its own text encodes to (empty when it has no text of its own)."""
    witness: str | None
    """A text whose ids hold it, or ``None``."""
    tried: int
    """Texts the search tried."""
    searched_all: bool
    """Every candidate was tried (so ``None`` means none of them reaches it)."""

    @property
    def proven_unreachable(self) -> bool:
        """No text at all can produce it (not only none of those tried)."""
        return self.why in ("merges", "not UTF-8")


@dataclass(frozen=True)
class VocabularyHealth:
    """The four groups of :mod:`~bpe.encoding.vocab_health` for one tokenizer and one text."""

    emitted: frozenset[int]
    """Every id in the text's encoding."""
    never_emitted: Mapping[int, tuple[int, ...]]
    """Tokens a merge or a whole chunk makes that the text never got -> the ids made by merges using them."""
    unused_base: tuple[int, ...]
    """Base bytes or characters the text never has (so never emits)."""
    unreachable: Mapping[int, Reach]
    """Tokens of whole characters whose own text encodes to other ids."""
    partial: Mapping[int, Reach]
    """Tokens holding part of a UTF-8 character."""
    special: tuple[int, ...]
    ordinary: int
    """Tokens that are not special."""

    def __reduce__(self):  # a report crosses from a job's worker (bpe.jobs), and a MappingProxyType does not pickle
        return (_health, (self.emitted, dict(self.never_emitted), self.unused_base, dict(self.unreachable),
                          dict(self.partial), self.special, self.ordinary))

    @property
    def no_witness(self) -> tuple[int, ...]:
        """Unreachable and part-of-a-character tokens no text was found to reach."""
        return tuple(token_id for group in (self.unreachable, self.partial) for token_id, reach in group.items() if reach.witness is None)


def _health(emitted, never_emitted, unused_base, unreachable, partial, special, ordinary) -> VocabularyHealth:
    return VocabularyHealth(emitted, MappingProxyType(never_emitted), unused_base, MappingProxyType(unreachable),
                            MappingProxyType(partial), special, ordinary)


PROGRESS_EVERY = 2_000
"""Tokens between two reports to ``progress``."""


def vocabulary_health(
    tokenizer: Tokenizer, *, text: str | None = None, words: Iterable[str] | None = None, max_tries: int = MAX_TRIES,
    progress: Callable[[float, str], None] | None = None,
) -> VocabularyHealth:
    """The health of ``tokenizer``'s vocabulary against ``text`` (encoded as a user's text is, special
    tokens as plain text) or ``words`` (a corpus's words, each encoded as training left it);
    ``progress(fraction, doing)`` is told how far it is (a job's worker passes it on to the page)."""
    if (text is None) == (words is None):
        raise BpeError("give the text to encode or the corpus words, one of them")
    if progress is not None:
        progress(0.0, "encoding the sample text")
    emitted = set(tokenizer.encode_ordinary(text)) if text is not None else {
        token_id for word in words for token_id in tokenizer.encode_chunk(word)  # type: ignore[union-attr]
    }
    used_by: dict[int, list[int]] = defaultdict(list)
    for left, right, new_id in tokenizer.merges:
        used_by[left].append(new_id)
        if right != left:
            used_by[right].append(new_id)
    tokens, base = tokenizer.tokens, tokenizer.base
    made = [*(new_id for _, _, new_id in tokenizer.merges), *tokenizer.whole_only]
    unreachable, partial = {}, {}
    for done, (token_id, token) in enumerate(tokens.items()):
        if progress is not None and done % PROGRESS_EVERY == 0:
            progress(0.1 + 0.9 * done / len(tokens), f"trying token {done:,} of {len(tokens):,}")
        if tokenizer.is_special(token_id) or not token.data or token_id in base:
            continue
        try:
            own = token.data.decode("utf-8")
        except UnicodeDecodeError:
            partial[token_id] = _partial_reach(tokenizer, token_id, token.data, max_tries)
            continue
        reach = _whole_reach(tokenizer, token_id, own, token.ends_word, max_tries)
        if reach is not None:
            unreachable[token_id] = reach
    for token_id, token in base.items():  # a lone byte of a character, or one no UTF-8 text holds
        if tokenizer.unit == "byte" and token.data[0] >= 0x80:
            partial[token_id] = _partial_reach(tokenizer, token_id, token.data, max_tries)
    return VocabularyHealth(
        emitted=frozenset(emitted),
        never_emitted=MappingProxyType({token_id: tuple(used_by[token_id]) for token_id in made if token_id not in emitted}),
        unused_base=tuple(token_id for token_id, token in base.items() if token_id not in emitted and token.data),
        unreachable=MappingProxyType(unreachable), partial=MappingProxyType(dict(sorted(partial.items()))),
        special=tuple(sorted(tokenizer.special_tokens.values())),
        ordinary=len(tokens) - len(tokenizer.special_tokens),
    )


def _encodes(tokenizer: Tokenizer, text: str, *, is_word: bool | None = None) -> tuple[int, ...]:
    """``text``'s ids as a user's text (``is_word`` None), or as one chunk of a marked tokenizer."""
    if is_word is None:
        return tuple(tokenizer.encode_ordinary(text))
    return tokenizer.encode_chunk(text, is_word)


def _whole_reach(tokenizer: Tokenizer, token_id: int, own: str, ends_word: bool, max_tries: int) -> Reach | None:
    """``None`` if the token's own text encodes to it, else why not and what the search found."""
    # With an end-of-word marker a token is a chunk's, marked if it ends a word; else its text is a user's.
    is_word = ends_word if tokenizer.end_of_word is not None else None
    instead = _encodes(tokenizer, own, is_word=is_word)
    if instead == (token_id,):
        return None
    if is_word is not None or tokenizer.pretokenizer.normalize(own) == own and len(tokenizer.pretokenizer.split(own)) <= 1:
        return Reach("merges", instead, None, 0, True)  # its bytes, alone in a chunk, merge into other tokens
    why = "normalized" if tokenizer.pretokenizer.normalize(own) != own else "split"
    candidates = [own + char for char in CONTEXT] + [char + own for char in CONTEXT]
    return Reach(why, instead, *_search(tokenizer, token_id, candidates, max_tries))


def _partial_reach(tokenizer: Tokenizer, token_id: int, data: bytes, max_tries: int) -> Reach:
    if any(byte in NOT_IN_UTF8 for byte in data):
        return Reach("not UTF-8", (), None, 0, True)
    lead = 0  # continuation bytes before the first character that starts here
    while lead < min(len(data), 3) and 0x80 <= data[lead] < 0xC0:
        lead += 1
    start = len(data)  # where an unfinished character starts, if one does
    for index in range(len(data) - 1, max(lead - 1, len(data) - 4), -1):
        if data[index] >= 0xC0:
            start = index if len(data) - index < _char_length(data[index]) else len(data)
            break
    try:
        middle = data[lead:start].decode("utf-8")
    except UnicodeDecodeError:  # bytes no text holds side by side
        return Reach("not UTF-8", (), None, 0, True)
    if tokenizer.unit == "char":  # a char-level vocabulary's byte-fallback token: a character it lacks
        return Reach("partial", (), None, 0, False)
    befores = _ending_with(data[:lead]) if lead else iter([""])
    afters = _starting_with(data[start:]) if start < len(data) else iter([""])
    first_before, first_after = next(befores, None), next(afters, None)
    if first_before is None or first_after is None:  # no character has these bytes (past U+10FFFF, a surrogate's)
        return Reach("not UTF-8", (), None, 0, True)
    befores = chain([first_before], befores)
    # iterated once for each character before (only one, "", unless the token starts inside a character)
    afters = [first_after, *afters] if lead else chain([first_after], afters)
    candidates = (before + middle + after for before in befores for after in afters)
    return Reach("partial", (), *_search(tokenizer, token_id, candidates, max_tries))


def _search(tokenizer: Tokenizer, token_id: int, candidates: Iterable[str], max_tries: int) -> tuple[str | None, int, bool]:
    """``(witness, tried, searched all)``: the first candidate whose ids hold ``token_id``."""
    tried = 0
    for text in candidates:
        if tried == max_tries:
            return None, tried, False
        tried += 1
        if token_id in tokenizer.encode_ordinary(text):
            return text, tried, True
    return None, tried, True


def _char_length(lead: int) -> int:
    return 2 if lead < 0xE0 else 3 if lead < 0xF0 else 4


_CONTINUATIONS = tuple(bytes([byte]) for byte in range(0x80, 0xC0))


def _starting_with(head: bytes) -> Iterator[str]:
    """Every character whose UTF-8 starts with the unfinished ``head``, in code point order
    (unassigned ones included: they are text too; surrogates are not)."""
    for ending in product(_CONTINUATIONS, repeat=_char_length(head[0]) - len(head)):
        try:
            yield (head + b"".join(ending)).decode("utf-8")
        except UnicodeDecodeError:  # an overlong form, a surrogate, past U+10FFFF
            continue


def _ending_with(tail: bytes) -> Iterator[str]:
    """Every character whose UTF-8 ends with the continuation bytes ``tail`` (and is longer), shortest first."""
    for length in range(len(tail) + 1, 5):
        for lead in {2: range(0xC2, 0xE0), 3: range(0xE0, 0xF0), 4: range(0xF0, 0xF5)}[length]:
            for middle in product(_CONTINUATIONS, repeat=length - 1 - len(tail)):
                try:
                    yield (bytes([lead]) + b"".join(middle) + tail).decode("utf-8")
                except UnicodeDecodeError:
                    continue
