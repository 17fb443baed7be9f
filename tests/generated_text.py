"""A long English text made here, the same on every machine, for the parity tests' second corpus.

Why: the parity tests train on python-docs and on a second real-sized text with another shape.
That text must live in the checkout or be made by it, so that a fresh clone runs every test and a
missing file could only fail a test, never skip it. This one is made from what every Python has:
the words of CPython's ``pydoc_data.topics`` (the python-docs preset's source), rearranged.

What it holds, as an article copied from a web page does: paragraphs of sentences (capitals,
commas, parentheses, full stops), words drawn with Zipf's law (a few very common, most rare, so
ties between pair counts abound), possessives and contractions with a straight or a curly
apostrophe, quotation marks, years, dates and sums of money, ranges with an en dash, asides with
an em dash, short menu-like lines and bullet lists, and a few names with accents (é, ö, ñ, í, á)
and signs (£, ™, ®).

    >>> text = article_text()
    >>> len(text) == ARTICLE_CHARS, text == article_text()
    (True, True)
"""

from __future__ import annotations

import random
import re
from functools import cache

from pydoc_data.topics import topics

ARTICLE_CHARS = 185_000
SEED = 16_022_024
COMMON = (
    "the of and to in a is was for that on as with by at from his her it an are were be has had have "
    "which this their also its not but or after she he they who first one two all more new been would "
    "when her over into time year other most than can about only there during while some these"
).split()
NAMES = (
    "Nashville", "Pennsylvania", "Grammy", "Billboard", "Beyoncé", "Björk", "Señor", "Gómez", "Ángel",
    "Andrés", "Zoë", "Renée", "Müller", "London", "September", "December", "America", "Swift", "Taylor",
)
MENU = (
    "Main menu", "Contents", "Toggle the table of contents", "Early life", "Career", "Artistry",
    "Accolades and achievements", "Cultural status", "Discography", "See also", "References",
    "External links", "Edit", "View history", "Tools",
)
SIGNS = ("£5 million", "$1.2 billion", "Fearless™", "Red®", "No. 1", "top 10", "100%")


@cache
def article_text() -> str:
    """:data:`ARTICLE_CHARS` characters of the article (always the same text)."""
    rng = random.Random(SEED)
    rare = sorted({word for word in re.findall(r"\b[a-z]{3,12}\b", "\n".join(topics.values()))} - set(COMMON))
    rng.shuffle(rare)
    vocabulary = COMMON + rare
    weights = [1 / (rank + 1) ** 1.05 for rank in range(len(vocabulary))]
    parts: list[str] = []
    size = 0
    while size < ARTICLE_CHARS + 1000:
        kind = rng.random()
        if kind < 0.08:
            block = "\n".join(rng.sample(MENU, rng.randint(2, 5))) + "\n"
        elif kind < 0.13:
            block = "".join(f"• {_sentence(rng, vocabulary, weights, 3, 9)}\n" for _ in range(rng.randint(2, 4)))
        else:
            block = " ".join(_sentence(rng, vocabulary, weights, 6, 28) for _ in range(rng.randint(2, 7))) + "\n"
        parts.append(block + "\n")
        size += len(block) + 1
    return "".join(parts)[:ARTICLE_CHARS]


def _sentence(rng: random.Random, vocabulary: list[str], weights: list[float], shortest: int, longest: int) -> str:
    words = rng.choices(vocabulary, weights, k=rng.randint(shortest, longest))
    for index in range(len(words)):
        roll = rng.random()
        if roll < 0.04:
            words[index] = rng.choice(NAMES)
        elif roll < 0.06:
            words[index] = str(rng.randint(1989, 2024))
        elif roll < 0.07:
            year = rng.randint(1990, 2020)
            words[index] = f"{year}–{year + rng.randint(1, 4)}"
        elif roll < 0.075:
            words[index] = f"{rng.choice(('Feb', 'March', 'June', 'Nov'))} {rng.randint(1, 28)}, {rng.randint(2000, 2024)}"
        elif roll < 0.08:
            words[index] = rng.choice(SIGNS)
        elif roll < 0.10:
            words[index] += rng.choice(("'s", "’s", "n't", "’ve"))
        elif roll < 0.13:
            words[index] += ","
        elif roll < 0.135:
            words[index] = f"({words[index]})"
        elif roll < 0.14:
            words[index] = f"“{words[index]}”"
        elif roll < 0.145:
            words[index] += " —"
    words[0] = words[0][:1].upper() + words[0][1:]
    return " ".join(words) + rng.choice(".......?!")
