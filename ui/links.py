"""Every page's own link parameters, declared once (:class:`~bpe.app.links.LinkParam`), by page.

A page reads one with ``url.read(links.CARD, CARD)`` and writes it back with
``url.write_url({links.CARD: CARD.get()})``: the name, the range, the default and the way it is
written are here and nowhere else, so no page spells a parameter, and the hostile-link tests
(``tests/hostile_links.py``) send every entry of :data:`PAGE_LINKS` a hostile value. The lab's
parameters (the example, the settings, the step) are the setting specs' (:mod:`bpe.app.setting_specs`);
:data:`EVERY_PAGE` are those every page reads (``ui/url.py``, ``ui/tour.py``).

    >>> PAGE_LINKS[pages.WHY.file] == (CARD,)
    True
    >>> sorted(param.name for param in EVERY_PAGE)
    ['lesson', 'present', 'stop', 'tour', 'why']
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from bpe.analysis.samples import CATEGORIES
from bpe.app import pages
from bpe.app.lessons import LESSON_PARAM, STOP_PARAM, is_lesson
from bpe.app.links import LinkParam, choice, codec, flag, pattern, text, whole_number
from bpe.encoding.dropout import DEFAULT_P, DEFAULT_SAMPLES, DROPOUT_RULES
from bpe.errors import SettingsError
from bpe.limits import (
    MAX_BYTE_INSPECTOR_CHARS, MAX_COUNTING_LAB_CHARS, MAX_DROPOUT_SAMPLES, MAX_ENCODE_CHARS, MAX_MERGES,
    MAX_PRETOKENIZATION_LAB_CHARS,
)
from bpe.pretrained.registry import PRETRAINED
from bpe.teaching.extension import NEW_TEXTS, OWN
from bpe.teaching.health import GROUPS
from bpe.teaching.lineage import LINEAGE_PLACES, MIXTURE_PLACES
from bpe.teaching.subword_choices import PYTHON_DOCS, example_choices, held_out_choices
from bpe.teaching.subwords import KINDS
from bpe.teaching.tour import TOUR, TOUR_PARAM
from bpe.teaching.why_tokenization import PHENOMENA
from bpe.tokens.vocab import UNITS
from bpe.training.presets import PRESETS

from .tokenizers import OURS

# -- carried by every page ------------------------------------------------------------------------------
PRESENT = flag("present", about="presenter mode: large type, the sidebar folded")
WHY = flag("why", default=True, about="the Train page tells why each merge happened (0: folded)")
TOUR_STEP = whole_number(TOUR_PARAM, 1, len(TOUR), about="the guided tour's step this page shows")
LESSON = pattern(LESSON_PARAM, is_lesson, "a built-in lesson's name or stops joined by dots",
                 about="the lesson a teacher walks with a clicker: a built-in one, or their own list of stops")
STOP = whole_number(STOP_PARAM, 1, about="which stop of the lesson this page is (1: the first)")
CARRIED: tuple[LinkParam, ...] = (PRESENT, WHY, LESSON, STOP)
"""Read on every page a link opens and written by every page (``ui/url.py``)."""
EVERY_PAGE: tuple[LinkParam, ...] = (*CARRIED, TOUR_STEP)
"""Read on every page: the carried ones, and the tour's step (kept by the page it opens, never written: ``ui/tour.py``)."""

# -- each page's own ------------------------------------------------------------------------------------
ENCODE_TEXT = text("text", MAX_ENCODE_CHARS, about="the text encoded (the tour's: read, never written)")
WALK = whole_number("walk", 0, 999_999, about="the step of the merge walk shown")
DROPOUT_STEPS = (0.0, 0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 1.0)
"""The probabilities BPE-dropout's slider offers."""


def _dropout_step(raw: str) -> float:
    if float(raw) not in DROPOUT_STEPS:
        raise ValueError(raw)
    return float(raw)


DROPOUT = codec("dropout", _dropout_step, lambda p: f"{p:g}", f"one of {', '.join(f'{p:g}' for p in DROPOUT_STEPS)}",
                default=DEFAULT_P, about="BPE-dropout's probability")
SAMPLES = whole_number("samples", 1, MAX_DROPOUT_SAMPLES, default=DEFAULT_SAMPLES, about="how many segmentations BPE-dropout draws")
SEED = whole_number("seed", 0, 2**31, default=0, about="BPE-dropout's random seed")
DROP_RULE = choice("droprule", lambda: tuple(DROPOUT_RULES), default="hf", about="whose BPE-dropout: Hugging Face's or the paper's")

VOCAB = choice("vocab", lambda: tuple(PRETRAINED), about="a pretrained vocabulary shown instead of ours")
TOKEN = whole_number("token", 0, 9_999_999, about="the token whose merge tree is drawn (its id)")

SEAT_CHARS = 12
SEAT = pattern("seat", lambda raw: 0 < len(raw) <= SEAT_CHARS and raw.isascii() and raw.isalnum(),
               f"1 to {SEAT_CHARS} letters or digits", about="this learner's order of the answers")
REVEAL = flag("reveal", about="the question's answer shown")
ROOM = LinkParam("room", str, about="a class room's code (the room checks it: ui/classroom.py)")
STUDENT = LinkParam("student", str, about="a student's seat in the room")
TEACHER = LinkParam("teacher", str, about="the teacher key, on the teacher's controls only")
CONTROLS = flag("controls", about="the teacher's controls (a view kept off the projector)")

TIE_EXAMPLE = choice("preset", lambda: tuple(PRESETS), about="the example trained under every tie-break rule")

COUNT_TEXT = text("text", MAX_COUNTING_LAB_CHARS, about="the text whose pairs are counted")
LEFT = text("left", MAX_COUNTING_LAB_CHARS, about="the counted pair's left symbol")
RIGHT = text("right", MAX_COUNTING_LAB_CHARS, about="the counted pair's right symbol")

LEARN_MERGES = 10
"""The merges the pre-tokenization lab learns on its training text."""
PRETOK_TEXT = text("text", MAX_PRETOKENIZATION_LAB_CHARS, about="the text every split pattern cuts")
TRANSITION = whole_number("transition", 0, LEARN_MERGES, default=4, about="where SuperBPE's column lifts GPT-2's split")

MAX_HEX_CHARS = 200
BYTES_TEXT = text("text", MAX_BYTE_INSPECTOR_CHARS, about="the text whose bytes are shown")
BYTES = text("bytes", MAX_HEX_CHARS, about="the token inspected, as hex bytes (c3 a9)")

COMPARE_TEXT = text("text", MAX_ENCODE_CHARS, about="the text compared (a lesson's; the learner's own is never written)")

CHECK_TAB = choice("check", ("trainer", "encoder"), about="the check once a tab of Check my BPE: encoder opens Check my encoder")

CARD = choice("card", lambda: tuple(PHENOMENA), about="the card shown")

MAX_ADD = 2_000
"""New merges a page asks for at most (the engine's limit is MAX_MERGES; a lesson needs far fewer)."""
EXTEND_FROM = choice("from", lambda: (*PRETRAINED, OURS), about="the tokenizer extended")
EXTEND_NEW = choice("new", lambda: (*NEW_TEXTS, OWN), about="the new text trained on")
ADD = whole_number("add", 1, MAX_ADD, about="how many merges to add")
LEAST = whole_number("least", 1, 1000, about="the least count a new merge needs")
EXTEND_AT = whole_number("at", 0, MAX_MERGES, about="the new merge shown (0: none yet)")

HEALTH_SAMPLES = ("python-docs", "udhr", "own")
"""The texts Vocabulary health measures a pretrained vocabulary on."""
HEALTH_OF = choice("of", lambda: (OURS, *PRETRAINED), about="whose vocabulary is examined")
HEALTH_SAMPLE = choice("sample", HEALTH_SAMPLES, about="the text a pretrained vocabulary is measured on")
PART = whole_number("part", 0, len(GROUPS) - 1, about="which group of tokens the lesson shows")

PARITY_UNIT = choice("unit", UNITS, default="byte", about="the costs counted in bytes or characters")
PARITY_MERGE = whole_number("merge", 0, about="the merge shown (its last is the run's)")

LINEAGE_A = choice("a", lambda: (*PRETRAINED, OURS), default="cl100k_base",
                   about="the first tokenizer of the lineage (an imported one is not linked: it is the session's)")
LINEAGE_B = choice("b", lambda: (*PRETRAINED, OURS), default="llama3", about="the second tokenizer of the lineage")
LINEAGE_VIEW = choice("view", tuple(place.key for place in LINEAGE_PLACES), default=LINEAGE_PLACES[0].key,
                      about="the part of the lineage lesson shown")

MAX_KNOWN_MIX_MERGES = 3_000
"""Merges a run with a known mix is trained to on the page (the CLI goes to MAX_MIX_MERGES)."""


def _mix(raw: str) -> dict[str, int]:
    shares: dict[str, int] = {}
    for item in raw.split(","):
        key, _, share = item.partition(":")
        if key not in CATEGORIES or key in shares or not share.isdigit() or not 0 < int(share) <= 100:
            raise ValueError(item)
        shares[key] = int(share)
    if len(shares) < 2:
        raise ValueError(raw)
    return shares


MIX = codec("mix", _mix, lambda shares: ",".join(f"{key}:{share}" for key, share in shares.items()),
            f"two or more of {', '.join(CATEGORIES)}, each with a whole percent, as eng:60,code:40",
            about="the known mix trained on: each category and its share in percent (the learner's own text is not linked)")
MIX_MERGES = whole_number("merges", 100, MAX_KNOWN_MIX_MERGES, default=3_000, about="the merges the known mix is trained to")
MIX_VIEW = choice("view", tuple(place.key for place in MIXTURE_PLACES), default=MIXTURE_PLACES[0].key,
                  about="the part of What was it trained on? shown: a run with a known answer, or a real tokenizer")
MIX_OF = choice("tokenizer", lambda: tuple(PRETRAINED), default="gpt2", about="the pretrained tokenizer whose mix is inferred")
SUBWORDS_EXAMPLE = choice("corpus", lambda: tuple(example_choices()), about="the example cut four ways (a preset, or sidebar: the sidebar's run)")
SUBWORDS_CUT = choice("cut", KINDS, about="the tokenizer that draws the held-out text (the lesson's place)")


def _held_out(raw: str, *, example: str = PYTHON_DOCS) -> str:
    """A text ``example`` can hold out (python-docs cannot hold itself out)."""
    if raw not in held_out_choices(example):
        raise SettingsError(f"heldout must be split, python-docs (when it is not the example) or udhr:<code> "
                            f"(udhr:fra...), got {raw[:40]!r}")
    return raw


SUBWORDS_HELD_OUT = LinkParam("heldout", _held_out, about="the held-out text: split, python-docs or udhr:<code>",
                              options=lambda: tuple(held_out_choices("")))
SUBWORDS_N = whole_number("n", 1, about="N, the word vocabulary's size (none: BPE's vocabulary size at k)")
SUBWORDS_K = whole_number("k", 0, about="k, BPE's merges (none: every merge of the run)")

PAGE_LINKS: Mapping[str, tuple[LinkParam, ...]] = MappingProxyType({
    pages.HOME.file: (),
    pages.TRAIN.file: (),
    pages.ENCODE.file: (ENCODE_TEXT, WALK, DROPOUT, SAMPLES, SEED, DROP_RULE),
    pages.VOCABULARY.file: (VOCAB, TOKEN),
    pages.QUIZ.file: (SEAT, REVEAL, ROOM, STUDENT, TEACHER, CONTROLS),
    pages.TIE_LAB.file: (TIE_EXAMPLE,),
    pages.COUNTING_LAB.file: (COUNT_TEXT, LEFT, RIGHT),
    pages.PRETOKENIZATION_LAB.file: (PRETOK_TEXT, TRANSITION),
    pages.BYTE_INSPECTOR.file: (BYTES_TEXT, BYTES),
    pages.COMPARE.file: (COMPARE_TEXT,),
    pages.IMPORT_EXPORT.file: (),
    pages.CHECK.file: (CHECK_TAB,),
    pages.CHECK_ENCODER.file: (),
    pages.WHY.file: (CARD,),
    pages.EXTEND.file: (EXTEND_FROM, EXTEND_NEW, ADD, LEAST, EXTEND_AT),
    pages.HEALTH.file: (HEALTH_OF, HEALTH_SAMPLE, PART),
    pages.PARITY_LAB.file: (PARITY_UNIT, PARITY_MERGE),
    pages.SUBWORDS.file: (SUBWORDS_EXAMPLE, SUBWORDS_CUT, SUBWORDS_HELD_OUT, SUBWORDS_N, SUBWORDS_K),
    pages.LINEAGE.file: (LINEAGE_A, LINEAGE_B, LINEAGE_VIEW),
    pages.MIXTURE.file: (MIX, MIX_MERGES, MIX_OF, MIX_VIEW),
})
"""``page file -> its own parameters``, every page of :data:`bpe.app.pages.PAGES` (a new page is one entry)."""


def _check(registry: Mapping[str, tuple[LinkParam, ...]]) -> None:
    """Every page is here, and no page's parameters (its own and the carried ones) share a name."""
    missing = {page.file for page in pages.PAGES} - registry.keys()
    if missing:
        raise LookupError(f"pages with no entry in ui/links.py PAGE_LINKS: {sorted(missing)}")
    for page, params in registry.items():
        names = [param.name for param in (*EVERY_PAGE, *params)]
        if len(set(names)) != len(names):
            raise ValueError(f"{page}: two link parameters share a name: {names}")


_check(PAGE_LINKS)
