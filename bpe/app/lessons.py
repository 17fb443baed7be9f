"""Lessons: playlists of places across pages, walked with a clicker, each declared once, as data.

A :class:`LessonStop` is one page opened at its first place by a link (Train on Sennrich's corpus at
merge 0, the Why page at its first card); a :class:`Lesson` is stops in order. A teacher picks a
built-in lesson on Home or orders stops of :data:`STOPS` into their own, and the link carries it
(``lesson=first-class&stop=3``, or the stops' names joined by dots:
``lesson=why.bytes.counting&stop=2``), so the projector's address bar, a reload and the handout all
name the same lesson. PageDown at a page's last place opens the next stop at its first; PageUp at
a page's first place goes back to the previous stop at its last (``ui/lesson_bar.py``).

Pure data: the handout of a lesson is built from this registry (what each stop shows and teaches),
and the pages' own link parameters are declared in ``ui/links.py`` (a test opens every stop's link
and checks it names only those, and that the page opens at its first place).

    >>> lesson = lesson_named("first-class")
    >>> [stop.name for stop in lesson.stops]
    ['why', 'bytes', 'counting', 'train-sennrich', 'tie-lab', 'quiz-room', 'encode-walk', 'compare']
    >>> lesson_named("why.train-sennrich").title, link_of(lesson_named("why.train-sennrich"))
    ('Your own lesson', 'why.train-sennrich')
    >>> is_lesson("first-class"), is_lesson("why.nowhere"), is_lesson("")
    (True, False, False)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ..errors import RegistryError
from ..registry import Registry
from . import pages
from .pages import Page

LESSON_PARAM = "lesson"
"""The link's parameter naming the lesson (a built-in's name, or stops joined by :data:`JOIN`)."""
STOP_PARAM = "stop"
"""The link's parameter saying which stop is shown (1: the first)."""
JOIN = "."
"""Between the stops of a teacher's own lesson in its link (a dot needs no escaping in a URL)."""
OWN = "own"
"""The name of a lesson a teacher ordered themselves."""


@dataclass(frozen=True)
class LessonStop:
    """One page of a lesson, opened at its first place."""

    name: str
    """Its name in a teacher's own lesson's link (lower case, no dot)."""
    page: Page
    link: Mapping[str, str] = field(default_factory=dict)
    """The query that opens the page at this stop's first place (every value a string, as in a URL)."""
    title: str = ""
    """What the stop is, for the lesson chooser and the projector's bar ("Train on Sennrich's corpus")."""
    teaches: str = ""
    """What the class learns there, in a sentence (the chooser's caption, the handout's heading)."""
    room: bool = False
    """The stop runs a class room: starting it, asking and revealing are places of the lesson."""


@dataclass(frozen=True)
class Lesson:
    name: str
    """Its name in a link (:data:`OWN` for a teacher's own)."""
    title: str
    about: str
    """What the lesson is, in a sentence (Home's plan)."""
    stops: tuple[LessonStop, ...]

    def __post_init__(self) -> None:
        if not self.stops:
            raise ValueError(f"lesson {self.name!r} has no stop: a lesson is at least one page")


def _stops(*stops: LessonStop) -> Registry[LessonStop]:
    if any(JOIN in stop.name or not stop.name for stop in stops):
        raise RegistryError(f"a stop's name is non-empty and has no {JOIN!r}: {[stop.name for stop in stops]}")
    return Registry("stop", stops)


STOPS: Registry[LessonStop] = _stops(
    LessonStop("why", pages.WHY, {"card": "spelling"}, "Why tokenization matters",
         "A model sees tokens, not letters: why it cannot count the r's in strawberry, and six more cases."),
    LessonStop("bytes", pages.BYTE_INSPECTOR, {"text": "aaabdaaabac é € 🙂", "bytes": "20 74 68 65"}, "Text is bytes",
         "A byte-level tokenizer starts from UTF-8's 256 byte values: 'a' is one, 'é' two, '€' three."),
    LessonStop("counting", pages.COUNTING_LAB, {"text": "aaaa", "left": "a", "right": "a"}, "Count the pairs",
         "Training counts every pair of neighbours, overlaps included; one merge replaces fewer."),
    LessonStop("train-sennrich", pages.TRAIN, {"preset": "sennrich", "step": "0"}, "Train on Sennrich's corpus",
         "Merge the most frequent pair, again and again: low, lower, newest and widest become tokens."),
    LessonStop("train-wikipedia", pages.TRAIN, {"preset": "wikipedia", "step": "0"}, "Train on Wikipedia's aaabdaaabac",
         "The walk-through's three merges, with the tie at merge 2."),
    LessonStop("tie-lab", pages.TIE_LAB, {"preset": "wikipedia"}, "When pairs tie",
         "Each library breaks a tie its own way, and the merges part from there."),
    LessonStop("quiz-room", pages.QUIZ, {"preset": "sennrich", "step": "0"}, "Predict the next merge, as a class",
         "Every phone guesses the next merge; then how many tokens a model makes of a phrase.", room=True),
    LessonStop("quiz-wikipedia", pages.QUIZ, {"preset": "wikipedia", "step": "0"}, "Predict the next merge of aaabdaaabac",
         "Guess each of the three merges before it happens, with the counts hidden (merge 2 is a tie)."),
    LessonStop("encode-walk", pages.ENCODE, {"preset": "sennrich", "step": "10"}, "Encode new text, merge by merge",
         "Encoding replays the learned merges in the order they were learned."),
    LessonStop("encode-wikipedia", pages.ENCODE, {"preset": "wikipedia", "step": "3", "text": "aaabdaaabac"},
         "Encode aaabdaaabac, merge by merge", "The three merges replayed on the text, in the order they were learned."),
    LessonStop("compare", pages.COMPARE, {"preset": "sennrich"}, "Compare with real tokenizers",
         "The same text under ours, GPT-2's and GPT-4o's: how many tokens each needs and where it cuts."),
    LessonStop("vocabulary", pages.VOCABULARY, {"preset": "sennrich", "step": "10", "token": "256"}, "The vocabulary and its merge trees",
         "Every token the run learned, the step that made it, and the merges it is built of."),
    LessonStop("pretokenization", pages.PRETOKENIZATION_LAB, {}, "Cut before counting",
         "Merges never cross the chunks a split pattern cuts; without one, tokens span words."),
    LessonStop("parity", pages.PARITY_LAB, {"merge": "0"}, "Fair to every language",
         "Parity-aware BPE lets the worst-served language choose each merge."),
)
"""Every stop a lesson can hold, in the chooser's order."""


def _lesson(name: str, title: str, about: str, *stops: str) -> Lesson:
    return Lesson(name, title, about, tuple(STOPS[stop] for stop in stops))


LESSONS: Registry[Lesson] = Registry("lesson", (
    _lesson("first-class", "A first class on tokenization",
            "Fifty minutes from why tokenization matters to real tokenizers, with a class room of phones.",
            "why", "bytes", "counting", "train-sennrich", "tie-lab", "quiz-room", "encode-walk", "compare"),
    _lesson("bpe-in-three-merges", "BPE in three merges",
            "Wikipedia's aaabdaaabac, from its bytes to encoding: a short lesson for a lab session.",
            "bytes", "counting", "train-wikipedia", "quiz-wikipedia", "encode-wikipedia"),
))
"""The built-in lessons, in the chooser's order (the first is the one Home offers)."""
DEFAULT_LESSON = next(iter(LESSONS))


def lesson_named(spelled: str) -> Lesson:
    """The lesson a link names: a built-in one, or a teacher's own stops joined by :data:`JOIN`.
    Unknown names raise a ``KeyError`` that names them."""
    if spelled in LESSONS:
        return LESSONS[spelled]
    names = spelled.split(JOIN)
    unknown = [name for name in names if name not in STOPS]
    if unknown or not spelled:
        raise KeyError(f"no stop named {', '.join(map(repr, unknown or [spelled]))}: use a lesson "
                       f"({', '.join(LESSONS)}) or stops ({', '.join(STOPS)}) joined by {JOIN!r}")
    return Lesson(OWN, "Your own lesson", "Stops you chose and ordered on Home.", tuple(STOPS[name] for name in names))


def is_lesson(spelled: str) -> bool:
    try:
        lesson_named(spelled)
    except KeyError:
        return False
    return True


def link_of(lesson: Lesson) -> str:
    """How a link names ``lesson`` (``lesson_named(link_of(lesson)) == lesson``)."""
    return lesson.name if lesson.name in LESSONS else JOIN.join(stop.name for stop in lesson.stops)
