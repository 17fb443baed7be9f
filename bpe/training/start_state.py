"""Where a training run starts: an existing tokenizer's vocabulary, kept whole, its merges first.

Why: the request heard most about BPE is to extend a trained tokenizer with new text (a language,
code) and keep its merges. A run that continues a tokenizer is an ordinary run whose state before
merge 1 is not the corpus's bytes but the corpus as that tokenizer encodes it, and whose new ids
come after the old vocabulary. So the trainer takes this record as a start state
(``train(corpus, settings, start=...)``) instead of being forked: it reads the old tokens from
here and each word as the old tokenizer encodes it, and everything after that is unchanged. The
old merges keep their ranks and every old id its token; the new merges are steps of a trace like
any other.

Plain data, the keyword arguments of :class:`~bpe.encoding.tokenizer.Tokenizer` (which this module never
imports: the tokenizer and the trace both read it), plus ``added``: the base symbols the new text
needs and the old vocabulary lacks (characters, for a char-level run; a byte-level vocabulary has
every byte).

    >>> from bpe import Corpus, TrainSettings, Tokenizer, train
    >>> corpus = Corpus.from_text("aaabdaaabac", pretokenizer="none")
    >>> settings = TrainSettings(pretokenizer="none", tie_break="lexicographic-min")
    >>> full = train(corpus, settings)
    >>> start = StartState.of(Tokenizer.from_trace(full, step=1), name="step 1")
    >>> start.first_id, start.token_count
    (257, 257)
    >>> later = train(corpus, settings, start=start)     # merges 2 and 3 of the full run, same ids
    >>> [(step.step, step.new_id, later.token_text(step.new_id)) for step in later.steps]
    [(1, 257, 'ab'), (2, 258, 'aaab')]

Deliberately left out: SentencePiece's tie rule, whose candidates (pairs that no longer occur among
them) are books a merge list does not keep (see :meth:`StartState.check`), and adding special tokens
(the old ones keep their ids).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import TYPE_CHECKING, Any

from ..encoding.token_table import TokenTable, build_table
from ..encoding.tokenizer_json import read_tokenizer_json, tokenizer_json
from ..errors import FormatError, SettingsError
from ..tokens.byte_level import BYTE_TO_UNICODE
from ..tokens.vocab import Token, base_tokens
from .settings import TrainSettings
from .tiebreak import tie_break_rule

if TYPE_CHECKING:
    from ..text.corpus import Corpus

UNUSED = Token(b"")
"""What an id the old vocabulary leaves out holds in a continued run's base (GPT-4 has no id 100256:
its special tokens start at 100257); no text ever reaches it."""


@dataclass(frozen=True)
class StartState:
    """An existing tokenizer's vocabulary, as the first state of a run that continues it."""

    name: str
    """What the learner calls it (``GPT-2``, ``your run at step 5``)."""
    unit: str
    pretokenizer: str
    end_of_word: str | None
    end_of_word_mode: str
    base: Mapping[int, Token]
    merges: tuple[tuple[int, int, int], ...]
    special_tokens: Mapping[str, int]
    specials_in_text: str = "refuse"
    unknown_token: str | None = None
    fallback_bytes: Mapping[int, int] = field(default_factory=dict)
    whole_only: Mapping[int, bytes] = field(default_factory=dict)
    added: tuple[Token, ...] = ()
    """Base symbols the new text needs that the old vocabulary lacks, ids from :attr:`first_id` on."""

    @classmethod
    def of(cls, tokenizer: Any, *, name: str = "", added: tuple[Token, ...] = ()) -> "StartState":
        """The start state that continues ``tokenizer`` (a :class:`~bpe.encoding.tokenizer.Tokenizer`), with
        ``added`` base symbols (those a run's text needed: :meth:`for_corpus`)."""
        state = cls(
            name=name or tokenizer.name, unit=tokenizer.unit, pretokenizer=tokenizer.pretokenizer.name,
            end_of_word=tokenizer.end_of_word, end_of_word_mode=tokenizer.end_of_word_mode, base=tokenizer.base,
            merges=tuple(tokenizer.merges), special_tokens=dict(tokenizer.special_tokens),
            specials_in_text=tokenizer.specials_in_text, unknown_token=tokenizer.unknown_token,
            fallback_bytes=tokenizer.fallback_bytes, whole_only=tokenizer.whole_only, added=added,
        )
        # The old vocabulary's table is the tokenizer's own, built from these very fields and never changed
        # once built: reusing it saves building it again (0.4 s for Llama 3, 1 s for Qwen3.6).
        state.__dict__["_table"] = tokenizer._table
        return state

    # -- the old vocabulary -----------------------------------------------------------------------
    @cached_property
    def _table(self) -> TokenTable:
        """The old vocabulary checked and spelled, as the tokenizer itself builds it."""
        return build_table(
            unit=self.unit, base=dict(self.base), merges=self.merges, special_tokens=dict(self.special_tokens),
            end_of_word=self.end_of_word, fallback_bytes=dict(self.fallback_bytes), whole_only=dict(self.whole_only),
        )

    @property
    def first_id(self) -> int:
        """The first id after the old vocabulary: tiktoken's ``n_vocab``, the rows of a model's embedding."""
        return max(self._table.tokens, default=-1) + 1

    @property
    def token_count(self) -> int:
        """Tokens of the old vocabulary and the added symbols (ids the old one leaves out not counted)."""
        return len(self._table.tokens) + len(self.added)

    def tokens_by_id(self) -> tuple[Token, ...]:
        """Every token below the first new merge's id, by id: the old vocabulary (:data:`UNUSED`
        where it has no token), then the added symbols. This is a continued run's ``base``."""
        tokens = self._table.tokens
        return (*(tokens.get(token_id, UNUSED) for token_id in range(self.first_id)), *self.added)

    def vocab_ids(self) -> list[int]:
        """The ids present before the first new merge, in order."""
        return [*sorted(self._table.tokens), *range(self.first_id, self.first_id + len(self.added))]

    def hf_rank(self) -> list[int]:
        """Each id's rank for the ``hf`` tie rule (see :func:`~bpe.training.tiebreak.hf_ranks`): the old base
        symbols by character, in the places of their ids, and every other token its own id (merged
        tokens rank in creation order, as in Hugging Face; added symbols after all old tokens)."""
        def char_of(token_id: int) -> str:
            token = self.base[token_id]
            if token.ends_word:
                return "\U0010ffff"
            return BYTE_TO_UNICODE[token.data[0]] if self.unit == "byte" else token.data.decode("utf-8")

        ranks = list(range(self.first_id + len(self.added)))
        for token_id, rank in zip(sorted(self.base, key=char_of), sorted(self.base)):
            ranks[token_id] = rank
        return ranks

    # -- the run that continues it ----------------------------------------------------------------
    def check(self, settings: TrainSettings) -> None:
        """A :class:`SettingsError` saying what to change if ``settings`` cannot continue this vocabulary."""
        mine = {"unit": self.unit, "pretokenizer": self.pretokenizer, "end_of_word": self.end_of_word}
        if self.end_of_word is not None:
            mine["end_of_word_mode"] = self.end_of_word_mode
        for setting, value in mine.items():
            if getattr(settings, setting) != value:
                raise SettingsError(
                    f"{self.name or 'the tokenizer'} was trained with {setting} {value!r}, and a run that continues it "
                    f"keeps it: set {setting} to {value!r} (got {getattr(settings, setting)!r})"
                )
        if settings.special_tokens:
            raise SettingsError(
                "a run that continues a tokenizer keeps its special tokens and their ids, and adds none: "
                "leave special tokens out"
            )
        if tie_break_rule(settings.tie_break).candidates is not None:
            raise SettingsError(
                f"the tie rule {settings.tie_break!r} chooses among SentencePiece's candidates, which keep pairs that "
                "no longer occur: books a list of merges does not keep, so it cannot continue one; choose another tie rule"
            )

    def for_corpus(self, corpus: "Corpus", settings: TrainSettings) -> "StartState":
        """This start checked against ``settings``, with the base symbols ``corpus`` needs added."""
        self.check(settings)
        if self.unit == "byte":
            return self
        finals = "".join({text[-1] for text, _ in corpus.words if text})
        needed = base_tokens(
            unit="char", alphabet=corpus.alphabet, end_of_word=self.end_of_word, mode=self.end_of_word_mode, finals=finals,
        )
        have = set(self.base.values()) | set(self.added)
        return replace(self, added=(*self.added, *(token for token in needed if token not in have)))

    def tokenizer_fields(
        self, *, merges: Iterable[tuple[int, int, int]] = (), name: str = "", pretokenizer: str | None = None,
    ) -> dict:
        """Keyword arguments of :class:`~bpe.encoding.tokenizer.Tokenizer`: the old vocabulary, the added
        symbols, then ``merges`` after the old ones (``pretokenizer``: another split than the old one's)."""
        base = {**self.base, **{self.first_id + index: token for index, token in enumerate(self.added)}}
        return {
            "unit": self.unit, "pretokenizer": pretokenizer or self.pretokenizer, "end_of_word": self.end_of_word, "base": base,
            "merges": [*self.merges, *merges], "special_tokens": dict(self.special_tokens), "name": name,
            "specials_in_text": self.specials_in_text, "unknown_token": self.unknown_token,
            "fallback_bytes": dict(self.fallback_bytes), "whole_only": dict(self.whole_only),
        }

    # -- JSON (inside a trace's) ------------------------------------------------------------------
    def to_dict(self) -> dict:
        fields = self.tokenizer_fields(name=self.name)
        fields["base"] = dict(self.base)  # the added symbols are listed on their own
        return {
            "name": self.name, "end_of_word_mode": self.end_of_word_mode,
            "tokenizer": json.loads(tokenizer_json(**fields)),
            "added": [[token.data.hex(), token.ends_word] for token in self.added],
        }

    @classmethod
    def from_dict(cls, data: dict) -> "StartState":
        try:
            fields = read_tokenizer_json(json.dumps(data["tokenizer"]), build=dict)
            fields["merges"] = tuple(fields["merges"])
            added = tuple(Token(bytes.fromhex(hex_data), bool(ends)) for hex_data, ends in data["added"])
            start = cls(**fields, end_of_word_mode=data["end_of_word_mode"], added=added)
        except (KeyError, TypeError, ValueError) as error:
            raise FormatError(f"the trace's start state is malformed: {error!r}") from error
        return start
