"""BPE Lab in Jupyter: ``import bpe.notebook``, and every trace and tokenizer draws itself.

    import bpe.notebook                       # or: %load_ext bpe.notebook
    from bpe.notebook import pair_chart, show
    trace                                     # its merges, and the corpus split by them
    tokenizer                                 # its size, rules and first merges
    show(tokenizer, "aaabdaaabac")            # a text as token chips
    pair_chart(trace, 3)                      # the pair counts before merge 3 (needs altair)

Importing this module tells IPython's HTML formatter to draw :class:`~bpe.training.trace.Trace` and
:class:`~bpe.encoding.tokenizer.Tokenizer` (subclasses included) with the views in
:mod:`bpe.views.notebook`, the same builders the app's pages draw with. Outside IPython it
registers nothing and the functions still return the HTML, a ``str`` that Jupyter would draw.

Why a module of its own: the engine's classes do not know how they are drawn. The views build on
the engine, so an engine class that drew itself would import a layer above it; this module sits
above both, as ``ui/`` does for Streamlit, and connects them.

    >>> from bpe import PRESETS, Tokenizer, train
    >>> trace = train(PRESETS["wikipedia"].corpus(), PRESETS["wikipedia"].settings)
    >>> "<h4>BPE trace: 3 merges</h4>" in trace_html(trace), "5 tokens" in show(Tokenizer.from_trace(trace), "aaabdaaabac")
    (True, True)
"""

from __future__ import annotations

import sys

from .encoding.tokenizer import Tokenizer
from .training.trace import Trace
from .views.notebook import Html, pair_chart, tokenizer_html, trace_html
from .views.notebook import tokens_html as show

__all__ = ["Html", "load_ipython_extension", "pair_chart", "register", "show", "tokenizer_html", "trace_html"]


def register(ipython: object | None = None) -> bool:
    """Draw traces and tokenizers as HTML in ``ipython`` (the running IPython by default).

    Returns whether there was an IPython to register with. Registering again is harmless.
    """
    if ipython is None:
        # subtle: a kernel has always imported IPython already; if nothing has, this is no notebook,
        # and importing IPython here would only slow a script down.
        running = getattr(sys.modules.get("IPython"), "get_ipython", None)
        ipython = running() if running is not None else None
    if ipython is None:
        return False
    html = ipython.display_formatter.formatters["text/html"]
    html.for_type(Trace, trace_html)
    html.for_type(Tokenizer, tokenizer_html)
    return True


load_ipython_extension = register
"""``%load_ext bpe.notebook`` calls this with the running IPython."""

register()
