"""Running a suite case as a learner does: the program written out with its edits, then the check
command run on it (``check --command`` for a trainer, ``check-encode --command --batch`` for an
encoder), its JSON report read back.

    >>> from tests.learner_suite.cases import Edit
    >>> edited("a = 1\\nb = 2\\n", (Edit("b = 2", "b = 3"),))
    'a = 1\\nb = 3\\n'
"""

from __future__ import annotations

import contextlib
import functools
import io
import json
import shlex
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from bpe.cli.commands import main
from bpe.tokens.byte_level import to_byte_text
from bpe.training.presets import python_docs_text

from .cases import SPECIAL, Edit, SuiteCase

HERE = Path(__file__).resolve().parent
CORPORA = {
    "docs": lambda: python_docs_text()[:4_000],
    "docs+specials": lambda: SPECIAL.join(python_docs_text()[i:i + 1_000] for i in range(0, 4_000, 1_000)),
    "mixed": lambda: SPECIAL.join([python_docs_text()[:2_000], "    def f(x):\n        return x\n" * 6,
                                   "ﬁne ﬁles, ２０２４ ① naïve café déjà vu, über straße " * 12,
                                   "Все люди рождаются свободными; 日本語の文字と東京 " * 8]),
}
"""The corpora the trainers learn from, by a case's ``corpus``."""


@dataclass(frozen=True)
class Outcome:
    report: dict
    seconds: float
    """From the command's start to its report: the learner's program and the check."""

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(cause["code"] for cause in self.report["diagnosis"])

    @property
    def kind(self) -> str:
        return self.report["verdict_kind"]

    @property
    def also(self) -> tuple[str, ...]:
        return tuple(item["code"] for item in self.report["cannot_tell_apart"])

    @property
    def label(self) -> str:
        """The named re-training (trainer) or re-encoding (encoder)."""
        best = self.report.get("best_match") or {}
        return best.get("variant") or self.report.get("best") or ""

    def reproduced(self) -> str:
        """``50 of 50 merges`` or ``12 of 12 texts``: what the verdict's re-training reproduces."""
        report = self.report
        if "best_match" in report:
            reproduced = report["best_match"]["matching"] if self.kind == "explained" else report["matching"]
            return f"{reproduced} of {report['total']} merges"
        reproduced = report["total"] if self.kind == "explained" else report["matching"]
        return f"{reproduced} of {report['total']} texts"


def edited(source: str, edits: tuple[Edit, ...]) -> str:
    """``source`` with each edit made; an edit whose passage is not there exactly once is an error."""
    for edit in edits:
        found = source.count(edit.old)
        if found != 1:
            raise ValueError(f"the passage {edit.old[:60]!r} occurs {found} times, not once")
        source = source.replace(edit.old, edit.new)
    return source


def program(case: SuiteCase, folder: Path) -> Path:
    """The case's program as the learner wrote it, in ``folder``."""
    path = folder / f"{abs(hash(case.name)):x}_{Path(case.program).name}"
    path.write_text(edited((HERE / case.program).read_text(encoding="utf-8"), case.edits), encoding="utf-8")
    return path


@functools.cache
def tokenizer_folder(root: str) -> Path:
    """The encoders' tokenizer (``tests.learner_encoders.suite_tokenizer``) in the files each shape
    reads: merges.json and specials.json (minbpe), encoder.json and vocab.bpe (OpenAI, the HF course),
    vocab.json (id -> hex bytes), and BPE Lab's own suite.json for the check."""
    from ..learner_encoders import suite_tokenizer

    tokenizer, merges, specials = suite_tokenizer()
    folder = Path(root) / "tokenizer"
    folder.mkdir(parents=True, exist_ok=True)
    tokens = tokenizer.tokens
    (folder / "merges.json").write_text(json.dumps(merges))
    (folder / "specials.json").write_text(json.dumps(specials))
    (folder / "vocab.json").write_text(json.dumps({token_id: token.data.hex() for token_id, token in tokens.items()
                                                   if token_id not in specials.values()}))
    encoder = {to_byte_text(token.data): token_id for token_id, token in tokens.items() if token_id not in specials.values()}
    (folder / "encoder.json").write_text(json.dumps({**encoder, **specials}, ensure_ascii=False), encoding="utf-8")
    lines = [f"{to_byte_text(tokens[left].data)} {to_byte_text(tokens[right].data)}" for left, right, _ in merges]
    (folder / "vocab.bpe").write_text("#version: 0.2\n" + "\n".join(lines) + "\n", encoding="utf-8")
    tokenizer.save(folder / "suite.json")
    return folder


def run_case(case: SuiteCase, folder: Path) -> Outcome:
    """The check command's JSON report on the case's program (``folder``: where its files go)."""
    path = program(case, folder)
    command = shlex.join([sys.executable, str(path), *case.args])
    if case.kind == "trainer":
        corpus = folder / f"{case.corpus}.txt"
        if not corpus.exists():
            corpus.write_text(CORPORA[case.corpus](), encoding="utf-8")
        args = ["check", "--command", command, "--file", str(corpus), *case.check, "--json"]
    else:
        tokenizer = tokenizer_folder(str(folder))
        command = shlex.join([sys.executable, str(path), str(tokenizer)])
        args = ["check-encode", "--tokenizer", str(tokenizer / "suite.json"), "--command", command, "--batch", *case.check,
                "--json"]
    out, err = io.StringIO(), io.StringIO()
    started = time.perf_counter()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(args)
    seconds = time.perf_counter() - started
    if code != 0:
        raise RuntimeError(f"{case.name}: exit code {code}: {err.getvalue().strip()}")
    return Outcome(json.loads(out.getvalue()), seconds)
