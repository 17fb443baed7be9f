"""Vocabulary health of GPT-2, GPT-4 and GPT-4o on python-docs: the numbers, and how long they take.

For each tokenizer: its load (merges cached), :func:`bpe.encoding.vocab_health.vocabulary_health` against
python-docs (wall and CPU time), and, as the peer in the same run, tiktoken encoding every token's
own text once (the brute-force half of the check: what unreachability is made of); then the
counts of each group and every unreachable token, with why and the text that reaches it, if any.

    .venv/bin/python benchmarks/vocab_health_benchmark.py            # gpt2 cl100k_base o200k_base
    .venv/bin/python benchmarks/vocab_health_benchmark.py --tokenizers gpt2
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bpe.encoding.vocab_health import vocabulary_health  # noqa: E402
from bpe.notation.spelling import visible_text  # noqa: E402
from bpe.pretrained.registry import PRETRAINED, load_pretrained  # noqa: E402
from bpe.training.presets import python_docs_text  # noqa: E402
from tests.peers import tiktoken_encoding  # noqa: E402


def timed(work):
    wall, cpu = time.perf_counter(), time.process_time()
    result = work()
    return result, time.perf_counter() - wall, time.process_time() - cpu


def tiktoken_own_texts(name: str) -> int:
    """tiktoken encodes each token's own text (whole characters only); how many do not come back."""
    encoding = tiktoken_encoding(name)
    differ = 0
    for rank in range(encoding.n_vocab):
        try:
            data = encoding.decode_single_token_bytes(rank)
            text = data.decode("utf-8")
        except (KeyError, UnicodeDecodeError):
            continue
        if rank in encoding._special_tokens.values():
            continue
        differ += encoding.encode_ordinary(text) != [rank]
    return differ


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tokenizers", nargs="+", default=["gpt2", "cl100k_base", "o200k_base"], choices=list(PRETRAINED))
    args = parser.parse_args()
    text = python_docs_text()
    print(f"sample: python-docs, {len(text):,} characters")
    for name in args.tokenizers:
        tokenizer, load_s, _ = timed(lambda: load_pretrained(name))
        health, wall, cpu = timed(lambda: vocabulary_health(tokenizer, text=text))
        tiktoken_encoding(name)  # built before its time is taken
        differ, peer_wall, _ = timed(lambda: tiktoken_own_texts(name))
        title = PRETRAINED[name].title
        print(
            f"\n{title} ({tokenizer.n_vocab:,} tokens): load {load_s:.2f} s; health {wall:.2f} s wall, {cpu:.2f} s CPU; "
            f"tiktoken re-encoding every token's own text {peer_wall:.2f} s ({differ} do not come back); "
            f"health / that = {wall / peer_wall:.1f}x"
        )
        print(
            f"  emitted on the sample: {len(health.emitted):,}; never emitted (made by a merge): {len(health.never_emitted):,}; "
            f"base bytes never emitted: {len(health.unused_base):,}; unreachable: {len(health.unreachable):,}; "
            f"part of a character: {len(health.partial):,} (no text found for {sum(r.witness is None for r in health.partial.values()):,}); "
            f"special: {len(health.special):,}"
        )
        for token_id, reach in health.unreachable.items():
            found = repr(reach.witness) if reach.witness is not None else f"none of {reach.tried} tried"
            print(f"    unreachable {token_id:>7} {visible_text(tokenizer.decode_single_token_bytes(token_id))!r:<22} {reach.why:<10} reached by {found}")
        for token_id, reach in health.partial.items():
            if reach.witness is None:
                what = "no text can" if reach.proven_unreachable else f"none of {reach.tried:,} tried"
                print(f"    no witness  {token_id:>7} {visible_text(tokenizer.decode_single_token_bytes(token_id))!r:<22} {reach.why:<10} {what}")


if __name__ == "__main__":
    main()
