r"""User text inside Streamlit Markdown: shown as typed, never interpreted.

Scope: escaping the words a user chose (a file name, a regex, a special token, an error message
that quotes them) before they go into ``st.error``, ``st.caption`` or ``st.markdown``. Out of
scope: HTML, which :mod:`bpe.views.token_html` escapes with :func:`html.escape`. It lives in the
engine, the lowest layer, because the app's setting declarations (``bpe.app``), ``ui/`` and the
pages all put text into Markdown, and a layer never imports one above it.

Why it matters: Streamlit renders Markdown (not raw HTML), but Markdown alone can load an image
from any server (``![x](http://elsewhere/x.png)``), draw a link, or switch to LaTeX (``$``) and
coloured text (``:red[...]``). A backslash before every Markdown character (and before a
heading or list marker at the start) turns each of those back into plain characters. Quotes,
commas and full stops inside a line mean nothing to Markdown: they stay, and messages stay
readable.

    >>> print(escape_markdown("![x](http://e.com/a.png) *bold* $x$, 'quoted'"))
    \!\[x\]\(http\://e.com/a.png\) \*bold\* \$x\$, 'quoted'
    >>> print(escape_markdown("# not a heading"), escape_markdown("1. not a list"))
    \# not a heading 1\. not a list
    >>> inline_code("a`b")
    '`` a`b ``'
"""

from __future__ import annotations

import re

_INLINE = re.compile(r"([\\`*_\[\]()<>~$:&!|])")
"""Characters that start or end Markdown inside a line: emphasis, code, links and images, HTML,
strikethrough, LaTeX, Streamlit's :colour[...] and :emoji:, entities, tables."""
_BLOCK_START = re.compile(r"^(\s*)([#+=-]|\d+(?=[.)]))")
"""What makes a line a heading, a list item or a rule when it comes first."""
_BACKTICKS = re.compile(r"`+")


def escape_markdown(text: object) -> str:
    """``text`` (or ``str(text)``, e.g. an exception) as literal Markdown on one line.

    subtle: line breaks become spaces, so only the first character can start a heading or a list,
    and a table (which needs a second line) can never start.
    """
    one_line = _INLINE.sub(r"\\\1", " ".join(str(text).splitlines()))
    block = _BLOCK_START.match(one_line)
    if block is None:
        return one_line
    if block.group(2)[0].isdigit():  # "1. x" -> "1\. x"
        end = block.end()
        return f"{one_line[:end]}\\{one_line[end:]}"
    return f"{block.group(1)}\\{one_line[block.start(2):]}"


def inline_code(text: str) -> str:
    """``text`` as a Markdown code span, with a fence longer than any run of backticks inside.

    >>> inline_code("<|endoftext|>")
    '`<|endoftext|>`'
    """
    one_line = " ".join(text.splitlines())
    fence = "`" * (max((len(run) for run in _BACKTICKS.findall(one_line)), default=0) + 1)
    # subtle: CommonMark strips one space from each end of a code span, so pad when the text has
    # a backtick (it may touch the fence) or an end space (it would be stripped)
    pad = " " if "`" in one_line or one_line[:1] == " " or one_line[-1:] == " " else ""
    return f"{fence}{pad}{one_line}{pad}{fence}"
