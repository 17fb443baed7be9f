"""The limits BPE Lab enforces, stated in one place (the CLI, the app and the docs read them here)."""

from .errors import BpeError


MAX_MERGES = 20_000
"""Most merges one training run may ask for."""

MAX_CORPUS_CHARS = 2_000_000
"""Most characters of text the app trains on (python-docs is about 465,000)."""

MAX_TRAIN_SECONDS = 60.0
"""The app stops training after this long and keeps the merges learned so far."""

MAX_UPLOAD_MB = 5
"""Largest file the app accepts (also set as ``server.maxUploadSize`` in .streamlit/config.toml)."""

IMPORT_CPU_S = 10.0
"""CPU seconds one tokenizer import may use (reading the files, recovering a rank file's or a
``.model``'s merges, checking the table): GPT-4o's whole rank file takes about 5. The import runs in
a worker process of its own, stopped at this (``bpe.formats.bounded_import``)."""

IMPORT_MEMORY_MB = 1024
"""Memory one tokenizer import's worker may take on top of a bare Python's (GPT-4o's rank file: a few
hundred MB)."""

IMPORT_WALL_S = 60.0
"""An import not done after this long is stopped even within its CPU budget: its worker runs at the
lowest priority, so on a machine busy with learners it may wait for a core."""

IMPORT_WORKERS = 2
"""Imports one server process runs at once; a further one waits for a worker (each may take
:data:`IMPORT_MEMORY_MB`)."""

IMPORTED_TOKENS_PER_SESSION = 600_000
"""Tokens of imported tokenizers one session keeps (the oldest imports go first): a 5 MB ``.model``
holds about 280,000, and a table costs about 400 bytes a token in memory."""

IMPORTED_TOKENS_BUILT = 600_000
"""Tokens of imported tokenizers one server process keeps built, for all its sessions: the least
recently used is dropped past it, and built again from the session's compressed copy when asked
for (a second or so for the biggest)."""

CHECK_BUDGET_S = 30.0
"""How long one check of a learner's trainer (Check my BPE, ``check``) may search: single mistakes,
then a setting with one code mistake, cheapest first. Past it, the verdict says what it tried and how
many re-trainings it did not."""

ENCODE_CHECK_BUDGET_S = 20.0
"""How long one check of a learner's encoder (Check my encoder, ``check-encode``) may search, the same way."""

MAX_MIX_MERGES = 30_000
"""Most merges the data-mixture inference reads (the paper read 30,000 of each real tokenizer's): each
is replayed over every sample, twice or more (``bpe.analysis.mixture``)."""

ANALYSIS_CPU_S = 300.0
"""CPU seconds one analysis may use in its worker (on the job board, ``bpe.analysis.tasks.BUDGET``): training a mix and
inferring it, a pretrained tokenizer's mix, or the family tree of all fourteen."""

ANALYSIS_MEMORY_MB = 1536
"""Memory one analysis's worker may take on top of a bare Python's (the family tree reads all fourteen
pretrained tokenizers, one at a time)."""

ANALYSIS_WALL_S = 900.0
"""An analysis not done after this long is stopped even within its CPU budget (its worker waits while
learners' pages want the cores)."""

MAX_OWN_SAMPLE_CHARS = 200_000
"""Most characters of a learner's own text taken as a category's sample (the built-in code and
python-docs samples are 200,000 bytes)."""

MAX_ENCODE_CHARS = 200_000
"""Most characters the app encodes or walks through at once."""

MAX_ENCODE_CHECK_CHARS = 20_000
"""Most characters in all the texts of one encoder check: each classic mistake re-encodes them, and
a mistaken merge loop costs the square of a chunk's length (Check my encoder)."""

MAX_SEGMENT_CHARS = 20_000
"""Most characters the Encode page cuts three ways: each way cuts every chunk again, without
``encode``'s cache (``benchmarks/segmentation_benchmark.py`` measures it against ``encode``)."""

MAX_FILE_MB = 64
"""Largest file the command line reads whole (a corpus, a tokenizer file): the pure-Python trainer
takes hours over a corpus this size, and a device such as /dev/zero never ends. ``encode --file``
streams instead, with no limit."""


def check_corpus_size(text: str) -> str:
    """Return ``text`` if it is within :data:`MAX_CORPUS_CHARS`, else raise a :class:`BpeError`."""
    if len(text) > MAX_CORPUS_CHARS:
        raise BpeError(
            f"the corpus has {len(text):,} characters, over the limit of {MAX_CORPUS_CHARS:,}; "
            "train on a shorter excerpt"
        )
    return text

MAX_PATTERN_CHARS = 2_000
"""Longest custom split pattern (GPT-4's is 150 characters, o200k's under 400)."""

MAX_PATTERN_PROGRAM = 10_000
"""Largest estimated program a custom pattern may compile to (see :mod:`bpe.text.pattern_guard`).

Why: ``regex.compile`` takes time and memory in proportion to the program, while every other
session of the server waits. At this limit a compile is a fraction of a second and a few
megabytes; ``(?:a{1000}){1000}`` (1,000,000) takes hundreds of megabytes, and
``(?:a{65535}){65535}`` more than a machine has. ``benchmarks/regex_compile_cost.py`` measures it
(figures in the README, under Limits).
"""

MAX_PATTERN_DEPTH = 50
"""Deepest nesting of groups in a custom pattern (``regex``'s parser recurses; about 190 levels
raise RecursionError)."""

MAX_WALK_CHARS = 200
"""The Encode page's merge-by-merge walkthrough follows at most this many characters of the text.

Why: walking a chunk records every merge applied to it, each a full copy of the chunk, and finds
the next merge by scanning the whole chunk: O(characters x merges). Under the ``none`` split, a
200,000-character text is one chunk, and its walkthrough at 2,000 merges took half a minute of
server CPU on every rerun; the first 200 characters take milliseconds. The tokens and ids above
the walkthrough are always the whole text's.
"""

MAX_CHUNK_CHARS = 10_000
"""Longest pre-tokenized chunk the app encodes whole; a text with a longer one is encoded up to there.

Why: encoding a chunk costs O(n log n) in pure Python while holding the GIL. Under the ``none``
split (or a run of letters with no space, under GPT-2's) a 200,000-character text is one chunk and
took seconds of server CPU per new text, stalling every other session; 10,000 characters take a
fraction of a second. Texts split into words (the usual case) are encoded whole up to
``MAX_ENCODE_CHARS``.
"""

MAX_WALK_ROWS = 20
"""Most merges the walkthrough lists for one chunk (each row redraws the chunk)."""

MAX_SHOWN_TOKENS = 3_000
"""Most token chips (and ids) a page draws for one text; the rest are counted, not drawn."""


# -- what the pages show and take (each bounds one page's work per rerun) -------------------------
SHOWN_CORPUS_CHARS = 3_000
"""The Train and quiz pages show (and encode per step) a big corpus only this far: a page, not a book."""

MAX_COMPARE_CHIPS = 400
"""Tokens Compare draws per tokenizer (its counts always cover the whole text)."""

MAX_TIE_LAB_MERGES = 300
"""The tie-break lab trains once per rule: a big example is cut to this many merges."""

TIE_LAB_SEGMENTED_CHARS = 1_000
"""The tie-break lab segments the corpus this far under each rule."""

TIE_LAB_TABLE_ROWS = 60
"""Rows of the tie-break lab's merge table."""

MAX_COUNTING_LAB_CHARS = 2_000
"""Longest text the counting lab counts (it lists every pair's places)."""

MAX_PRETOKENIZATION_LAB_CHARS = 5_000
"""Longest text the pre-tokenization lab splits and trains on."""

MAX_BYTE_INSPECTOR_CHARS = 500
"""Longest text the byte inspector draws byte by byte."""

MAX_WHY_CHARS = 500
"""Longest text a "Why tokenization matters" card splits under every tokenizer (one sentence or a
short function: the cards compare, they do not encode documents)."""

# -- class rooms (Predict the next merge, live) ----------------------------------------------------
ROOM_IDLE_S = 2 * 60 * 60
"""A class room nobody has written to (joined, answered, revealed, moved on) for this long is gone."""

CLOSED_ROOM_S = 10 * 60
"""A room its teacher closed is kept this long, so a student who opens its link is told it closed."""

MAX_NICKNAME_CHARS = 24
"""Longest nickname a student may give (a projector line shows a few of them side by side)."""

MAX_ROOM_SEATS = 500
"""Most students one room seats: a lecture hall (the teacher sets a room's own size up to this)."""

DEFAULT_ROOM_SEATS = 100
"""A new room's size until its teacher changes it: a class of 60 with room to spare (a lecture hall asks for more)."""

SEAT_LAPSE_S = 2 * 60
"""A seat whose page has not looked at the room for this long is *away*: it keeps its answers, and a
full room gives its place to a new student (its page polls every second, so only a closed tab, a
phone asleep or a script that joined and left stops; coming back seats it again)."""

MAX_TOKEN_GUESS = 9_999
"""Largest token count a student may guess in "Guess the tokens" (a phrase is at most
:data:`MAX_GUESS_PHRASE_CHARS` characters, so no tokenizer needs more)."""

MAX_GUESS_PHRASE_CHARS = 300
"""Longest phrase a teacher may ask the class to count tokens of (a projector line or three)."""

# Join attempts (a link opened, a Join pressed), each limited per minute by four budgets, checked
# in this order; an attempt refused by one is not counted by the next, so a flooding client spends
# its own budgets, not its classmates'.
JOIN_ATTEMPTS_PER_SESSION = 12
"""One browser tab: a student who reloads, leaves and joins again a few times stays under it."""
JOIN_ATTEMPTS_PER_BROWSER = 20
"""One browser (its cookie), all its tabs together."""
JOIN_ATTEMPTS_PER_SEAT_OF_ROOM = 4
"""A room takes at most this many attempts a minute per seat of its size (a class of 60 opening the
link twice and joining: 180 of 240; a room size of 60 never takes 500 joins a minute)."""
JOIN_ATTEMPTS_PER_MINUTE = 300
"""One network address: a school's NAT with a few classes joining at once (60 students: about 120);
a script guessing codes at this rate needs years to find a room."""

ROOMS_PER_MINUTE = 10
"""Rooms one client address may open a minute (each is a few kB held for two hours)."""


MAX_DROPOUT_CHARS = 100
"""Longest text the Encode page samples with BPE-dropout (a word or a phrase: a histogram of the
segmentations of a long text has one sample per bar)."""

MAX_DROPOUT_SAMPLES = 2_000
"""Most samples the page draws at once."""

MAX_DROPOUT_WORK = 50_000
"""Most symbols the page's samples may hold in all (samples times the text's starting symbols): a
sample costs about 12 µs per symbol in pure Python, so a page spends at most about 0.6 s; a longer
text gets fewer samples, and the page says so."""


# -- work run apart from the page's thread (bpe.jobs) ----------------------------------------------
JOB_CPU_S = 60.0
"""CPU seconds one job may use (a vocabulary's health, an extension and its files): the biggest seen
here, Mistral v3's health against python-docs, takes about 20 (docs/measurements.md, "Issue 46")."""
JOB_MEMORY_MB = 1024
"""Memory one job's worker may take on top of a bare Python's (Llama 3 extended and written in every
format peaks near 400 MB)."""
JOB_WALL_S = 300.0
"""A job not done after this long is stopped even within its CPU budget (its worker runs at the
lowest priority, so a machine busy with learners' pages can keep it waiting)."""
JOB_WORKERS = 2
"""Jobs one server process runs at once (one a core here); a further one waits in line, and says so."""
JOB_ABANDON_S = 15.0
"""A job nobody has asked about for this long is stopped: every page waiting on one asks each
second, so only a learner who left (or closed the tab) stops asking."""
JOB_RESULTS_MB = 256
"""Finished jobs' results one server keeps for the next learner who asks the same (the least recently
asked go first): Llama 3 extended, with its files in every format, is about 40 MB."""
PAGE_WORK_CPU_S = 2.0
"""CPU seconds the work of one request may take in a page's own thread on this 2-core machine, for the
page's default text (``benchmarks/tokenizer_matrix.py`` checks every operation on every tokenizer): work
that can take more runs apart, as a job."""
