"""Reading BPE Lab's own versioned JSON files (traces and tokenizers): the shared header checks.

Every file carries ``"format"`` and ``"version"``, so a file of another kind or of a newer
version is refused with a message saying which, instead of failing somewhere inside.

    >>> read_versioned_json('{"format": "bpe-lab/x", "version": 1}', format="bpe-lab/x", version=1, what="x file")
    {'format': 'bpe-lab/x', 'version': 1}
"""

from __future__ import annotations

import json

from ..errors import FormatError


def read_versioned_json(text: str, *, format: str, version: int | tuple[int, ...], what: str) -> dict:
    """Parse ``text`` and check its header (``version``: the one, or the ones, read); ``what`` names
    the file in messages ("trace")."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as error:
        raise FormatError(f"the {what} is not valid JSON ({error}); was the file cut short?") from None
    if not isinstance(data, dict) or data.get("format") != format:
        raise FormatError(f"not a BPE Lab {what}: expected \"format\": \"{format}\"")
    versions = version if isinstance(version, tuple) else (version,)
    if data.get("version") not in versions:
        raise FormatError(
            f"{what} version {data.get('version')!r} is not supported: this BPE Lab reads version "
            + " or ".join(map(str, versions))
        )
    return data
