"""Every operation a page or the command line offers on a tokenizer, in one registry, :data:`OPERATIONS`.

An entry says how to run the operation on a tokenizer and a text, what it equals in the owner's library
where one defines it, what its result promises whoever the owner, whether its work grows with the
vocabulary (then the app runs it apart, as a job: :mod:`bpe.jobs`), and the one line that says why when
it does not apply. :func:`run_operation` runs one and gives an :class:`Outcome`: the result, or that line,
never a traceback. The tokenizer matrix runs every entry on every tokenizer
(``tests/test_tokenizer_matrix.py`` checks each cell against its promise and its owner,
``benchmarks/tokenizer_matrix.py`` measures each), so a new operation is one entry here; a page that refuses
one says the same line (the formats' ``export_problem``, the dropout rules' ``unavailable``, the engine's
errors, Compare's :data:`NORMALIZED`).

Entries made from other registries follow them: one per way to cut (``SEGMENTATIONS``), per dropout rule
(``DROPOUT_RULES``), per file format (``FORMATS``) and per encoder mistake (``ENCODER_MISTAKES``).

    >>> from bpe.pretrained.registry import load_pretrained
    >>> gpt2, mistral = load_pretrained("gpt2"), load_pretrained("mistral-v3")
    >>> run_operation(OPERATIONS["encode"], gpt2, "hello world").result
    [31373, 995]
    >>> run_operation(OPERATIONS["export:hf"], mistral, "hello").refused[:62]
    'Hugging Face tokenizer.json cannot hold a char-level tokenizer'
    >>> run_operation(OPERATIONS["compare:marks"], load_pretrained("qwen2.5"), "cafe\u0301").refused   # é as e + ◌́
    "its tokens spell a normalized text (NFC, SentencePiece's spaces), not the text as written"

Out of scope: drawing results (the pages), and the owners' libraries (only the tests import them).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

from ..checking.encode_cases import EncodeCase, probe_texts
from ..checking.encode_check import check_encoder
from ..checking.encode_rules import ENCODER_MISTAKES, MODES, EncoderMistake
from ..encoding.dropout import DEFAULT_P, DEFAULT_SAMPLES, DROPOUT_RULES, DropoutRule, sample_segmentations
from ..encoding.merge_loop import one_unknown_per_run
from ..encoding.offsets import decode_with_offsets, stream_steps
from ..encoding.segmentation import SEGMENTATIONS, Segmentation, segment
from ..encoding.streaming import encode_iterable
from ..encoding.tokenizer import Tokenizer
from ..encoding.vocab_compare import compare_vocabularies
from ..encoding.vocab_health import vocabulary_health
from ..errors import BpeError
from ..formats.common import TokenizerFormat
from ..formats.files import FORMATS
from ..limits import MAX_DROPOUT_CHARS, MAX_SEGMENT_CHARS, MAX_WALK_CHARS, MAX_WHY_CHARS
from ..registry import Registry
from ..training.extend import extend
from ..training.presets import PRESETS, python_docs_text
from ..training.trainer import train
from .byte_inspector import inspect_token
from .cuts import number_costs, text_pieces, token_ends
from .extension import DEFAULT_LEAST, DEFAULT_MERGES, default_new_text
from .why_tokenization import PHENOMENA, language_rows, tokenize_with

PAGE_TEXT = "def tokenize(text):\n    return text.split()  # costs 5 €"
"""The Encode page's own text for python-docs: what an operation on a text runs on by default."""


@dataclass(frozen=True)
class Operation:
    name: str
    title: str
    where: str
    """The page (and command) that offers it."""
    run: Callable[[Tokenizer, str], object]
    """The work on a tokenizer and a text, cut as the page cuts it; a :class:`BpeError` says in one line why
    this text does not fit (a special token refused, a character a char-level vocabulary never saw)."""
    refusal: Callable[[Tokenizer], str | None] = lambda tokenizer: None
    """Why it does not apply to this tokenizer at all, in one line (the page shows it instead); None if it does."""
    owner: str = ""
    """What it equals in the owner's library, where one defines it: ``encode`` (the result is the owner's ids
    of the text), ``decode`` (the owner's decode of this tokenizer's ids of the text), ``offsets`` (tiktoken's
    ``decode_with_offsets`` of them), ``load:<format>`` (the files, read by that format's own library, encode
    the text as this tokenizer does); ``""``: no owner defines it. The matrix test knows each."""
    promise: Callable[[Tokenizer, str, object], str | None] = lambda tokenizer, text, result: None
    """What the result holds whoever the owner: the broken promise in words, None if it is kept."""
    apart: bool = False
    """Its work grows with the vocabulary or a long sample: the app runs it as a job, outside the page."""
    page_text: Callable[[], str] = lambda: PAGE_TEXT
    """The text the page runs it on by default (what the benchmark measures)."""


@dataclass(frozen=True)
class Outcome:
    """One operation on one tokenizer and text: its result, or the one line saying why not."""

    result: object = None
    refused: str = ""


def run_operation(operation: Operation, tokenizer: Tokenizer, text: str) -> Outcome:
    """``operation`` on ``tokenizer`` and ``text``: its result, or its refusal (an error that is not the
    input's, a bug, is raised: the matrix test fails on it)."""
    why = operation.refusal(tokenizer)
    if why:
        return Outcome(refused=why)
    try:
        return Outcome(result=operation.run(tokenizer, text))
    except BpeError as error:
        return Outcome(refused=str(error))


# -- the promises -----------------------------------------------------------------------------------
def _spells(tokenizer: Tokenizer, text: str, ids) -> str | None:
    expected = tokenizer.decode_bytes(tokenizer.encode(text))
    return None if tokenizer.decode_bytes(ids) == expected else "its ids do not spell what encode's ids spell"


def _is_encode(tokenizer: Tokenizer, text: str, ids) -> str | None:
    return None if list(ids) == tokenizer.encode(text) else "its ids are not encode's"


def _is_decode(tokenizer: Tokenizer, text: str, decoded) -> str | None:
    return None if decoded == tokenizer.decode(tokenizer.encode(text)) else "its text is not decode's"


# -- the operations on a text -----------------------------------------------------------------------
def _walkthrough(tokenizer: Tokenizer, text: str) -> list[int]:
    """The walkthrough's ids, chunk after chunk, with the rule encode applies last (the page's ids are encode's)."""
    unknown = None if tokenizer.unknown_token is None else tokenizer.special_tokens[tokenizer.unknown_token]
    ids = [token_id for walk in tokenizer.encode_walkthrough(text[:MAX_WALK_CHARS]) for token_id in walk.ids]
    return one_unknown_per_run(ids, unknown)


def _cut(way: Segmentation) -> Callable[[Tokenizer, str], list[int]]:
    def cut(tokenizer: Tokenizer, text: str) -> list[int]:
        return [token_id for chunk in segment(tokenizer, text[:MAX_SEGMENT_CHARS], ways=(way.name,)) for token_id in chunk.ids[way.name]]
    return cut


def _no_more_than_bpe(tokenizer: Tokenizer, text: str, ids) -> str | None:
    if len(ids) > len(tokenizer.encode(text)):
        return "it makes more tokens than BPE's own"
    return _spells(tokenizer, text, ids)


def _stream(tokenizer: Tokenizer, text: str) -> str:
    return "".join(step.shown for step in stream_steps(tokenizer, tokenizer.encode(text)))


def _stream_encode(tokenizer: Tokenizer, text: str) -> list[int]:
    return list(encode_iterable(tokenizer, (text[i:i + 7] for i in range(0, len(text), 7))))  # pieces cut anywhere


def _offsets(tokenizer: Tokenizer, text: str) -> tuple[str, list[int]]:
    return decode_with_offsets(tokenizer, tokenizer.encode(text))


def _ordered_offsets(tokenizer: Tokenizer, text: str, result) -> str | None:
    decoded, offsets = result
    if offsets != sorted(offsets) or any(not 0 <= offset <= len(decoded) for offset in offsets):
        return "its offsets are not in order within the text"
    return _is_decode(tokenizer, text, decoded)


def _dropout(rule: DropoutRule) -> Callable[[Tokenizer, str], object]:
    def run(tokenizer: Tokenizer, text: str):
        return sample_segmentations(tokenizer, text[:MAX_DROPOUT_CHARS], p=DEFAULT_P, samples=DEFAULT_SAMPLES, seed=0, rule=rule.name)
    return run


def _dropout_spells(tokenizer: Tokenizer, text: str, sample) -> str | None:
    if list(sample.plain) != tokenizer.encode(text[:MAX_DROPOUT_CHARS]):
        return "its segmentation without dropout is not encode's"
    wrong = next((cut.ids for cut in sample.segmentations if tokenizer.decode_bytes(cut.ids) != tokenizer.decode_bytes(sample.plain)), None)
    return None if wrong is None else f"a sampled segmentation spells another text: {list(wrong)}"


# -- the operations on a vocabulary -----------------------------------------------------------------
def _health(tokenizer: Tokenizer, text: str):
    return vocabulary_health(tokenizer, text=text)


def _health_counts(tokenizer: Tokenizer, text: str, health) -> str | None:
    if health.emitted != frozenset(tokenizer.encode_ordinary(text)):
        return "its emitted tokens are not those of the text's ids"
    if set(health.never_emitted) & health.emitted or set(health.unreachable) & set(health.partial):
        return "a token is in two groups that exclude each other"
    return None


def _extend(tokenizer: Tokenizer, text: str):
    return extend(tokenizer, text, merges=DEFAULT_MERGES, min_frequency=DEFAULT_LEAST)


def _after_the_old_ids(tokenizer: Tokenizer, text: str, trace) -> str | None:
    first = max(tokenizer.tokens) + 1  # then the symbols the text needs that the old vocabulary lacks, then the merges
    new_ids = [step.new_id for step in trace.steps]
    if new_ids and (new_ids[0] < first or new_ids != list(range(new_ids[0], new_ids[0] + len(new_ids)))):
        return f"the new ids do not follow the old ones ({first:,} on): {new_ids[:3]}"
    return None


def _export(entry: TokenizerFormat) -> Callable[[Tokenizer, str], object]:
    return lambda tokenizer, text: entry.export(tokenizer)


def _file_names(entry: TokenizerFormat) -> Callable[[Tokenizer, str, object], str | None]:
    return lambda tokenizer, text, files: None if tuple(files) == entry.file_names else f"it wrote {sorted(files)}"


@functools.cache
def _a_run() -> Tokenizer:
    """What Compare looks up in another vocabulary: the learner's run (Sennrich's example here)."""
    preset = PRESETS["sennrich"]
    return Tokenizer.from_trace(train(preset.corpus(), preset.settings))


def _overlap(tokenizer: Tokenizer, text: str):
    return compare_vocabularies(_a_run(), tokenizer)


def _found_all_it_has(tokenizer: Tokenizer, text: str, found) -> str | None:
    spelled = {token.data for token in tokenizer.tokens.values()}
    wrong = [token_id for token_id in found.only_first if _a_run().decode_single_token_bytes(token_id) in spelled]
    return f"tokens it has were called missing: {wrong[:3]}" if wrong else None


# -- Check my encoder -------------------------------------------------------------------------------
def _right_cases(tokenizer: Tokenizer) -> list[EncodeCase]:
    return [EncodeCase(text, tuple(tokenizer.encode(text, **MODES["allowed"]))) for text in probe_texts(tokenizer)]


def _probes(tokenizer: Tokenizer, text: str):
    return check_encoder(tokenizer, _right_cases(tokenizer))


def _mistake(mistake: EncoderMistake) -> Callable[[Tokenizer, str], object]:
    def run(tokenizer: Tokenizer, text: str) -> str:
        """What Check my encoder says of an encoder with this mistake on the probe texts."""
        variants = mistake.variants(tokenizer)
        if not variants:
            raise BpeError(f"this tokenizer cannot show the mistake {mistake.title!r} (nothing it does differs)")
        right, cases = _right_cases(tokenizer), []
        for case in right:
            try:
                cases.append(EncodeCase(case.text, tuple(variants[0].encode(tokenizer, case.text, "allowed"))))
            except BpeError:
                continue  # the mistaken encoder cannot encode this text at all: the learner has no ids for it
        if all(case in right for case in cases):
            return "the probe texts do not show it"
        causes = [cause.code for cause in check_encoder(tokenizer, cases).diagnosis]
        if mistake.code in causes:
            return "named"
        if causes and all(_same_ids(ENCODER_MISTAKES[code], tokenizer, cases) for code in causes if code in ENCODER_MISTAKES):
            return "named as a mistake that gives the same ids on every probe"  # no check can tell the two apart
        return f"named as {', '.join(causes)}"
    return run


def _same_ids(mistake: EncoderMistake, tokenizer: Tokenizer, cases: list[EncodeCase]) -> bool:
    """Whether one of ``mistake``'s variants gives ``cases``' ids on each of their texts."""
    def gives(variant) -> bool:
        try:
            return all(tuple(variant.encode(tokenizer, case.text, "allowed")) == tuple(case.ids) for case in cases)
        except BpeError:
            return False
    return any(gives(variant) for variant in mistake.variants(tokenizer))


def _named(tokenizer: Tokenizer, text: str, said: str) -> str | None:
    return None if said in ("named", "the probe texts do not show it", "named as a mistake that gives the same ids on every probe") \
        else f"the check missed it: {said}"


# -- Compare and Why -------------------------------------------------------------------------------
NORMALIZED = "its tokens spell a normalized text (NFC, SentencePiece's spaces), not the text as written"
"""Why Compare leaves a tokenizer out of its marks (``ui/compare_lessons.py`` says this line)."""


def _marks(tokenizer: Tokenizer, text: str) -> frozenset[int]:
    pieces = text_pieces(tokenizer, text, tokenizer.encode(text, disallowed_special=()))
    if pieces is None:
        raise BpeError(NORMALIZED)
    return token_ends(pieces)


def _within(tokenizer: Tokenizer, text: str, ends) -> str | None:
    return None if all(0 < end < len(text.encode("utf-8")) for end in ends) else "a token ends outside the text"


def _why_cards(tokenizer: Tokenizer, text: str) -> list:
    rows = [row for card in PHENOMENA.values() for row in tokenize_with(card, card.samples[0][1], {"this": tokenizer})]
    failed = next((row.error for row in rows if row.error), None)
    if failed:
        raise BpeError(failed)
    return [*rows, *language_rows({"this": tokenizer})]


def _bytes_inspected(tokenizer: Tokenizer, text: str) -> list:
    return [inspect_token(tokenizer.decode_single_token_bytes(token_id)) for token_id in tokenizer.encode(text)[:MAX_WHY_CHARS]]


def _entries() -> list[Operation]:
    first_way = next(iter(SEGMENTATIONS))
    return [
        Operation("encode", "Encode", "Encode & decode · bpe-lab encode", lambda tokenizer, text: tokenizer.encode(text), owner="encode"),
        Operation("decode", "Decode", "Encode & decode · bpe-lab decode", lambda tokenizer, text: tokenizer.decode(tokenizer.encode(text)),
                  owner="decode", promise=_is_decode),
        Operation("walkthrough", "Merge-by-merge walkthrough", "Encode & decode", _walkthrough, owner="encode"),
        *(Operation(f"cut:{name}", f"Three ways to cut: {way.title}", "Encode & decode", _cut(way),
                    owner="encode" if name == first_way else "", promise=_is_encode if name == first_way else _no_more_than_bpe)
          for name, way in SEGMENTATIONS.items()),
        Operation("offsets", "Where each token starts", "Encode & decode", _offsets, owner="offsets", promise=_ordered_offsets),
        Operation("stream-decode", "Decode as a model streams", "Encode & decode", _stream, owner="decode", promise=_is_decode),
        Operation("stream-encode", "Encode a stream of text", "bpe-lab encode --file", _stream_encode, owner="encode", promise=_is_encode),
        *(Operation(f"dropout:{name}", f"BPE-dropout, {rule.title}'s", "Encode & decode · bpe-lab dropout", _dropout(rule),
                    refusal=rule.unavailable, promise=_dropout_spells)
          for name, rule in DROPOUT_RULES.items()),
        Operation("health", "Vocabulary health", "Vocabulary health", _health, promise=_health_counts, apart=True,
                  page_text=python_docs_text),
        Operation("extend", f"Extend with up to {DEFAULT_MERGES} new merges", "Extend a tokenizer · bpe-lab train --extend", _extend,
                  promise=_after_the_old_ids, apart=True, page_text=default_new_text),
        *(Operation(f"export:{name}", f"Export: {entry.title}", "Import & export · Extend · bpe-lab export", _export(entry),
                    refusal=entry.export_problem, owner=f"load:{name}", promise=_file_names(entry), apart=True)
          for name, entry in FORMATS.items()),
        Operation("encoder-probes", "Check my encoder: the probe texts", "Check my BPE · bpe-lab check-encoder", _probes,
                  promise=lambda tokenizer, text, result: None if result.difference is None else "right ids were found wrong"),
        *(Operation(f"encoder-mistake:{code}", f"Check my encoder: {mistake.title}", "Check my BPE · bpe-lab check-encoder",
                    _mistake(mistake), promise=_named)
          for code, mistake in ENCODER_MISTAKES.items()),
        Operation("compare:marks", "Compare: where they cut differently", "Compare", _marks, promise=_within),
        Operation("compare:numbers", "Compare: what a number costs (the heatmap)", "Compare",
                  lambda tokenizer, text: number_costs(tokenizer),
                  promise=lambda tokenizer, text, costs: None if len(costs) == 1000 and min(costs) >= 1 else "a number costs no token"),
        Operation("compare:vocabulary", "Compare: which of a run's tokens this vocabulary has", "Compare", _overlap,
                  promise=_found_all_it_has),
        Operation("why-cards", "Why tokenization matters: every card", "Why tokenization matters", _why_cards),
        Operation("byte-inspector", "Byte inspector: each token's bytes", "Byte inspector", _bytes_inspected),
    ]


OPERATIONS: Registry[Operation] = Registry("operation", _entries())
"""Every operation on a tokenizer, in the order the matrix lists them."""
