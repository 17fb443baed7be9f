"""``bpe-lab lineage`` and ``bpe-lab infer-mix``: what merge lists reveal, from the command line.

Scope: the two commands' options, checks and printing (``bpe.analysis`` does the work), within an
analysis's CPU and memory budget in this process (the job board's worker's: ``bpe.analysis.tasks.BUDGET``).

    bpe-lab lineage --a gpt-4 --b llama3                  (two pretrained names, or BPE Lab tokenizer files)
    bpe-lab lineage --family --json                       (the fourteen pretrained, as a tree)
    bpe-lab infer-mix --pretrained gpt2 --merges 1000     (over the 18 built-in categories)
    bpe-lab infer-mix --tokenizer t.json --categories eng,fra,code --own mine=notes.txt
    bpe-lab infer-mix --known eng:50,fra:20,code:30 --merges 3000 [--held-out]    (train on a mix, infer it)
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from ..analysis.lineage import RankedVocabulary, lineage
from ..analysis.mixture import infer_mix
from ..analysis.samples import CATEGORIES, category_texts
from ..analysis.tasks import BUDGET, estimate_record, run_task
from ..analysis.token_kinds import kinds_of
from ..encoding.tokenizer import Tokenizer
from ..errors import BpeError
from ..jobs.budget import limited as limited_by
from ..limits import MAX_MIX_MERGES
from ..pretrained.registry import ALIASES, PRETRAINED_NAMES, load_pretrained
from .arguments import UsageError, read_text_file


def add_analysis_commands(commands) -> None:
    lineage_cmd = commands.add_parser("lineage", help="how two tokenizers' merge lists relate (or the pretrained family tree)")
    lineage_cmd.add_argument("--a", metavar="NAME|PATH", help="a pretrained name (gpt-4, llama3...) or a BPE Lab tokenizer file")
    lineage_cmd.add_argument("--b", metavar="NAME|PATH")
    lineage_cmd.add_argument("--family", action="store_true", help="the family tree of every pretrained tokenizer instead")
    lineage_cmd.add_argument("--json", action="store_true")
    lineage_cmd.set_defaults(run=_lineage)

    mix_cmd = commands.add_parser("infer-mix", help="infer a tokenizer's training mix of languages and code from its merges")
    source = mix_cmd.add_mutually_exclusive_group(required=True)
    source.add_argument("--pretrained", metavar="NAME", help="a pretrained tokenizer by name or alias")
    source.add_argument("--tokenizer", metavar="PATH", help="a BPE Lab tokenizer file")
    source.add_argument("--known", metavar="KEY:SHARE,...", help="train on this mix here first (eng:50,code:50), then infer it")
    mix_cmd.add_argument("--categories", metavar="KEY,...", help=f"built-in categories to weigh (default: all {len(CATEGORIES)}: "
                                                                 f"{', '.join(CATEGORIES)})")
    mix_cmd.add_argument("--own", action="append", metavar="NAME=PATH", help="your own category: a name and a UTF-8 text file")
    mix_cmd.add_argument("--merges", type=int, default=1_000, help="how many first merges to read (default 1,000)")
    mix_cmd.add_argument("--held-out", action="store_true", help="with --known: train on half of each text, infer from the other half")
    mix_cmd.add_argument("--json", action="store_true")
    mix_cmd.set_defaults(run=_infer_mix)


def _limited():
    """This process within an analysis's budget (the job board's worker's, :data:`~bpe.analysis.tasks.BUDGET`)."""
    return limited_by(
        BUDGET, over_cpu=lambda: BpeError(f"the analysis needs more than {BUDGET.cpu_s:.0f} s of CPU, its budget: read fewer merges"),
        over_memory=lambda: BpeError(f"the analysis needs more than {BUDGET.memory_mb:,} MB of memory, its budget: read fewer merges"))


def _tokenizer(choice: str) -> Tokenizer:
    return load_pretrained(choice) if choice in PRETRAINED_NAMES or choice in ALIASES else Tokenizer.from_file(choice)


def _lineage(args: argparse.Namespace) -> None:
    if args.family:
        if args.a or args.b:
            raise UsageError("--family compares every pretrained tokenizer: leave out --a and --b")
        with _limited():
            result = run_task("family", {}, progress=lambda what, done: None)
        if args.json:
            print(json.dumps(result, ensure_ascii=False))
            return
        for member in result["members"]:
            how = "" if member["parent"] is None else f"  {member['relation']} {member['parent']} (+{member['added']:,})"
            print(f"{' = '.join(member['names'])}: {member['size']:,} ranks{how}")
        return
    if not (args.a and args.b):
        raise UsageError("give two tokenizers, --a and --b (or --family)")
    first, second = (RankedVocabulary.of(_tokenizer(choice), name=choice) for choice in (args.a, args.b))
    facts = lineage(first, second)
    kinds = {side: [(kind, len(ranks)) for kind, ranks in kinds_of(vocabulary.tokens, only)[:8]]
             for side, vocabulary, only in (("a", first, facts.only_a), ("b", second, facts.only_b))}
    record: dict[str, Any] = {
        "a": args.a, "b": args.b, "sizes": list(facts.sizes), "common_prefix": facts.common_prefix, "relation": facts.relation,
        "shared": facts.shared, "only_a": len(facts.only_a), "only_b": len(facts.only_b), "reordered": facts.reordered,
        "same_rank": facts.same_rank, "only_a_kinds": kinds["a"], "only_b_kinds": kinds["b"],
    }
    if args.json:
        print(json.dumps(record, ensure_ascii=False))
        return
    print(facts.sentence(args.a, args.b))
    print(f"  common prefix: {facts.common_prefix:,} ranks; shared tokens: {facts.shared:,} ({facts.reordered:,} in another order)")
    for side, name in (("a", args.a), ("b", args.b)):
        count = record[f"only_{side}"]
        shown = ", ".join(f"{kind} {n:,}" for kind, n in kinds[side])
        print(f"  only in {name}: {count:,}" + (f" ({shown})" if count else ""))


def _infer_mix(args: argparse.Namespace) -> None:
    if not 1 <= args.merges <= MAX_MIX_MERGES:
        raise UsageError(f"--merges must be from 1 to {MAX_MIX_MERGES:,}")
    keys = tuple(args.categories.split(",")) if args.categories else tuple(CATEGORIES)
    unknown = [key for key in keys if key not in CATEGORIES]
    if unknown:
        raise UsageError(f"unknown categories {', '.join(unknown)}: use some of {', '.join(CATEGORIES)}")
    own = {}
    for item in args.own or []:
        name, separator, path = item.partition("=")
        if not separator or not name or not path:
            raise UsageError(f"cannot read --own {item!r}: write NAME=PATH, e.g. --own mine=notes.txt")
        own[name] = read_text_file(path)
    if args.held_out and not args.known:
        raise UsageError("--held-out goes with --known (a mix trained here first)")
    with _limited():
        if args.known:
            result = run_task("known-mix", _known_request(args.known, keys, own, args), progress=lambda what, done: None)
            estimate, truth = result["estimates"][-1], result["truth"]
        else:
            request = {"categories": list(keys), "own": own, "merges": args.merges}
            if args.pretrained:
                result = estimate = run_task("pretrained-mix", {"name": args.pretrained} | request, progress=lambda what, done: None)
            else:
                result = estimate = _tokenizer_mix(args.tokenizer, request)
            truth = None
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
        return
    for name, share in sorted(estimate["proportions"].items(), key=lambda item: -item[1]):
        if share >= 0.0005 or (truth and name in truth):
            known = f"   (true {truth.get(name, 0.0):6.1%})" if truth else ""
            print(f"{name:>14} {share:6.1%}{known}")
    slack = estimate["merge_slack"] + estimate["pair_slack"]
    print(f"from the first {estimate['merges']:,} merges ({estimate['informative']:,} seen in a sample); slack {slack:,.0f}"
          + (f"; mean absolute error {estimate['error']:.2%}" if truth else ""))


def _known_request(spec: str, keys: tuple[str, ...], own: dict[str, str], args: argparse.Namespace) -> dict:
    truth = {}
    for item in spec.split(","):
        name, _, share = item.partition(":")
        if (name not in CATEGORIES and name not in own) or not share.replace(".", "", 1).isdigit() or float(share) <= 0:
            raise UsageError(f"cannot read --known item {item!r}: write KEY:SHARE with a category of --categories or --own")
        truth[name] = float(share)
    total = sum(truth.values())
    categories = [key for key in dict.fromkeys([*keys, *(name for name in truth if name in CATEGORIES)]) if key not in own]
    return {"categories": categories, "own": own, "truth": {name: share / total for name, share in truth.items()},
            "merges": args.merges, "held_out": args.held_out}


def _tokenizer_mix(path: str, request: dict) -> dict:
    """A BPE Lab tokenizer file's mix (the pretrained task's, for a tokenizer that is not in the registry)."""
    texts = category_texts(tuple(request["categories"]), request["own"])
    return estimate_record(infer_mix(Tokenizer.from_file(path), texts, merges=request["merges"]))
