"""A compact BPE trainer with pluggable counting and replacement, that follows a learner's merges.

Scope: re-running training under one classic mistake (or none) and stopping at the first merge
where it parts from the learner's list, with the counts at that step. Out of scope: the reference
itself (:mod:`bpe.training.trainer`, fast and incremental, which the settings variants use) and deciding
which mistake is most likely (:mod:`bpe.checking.diagnose`).

Why a second trainer: a mistake changes *how* pairs are counted or merges applied, which the
reference trainer rightly cannot be told to get wrong; and the reference cannot stop early. This
one stops at the first merge that differs, so a wrong cause costs a few merges. Under a mistake it
recounts each word a merge touches with the rule under test, so any rule plugs in; without one it
updates counts locally with the reference's own :func:`~bpe.training.trainer.merge_pair`. Either way it
makes the reference's choices exactly when the rules are the reference's
(``tests/test_checking.py`` checks that on every preset and tie rule), and the learner-style
trainers of ``tests/learners.py`` check each mistake's rules.

The rules it takes are :class:`~bpe.checking.rules.Rules` (one registry per choice).

    >>> from bpe import Corpus, TrainSettings
    >>> corpus = Corpus.from_text("aaa aaa ab ab ab", pretokenizer="whitespace")
    >>> settings = TrainSettings(pretokenizer="whitespace")
    >>> replay(corpus, settings, [(b"a", b"a"), (b"a", b"b")]).matching
    2
    >>> run = replay(corpus, settings, [(b"a", b"a")], rules=Rules(counting="no-overlap"))
    >>> run.matching, run.divergence.ours.spelled, run.divergence.ours.count, run.divergence.theirs.count
    (0, (b'a', b'b'), 3, 2)
"""

from __future__ import annotations

import bisect
import itertools
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from ..text.corpus import Corpus
from ..tokens.vocab import Pair, Token, base_tokens, token_sort_bytes
from ..training.pair_merge import merge_pair
from ..training.settings import TrainSettings
from ..training.tiebreak import TieContext, hf_ranks
from .handwritten import Spelled
from .records import Divergence, PairStat, Replay, shown_pair  # noqa: F401  (shown_pair: re-exported)
from .rules import COUNTING, REPLACING, SPELLED_REPLACING, WEIGHTING, Ids, Rules
from .ties import TIE_EFFECTS


_LONG_WORD = 256
_SHOWN_WORD = 36
"""A word longer than this is shown as the place where the pair occurs in it, not whole."""


def marker_mode(settings: TrainSettings, rules: Rules) -> str:
    """Where this run puts the end-of-word marker: the rules' mode, else the settings'."""
    return rules.marker or settings.end_of_word_mode


class _State:
    """Words as ids, pair counts under the rules, and which words hold which pair."""

    def __init__(self, corpus: Corpus, settings: TrainSettings, rules: Rules, *, births: bool = False) -> None:
        marker = settings.end_of_word
        attached = bool(marker) and marker_mode(settings, rules) == "attached"
        base = list(base_tokens(unit=settings.unit, alphabet=corpus.alphabet, end_of_word=None if attached else marker))
        unit_id = {token.data: i for i, token in enumerate(base) if not token.ends_word}
        self.words: list[Ids] = []
        char_id = {data.decode("utf-8"): i for data, i in unit_id.items() if settings.unit == "char"}
        for text, _ in corpus.words:
            encoded = text.encode("utf-8")
            ids = list(encoded) if settings.unit == "byte" else [char_id[char] for char in text]
            if attached:
                last = encoded[-1:] if settings.unit == "byte" else text[-1].encode()
                ids[-1] = self._attached_id(base, unit_id, last)
            elif marker:
                ids.append(len(base) - 1)
            self.words.append(ids)
        self.texts = [text for text, _ in corpus.words]
        self.weights = [WEIGHTING[rules.weighting](freq) for _, freq in corpus.words]
        self.count_word = COUNTING[rules.counting]
        self.replace = REPLACING.get(rules.replacing)
        self.join = SPELLED_REPLACING.get(rules.replacing)
        """A string-based trainer's replacement: tokens are their spellings (one token per string)."""
        self.stale = rules.updating == "never-decremented"
        self.local = rules.is_reference
        self.first_word_only = rules.reach == "first"
        self.made: dict[Pair, int] = {}
        self.tokens = base
        self.spelling = [token_sort_bytes(token, marker) for token in base]
        self.id_of = {spelled: i for i, spelled in enumerate(self.spelling)}
        self.hf_rank = hf_ranks(base, unit=settings.unit)
        counts: dict[Pair, int] = defaultdict(int)
        self.holders: dict[Pair, set[int]] = defaultdict(set)
        holders, weights, every_pair = self.holders, self.weights, rules.counting == "overlap"
        for index, ids in enumerate(self.words):
            if every_pair and len(ids) <= _LONG_WORD:  # the usual word: one loop counts and lists its pairs
                weight = weights[index]
                for pair in zip(ids, ids[1:]):
                    counts[pair] += weight
                    holders[pair].add(index)
                continue
            self._tally(ids, weights[index], counts)
            for pair in set(zip(ids, ids[1:])):
                holders[pair].add(index)
        self.counts: dict[Pair, int] = {}
        self.by_count: dict[int, set[Pair]] = defaultdict(set)
        """``count -> pairs``: the top count's pairs without a scan of every pair (as in the reference)."""
        self._apply(counts)
        self.context = TieContext(self.spelling, self.hf_rank, settings.unit, self._first_occurrence)
        self.step = 0
        self.births: dict[Pair, tuple[int, int, int]] | None = None
        """When each pair entered a running count: ``(step, word, position)`` (kept only when a rule reads it)."""
        if births:
            self.births = {}
            for index, ids in enumerate(self.words):
                for position, pair in enumerate(self.count_word(ids)):
                    self.births.setdefault(pair, (0, index, position))
        # a string replacement reaches any word whose text holds the pair's two parts: one text of all
        # the words, searched from C, finds them (``_spelling_holders``)
        spelled = [b"".join(map(self.spelling.__getitem__, ids)) for ids in self.words] if self.join else []
        self.all_words = b"\n".join(spelled)
        self.word_starts = list(itertools.accumulate((len(word) + 1 for word in spelled[:-1]), initial=0))

    def _tally(self, ids: Ids, weight: int, into: dict[Pair, int]) -> None:
        """Add ``weight`` to ``into`` for each counted occurrence in ``ids``."""
        if len(ids) > _LONG_WORD:  # a whole text as one word: let Counter tally it in C
            for pair, n in Counter(self.count_word(ids)).items():
                into[pair] += n * weight
        else:
            for pair in self.count_word(ids):
                into[pair] += weight

    def _apply(self, deltas: dict[Pair, int]) -> None:
        counts, by_count = self.counts, self.by_count
        for pair, delta in deltas.items():
            if not delta:
                continue
            old = counts.get(pair, 0)
            if old:
                bucket = by_count[old]
                bucket.discard(pair)
                if not bucket:
                    del by_count[old]
            if old + delta > 0:
                counts[pair] = old + delta
                by_count[old + delta].add(pair)
            else:
                counts.pop(pair, None)

    @staticmethod
    def _attached_id(base: list[Token], unit_id: dict, unit: bytes) -> int:
        key = (unit, True)
        if key not in unit_id:
            unit_id[key] = len(base)
            base.append(Token(unit, ends_word=True))
        return unit_id[key]

    def _first_occurrence(self, pair: Pair) -> tuple[int, int]:
        holders = self.holders[pair]
        while holders:
            index = min(holders)
            ids = self.words[index]
            # subtle: the occurrences the rules count (a loop one short never meets a word's last pair)
            for position, found in enumerate(self.count_word(ids)):
                if found == pair:
                    return index, position
            holders.discard(index)
        if self.stale:  # a count never decremented outlives the pair: after every pair that occurs
            return len(self.words), 0
        raise RuntimeError(f"internal error: pair {pair} has a count but occurs nowhere")

    def ties(self) -> list[Pair]:
        return list(self.by_count[max(self.by_count)])

    def birth(self, pair: Pair) -> tuple[int, int, int]:
        """When ``pair`` entered a running count: at the start in text order, then each merge's new pairs at its end."""
        return self.births[pair]  # type: ignore[index]

    def _record_births(self, new: int, deltas: dict[Pair, int]) -> None:
        """The new token's pairs join the running count after every pair it held, in text order."""
        self.step += 1
        if self.births is None:
            return
        born = [pair for pair, delta in deltas.items() if delta > 0 and pair in self.counts and pair not in self.births]
        for pair in sorted(born, key=self._first_occurrence):
            self.births[pair] = (self.step, *self._first_occurrence(pair))

    def choose(self, rule: str, tied: list[Pair], n: int = 1) -> list[Pair]:
        """The ``n`` pairs ``rule`` (a :data:`~bpe.checking.ties.TIE_EFFECTS` name) prefers among ``tied``, best first."""
        chosen = TIE_EFFECTS[rule]
        key, reverse = chosen.key(self), chosen.greatest_wins
        if n == 1:
            return [(max if reverse else min)(tied, key=key)]
        return sorted(tied, key=key, reverse=reverse)[:n]

    def _token(self, left: int, right: int) -> int:
        """The id of the token ``left`` and ``right`` make, made now if it is new (``left`` + ``right``)."""
        new = len(self.tokens)
        self.tokens.append(self.tokens[left].merged_with(self.tokens[right]))
        self.spelling.append(self.spelling[left] + self.spelling[right])
        self.id_of.setdefault(self.spelling[-1], new)
        self.hf_rank.append(new)
        return new

    def _spelling_holders(self, target: bytes) -> set[int]:
        """The words whose text holds ``target`` (a word's symbols hold no line break, so none spans two)."""
        found, at = set(), self.all_words.find(target)
        while at >= 0:
            found.add(bisect.bisect_right(self.word_starts, at) - 1)
            at = self.all_words.find(target, at + 1)
        return found

    def _joined_across(self, ids: Ids, left: int, right: int) -> Ids:
        """``ids`` after a string-based trainer's ``str.replace`` of the pair (see :mod:`bpe.checking.rules`)."""
        joins = self.join([self.spelling[i] for i in ids], self.spelling[left], self.spelling[right])
        out = ids[:1]
        for joined, token in zip(joins, ids[1:]):
            if joined:  # one token per string, as the learner's vocabulary of strings has it
                spelled = self.spelling[out[-1]] + self.spelling[token]
                out[-1] = self.id_of[spelled] if spelled in self.id_of else self._token(out[-1], token)
            else:
                out.append(token)
        return out

    def merge(self, pair: Pair) -> None:
        left, right = pair
        new = self.made.get(pair)
        if new is None and self.join is not None:
            new = self.id_of.get(self.spelling[left] + self.spelling[right])  # made already, across symbols
        if new is None:
            new = self._token(left, right)
        self.made[pair] = new
        # else: the same pair again (a replacement that left some behind): its token, as a learner's
        # trainer keyed by bytes would have it
        holders = self.holders
        if self.local:  # no mistake in counting or replacing: the reference's local update
            deltas = merge_pair(self.words, self.weights, holders.pop(pair, ()), pair, new, holders).deltas
            self._apply(deltas)
            self._record_births(new, deltas)
            return
        deltas: dict[Pair, int] = defaultdict(int)
        indices = holders.pop(pair, ())
        if self.join is not None:  # a string replacement reaches every word that spells the pair's two parts
            indices = self._spelling_holders(self.spelling[left] + self.spelling[right])
        replaced = False
        for index in sorted(indices) if self.first_word_only else indices:  # any rule: recount each word
            old = self.words[index]
            if replaced and self.first_word_only:
                holders[pair].add(index)  # not reached this time: it still holds the pair
                continue
            merged = self._joined_across(old, left, right) if self.join else self.replace(old, left, right, new)
            if merged != old:
                replaced = True
                self._tally(old, -self.weights[index], deltas)
                self._tally(merged, self.weights[index], deltas)
            made = set(merged).difference(old) if self.join else (new,)  # across symbols: other new tokens too
            for p in zip(merged, merged[1:]):  # a pair without a new token was listed already,
                if p[0] in made or p[1] in made or p == pair:  # but the merged pair may be left (first place only)
                    holders[p].add(index)
            self.words[index] = merged
        if self.stale:  # the new token's pairs added, the merged pair deleted, nothing else decremented
            deltas = {p: delta for p, delta in deltas.items() if delta > 0}
            deltas[pair] = -self.counts.get(pair, 0)
        self._apply(deltas)
        self._record_births(new, deltas)

    def _place(self, index: int, position: int) -> str:
        """Word ``index`` where a pair occurs, or for a long word (a whole text when nothing splits it)
        the words around its ``position``-th symbol: ``…the newest ones…``."""
        text = self.texts[index]
        if len(text) <= _SHOWN_WORD:
            return text
        ids = self.words[index]
        start = sum(len(self.spelling[i]) for i in ids[:position])
        data = text.encode("utf-8")
        before, after = data[max(0, start - _SHOWN_WORD // 2):start], data[start:start + _SHOWN_WORD // 2]
        shown = (before.decode("utf-8", errors="ignore") + after.decode("utf-8", errors="ignore"))
        return ("…" if start > len(before) else "") + shown + ("…" if start + len(after) < len(data) else "")

    def pair_of(self, spelled: Spelled) -> Pair | None:
        """The ids of a pair of spellings; None when a part is no token of this run."""
        ids = tuple(self.id_of.get(part) for part in spelled)
        return None if None in ids else ids  # type: ignore[return-value]

    def stat(self, pair: Pair | None, spelled: Spelled) -> PairStat:
        if pair is None:
            return PairStat(spelled, 0, ())
        found = []
        for index in sorted(self.holders.get(pair, ())):
            ids = self.words[index]
            at = [i for i, p in enumerate(zip(ids, ids[1:])) if p == pair]
            if at:
                found.append((self._place(index, at[0]), self.weights[index], len(at)))
        found.sort(key=lambda word: -word[1] * word[2])
        return PairStat(spelled, self.counts.get(pair, 0), tuple(found[:3]))


def tie_rule_of(settings: TrainSettings, rules: Rules) -> str:
    """The tie rule a run follows: the rules' own (a learner's, :data:`~bpe.checking.ties.TIE_EFFECTS`), else the settings'."""
    return rules.tie or settings.tie_break


def replay(
    corpus: Corpus,
    settings: TrainSettings,
    learner: Sequence[Spelled],
    *,
    rules: Rules = Rules(),
    also: Sequence[str] = (),
    deadline: float | None = None,
    probe: tuple[int, Sequence[Spelled]] | None = None,
) -> Replay:
    """Train under ``settings`` and ``rules`` while the merges equal ``learner``'s; stop at the first
    that differs (or at ``deadline``, a ``time.perf_counter()`` value).

    ``also``: other tie rules (:data:`~bpe.checking.ties.TIE_EFFECTS` names) followed in the same
    pass (their counts in ``Replay.by_rule``). Subtle: the pass applies the *learner's* merge, which
    every rule still alive chose, so each rule's count is what a run of its own would give.

    ``probe``: ``(step, pairs)``, the counts of ``pairs`` in this run just before its merge ``step``
    (in ``Replay.probed``): the learner's own counts, when this run reproduces them.
    """
    main = tie_rule_of(settings, rules)
    alive = list(dict.fromkeys([main, *also]))
    state = _State(corpus, settings, rules, births=any(TIE_EFFECTS[rule].needs_births for rule in alive))
    by_rule: dict[str, int] = {}
    divergence, probed = None, ()
    for step, theirs in enumerate(learner, start=1):
        if probe is not None and step == probe[0]:
            probed = tuple(state.stat(state.pair_of(spelled), spelled) for spelled in probe[1])
        if deadline is not None and time.perf_counter() > deadline:
            by_rule.update(dict.fromkeys(alive, step - 1))
            return Replay(by_rule[main], divergence, True, by_rule, probed)
        their_pair = state.pair_of(theirs)
        tied = state.ties() if state.counts else []
        follow = None
        for rule in list(alive):
            ours = state.choose(rule, tied)[0] if tied else None
            if ours is not None and (state.spelling[ours[0]], state.spelling[ours[1]]) == theirs:
                follow = ours
                continue
            alive.remove(rule)
            by_rule[rule] = step - 1
            if rule == main:
                ranked = [(state.spelling[a], state.spelling[b]) for a, b in state.choose(rule, tied, 20)] if tied else []
                divergence = Divergence(step, state.stat(ours, ranked[0]) if tied else None,
                                        state.stat(their_pair, theirs), len(tied), tuple(ranked))
        if follow is None:
            break
        state.merge(follow)
    by_rule.update(dict.fromkeys(alive, len(learner)))
    return Replay(by_rule[main], divergence, False, by_rule, probed)


def train_merges(corpus: Corpus, settings: TrainSettings, merges: int, *, rules: Rules = Rules(),
                 deadline: float | None = None) -> list[Spelled]:
    """Up to ``merges`` merges of a run under ``settings`` and ``rules``, spelled (fewer when no pair
    is left or at ``deadline``): what a learner's trainer with these rules would write.

    >>> from bpe import Corpus, TrainSettings
    >>> corpus = Corpus.from_text("ab ab cd cd", pretokenizer="whitespace")
    >>> first = TrainSettings(pretokenizer="whitespace", tie_break="first-seen")
    >>> train_merges(corpus, first, 1), train_merges(corpus, first, 1, rules=Rules(tie="last-seen"))
    ([(b'a', b'b')], [(b'c', b'd')])
    """
    rule = tie_rule_of(settings, rules)
    state = _State(corpus, settings, rules, births=TIE_EFFECTS[rule].needs_births)
    made: list[Spelled] = []
    while len(made) < merges and state.counts and (deadline is None or time.perf_counter() <= deadline):
        pair = state.choose(rule, state.ties())[0]
        made.append((state.spelling[pair[0]], state.spelling[pair[1]]))
        state.merge(pair)
    return made
