"""Check my encoder's views: the form the learner fills in, the first difference side by side, the texts.

Scope: pure builders from an :class:`~bpe.checking.encode_check.EncodeCheckResult` to escaped HTML
and tables, and the immutable record of what the learner entered (it crosses reruns in the
session). Out of scope: the check (:mod:`bpe.checking.encode_check`) and Streamlit (``ui.check_encoder``
composes these). Every string from the learner (texts, file names, tokens) is escaped here.

    >>> from bpe.checking.encode_cases import EncodeCase
    >>> from bpe.checking.encode_check import check_encoder
    >>> from bpe.pretrained.registry import load_pretrained
    >>> gpt2 = load_pretrained("gpt2")
    >>> result = check_encoder(gpt2, [EncodeCase("<b>hi", (27, 65, 29, 5303))])   # '<', 'b', '>', 'hi': right
    >>> result.matching, summary(result)
    (1, 'Your encoder gives the tokenizer’s ids for all 1 of your texts.')
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType

import pandas as pd

from ..checking.encode_cases import EncodeCase, pasted_cases, probe_texts, quoted_line, read_cases, text_lines
from ..checking.encode_check import UNEXPLAINED, EncodeCheckResult
from ..checking.encode_rules import ENCODER_MISTAKES
from ..encoding.tokenizer import Tokenizer
from ..errors import BpeError
from ..notation.markdown import escape_markdown
from ..notation.spelling import visible_text
from .check import causes_html, markdown_with_code

ENCODER_CSS = """
<style>
.bpe-check .bpe-ids { font-family: ui-monospace, monospace; color: #333; font-size: .9em; }
.bpe-encode-difference { table-layout: auto; }  /* the labels narrow, the tokens wide */
.bpe-encode-difference tbody th { width: 9em; overflow-wrap: normal; }  /* a label breaks between words only */
.bpe-encode-difference .pair { white-space: normal; line-height: 1.9; }  /* a row of tokens wraps on a phone */
.bpe-encode-difference .pair span { display: inline-block; white-space: pre; margin: 0 .15em .15em 0; }
.bpe-check .pair span.bpe-differs { background: #FFF1E6; border-color: #B34700; border-style: dashed; }
</style>
"""
MODE_LABELS = MappingProxyType({"allowed": "as special tokens (one id each)", "plain": "as plain text"})
"""How special-token text is read, as the page offers it (:data:`~bpe.checking.encode_rules.MODES`)."""


@dataclass(frozen=True)
class EncoderForm:
    """What the learner entered on the Check my encoder page; replaced, never mutated."""

    tokenizer: str = "run"
    """``run`` (the Train page's example with all its merges), a pretrained name, or ``upload``."""
    upload_name: str = ""
    upload: bytes = b""
    """A tokenizer file, or the merges the learner's trainer wrote."""
    pretokenizer: str = "gpt2"
    """The split of an uploaded file that does not store one."""
    cases: str = "paste"
    """``paste`` (texts and ids, a line each) or ``upload`` (a JSON file)."""
    texts: str = ""
    ids: str = ""
    cases_name: str = ""
    cases_file: bytes = b""
    mode: str = "allowed"

    def with_probe_texts(self, tokenizer: Tokenizer, mode: str = "allowed") -> "EncoderForm":
        """This form with the probe texts in the texts box, one a line (a text with a line break as a JSON
        string: :func:`~bpe.checking.encode_cases.quoted_line`), ids to fill in."""
        return replace(self, cases="paste", texts="\n".join(quoted_line(text) for text in probe_texts(tokenizer, mode)))

    def read_cases(self) -> list[EncodeCase]:
        """The learner's texts and ids; a :class:`BpeError` says what to fix."""
        if self.cases == "upload":
            if not self.cases_file:
                raise BpeError("no ids file yet: upload the JSON your encoder's run wrote, or paste texts and ids")
            return read_cases(self.cases_file, name=self.cases_name or "your ids")
        if not self.texts.strip():
            raise BpeError("no texts yet: type your texts (one a line) or fill in the probe texts, then your ids")
        return pasted_cases(self.texts, self.ids)


def _tokens_html(shown: Sequence[str], ids: Sequence[int], differs: Sequence[bool]) -> str:
    chips = "".join(f'<span class="{"bpe-differs" if mark else ""}">{html.escape(text)}</span>'
                    for text, mark in zip(shown, differs))
    return f'<span class="pair">{chips}</span><br><span class="bpe-ids">{html.escape(", ".join(map(str, ids)))}</span>'


def difference_html(result: EncodeCheckResult) -> str:
    """The first difference: the text, then the learner's tokens and the tokenizer's from there, side
    by side with their ids (tokens that are not the tokenizer's marked with a dashed border)."""
    d = result.difference
    if d is None:
        return ""
    reference = set(d.reference)
    yours = _tokens_html(d.yours_shown, d.yours, [token not in reference for token in d.yours])
    theirs = _tokens_html(d.reference_shown, d.reference, [False] * len(d.reference))
    text = html.escape(visible_text(d.text.encode("utf-8", errors="surrogatepass")))
    rows = [("Text", text), ("Your tokens from there", yours), ("The tokenizer's", theirs)]
    body = "".join(f'<tr><th scope="row">{label}</th><td>{cell}</td></tr>' for label, cell in rows)
    head = f"Text {d.case + 1}, token {d.token + 1} (at character {d.where})"
    return (f'<table class="bpe-check bpe-encode-difference"><thead><tr><th colspan="2">{html.escape(head)}</th></tr>'
            f"</thead><tbody>{body}</tbody></table>")


VERDICT_ICONS = MappingProxyType({"correct": ":material/check_circle:", "explained": ":material/bug_report:",
                                  "unknown": ":material/help:"})


def verdict_markdown(result: EncodeCheckResult) -> tuple[str, str]:
    """``(level, Markdown)``: the one verdict (escaped: it quotes the learner's texts and tokens), and the
    mistakes the learner's texts cannot tell apart from it."""
    text = result.headline
    if result.alternatives and result.verdict_kind == "explained":
        against = result.best.label if result.best else "it"
        text += "\n\nCannot be told apart by your texts: " + "; ".join(a.sentence(against) for a in result.alternatives) + "."
    return ("success" if result.verdict_kind == "correct" else "warning"), markdown_with_code(text)


def probe_json(form: EncoderForm) -> str:
    """The texts of the box as a JSON list (line breaks kept), for the learner's encoder to read."""
    return json.dumps(text_lines(form.texts), ensure_ascii=False)


def diagnosis_html(result: EncodeCheckResult) -> str:
    """Each cause of the verdict as a card: its code, title, line, explanation and fix (escaped); none for
    "not one of the mistakes I know", whose words are the verdict's."""
    return causes_html([(cause.code, f"{cause.title}, in {cause.line}", cause.message)
                        for cause in result.diagnosis if cause.code != UNEXPLAINED])


def summary(result: EncodeCheckResult) -> str:
    """One sentence: how many texts match."""
    if result.matching == result.total:
        return f"Your encoder gives the tokenizer’s ids for all {result.total:,} of your texts."
    return (f"{result.matching:,} of your {result.total:,} texts get the tokenizer’s ids; the first difference is in "
            f"text {result.difference.case + 1}.")


def texts_frame(result: EncodeCheckResult) -> pd.DataFrame:
    """Each text (in the notation), how many tokens each side made, and where they first differ."""
    rows = [{"text": visible_text(case.text.encode("utf-8", errors="surrogatepass"))[:80],
             "your tokens": len(case.yours), "the tokenizer's": len(case.reference),
             "first difference": "—" if case.first_difference is None else f"token {case.first_difference + 1}"}
            for case in result.cases]
    return pd.DataFrame(rows, columns=["text", "your tokens", "the tokenizer's", "first difference"])


def tried_frame(result: EncodeCheckResult) -> pd.DataFrame:
    """Every mistaken encoder tried and how many of the texts it reproduces, best first."""
    rows = [{"re-encoded with": entry.variant.label,
             "mistake": " and ".join(ENCODER_MISTAKES[part.code].title for part in entry.variant.single),
             "texts reproduced": f"{entry.reproduced} of {result.total}"}
            for entry in sorted(result.tried, key=lambda entry: -entry.reproduced)]
    return pd.DataFrame(rows, columns=["re-encoded with", "mistake", "texts reproduced"])
