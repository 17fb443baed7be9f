"""The command line, ``python -m bpe`` and ``bpe-lab``: the parser and ``train``/``encode``/``decode``
(:mod:`.commands`), the options they share (:mod:`.arguments`), and one module per other command
(``app``, ``check``, ``check-encode``, dropout's ``encode --dropout``).
"""
