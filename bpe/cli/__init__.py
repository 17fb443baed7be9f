"""The command line, ``python -m bpe`` and ``bpe-lab``: the parser and ``train``/``encode``/``decode``
(:mod:`.commands`), the options they share (:mod:`.arguments`), and one module per other command
(``app``, ``check``, ``check-encode``, dropout's ``encode --dropout``).
"""

# The names of bpe/cli.py before it became this package (issue 41).
from .commands import build_parser, main, merge_records

__all__ = ["build_parser", "main", "merge_records"]
