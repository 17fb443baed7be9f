"""Running a learner's own program (their trainer or their encoder) for the check commands.

Scope: one run of a command with bytes on its standard input, within a time limit, its standard
output returned; every way it can fail is one :class:`~bpe.errors.BpeError` that says what to
change. Out of scope: what the program is given and what its output means (``check`` and
``check-encode`` read it). The command is split with :func:`shlex.split` and run without a shell.

    >>> run_program("python3 -c 'import sys; print(sys.stdin.read().upper())'", b"hi", what="the text").strip()
    b'HI'
"""

from __future__ import annotations

import shlex
import subprocess

from ..errors import BpeError


def run_program(command: str, given: bytes, *, what: str, timeout_s: float = 10.0) -> bytes:
    """``command``'s standard output when run with ``given`` on its standard input (``what`` names
    ``given`` in a refusal: "the corpus", "'hello'")."""
    try:
        done = subprocess.run(shlex.split(command), input=given, capture_output=True, timeout=timeout_s, check=False)
    except (OSError, ValueError) as error:
        raise BpeError(f"cannot run {command!r}: {error}") from None
    except subprocess.TimeoutExpired:
        raise BpeError(f"{command!r} took over {timeout_s:g} s on {what}: does it read standard input to its end and "
                       "exit?") from None
    if done.returncode != 0:
        tail = done.stderr.decode("utf-8", errors="replace").strip().splitlines()[-1:] or [""]
        raise BpeError(f"{command!r} exited with code {done.returncode} on {what}: {tail[0][:200]}")
    return done.stdout
