"""Train SentencePiece BPE on python-docs: BPE Lab against the ``sentencepiece`` package.

A script, not a test: ``.venv/bin/python benchmarks/sentencepiece_train_benchmark.py [--sizes
2000,8000] [--runs 3]``. Both learn the same pieces (asserted before any time is printed; the
parity tests check it merge for merge); each time is the best of ``--runs``, CPU (the fair clock on a
busy machine: both run on one thread) and wall. ``sentencepiece`` trains on one thread from a file;
ours builds the corpus and trains with the full trace.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import sentencepiece as spm  # noqa: E402

from bpe import Corpus, Tokenizer, TrainSettings, train  # noqa: E402
from bpe.training.presets import python_docs_text  # noqa: E402


def since(started: tuple[float, float]) -> tuple[float, float]:
    """CPU and wall seconds since ``started`` (both run on one thread here, so CPU time is the fair clock on a busy machine)."""
    return time.process_time() - started[0], time.perf_counter() - started[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="2000,8000")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    text = python_docs_text()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "python-docs.txt"
        path.write_text(text, encoding="utf-8")
        for size in map(int, args.sizes.split(",")):
            theirs, ours = [], []  # (cpu, wall) of each run
            for _ in range(args.runs):
                model = io.BytesIO()
                started = time.process_time(), time.perf_counter()
                spm.SentencePieceTrainer.train(
                    input=str(path), model_writer=model, model_type="bpe", vocab_size=size, character_coverage=1.0,
                    normalization_rule_name="identity", minloglevel=2, num_threads=1,
                )
                theirs.append(since(started))
                started = time.process_time(), time.perf_counter()
                trace = train(Corpus.from_text(text, pretokenizer="sentencepiece"), TrainSettings(
                    unit="char", pretokenizer="sentencepiece", tie_break="sentencepiece", vocab_size=size, min_frequency=0,
                ))
                ours.append(since(started))
            processor = spm.SentencePieceProcessor(model_proto=model.getvalue())
            tokenizer = Tokenizer.from_trace(trace)
            learned = [tokenizer.token_text(new_id) for _, _, new_id in tokenizer.merges]
            assert learned == [processor.id_to_piece(i) for i in range(3, 3 + len(learned))], "the pieces differ"
            (cpu, wall), (their_cpu, their_wall) = (min(t[0] for t in ours), min(t[1] for t in ours)), \
                (min(t[0] for t in theirs), min(t[1] for t in theirs))
            print(f"{size:,} pieces: CPU sentencepiece {their_cpu:.3f} s, ours {cpu:.3f} s ({cpu / their_cpu:.1f}x); "
                  f"wall {their_wall:.3f} s, {wall:.3f} s ({wall / their_wall:.1f}x); load average {os.getloadavg()[0]:.1f}; "
                  "pieces identical")


if __name__ == "__main__":
    main()
