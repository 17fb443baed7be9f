"""Train SentencePiece BPE on python-docs: BPE Lab against the ``sentencepiece`` package.

A script, not a test: ``.venv/bin/python benchmarks/sentencepiece_train_benchmark.py [--sizes
2000,8000] [--runs 3]``. Both learn the same pieces (asserted before any time is printed; the
parity tests check it merge for merge); each time is the best of ``--runs``. ``sentencepiece``
trains on one thread from a file; ours builds the corpus and trains with the full trace.
"""

from __future__ import annotations

import argparse
import io
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import sentencepiece as spm  # noqa: E402

from bpe import Corpus, Tokenizer, TrainSettings, train  # noqa: E402
from bpe.training.presets import python_docs_text  # noqa: E402


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
            theirs, ours = [], []
            for _ in range(args.runs):
                model = io.BytesIO()
                started = time.perf_counter()
                spm.SentencePieceTrainer.train(
                    input=str(path), model_writer=model, model_type="bpe", vocab_size=size, character_coverage=1.0,
                    normalization_rule_name="identity", minloglevel=2, num_threads=1,
                )
                theirs.append(time.perf_counter() - started)
                started = time.perf_counter()
                trace = train(Corpus.from_text(text, pretokenizer="sentencepiece"), TrainSettings(
                    unit="char", pretokenizer="sentencepiece", tie_break="sentencepiece", vocab_size=size, min_frequency=0,
                ))
                ours.append(time.perf_counter() - started)
            processor = spm.SentencePieceProcessor(model_proto=model.getvalue())
            tokenizer = Tokenizer.from_trace(trace)
            learned = [tokenizer.token_text(new_id) for _, _, new_id in tokenizer.merges]
            assert learned == [processor.id_to_piece(i) for i in range(3, 3 + len(learned))], "the pieces differ"
            print(f"{size:,} pieces: sentencepiece {min(theirs):.2f} s, ours {min(ours):.2f} s "
                  f"({min(ours) / min(theirs):.1f}x), pieces identical")


if __name__ == "__main__":
    main()
