"""What the Import & export page offers for download: each format's files as bytes, or why not.

Scope: one :class:`ExportOffer` per registered format for a tokenizer (its files, or the
format's sentence on why it cannot hold it), what to upload to import one, a zip of a multi-file
format built in memory, and MIME types.

    >>> from bpe import PRESETS, Tokenizer, train
    >>> tok = Tokenizer.from_trace(train(PRESETS["wikipedia"].corpus(), PRESETS["wikipedia"].settings))
    >>> offers = {offer.format: offer for offer in export_offers(tok, stem="wikipedia")}
    >>> sorted(offers["gpt2"].files), offers["gpt2"].zip_name
    (['encoder.json', 'vocab.bpe'], 'wikipedia-gpt2.zip')
    >>> offers["gpt2"].zip_bytes()[:2]  # a zip archive
    b'PK'

Out of scope: the layouts themselves (``bpe.formats``) and the download buttons (the page).
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from ..encoding.tokenizer import Tokenizer
from ..formats import TokenizerFormat, all_formats
from ..formats.files import export_all
from ..notation.markdown import escape_markdown

MIME_TYPES: Mapping[str, str] = MappingProxyType({".json": "application/json", ".zip": "application/zip"})
"""By file suffix; every other file a format writes is plain text (so a new format needs no entry here)."""
_ZIP_TIME = (2024, 1, 1, 0, 0, 0)  # fixed, so the same tokenizer always zips to the same bytes


@dataclass(frozen=True)
class ExportOffer:
    """One format for one tokenizer: its files (``name -> bytes``), or the reason it cannot hold it."""

    format: str
    title: str
    note: str
    files: Mapping[str, bytes]
    problem: str | None
    zip_name: str | None
    """Set when the format has more than one file (they can be downloaded together)."""

    def zip_bytes(self) -> bytes:
        return zip_files(self.files)


def download_name(stem: str, name: str) -> str:
    """The name a downloaded file gets: which run and step it holds, then the library's own name
    (libraries read any file name; a folder of ``tokenizer.json`` files would not say which is which).

    >>> download_name("sennrich-step10", "tokenizer.json")
    'sennrich-step10-tokenizer.json'
    """
    return f"{stem}-{name}"


def mime_type(file_name: str) -> str:
    """``"tokenizer.json" -> "application/json"``; plain text for anything else."""
    suffix = file_name[file_name.rfind("."):] if "." in file_name else ""
    return MIME_TYPES.get(suffix, "text/plain")


def zip_files(files: Mapping[str, bytes]) -> bytes:
    """A zip archive (deflated, fixed timestamps) of ``name -> bytes``, built in memory."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            info = zipfile.ZipInfo(name, date_time=_ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data)
    return buffer.getvalue()


def export_offers(tokenizer: Tokenizer, *, stem: str) -> tuple[ExportOffer, ...]:
    """Every format in :data:`bpe.formats.FORMATS` order; ``stem`` names the zips (``stem-gpt2.zip``)."""
    return offers_of(export_all(tokenizer), stem=stem)


def offers_of(exported: Mapping[str, Mapping[str, bytes] | str], *, stem: str) -> tuple[ExportOffer, ...]:
    """The offers of :func:`~bpe.formats.files.export_all`'s files and refusals (a job's, written apart)."""
    offers = []
    for entry in all_formats():
        files = exported[entry.name]
        problem = files if isinstance(files, str) else None
        files = MappingProxyType({} if problem else dict(files))
        offers.append(ExportOffer(entry.name, entry.title, entry.note, files, problem,
                                  f"{stem}-{entry.name}.zip" if len(files) > 1 else None))
    return tuple(offers)


def holders_line(offers: Sequence[ExportOffer]) -> str:
    """Which formats hold the tokenizer and which cannot, in one line of Markdown (each card says why).

    >>> from bpe.formats import FORMATS
    >>> offers = [ExportOffer(name, FORMATS[name].title, "", {}, problem, None) for name, problem in (("ours", None), ("hf", "no"))]
    >>> holders_line(offers)
    '**Holds it:** BPE Lab JSON. **Cannot hold it:** Hugging Face tokenizer.json (its card says why).'
    """
    holds = ", ".join(escape_markdown(offer.title) for offer in offers if not offer.problem)
    cannot = [escape_markdown(offer.title) for offer in offers if offer.problem]
    why = f" **Cannot hold it:** {', '.join(cannot)} ({'its card says' if len(cannot) == 1 else 'each card says'} why)." if cannot else ""
    return f"**Holds it:** {holds or 'none of these formats'}.{why}"


def upload_hint(entry: TokenizerFormat) -> str:
    """What the import form asks for (Markdown).

    >>> from bpe.formats import FORMATS
    >>> upload_hint(FORMATS["gpt2"]), upload_hint(FORMATS["minbpe"])
    ('Upload **both** `encoder.json` and `vocab.bpe`.', 'Upload `tokenizer.model` (the `.vocab` file is not needed).')
    """
    wanted, for_people = entry.file_names[:entry.reads], entry.file_names[entry.reads:]
    hint = "Upload " + ("**both** " if len(wanted) == 2 else "") + " and ".join(f"`{name}`" for name in wanted)
    not_needed = ", ".join(f"`{name[name.rfind('.'):]}`" for name in for_people)
    return hint + (f" (the {not_needed} file is not needed)." if for_people else ".")
