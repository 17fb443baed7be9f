"""Rich display in notebooks: the methods :class:`~bpe.trace.Trace` and
:class:`~bpe.tokenizer.Tokenizer` inherit, so that Jupyter draws them instead of printing a repr.

Scope: one-line delegations only. The drawing lives in :mod:`bpe.views.notebook`, the same pure
builders the app uses, and is imported on first use: the engine imports without pandas or altair,
and only :meth:`TraceDisplay.pair_chart` needs them (altair draws the chart).

    >>> from bpe import PRESETS, Tokenizer, train
    >>> trace = train(PRESETS["wikipedia"].corpus(), PRESETS["wikipedia"].settings)
    >>> "aaab" in trace._repr_html_(), "aaab" in Tokenizer.from_trace(trace).show("aaabdaaabac")
    (True, True)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the views import the engine, so the engine names them only for type checkers
    import altair

    from .views.notebook import Html


class TraceDisplay:
    """Jupyter shows a trace as its merges and the corpus after the last merge."""

    __slots__ = ()

    def _repr_html_(self) -> str:
        from .views.notebook import trace_html
        return trace_html(self)

    def pair_chart(self, step: int) -> "altair.LayerChart":
        """The pair counts just before merge ``step``, the winner labelled (needs altair)."""
        from .views.notebook import pair_chart
        return pair_chart(self, step)


class TokenizerDisplay:
    """Jupyter shows a tokenizer as its size, rules and first merges; :meth:`show` draws a text."""

    __slots__ = ()

    def _repr_html_(self) -> str:
        from .views.notebook import tokenizer_html
        return tokenizer_html(self)

    def show(self, text: str, *, allowed_special: "str | set[str]" = "all") -> "Html":
        """``text`` as token chips (like Hugging Face's ``EncodingVisualizer``); special tokens in it
        are drawn as such unless ``allowed_special`` (as in ``encode``) leaves them out."""
        from .views.notebook import tokens_html
        return tokens_html(self, text, allowed_special=allowed_special)
