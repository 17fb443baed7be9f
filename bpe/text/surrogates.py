r"""Text that is not valid Unicode: lone surrogates, replaced as tiktoken replaces them.

A Python ``str`` may hold surrogate code points (U+D800 to U+DFFF), which UTF-8 cannot encode:
``json.loads('"\\ud800"')`` makes one, and so does reading bytes with ``errors="surrogateescape"``.
tiktoken's ``encode`` reads such text again through UTF-16: a surrogate pair becomes the character
it stands for and a lone surrogate becomes U+FFFD (the replacement character, "�"). BPE Lab does the
same wherever text enters the engine (``encode`` and its ordinary, walkthrough and streamed forms,
and training), so every path gives tiktoken's ids and none raises ``UnicodeEncodeError``.

    >>> replace_lone_surrogates("a\ud800b")
    'a�b'
    >>> replace_lone_surrogates("\ud83d\ude00") == "\U0001F600", replace_lone_surrogates("plain") == "plain"
    (True, True)
"""

from __future__ import annotations


def replace_lone_surrogates(text: str) -> str:
    """``text`` with each surrogate pair joined and each lone surrogate replaced by U+FFFD (tiktoken's rule)."""
    if text.isascii():  # the common case, answered from a flag CPython keeps on every string
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return text
