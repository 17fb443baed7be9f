"""Sample texts of the categories a training mix is made of: 16 languages, code, and prose about code.

The data-mixture inference needs, for each category it weighs, a text of that kind (the paper calls
them the categories' samples). BPE Lab ships or finds three kinds, each honest about what it is:

* **16 languages**: the whole Universal Declaration of Human Rights (UN General Assembly resolution
  217 A, 1948) in the languages of :mod:`bpe.teaching.udhr`, in the translations of the Office of the
  UN High Commissioner for Human Rights as the UDHR in Unicode project publishes them
  (github.com/unicode-org/udhr, ``data/udhr/udhr_<code>.xml``; the project's files are under the
  Unicode licence). The Declaration was written to be spread as widely as possible and may be
  reproduced freely. ``scripts/build_udhr_texts.py`` wrote ``udhr/<code>.txt`` (10 to 38 KB each) from
  the XML: each title and paragraph on a line, four marked typos of the Thai file corrected.
* **code**: Python's own standard library, the source of the running interpreter (every machine with
  Python has it), the modules of :data:`CODE_MODULES` up to :data:`SAMPLE_BYTES`, docstrings and
  comments included, as code on the web has them.
* **python-docs**: ``pydoc_data.topics`` (shipped with CPython), English prose about Python, up to
  :data:`SAMPLE_BYTES`.

A learner's own text is a category too: every function here takes texts by name, and these are only
the defaults. What they are not: the training data of any real tokenizer. A language's sample is one
document (legal prose, 1,800 English words); "code" is one language's one library.

    >>> CATEGORIES["eng"].title, CATEGORIES["code"].kind, len(CATEGORIES)
    ('English', 'code', 18)
    >>> sample_text("eng").splitlines()[0]
    'Universal Declaration of Human Rights'
    >>> halves("one\\ntwo\\nthree\\nfour\\nfive")
    ('one\\nthree\\nfive', 'two\\nfour')
"""

from __future__ import annotations

import functools
import sysconfig
from collections.abc import Callable, Mapping
from importlib import resources
from pathlib import Path
from typing import NamedTuple

from ..errors import BpeError
from ..registry import Registry

SAMPLE_BYTES = 200_000
"""Most UTF-8 bytes of the code and python-docs samples (the languages' are their whole Declaration)."""
CODE_MODULES = (
    "argparse.py", "textwrap.py", "dataclasses.py", "functools.py", "heapq.py", "fractions.py", "statistics.py",
    "difflib.py", "pprint.py", "string.py", "shlex.py", "csv.py", "calendar.py", "json/decoder.py",
)
"""Standard-library modules read, in order, for the code sample (those missing from a Python are skipped)."""
UDHR_LANGUAGES = (
    ("eng", "English"), ("fra", "French"), ("swh", "Swahili"), ("vie", "Vietnamese"), ("rus", "Russian"),
    ("ell_monotonic", "Greek"), ("arb", "Arabic"), ("heb", "Hebrew"), ("hin", "Hindi"), ("ben", "Bengali"),
    ("tam", "Tamil"), ("tha", "Thai"), ("cmn_hans", "Chinese"), ("jpn", "Japanese"), ("kor", "Korean"),
    ("amh", "Amharic"),
)
"""``(UDHR in Unicode key, language)``, the 16 of the first article in :mod:`bpe.teaching.udhr`
(``tests/test_mixture.py`` checks the two lists agree)."""


class Category(NamedTuple):
    key: str
    title: str
    kind: str
    """``language``, ``code`` or ``prose about code``."""
    source: str
    """Where the sample comes from, in a line."""
    read: Callable[[], str]


def _udhr(code: str) -> str:
    return (resources.files(__package__) / "udhr" / f"{code}.txt").read_text(encoding="utf-8")


def _code() -> str:
    root = Path(sysconfig.get_path("stdlib"))
    parts = [(root / name).read_text(encoding="utf-8") for name in CODE_MODULES if (root / name).is_file()]
    if not parts:
        raise BpeError(f"Python's standard library source was not found under {root}: the code sample reads it")
    return _cut("\n".join(parts))


def _python_docs() -> str:
    from pydoc_data.topics import topics  # about 465 KB: read only when asked for

    return _cut("\n\n".join(topics[key] for key in sorted(topics)))


def _cut(text: str) -> str:
    """``text`` up to :data:`SAMPLE_BYTES`, at the end of a line."""
    data = text.encode("utf-8")
    if len(data) <= SAMPLE_BYTES:
        return text
    return data[:SAMPLE_BYTES].decode("utf-8", "ignore").rpartition("\n")[0]


CATEGORIES: Registry[Category] = Registry("category", (
    *(Category(code, language, "language", "the Universal Declaration of Human Rights (OHCHR's translation)",
               functools.partial(_udhr, code))
      for code, language in UDHR_LANGUAGES),
    Category("code", "Code", "code", "Python's standard library source (argparse, textwrap, dataclasses…)", _code),
    Category("python-docs", "python-docs", "prose about code", "Python's own help topics (pydoc_data)", _python_docs),
), key=lambda category: category.key, others="your own text")
"""Every built-in category, by key: the 16 languages, then code and python-docs."""


@functools.cache
def sample_text(key: str) -> str:
    """A built-in category's sample text (read once per process)."""
    return CATEGORIES.lookup(key).read()


def halves(text: str) -> tuple[str, str]:
    """``text`` as two halves of alternate lines: one to train on, one held out as the inference's sample.

    Why alternate lines rather than a first and a second half: the Declaration's articles change topic
    as it goes (work, then education...), and a run trained on the first half would be judged by words
    the second half uses far more."""
    lines = text.splitlines()
    return "\n".join(lines[0::2]), "\n".join(lines[1::2])


def category_texts(keys: tuple[str, ...], own: Mapping[str, str] | None = None) -> dict[str, str]:
    """The sample text of each of ``keys`` (built-in) and of each ``own`` category (name -> the learner's text)."""
    texts = {key: sample_text(key) for key in keys}
    for name, text in (own or {}).items():
        if name in texts:
            raise BpeError(f"two categories are named {name!r}: give your own text another name")
        texts[name] = text
    return texts
