"""The built-in examples, named once here and used by the CLI and the app.

Each preset is a corpus plus the settings its source used, so that training it reproduces the
source's merges exactly (the golden tests check each one).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType

from ..errors import BpeError
from ..registry import Registry
from ..text.corpus import Corpus
from .settings import TrainSettings

SENNRICH_TEXT = (
    " low low low low low lower lower widest widest widest newest newest newest newest newest newest"
)
# Module-level data is shared by every user of the app, so it is read-only.
SENNRICH_WORDS = MappingProxyType({"low": 5, "lower": 2, "newest": 6, "widest": 3})
HF_COURSE_WORDS = MappingProxyType({"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5})


@lru_cache(maxsize=1)
def python_docs_text() -> str:
    """CPython's ``pydoc_data.topics`` (about 465 KB of English; the exact text varies by version)."""
    from pydoc_data.topics import topics

    return "\n".join(topics.values())


@dataclass(frozen=True)
class Preset:
    name: str
    title: str
    description: str
    settings: TrainSettings
    text: str | None = None
    word_counts: MappingProxyType[str, int] | None = None

    @property
    def corpus_text(self) -> str:
        """The training text; for a word table, its words written out (for display)."""
        if self.name == "python-docs":
            return python_docs_text()
        if self.text is not None:
            return self.text
        return " ".join(word for word, count in self.word_counts.items() for _ in range(count))

    def corpus(self) -> Corpus:
        if self.word_counts is not None:
            return Corpus.from_word_counts(self.word_counts)
        return Corpus.from_text(
            self.corpus_text,
            pretokenizer=self.settings.pretokenizer,
            special_tokens=self.settings.cut_from_corpus,
        )


PRESETS: Registry[Preset] = Registry("preset", error=BpeError, entries=(
        Preset(
            "sennrich",
            "Sennrich's low / lower / newest / widest",
            "The stylized example of Sennrich et al. (2016) as raw text, byte-level with GPT-2's "
            "split: ' low' keeps its space, so ' newest' becomes one token.",
            TrainSettings(unit="byte", pretokenizer="gpt2", tie_break="lexicographic-max", merges=10),
            text=SENNRICH_TEXT,
        ),
        Preset(
            "cs336",
            "CS336's word table",
            "The same words as a word-count table (low 5, lower 2, newest 6, widest 3), "
            "byte-level, ties to the greater pair, as in Stanford CS336.",
            TrainSettings(unit="byte", pretokenizer="whitespace", tie_break="lexicographic-max", merges=12),
            word_counts=SENNRICH_WORDS,
        ),
        Preset(
            "sennrich-paper",
            "The Sennrich paper, with </w>",
            "The paper's own setting: characters, an end-of-word marker </w>, and its code's "
            "first-seen tie-break; 'est</w>' is learned as a suffix.",
            TrainSettings(
                unit="char", pretokenizer="whitespace", end_of_word="</w>", tie_break="first-seen", merges=10
            ),
            word_counts=SENNRICH_WORDS,
        ),
        Preset(
            "wikipedia",
            "Wikipedia's aaabdaaabac",
            "Wikipedia's walk-through: Z=aa, Y=ab, X=ZY, then no pair occurs twice.",
            TrainSettings(
                unit="byte", pretokenizer="none", tie_break="lexicographic-min", merges=10, min_frequency=2
            ),
            text="aaabdaaabac",
        ),
        Preset(
            "hf-course",
            "The Hugging Face course words",
            "hug 10, pug 5, pun 12, bun 4, hugs 5 as characters: u+g (20), u+n (16), h+ug (15).",
            TrainSettings(unit="char", pretokenizer="whitespace", tie_break="first-seen", merges=10),
            word_counts=HF_COURSE_WORDS,
        ),
        Preset(
            "python-docs",
            "Python's documentation",
            "465 KB of real English (CPython's pydoc topics), byte-level with GPT-2's split: "
            "thousands of merges, and ties everywhere.",
            TrainSettings(unit="byte", pretokenizer="gpt2", tie_break="first-seen", merges=2000),
        ),
))


def get_preset(name: str) -> Preset:
    """The preset called ``name``; an unknown name is a :class:`BpeError` listing the presets."""
    return PRESETS.lookup(name)
