"""How long importing a SentencePiece ``.model`` takes, beside sentencepiece loading the same file.

A script, not a test: ``.venv/bin/python benchmarks/sentencepiece_import.py [--runs N] [--tokenizers
mistral-v1,...] [--compare-with CHECKOUT]``.

What a learner meets on Import & export: the uploaded file is new, so nothing is cached. Ours is the
app's door, ``import_tokenizer_bounded`` (a fresh worker process at nice 19 reads the file and sends
BPE Lab JSON back; this process reads that into the tokenizer), and the command line's door,
``import_tokenizer`` in this process. The owner's is ``SentencePieceProcessor(model_file=...)``.
Every measurement runs in a fresh process with its imports done before the clock starts (the app's
server has them loaded), rounds interleaved (ours, then the owner's), so a busy moment on a shared
machine hits both; each figure is the best of ``--runs``. CPU seconds include the worker's (the
children's rusage), since on a busy machine the wall clock mostly measures waiting for a core, and
the worker, at nice 19, waits longest. ``--compare-with`` times another checkout's code (e.g. the
main branch) in the same rounds. The files are every registry entry read from a ``.model``; each
import's ids are checked against sentencepiece's on one sentence before anything is timed.

Target (issue 52): the app's import of Mistral's 32,768-piece ``.model`` within 1 s.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bpe.pretrained.registry import PRETRAINED, pretrained_file_paths  # noqa: E402

SENTENCE = "Tokenizers cut text into pieces: 東京, नमस्ते, 12345."
PROBE = """
import json, resource, sys, time
path, who, sentence = sys.argv[1], sys.argv[2], sys.argv[3]
if who == "owner":
    import sentencepiece
    read = lambda: sentencepiece.SentencePieceProcessor(model_file=path)
    encode = lambda model: model.encode(sentence)
else:
    from bpe.formats.bounded_import import import_tokenizer_bounded
    from bpe.formats.files import import_tokenizer
    door = import_tokenizer_bounded if who == "bounded" else import_tokenizer
    data = open(path, "rb").read()
    read = lambda: door(format="sentencepiece", files={"tokenizer.model": data})
    encode = lambda tokenizer: tokenizer.encode(sentence)
def cpu():
    return sum(getattr(resource.getrusage(who), field) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
               for field in ("ru_utime", "ru_stime"))
wall, used = time.perf_counter(), cpu()
model = read()
wall, used = time.perf_counter() - wall, cpu() - used
print(json.dumps({"wall_s": wall, "cpu_s": used, "ids": list(encode(model))}))
"""
DOORS = ("bounded", "in_process")


def probe(path: Path, who: str, *, code: Path = ROOT) -> dict:
    env = {**os.environ, "PYTHONPATH": str(code)}
    result = subprocess.run([sys.executable, "-c", PROBE, str(path), who, SENTENCE], env=env, capture_output=True,
                            text=True, cwd=code)
    if result.returncode:
        raise SystemExit(f"{who} import of {path.name} ({code}) failed:\n{result.stderr[-2000:]}")
    return json.loads(result.stdout)


def load_average() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--tokenizers", default=",".join(name for name, entry in PRETRAINED.items()
                                                       if entry.format == "sentencepiece"))
    parser.add_argument("--compare-with", type=Path, help="another checkout, timed in the same rounds")
    args = parser.parse_args()
    versions = {"ours": ROOT} | ({"other": args.compare_with.resolve()} if args.compare_with else {})
    print(f"load average before: {load_average()}")
    print(f"{'tokenizer':11} {'code':6} {'app import wall':>15} {'cpu':>6} {'in-process wall':>15} {'cpu':>6} "
          f"{'sentencepiece wall':>18} {'cpu':>6} {'app/sp cpu':>10}")
    for name in args.tokenizers.split(","):
        (path,) = pretrained_file_paths(name)
        runs: dict[tuple[str, str], list[dict]] = {}
        for _ in range(args.runs):
            for version, code in versions.items():
                for door in DOORS:
                    runs.setdefault((version, door), []).append(probe(path, door, code=code))
            runs.setdefault(("owner", "owner"), []).append(probe(path, "owner"))
        owner_ids = runs["owner", "owner"][0]["ids"]
        best = {key: {field: min(run[field] for run in rows) for field in ("wall_s", "cpu_s")} for key, rows in runs.items()}
        for (version, door), rows in runs.items():
            if rows[0]["ids"] != owner_ids:
                raise SystemExit(f"{name}: {version}'s {door} import encodes {SENTENCE!r} as {rows[0]['ids']}, "
                                 f"sentencepiece as {owner_ids}")
        owner = best["owner", "owner"]
        for version, code in versions.items():
            app, here = best[version, "bounded"], best[version, "in_process"]
            print(f"{name:11} {version:6} {app['wall_s']:14.2f}s {app['cpu_s']:5.2f}s {here['wall_s']:14.2f}s "
                  f"{here['cpu_s']:5.2f}s {owner['wall_s']:17.3f}s {owner['cpu_s']:5.3f}s "
                  f"{app['cpu_s'] / max(owner['cpu_s'], 1e-3):9.0f}x")
    if args.compare_with:
        print(f"other: {versions['other']}")
    print(f"load average after: {load_average()}")
    print("target: the app's import (wall) within 1 s")


if __name__ == "__main__":
    main()
