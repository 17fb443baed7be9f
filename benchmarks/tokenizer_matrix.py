"""The tokenizer matrix, measured: every operation a page or the command line offers
(``bpe.teaching.operations``) on every tokenizer (``tests/tokenizer_rows.py``), on the text its page runs it on
by default: each cell's CPU seconds and peak memory, or why it is refused, and whether it is within its bound.

The bounds (``bpe.limits``): a cell the page runs in its own thread costs at most ``PAGE_WORK_CPU_S`` (2 s) of
CPU; one whose work grows with the vocabulary or a long sample (``apart``: vocabulary health, extending, the
exports) runs as a job, in a worker of the job board, within ``JOB_CPU_S`` and ``JOB_MEMORY_MB``: for the
pretrained rows those are measured again in a real worker, as the app runs them (the Extend page's job
extends and writes every format; Vocabulary health's checks python-docs).

Each cell is measured cold, in this process, once: CPU by ``time.process_time``, memory as the growth of the
peak resident set (Linux's ``VmHWM``, reset before each cell through ``/proc/self/clear_refs``; ``n/a``
elsewhere). The tokenizers are loaded first (merges from the per-user cache, as a server has them).

    .venv/bin/python benchmarks/tokenizer_matrix.py                       # every row and operation
    .venv/bin/python benchmarks/tokenizer_matrix.py --rows pretrained:gpt2 --ops encode,health
    .venv/bin/python benchmarks/tokenizer_matrix.py --markdown docs/tokenizer_matrix.md   # the table, too
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bpe.jobs.board import DONE, JobBoard  # noqa: E402
from bpe.limits import JOB_CPU_S, JOB_MEMORY_MB, PAGE_WORK_CPU_S  # noqa: E402
from bpe.pretrained.registry import PRETRAINED  # noqa: E402
from bpe.teaching.extension import DEFAULT_LEAST, DEFAULT_MERGES, NEW_TEXTS, DEFAULT_TEXT, cost_texts  # noqa: E402
from bpe.teaching.jobs import TokenizerSource, extension_request, health_request  # noqa: E402
from bpe.teaching.operations import OPERATIONS, run_operation  # noqa: E402
from bpe.training.presets import python_docs_text  # noqa: E402
from tests.tokenizer_rows import ROWS, row_tokenizer  # noqa: E402

STATUS = Path("/proc/self/status")


def _status_mb(key: str) -> float:
    return next(int(line.split()[1]) for line in STATUS.read_text().splitlines() if line.startswith(key)) / 1024


def measured(work):
    """``(result, cpu_s, peak_mb)``: ``work()``'s CPU and how far it raised the peak resident set (None: unknown)."""
    try:
        Path("/proc/self/clear_refs").write_text("5")  # the peak back to now
        before = _status_mb("VmRSS")
    except OSError:
        before = None
    cpu = time.process_time()
    result = work()
    cpu = time.process_time() - cpu
    return result, cpu, None if before is None else max(_status_mb("VmHWM") - before, 0.0)


def in_a_worker(board: JobBoard, name: str, operation: str):
    """The app's own job for ``operation`` on pretrained ``name`` (``None`` if the app runs no such job):
    its worker's CPU seconds and peak memory (resident, MB), or its refusal."""
    entry, source = PRETRAINED[name], TokenizerSource(name)
    if operation == "health":
        request = health_request(source, text=python_docs_text())
    elif operation == "extend":
        text = NEW_TEXTS[DEFAULT_TEXT].text
        request = extension_request(source, text=text, merges=DEFAULT_MERGES, min_frequency=DEFAULT_LEAST, name=entry.title,
                                    time_limit_s=60.0, priced=cost_texts("Hindi", text))
    else:
        return None
    view = board.ask((name, operation), request)
    while not view.finished:
        board.wait((name, operation), view, 1.0)
        view = board.ask((name, operation), request)
    return view


def verdict(apart: bool, cpu: float, mb: float | None) -> str:
    if apart:
        return "ok" if cpu <= JOB_CPU_S and (mb is None or mb <= JOB_MEMORY_MB) else "OVER the job budget"
    return "ok" if cpu <= PAGE_WORK_CPU_S else f"OVER {PAGE_WORK_CPU_S:g} s"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", help="comma-separated rows (default: all): " + ", ".join(ROWS))
    parser.add_argument("--ops", help="comma-separated operations (default: all): " + ", ".join(OPERATIONS))
    parser.add_argument("--no-workers", action="store_true", help="skip the job board's measurements of the pretrained rows")
    parser.add_argument("--markdown", help="also write the matrix as a Markdown table to this file")
    args = parser.parse_args()
    rows = args.rows.split(",") if args.rows else list(ROWS)
    ops = args.ops.split(",") if args.ops else list(OPERATIONS)
    print(f"load average {os.getloadavg()[0]:.2f}; bounds: {PAGE_WORK_CPU_S:g} s of CPU in the page, "
          f"{JOB_CPU_S:g} s and {JOB_MEMORY_MB:,} MB in a job")
    board = JobBoard(workers=1)
    cells: dict[tuple[str, str], str] = {}
    over = 0
    for row in rows:
        tokenizer, load_cpu, load_mb = measured(lambda row=row: row_tokenizer(row))
        print(f"\n{row}: {tokenizer.n_vocab:,} tokens, loaded in {load_cpu:.2f} s CPU")
        for name in ops:
            operation = OPERATIONS[name]
            text = operation.page_text()
            outcome, cpu, mb = measured(lambda: run_operation(operation, tokenizer, text))
            memory = "n/a" if mb is None else f"{mb:,.0f} MB"
            if outcome.refused:
                cells[row, name] = f"refused: {outcome.refused}"
                print(f"  {name:32} {cpu:7.2f} s  {memory:>8}  refused: {outcome.refused[:110]}")
                continue
            said = verdict(operation.apart, cpu, mb)
            over += said != "ok"
            where = "apart" if operation.apart else "page"
            cells[row, name] = f"{cpu:.2f} s, {memory}"
            print(f"  {name:32} {cpu:7.2f} s  {memory:>8}  {where}: {said}")
            kind, _, pretrained = row.partition(":")
            if operation.apart and kind == "pretrained" and not args.no_workers:
                view = in_a_worker(board, pretrained, name)
                if view is not None:
                    job = "ok" if view.state == DONE else f"refused: {view.error}"
                    print(f"  {'  as the app runs it, a job':32} {view.cpu_s:7.2f} s  {view.peak_mb:,.0f} MB resident  {job}")
                    cells[row, name] += f" (job: {view.cpu_s:.1f} s, {view.peak_mb:,.0f} MB)"
    board.stop_all()
    print(f"\ncells over their bound: {over}")
    if args.markdown:
        Path(args.markdown).write_text(markdown(rows, ops, cells), encoding="utf-8")
        print(f"wrote {args.markdown}")
    return 1 if over else 0


def markdown(rows: list[str], ops: list[str], cells: dict[tuple[str, str], str]) -> str:
    """One table per tokenizer row group, operations down the side (the matrix is wider than a page)."""
    reasons: dict[str, int] = {}
    lines = ["# The tokenizer matrix, measured", "",
             "Written by `benchmarks/tokenizer_matrix.py --markdown docs/tokenizer_matrix.md`. Each cell: CPU seconds and "
             "the rise of the peak resident memory, on the page's default text (apart cells: also in the app's job "
             "worker); or the number of the reason it is refused (listed below).", ""]
    for start in range(0, len(rows), 6):
        group = rows[start:start + 6]
        lines += ["| operation | " + " | ".join(group) + " |", "|---" * (len(group) + 1) + "|"]
        for name in ops:
            shown = []
            for row in group:
                cell = cells.get((row, name), "")
                if cell.startswith("refused: "):
                    reason = cell[len("refused: "):]
                    number = reasons.setdefault(reason, len(reasons) + 1)
                    cell = f"refused ({number})"
                shown.append(cell)
            lines.append(f"| {name} | " + " | ".join(shown) + " |")
        lines.append("")
    lines += ["Refused, why:", ""] + [f"{number}. {reason.replace('|', chr(92) + '|')}" for reason, number in reasons.items()]  # \| in Markdown
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
