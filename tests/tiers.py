"""The developer tier (docs/testing.md): what it leaves out besides the browser and server tests,
and why. A test file is ``slow`` by its entry in :data:`SLOW_FILES`, a single test or case by its entry
in :data:`SLOW_TESTS`; tests/conftest.py marks them as they are collected and the tier's ``-m``
(:data:`DEVELOPER_TIER`) leaves them out. The full suite runs them all."""

from __future__ import annotations

import pytest

COLLECTED = pytest.StashKey[dict]()
"""What this run collected, before any ``-m``: ``{"tests": "file::test" of every test function,
"slow keys": the SLOW_FILES and SLOW_TESTS keys that marked a test}`` (tests/test_tiers.py checks
that no key marks nothing)."""

SLOW_FILES: dict[str, str] = {
    "test_pretrained_parity.py": "every pretrained tokenizer against its owner on 16,674 hostile texts",
    "test_offsets.py": "every pretrained tokenizer's offsets against tiktoken's",
    "test_merge_recovery.py": "every shipped rank file's merges recovered (Qwen3.6: 248,077 tokens)",
    "test_pretrained_loading.py": "every pretrained tokenizer read from its files, cold and cached",
    "test_extend_owners.py": "extended tokenizers exported and encoded by each owner library",
    "test_subword_nmt_parity.py": "learn_bpe and apply_bpe against the trainer, on python-docs",
    "test_sentencepiece_parity.py": "SentencePiece training and encoding against the trainer",
    "test_bounded_import.py": "imports in worker processes run to their CPU and memory budgets",
    "test_packaging.py": "a fresh venv with the project installed",
    "test_app_extend.py": "the Extend page extending GPT-2 and Qwen on new text, a page run each",
    "test_replica_agent.py": "a process spinning on a core while the agent's socket answers",
    "test_tokenizer_matrix.py": "every tokenizer through every operation, each cell against its owner library",
    "test_tokenizer_matrix_apart.py": "the matrix's cells that each load or train a tokenizer of their own",
    "test_hosting.py": "a fork deployed as a host installs it: a fresh environment and a server",
    "test_job_board.py": "jobs run in worker processes to their budgets, shared and stopped",
    "test_app_jobs.py": "the pages' background jobs run to the end in worker processes",
    "test_checking_causes.py": "Check my BPE's search for a cause run on each planted bug, within the checker's budget",
    "test_probes.py": "witness texts built and checked for every tokenizer and every pair of encoder mistakes",
}
"""Test files left out of the developer tier (:data:`DEVELOPER_TIER`), each with why it takes long:
together about a third of the time of the tests without a browser. The full suite (the README's test
command, CI's) runs them all."""

SLOW_TESTS: dict[str, str] = {
    "test_lineage.py::test_the_family_tree_groups_and_extensions_match_the_owners_files":
        "all 14 vocabularies read from their owners' files and ranked, then grouped: about 7 s of CPU past "
        "their tables; in small: family_tree's own example (bpe/analysis/family.py) and the pairs of "
        "test_lineage.py (GPT-4 and Llama 3, GPT-4o and gpt-oss, GPT-2 extended)",
    "test_app_extend_sentencepiece.py::test_an_extended_mistral_says_why_it_grew_which_formats_hold_it_and_offers_its_model":
        "the Extend page extending Mistral v3 by 150 merges of Amharic in a worker, then the test the same again "
        "to check it: about 4 s of CPU; in small: test_sentencepiece_export.py (extended Mistral models "
        "exported, read back by sentencepiece, each format's refusal) and the Extend page's runs in "
        "test_app_pages.py and test_app_hostile_links.py",
    "test_reference.py::test_the_fast_trainer_makes_the_references_merges_on_every_preset_under_every_rule[python-docs-first-seen]":
        "the reference trainer recounting python-docs' excerpt for each of 60 merges: 2 s of CPU; in small: "
        "every other preset under every rule and the random word tables and texts of the same file",
    "test_app_families.py::test_the_vocabulary_shows_how_each_began[qwen3.6]":
        "the Vocabulary page indexing Qwen3.6's 248,077 tokens: 2 s of CPU; in small: the same test on "
        "DeepSeek's 128,000 (its other case)",
}
"""Single tests left out of the developer tier, as ``file::test`` (all its cases) or ``file::test[id]``
(one case), each with why it takes long and where the tier checks the same feature in small. The
same idea as :data:`SLOW_FILES`, one test at a time: a file keeps its quick tests in the tier."""

DEVELOPER_TIER = '-m "not browser and not servers and not slow"'
"""The developer tier's selection (docs/testing.md): no browser, no servers of their own, no slow file or test."""


def slow_entry(item) -> str | None:
    """The :data:`SLOW_FILES` or :data:`SLOW_TESTS` key that marks this test ``slow``, if any."""
    file = item.path.name
    keys = (file, f"{file}::{item.name}", f"{file}::{getattr(item, 'originalname', item.name)}")
    return next((key for key in keys if key in SLOW_FILES or key in SLOW_TESTS), None)
