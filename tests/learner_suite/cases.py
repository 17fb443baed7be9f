"""The suite's cases: a learner's program with the lines a mistake changes, and the verdict expected.

An :class:`Edit` replaces one exact passage of the program (it must occur once); a case with no edit
is the program as written. ``expect`` is the codes of the verdict's causes (empty: the verdict is
*correct*), ``label`` a piece of the named re-training's label (the tie rule by its effect, the
split...), ``also`` the codes the verdict must say cannot be told apart on this input.
"""

from __future__ import annotations

from dataclasses import dataclass

from bpe.text.named_pretokenizers import GPT4_PATTERN

SPECIAL = "<|endoftext|>"


@dataclass(frozen=True)
class Edit:
    old: str
    new: str


@dataclass(frozen=True)
class SuiteCase:
    name: str
    program: str
    """A file of ``trainers/`` or ``encoders/``."""
    mistakes: str
    """What the learner got wrong, in words ("" when nothing)."""
    edits: tuple[Edit, ...] = ()
    expect: tuple[str, ...] = ()
    label: str = ""
    also: tuple[str, ...] = ()
    args: tuple[str, ...] = ()
    """The program's own arguments (after its path)."""
    check: tuple[str, ...] = ()
    """The check command's settings, as the learner gives them."""
    corpus: str = "docs"

    @property
    def kind(self) -> str:
        return "trainer" if self.program.startswith("trainers/") else "encoder"


# -- trainers ------------------------------------------------------------------------------------
CS336_SETTINGS = ("--unit", "byte", "--pretokenizer", "gpt2", "--tie-break", "lexicographic-max")
PAPER_SETTINGS = ("--unit", "char", "--pretokenizer", "whitespace", "--end-of-word", "</w>", "--tie-break", "first-seen")
HF_SETTINGS = ("--unit", "byte", "--pretokenizer", "gpt2", "--tie-break", "first-seen")
SPECIALS = (*CS336_SETTINGS, "--special", SPECIAL)

MINBPE_PICK = "pair = max(stats, key=lambda p: (stats[p], vocab[p[0]], vocab[p[1]]))"
COUNTER = (Edit("import sys\n", "import sys\nfrom collections import Counter\n"), Edit("stats = {}", "stats = Counter()"))
PAPER_MARKER = 'vocab = {" ".join(word) + " </w>": freq for word, freq in words.items()}'
PAPER_PICK = "best = max(pairs, key=pairs.get)"
CS336_SPLIT = ('    parts = re.split("|".join(re.escape(token) for token in special_tokens), text) if special_tokens else [text]',
               "    parts = [text]")
CS336_LOOP = ("for pair in zip(word, word[1:]):", "for pair in zip(word[:-1], word[1:-1]):")
CS336_REPLACE = ("""            out, i = [], 0
            while i < len(word):
                if i < len(word) - 1 and (word[i], word[i + 1]) == best:
                    out.append(word[i] + word[i + 1])
                    i += 2
                else:
                    out.append(word[i])
                    i += 1""", """            out, i = [], len(word) - 1
            while i >= 0:
                if i > 0 and (word[i - 1], word[i]) == best:
                    out.insert(0, word[i - 1] + word[i])
                    i -= 2
                else:
                    out.insert(0, word[i])
                    i -= 1""")
CS336_NFKC = (Edit("import json\n", "import json\nimport unicodedata\n"),
              Edit("words = pretokenize(text, special_tokens)", 'words = pretokenize(unicodedata.normalize("NFKC", text), special_tokens)'))
RUNNING_UPDATE = ("""            for old_pair in zip(ids, ids[1:]):
                stats[old_pair] -= 1
            for new_pair in zip(new, new[1:]):
                stats[new_pair] = stats.get(new_pair, 0) + 1""", """            for new_pair in zip(new, new[1:]):
                if idx in new_pair:
                    stats[new_pair] = stats.get(new_pair, 0) + 1""")


def _minbpe(name: str, mistakes: str, *edits: Edit, expect=(), label="", also=(), check=CS336_SETTINGS) -> SuiteCase:
    return SuiteCase(name, "trainers/minbpe_regex.py", mistakes, edits, expect, label, also, ("50",), check)


def _paper(name: str, mistakes: str, *edits: Edit, expect=(), label="", also=()) -> SuiteCase:
    return SuiteCase(name, "trainers/sennrich_paper.py", mistakes, edits, expect, label, also, ("50",), PAPER_SETTINGS)


def _cs336(name: str, mistakes: str, *edits: Edit, expect=(), label="", also=(), corpus="docs+specials",
           args=("50", SPECIAL), check=SPECIALS) -> SuiteCase:
    return SuiteCase(name, "trainers/cs336.py", mistakes, edits, expect, label, also, args, check, corpus)


TRAINERS: tuple[SuiteCase, ...] = (
    _minbpe("minbpe, greater pair", ""),
    _minbpe("minbpe, max over the counts", "ties to the pair counted first", Edit(MINBPE_PICK, "pair = max(stats, key=stats.get)"),
            expect=("tie-break",), label="first-seen"),
    _minbpe("minbpe, Counter.most_common", "ties to the pair counted first (`most_common(1)` on a fresh Counter)",
            *COUNTER, Edit(MINBPE_PICK, "pair = stats.most_common(1)[0][0]"), expect=("tie-break",), label="first-seen"),
    _minbpe("minbpe, sorted()[-1]", "ties to the pair counted last (a stable sort's last)",
            Edit(MINBPE_PICK, "pair = sorted(stats.items(), key=lambda kv: kv[1])[-1][0]"),
            expect=("tie-break",), label="last-seen"),
    _minbpe("minbpe, greater ids", "ties to the greater pair of ids, not of bytes",
            Edit(MINBPE_PICK, "pair = max(stats, key=lambda p: (stats[p], p))"), expect=("tie-break",), label="greatest-ids"),
    _minbpe("minbpe, smaller ids", "ties to the smaller pair of ids",
            Edit(MINBPE_PICK, "pair = min(stats, key=lambda p: (-stats[p], p))"), expect=("tie-break",), label="smallest-ids"),
    _minbpe("minbpe, smaller pair", "ties to the smaller pair of bytes",
            Edit(MINBPE_PICK, "pair = min(stats, key=lambda p: (-stats[p], vocab[p[0]], vocab[p[1]]))"),
            expect=("tie-break",), label="lexicographic-min"),
    _minbpe("minbpe, no split", "no pre-tokenization: the whole text one chunk",
            Edit("text_chunks = re.findall(GPT2_SPLIT_PATTERN, text)", "text_chunks = [text]"),
            expect=("chunk-boundary",), label="split with none"),
    _minbpe("minbpe, split at whitespace", "`text.split()` for GPT-2's pattern",
            Edit("text_chunks = re.findall(GPT2_SPLIT_PATTERN, text)", "text_chunks = text.split()"),
            expect=("chunk-boundary",), label="split with whitespace"),
    _minbpe("minbpe, pair loop one short", "get_stats skips each chunk's last pair",
            Edit("for pair in zip(ids, ids[1:]):", "for pair in zip(ids[:-1], ids[1:-1]):"), expect=("loop-bound",)),
    SuiteCase("minbpe, running counts", "trainers/minbpe_running.py", "a running count: ties to the pair that entered it first",
              expect=("tie-break",), label="insertion-order", args=("50",), check=CS336_SETTINGS),
    SuiteCase("minbpe, running Counter", "trainers/minbpe_running.py",
              "a running Counter, `most_common(1)`: ties to the pair that entered it first",
              (*COUNTER, Edit("pair = max(stats, key=stats.get)", "pair = stats.most_common(1)[0][0]")),
              expect=("tie-break",), label="insertion-order", args=("50",), check=CS336_SETTINGS),
    SuiteCase("minbpe, counts never decremented", "trainers/minbpe_running.py",
              "the new token's pairs added, the broken ones never taken away; and a running count's ties",
              (Edit(*RUNNING_UPDATE),), expect=("stale-counts", "tie-break"), args=("50",), check=CS336_SETTINGS),
    _paper("the paper's code", ""),
    _paper("the paper, str.replace", "`word.replace` for the guarded regex",
           Edit('w_out = p.sub("".join(pair), word)', 'w_out = word.replace(" ".join(pair), "".join(pair))'),
           expect=("string-replace",)),
    _paper("the paper, pair loop one short", "`range(len(symbols) - 2)`",
           Edit("for i in range(len(symbols) - 1):", "for i in range(len(symbols) - 2):"), expect=("loop-bound",),
           also=("end-of-word",)),
    _paper("the paper, no </w>", "no end-of-word marker (the settings say </w>)",
           Edit(PAPER_MARKER, 'vocab = {" ".join(word): freq for word, freq in words.items()}'),
           expect=("loop-bound",), also=("end-of-word",)),
    _paper("the paper, </w> glued", "</w> glued to the last character",
           Edit(PAPER_MARKER, 'vocab = {" ".join(word) + "</w>": freq for word, freq in words.items()}'),
           expect=("end-of-word",), label="attached"),
    _paper("the paper, each word once", "`+= 1` for `+= freq`",
           Edit("pairs[symbols[i], symbols[i + 1]] += freq", "pairs[symbols[i], symbols[i + 1]] += 1"),
           expect=("word-frequency",)),
    _paper("the paper, lowercased", "the text lowercased first",
           Edit("sys.stdin.read().split()", "sys.stdin.read().lower().split()"), expect=("normalization",)),
    _paper("the paper, sorted()[-1]", "ties to the pair counted last",
           Edit(PAPER_PICK, "best = sorted(pairs.items(), key=lambda kv: kv[1])[-1][0]"),
           expect=("tie-break",), label="last-seen"),
    _paper("the paper, str.replace and sorted()[-1]", "`word.replace`, and ties to the pair counted last",
           Edit('w_out = p.sub("".join(pair), word)', 'w_out = word.replace(" ".join(pair), "".join(pair))'),
           Edit(PAPER_PICK, "best = sorted(pairs.items(), key=lambda kv: kv[1])[-1][0]"),
           expect=("string-replace", "tie-break"), label="last-seen"),
    _paper("the paper, first place only", "`p.sub(..., count=1)`",
           Edit('w_out = p.sub("".join(pair), word)', 'w_out = p.sub("".join(pair), word, count=1)'),
           expect=("replacement",), label="only the first place"),
    SuiteCase("HF course", "trainers/hf_course.py", "", args=("50",), check=HF_SETTINGS),
    SuiteCase("HF course, <=", "trainers/hf_course.py", "`max_freq <= freq`: ties to the pair counted last",
              (Edit("if max_freq is None or max_freq < freq:", "if max_freq is None or max_freq <= freq:"),), ("tie-break",),
              "last-seen", args=("50",), check=HF_SETTINGS),
    SuiteCase("HF course, break after a merge", "trainers/hf_course.py", "one merge per word and step",
              (Edit("split = split[:i] + [a + b] + split[i + 2:]", "split = split[:i] + [a + b] + split[i + 2:]\n                break"),),
              ("replacement",), "only the first place", args=("50",), check=HF_SETTINGS),
    SuiteCase("HF course, each word once", "trainers/hf_course.py", "`+= 1` for `+= freq`",
              (Edit("pair_freqs[pair] += freq", "pair_freqs[pair] += 1"),), ("word-frequency",), args=("50",),
              check=HF_SETTINGS),
    _cs336("CS336", ""),
    _cs336("CS336, special tokens kept", "special tokens trained as text", Edit(*CS336_SPLIT), expect=("special-token",)),
    _cs336("CS336, max over the counts", "ties to the pair counted first",
           Edit("best = max(counts, key=lambda p: (counts[p], p))", "best = max(counts, key=counts.get)"),
           expect=("tie-break",), label="first-seen"),
    _cs336("CS336, counted without overlap", "a pair counted once where it overlaps itself (`aaa` holds (a, a) once)",
           Edit("""            for pair in zip(word, word[1:]):
                counts[pair] += freq""", """            for pair in set(zip(word, word[1:])):
                n, i = 0, 0
                while i < len(word) - 1:
                    if (word[i], word[i + 1]) == pair:
                        n, i = n + 1, i + 2
                    else:
                        i += 1
                counts[pair] += n * freq"""), expect=("overlapping-pairs",)),
    _cs336("CS336, merged from the right", "each merge applied right to left", Edit(*CS336_REPLACE),
           expect=("replacement",), label="right to left"),
    _cs336("CS336, one merge short", "`range(num_merges - 1)` for a vocabulary size",
           Edit("for _ in range(num_merges):", "for _ in range(num_merges - 1):"), expect=("merge-count",),
           check=(*SPECIALS, "--vocab-size", "307")),
    _cs336("CS336, NFKC first", "the text NFKC-normalized first", *CS336_NFKC, expect=("normalization",), corpus="mixed"),
    _cs336("CS336, characters", "characters as the starting symbols",
           Edit('tuple(bytes([b]) for b in match.group().encode("utf-8"))', 'tuple(ch.encode("utf-8") for ch in match.group())'),
           expect=("unit",), corpus="mixed"),
    _cs336("CS336, specials kept, loop one short", "special tokens trained as text, and a pair loop one short",
           Edit(*CS336_SPLIT), Edit(*CS336_LOOP), expect=("special-token", "loop-bound")),
    _cs336("CS336, specials kept, max over the counts", "special tokens trained as text, and ties to the first counted",
           Edit(*CS336_SPLIT), Edit("best = max(counts, key=lambda p: (counts[p], p))", "best = max(counts, key=counts.get)"),
           expect=("special-token", "tie-break"), label="first-seen"),
    _cs336("CS336, NFKC, from the right", "the text NFKC-normalized, and merges applied right to left",
           *CS336_NFKC, Edit(*CS336_REPLACE), expect=("normalization", "replacement"), corpus="mixed"),
    _cs336("CS336, no split, from the right", "no pre-tokenization, and merges applied right to left",
           Edit('PAT = r"""', 'PAT = r"""(?s).+|'), Edit(*CS336_REPLACE), expect=("chunk-boundary", "replacement")),
)

# -- encoders ------------------------------------------------------------------------------------
MINBPE_LOOP = """            stats = get_stats(ids)
            pair = min(stats, key=lambda p: self.ranks.get(p, float("inf")))
            if pair not in self.ranks:
                break
            idx = self.merges[pair]
            ids = merge(ids, pair, idx)"""
LEFT_TO_RIGHT = """            at = next((i for i in range(len(ids) - 1) if (ids[i], ids[i + 1]) in self.ranks), None)
            if at is None:
                break
            ids = ids[:at] + [self.merges[ids[at], ids[at + 1]]] + ids[at + 2:]"""
EVERYWHERE = """            pair = next((p for p in zip(ids, ids[1:]) if p in self.ranks), None)
            if pair is None:
                break
            ids = merge(ids, pair, self.merges[pair])"""
RIGHTMOST = LEFT_TO_RIGHT.replace("range(len(ids) - 1)", "reversed(range(len(ids) - 1))")
SWEEP = """            new, i = [], 0
            while i < len(ids):
                if i < len(ids) - 1 and (ids[i], ids[i + 1]) in self.merges:
                    new.append(self.merges[ids[i], ids[i + 1]])
                    i += 2
                else:
                    new.append(ids[i])
                    i += 1
            if new == ids:
                break
            ids = new"""
CHARACTERS = ("        ids = list(text_bytes)\n", """        by_bytes = {data: idx for idx, data in self.vocab.items()}
        ids = []
        for ch in text_bytes.decode("utf-8"):
            data = ch.encode("utf-8")
            ids += [by_bytes[data]] if data in by_bytes else list(data)
""")
NO_SPECIALS = ("for part in re.split(special_pattern, text):", "for part in [text]:")
NO_SPLIT = ("for chunk in re.findall(GPT2_SPLIT_PATTERN, text):", "for chunk in [text]:")
PLUS_ONE = ("print(json.dumps([tokenizer.encode(text) for text in json.load(sys.stdin)]))",
            "print(json.dumps([[i + 1 for i in tokenizer.encode(text)] for text in json.load(sys.stdin)]))")
GREEDY = ('|\\s+(?!\\S)|\\s+"""', '|\\s+"""')
BY_ID = ('pair = min(stats, key=lambda p: self.ranks.get(p, float("inf")))', 'pair = min(stats, key=lambda p: self.merges.get(p, float("inf")))')
OPENAI_LEFT = ("""            bigram = min(pairs, key=lambda pair: self.bpe_ranks.get(pair, float("inf")))
            if bigram not in self.bpe_ranks:
                break""", """            bigram = next((pair for pair in zip(word, word[1:]) if pair in self.bpe_ranks), None)
            if bigram is None:
                break""")
OPENAI_SPECIALS = ("""    def encode(self, text):
        bpe_tokens = []
        for token in re.findall(self.pat, text):""", """    def encode(self, text):
        bpe_tokens = []
        for part in re.split("(<\\\\|endoftext\\\\|>)", text):
            if part == "<|endoftext|>":
                bpe_tokens.append(self.encoder[part])
            else:
                bpe_tokens.extend(self.encode_ordinary(part))
        return bpe_tokens

    def encode_ordinary(self, text):
        bpe_tokens = []
        for token in re.findall(self.pat, text):""")


def _minbpe_encoder(name: str, mistakes: str, *edits: tuple[str, str], expect=(), label="", also=()) -> SuiteCase:
    return SuiteCase(name, "encoders/minbpe_encode.py", mistakes, tuple(Edit(*edit) for edit in edits), expect, label, also)


def _openai(name: str, mistakes: str, *edits: tuple[str, str], expect=(), label="", check=()) -> SuiteCase:
    return SuiteCase(name, "encoders/openai_encoder.py", mistakes, tuple(Edit(*edit) for edit in edits), expect, label,
                     check=check)


ENCODERS: tuple[SuiteCase, ...] = (
    _minbpe_encoder("minbpe encode, by rank", ""),
    _minbpe_encoder("minbpe encode, by the new id", "minbpe's `merges.get(p, inf)`: the new token's id as the rank",
                    BY_ID, expect=("merged-token-rank",)),
    _minbpe_encoder("minbpe encode, ranks.get(p, 0)", "a pair with no merge ranked 0",
                    ('self.ranks.get(p, float("inf"))', "self.ranks.get(p, 0)"), expect=("unknown-first",)),
    _minbpe_encoder("minbpe encode, first known pair", "the first pair met that has a merge, there only",
                    (MINBPE_LOOP, LEFT_TO_RIGHT), expect=("left-to-right",), label="then again"),
    _minbpe_encoder("minbpe encode, first known pair everywhere", "minbpe's merge() on the first known pair",
                    (MINBPE_LOOP, EVERYWHERE), expect=("left-to-right",), label="merged everywhere"),
    _minbpe_encoder("minbpe encode, last known pair", "the last pair that has a merge first",
                    (MINBPE_LOOP, RIGHTMOST), expect=("rightmost-first",)),
    _minbpe_encoder("minbpe encode, one sweep", "every known pair merged in one sweep", (MINBPE_LOOP, SWEEP),
                    expect=("all-at-once",)),
    _minbpe_encoder("minbpe encode, no split", "no pre-tokenization", NO_SPLIT, expect=("pretokenization",),
                    label="no pre-tokenization"),
    _minbpe_encoder("minbpe encode, \\s+", "GPT-2's pattern with its whitespace as one `\\s+`", GREEDY,
                    expect=("pretokenization",), label="`\\s+`"),
    _minbpe_encoder("minbpe encode, GPT-4's pattern", "GPT-4's split for GPT-2's",
                    (f'GPT2_SPLIT_PATTERN = r"""\'(?:[sdmt]|ll|ve|re)| ?\\p{{L}}+| ?\\p{{N}}+| ?[^\\s\\p{{L}}\\p{{N}}]+|\\s+(?!\\S)|\\s+"""',
                     f"GPT2_SPLIT_PATTERN = {GPT4_PATTERN!r}"), expect=("pretokenization",), label="gpt4"),
    _minbpe_encoder("minbpe encode, \\w for \\p{L}", "`re`'s `\\w` and `\\d` (this tokenizer's merges never cross them)",
                    ("| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|", "| ?\\w+| ?\\d+| ?[^\\s\\w\\d]+|")),
    _minbpe_encoder("minbpe encode, special tokens as text", "special tokens never cut out", NO_SPECIALS,
                    expect=("special-tokens",)),
    _minbpe_encoder("minbpe encode, characters", "characters as the starting symbols", CHARACTERS, expect=("unit",)),
    _minbpe_encoder("minbpe encode, ids + 1", "every id one more", PLUS_ONE, expect=("off-by-one",), label="every id one more"),
    _minbpe_encoder("minbpe encode, merged ids + 1", "merged tokens numbered from 257",
                    (PLUS_ONE[0], PLUS_ONE[1].replace("i + 1 for i", "i + (i >= 256) for i")), expect=("off-by-one",),
                    label="from 257"),
    _minbpe_encoder("minbpe encode, specials as text, first known pair", "special tokens never cut, and left to right",
                    NO_SPECIALS, (MINBPE_LOOP, LEFT_TO_RIGHT), expect=("special-tokens", "left-to-right")),
    _minbpe_encoder("minbpe encode, specials as text, ids + 1", "special tokens never cut, and every id one more",
                    NO_SPECIALS, PLUS_ONE, expect=("special-tokens", "off-by-one")),
    _minbpe_encoder("minbpe encode, no split, ids + 1", "no pre-tokenization, and every id one more", NO_SPLIT, PLUS_ONE,
                    expect=("pretokenization", "off-by-one")),
    _minbpe_encoder("minbpe encode, characters, ids + 1", "characters first, and every id one more",
                    CHARACTERS, PLUS_ONE, expect=("unit", "off-by-one")),
    _minbpe_encoder("minbpe encode, \\s+, by the new id", "whitespace as one `\\s+`, and the new id as the rank",
                    GREEDY, BY_ID, expect=("pretokenization", "merged-token-rank")),
    _minbpe_encoder("minbpe encode, specials as text, ranks.get(p, 0)", "special tokens never cut, and unknown pairs first",
                    NO_SPECIALS, ('self.ranks.get(p, float("inf"))', "self.ranks.get(p, 0)"),
                    expect=("special-tokens", "unknown-first")),
    _openai("encoder.py", "no special-token handling (as released)", expect=("special-tokens",)),
    _openai("encoder.py, special text read as text", "", check=("--special-tokens", "plain")),
    _openai("encoder.py with special tokens", "", OPENAI_SPECIALS),
    _openai("encoder.py, first known bigram", "no special tokens, and the first known bigram merged everywhere",
            OPENAI_LEFT, expect=("special-tokens", "left-to-right")),
    _openai("encoder.py, ids + 1", "no special tokens, and every id one more",
            ("self.encoder[bpe_token] for bpe_token", "self.encoder[bpe_token] + 1 for bpe_token"),
            expect=("special-tokens", "off-by-one")),
    SuiteCase("HF course tokenize", "encoders/hf_course_tokenize.py", ""),
    SuiteCase("HF course tokenize, ids + 1", "encoders/hf_course_tokenize.py", "every id one more (specials too)",
              (Edit("ids.append(special_tokens[part])", "ids.append(special_tokens[part] + 1)"),
               Edit("ids.extend(vocab[token] for", "ids.extend(vocab[token] + 1 for")), ("off-by-one",)),
    SuiteCase("HF course tokenize, no special tokens", "encoders/hf_course_tokenize.py", "special tokens never cut out",
              (Edit('for part in re.split("(" + "|".join(map(re.escape, special_tokens)) + ")", text):', "for part in [text]:"),),
              ("special-tokens",)),
    SuiteCase("textbook longest match", "encoders/textbook_segment.py", "the longest token first", expect=("longest-match",)),
    SuiteCase("textbook longest match, no split", "encoders/textbook_segment.py", "the longest token first, over the whole text",
              (Edit("            for chunk in PAT.findall(part):", "            for chunk in [part]:"),),
              ("pretokenization", "longest-match")),
)

CASES: tuple[SuiteCase, ...] = TRAINERS + ENCODERS
