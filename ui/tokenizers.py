"""The tokenizers a page can pick besides ours at step k: GPT-2, GPT-4, GPT-4o and the user's imports.

The pretrained ones (``bpe.pretrained.registry.PRETRAINED``) are read once per server process, by one
loader that pages may leave working in the background (``ui.pretrained_loader``), and shared by
every session: a :class:`~bpe.encoding.tokenizer.Tokenizer` only grows a chunk cache, which is
deterministic, so sharing is safe (``benchmarks/pretrained_load.py`` measures a load's time and memory). Imports live in the session (:data:`IMPORTED`, a tuple
replaced on every change), so one user's files are never seen by another; each is read in a
worker with a budget (``bpe.formats.bounded_import``) and kept compressed, and the tables pages
use are built from that into one store per server (:data:`BUILT`), bounded in tokens, shared
by content (two sessions that import the same file share its table, as they would share GPT-2's).

Choices are strings, so a selectbox can hold them: ``ours``, a pretrained name (``gpt2``,
``cl100k_base``, ``o200k_base``) or ``imported:<name>``.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence

import streamlit as st

from bpe.collector import collector_paused
from bpe.encoding.tokenizer import Tokenizer
from bpe.errors import BpeError
from bpe.formats import tokenizer_format
from bpe.formats.bounded_import import import_json_bounded
from bpe.formats.subword_nmt_tokenizer import SubwordNmtTokenizer
from bpe.limits import IMPORTED_TOKENS_BUILT, IMPORTED_TOKENS_PER_SESSION
from bpe.notation.markdown import escape_markdown
from bpe.pretrained.model_names import encoding_name_for_model
from bpe.pretrained.registry import PRETRAINED, load_pretrained
from bpe.views.compare import NamedTokenizer, clean_name, unique_name

from .pretrained_loader import PretrainedLoader
from .state import SessionValue, bind, widget_key

IMPORTED: SessionValue[tuple[NamedTokenizer, ...]] = SessionValue("imported", ())
"""Tokenizers the learner imported, oldest first (a tuple, replaced, never mutated)."""
IMPORT_NOTE = SessionValue("import_note", None)
"""``(kind, Markdown)`` about the last import, shown once."""
OURS = "ours"
IMPORTED_PREFIX = "imported:"
MAX_IMPORTED = 5
"""Imports kept per session; the oldest goes first (and past :data:`IMPORTED_TOKENS_PER_SESSION` in all)."""


class BuiltImports:
    """Imported tokenizers built from their compressed JSON, by content, least recently used first
    out once they hold more than ``budget`` tokens (the one just built always stays).

    Why: a session kept up to five whole tables, about 400 bytes a token each; six imports in two
    sessions took a server from 54 to 800 MiB. A session now keeps the compressed JSON (a few MB
    for the biggest), and this store, one per server process, keeps what pages use.
    """

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self._lock = threading.Lock()
        self._built: OrderedDict[str, Tokenizer] = OrderedDict()

    def get(self, item: NamedTokenizer) -> Tokenizer:
        with self._lock:
            tokenizer = self._built.get(item.key)
            if tokenizer is not None:
                self._built.move_to_end(item.key)
                return tokenizer
        with collector_paused():
            tokenizer = Tokenizer.from_json(item.json())  # outside the lock: others' hits need not wait
        self.keep(item.key, tokenizer)
        return tokenizer

    def keep(self, key: str, tokenizer: Tokenizer) -> None:
        with self._lock:
            self._built[key] = tokenizer
            self._built.move_to_end(key)
            while len(self._built) > 1 and sum(kept.n_vocab for kept in self._built.values()) > self.budget:
                self._built.popitem(last=False)

    def tokens(self) -> int:
        with self._lock:
            return sum(kept.n_vocab for kept in self._built.values())


BUILT = BuiltImports(IMPORTED_TOKENS_BUILT)

@functools.cache
def _libc() -> ctypes.CDLL | None:
    """The C library, looked up on the first import rather than at start-up (``find_library`` may
    run ``ldconfig``), once."""
    name = ctypes.util.find_library("c")
    return ctypes.CDLL(name) if name else None


def _give_back_freed_memory() -> None:
    """Hand the memory an import freed back to the system (glibc's ``malloc_trim``).

    Why: reading a big file's JSON makes and frees hundreds of MB of small objects, and glibc keeps
    the freed pages for the process. Six 4.7 MB ``.model`` imports in two sessions left a server at
    655 MiB without it and 501 MiB with it (docs/measurements.md). Elsewhere than glibc: nothing."""
    libc = _libc()
    if libc is not None and hasattr(libc, "malloc_trim"):
        libc.malloc_trim(0)


FIRST_SCREEN_WAIT_S = 0.5
"""How long a page waits for the pretrained tokenizers it shows before drawing without the late ones."""
ARRIVAL_POLL_S = 0.5
"""How often a page with tokenizers still loading looks for arrivals."""


@st.cache_resource(show_spinner=False)
def _loader() -> PretrainedLoader[Tokenizer]:
    return PretrainedLoader(lambda name: load_pretrained(name))  # looked up when called: tests replace it


def pretrained(name: str) -> Tokenizer | None:
    """A pretrained tokenizer, waiting for it if need be, or ``None`` after showing why it is unavailable."""
    try:
        if name in _loader().ready([name]):
            return _loader().get(name)
        with st.spinner(f"Reading {PRETRAINED[name].title}'s {PRETRAINED[name].n_vocab:,} tokens…"):
            return _loader().get(name)
    except BpeError as error:
        _unavailable(name, error)
        return None


def start_loading(names: Sequence[str]) -> None:
    """Start loading ``names`` in the background now, so that they load while the page does other
    work (training its own run) before it asks for them with :func:`pretrained_ready`."""
    _loader().ready(names)


def pretrained_ready(names: Sequence[str]) -> tuple[dict[str, Tokenizer], list[str]]:
    """``(name -> tokenizer, names still loading)``: those of ``names`` loaded within
    :data:`FIRST_SCREEN_WAIT_S`, the others loading in the background (:func:`arrivals` reruns the
    page as they come); one that cannot load says why."""
    done = _loader().ready(names, wait_s=FIRST_SCREEN_WAIT_S)
    for name, result in done.items():
        if isinstance(result, BpeError):
            _unavailable(name, result)
    return ({name: result for name, result in done.items() if not isinstance(result, BpeError)},
            [name for name in names if name not in done])


@st.fragment(run_every=ARRIVAL_POLL_S)
def arrivals(loading: Sequence[str]) -> None:
    """While ``loading`` tokenizers are on their way: say so, and rerun the page once one is ready.
    A page calls this only while some are loading, so the timer stops with the last."""
    if _loader().ready(loading):
        st.rerun()
    titles = [PRETRAINED[name].title for name in loading]
    st.caption(f":material/hourglass_top: Reading {_listed(titles)} ({sum(PRETRAINED[name].n_vocab for name in loading):,} "
               "tokens): each appears here as soon as it is ready.")


def _listed(titles: Sequence[str]) -> str:
    return titles[0] if len(titles) == 1 else f"{', '.join(titles[:-1])} and {titles[-1]}"


def _unavailable(name: str, error: BpeError) -> None:
    st.error(f"**{escape_markdown(PRETRAINED[name].title)} is not available:** {escape_markdown(error)}", icon="🛑")


def imported() -> tuple[NamedTokenizer, ...]:
    return IMPORTED.get()


def choices() -> list[str]:
    """Every choice: ours, the pretrained ones, then each import (oldest first)."""
    return [OURS, *PRETRAINED, *(IMPORTED_PREFIX + item.name for item in imported())]


def label(choice: str, step: int) -> str:
    """What a selectbox shows for ``choice`` (plain text: Streamlit does not render it as Markdown)."""
    if choice == OURS:
        return f"Ours at step {step:,}"
    if choice in PRETRAINED:
        return pretrained_label(choice)
    return f"Imported: {choice[len(IMPORTED_PREFIX):]}"


def pretrained_label(name: str) -> str:
    """``GPT-4o (200,000 tokens)``: the size is the registry's, so no file is read to draw a menu."""
    entry = PRETRAINED[name]
    return f"{entry.title} ({entry.n_vocab:,} tokens)"


def pretrained_help() -> str:
    """Every pretrained tokenizer's one-line note, for a menu's help (Markdown, escaped)."""
    return "\n".join(f"- **{escape_markdown(e.title)}**: {escape_markdown(e.note)}" for e in PRETRAINED.values())


MODEL_NAME = SessionValue("model_name", "")
"""The model name the learner looked up last, and what it found (``MODEL_FOUND``)."""
MODEL_FOUND = SessionValue("model_found", None)


def model_name_input(on_found: Callable[[str], None]) -> None:
    """A box for a model's name (``llama-3.1-8b``): the tokenizer that model uses goes to ``on_found``
    (a registry name), and a line under the box says which it is, or which names are known."""
    def look_up(name: str) -> None:
        MODEL_NAME.set(name)
        if not name.strip():
            MODEL_FOUND.set(None)
            return
        try:
            found = encoding_name_for_model(name)
        except BpeError as error:
            MODEL_FOUND.set(("warning", str(error)))
            return
        MODEL_FOUND.set(("info", f"{name.strip()} uses {PRETRAINED[found].title}'s tokenizer: {PRETRAINED[found].note}"))
        on_found(found)

    st.text_input(
        "…or type a model's name", placeholder="llama-3.1-8b, gpt-4o-mini, mistral-7b, Qwen/Qwen2.5-7B",
        help="Model names as OpenAI, Hugging Face and Ollama write them, mapped as tiktoken's encoding_for_model does.",
        **bind(widget_key("model_name"), look_up, shown=MODEL_NAME.get()),
    )
    if (found := MODEL_FOUND.get()) is not None:
        kind, message = found
        (st.info if kind == "info" else st.warning)(escape_markdown(message), icon="🔎" if kind == "info" else "⚠️")


def resolve(choice: str, ours: Tokenizer) -> Tokenizer | None:
    """The tokenizer for ``choice``; ``None`` if it is gone (an import removed) or unavailable."""
    if choice == OURS:
        return ours
    if choice in PRETRAINED:
        return pretrained(choice)
    name = choice[len(IMPORTED_PREFIX):]
    item = next((item for item in imported() if item.name == name), None)
    return None if item is None else BUILT.get(item)


PASSES_THROUGH = (
    "Characters its codes never mention pass through as they are, as subword-nmt's apply_bpe passes them: each is a "
    "token of its own, with an id past the vocabulary, drawn dotted. "
)


def add_import(*, format: str, files: Mapping[str, bytes], pretokenizer: str, name: str) -> None:
    """Read uploaded files into a tokenizer and keep it, or leave an error note saying why not."""
    title = tokenizer_format(format).title
    default = title if len(files) > 1 else (next(iter(files), "") or title)
    wanted = clean_name(name, clean_name(default))
    try:
        text = import_json_bounded(format=format, files=files, pretokenizer=pretokenizer, name=wanted)
        with collector_paused():
            tokenizer = Tokenizer.from_json(text)
    except BpeError as error:  # every malformed file raises a FormatError (a BpeError) that teaches
        IMPORT_NOTE.set(("error", f"**Cannot import:** {escape_markdown(error)}"))
        return
    before = imported()
    final = unique_name(wanted, [item.name for item in before])
    item = NamedTokenizer.of(tokenizer, name=final, origin=f"{', '.join(files)} ({title})", text=text)
    BUILT.keep(item.key, tokenizer)
    _give_back_freed_memory()
    kept = (*before, item)[-MAX_IMPORTED:]
    while len(kept) > 1 and sum(each.n_vocab for each in kept) > IMPORTED_TOKENS_PER_SESSION:
        kept = kept[1:]  # the oldest first, as past MAX_IMPORTED
    IMPORTED.set(kept)
    dropped = [each.name for each in before if each.name not in {still.name for still in kept}]
    IMPORT_NOTE.set((
        "success",
        f"Imported **{escape_markdown(final)}**: {tokenizer.n_vocab:,} tokens, {len(tokenizer.merges):,} merges. "
        + (PASSES_THROUGH if isinstance(tokenizer, SubwordNmtTokenizer) else "")
        + "Pick it on the Encode & decode and Compare pages."
        + (f" To keep at most {MAX_IMPORTED} imports and {IMPORTED_TOKENS_PER_SESSION:,} tokens in this session, "
           f"{escape_markdown(', '.join(dropped))} {'was' if len(dropped) == 1 else 'were'} removed." if dropped else ""),
    ))


def remove_import(name: str) -> None:
    IMPORTED.set(tuple(item for item in imported() if item.name != name))
