"""BPE Lab's engine: a step-traceable Byte-Pair Encoding trainer and tokenizer (pure Python).

    >>> from bpe import Corpus, TrainSettings, Tokenizer, train
    >>> trace = train(Corpus.from_text("aaabdaaabac", pretokenizer="none"),
    ...               TrainSettings(pretokenizer="none", tie_break="lexicographic-min"))
    >>> [trace.token_text(step.new_id) for step in trace.steps], trace.stop_reason
    (['aa', 'ab', 'aaab'], 'min_frequency')
    >>> Tokenizer.from_trace(trace, step=1).encode("aaabdaaabac")
    [256, 97, 98, 100, 256, 97, 98, 97, 99]

Everything a script needs is importable from here (``docs/api.md`` lists it, grouped as below, and
``tests/test_public_api.py`` pins it: a name removed or moved fails there). The stage modules stay
importable too, and so do the module paths from before the stage folders (:mod:`bpe.moved`: an
old path such as ``bpe.vocab`` warns and gives its new module).
"""

import sys

from . import moved
from .analysis.lineage import Lineage, lineage
from .analysis.mixture import MixEstimate, infer_mix
from .checking import CheckCorpus, CheckResult, check_merges, check_report, read_learner_merges
from .checking.encode_cases import EncodeCase, read_cases
from .checking.encode_check import EncodeCheckResult, check_encoder, encode_report
from .encoding.dropout import DROPOUT_RULES, Dropout, sample_segmentations
from .encoding.merge_loop import AppliedMerge
from .encoding.offsets import StreamDecoder, decode_with_offsets, stream_steps
from .encoding.segmentation import SEGMENTATIONS, ChunkCut, segment, token_counts
from .encoding.streaming import read_text_chunks
from .encoding.tokenizer import ChunkWalk, Tokenizer
from .encoding.vocab_compare import VocabularyComparison, compare_vocabularies
from .encoding.vocab_health import VocabularyHealth, vocabulary_health
from .errors import (
    BpeError, FormatError, PatternError, RegistryError, SettingsError, SpecialTokenError, UnknownTokenError,
)
from .formats import FORMATS, TokenizerFormat, export_problem, export_tokenizer, import_tokenizer
from .pretrained.model_names import encoding_for_model, encoding_name_for_model
from .pretrained.registry import PRETRAINED, PretrainedEntry, load_pretrained
from .registry import Registry
from .text.corpus import Corpus, parse_word_counts
from .text.named_pretokenizers import PRETOKENIZERS
from .training.extend import extend
from .training.objectives import OBJECTIVES
from .training.presets import PRESETS, Preset, get_preset
from .training.settings import TrainSettings
from .training.tiebreak import TIE_BREAK_RULES
from .training.trace import MergeStep, PairCount, Trace
from .training.trainer import train

moved.install(sys.modules[__name__])

__all__ = [
    # train, and read what a run did
    "Corpus", "MergeStep", "OBJECTIVES", "PRESETS", "PRETOKENIZERS", "PairCount", "Preset", "TIE_BREAK_RULES", "Trace",
    "TrainSettings", "extend", "get_preset", "parse_word_counts", "train",
    # encode and decode
    "AppliedMerge", "ChunkWalk", "StreamDecoder", "Tokenizer", "decode_with_offsets", "read_text_chunks",
    "stream_steps",
    # pretrained tokenizers
    "PRETRAINED", "PretrainedEntry", "encoding_for_model", "encoding_name_for_model", "load_pretrained",
    # what a vocabulary holds, and other ways to cut a text
    "ChunkCut", "DROPOUT_RULES", "Dropout", "SEGMENTATIONS", "VocabularyComparison", "VocabularyHealth",
    "compare_vocabularies", "sample_segmentations", "segment", "token_counts", "vocabulary_health",
    # other libraries' files
    "FORMATS", "TokenizerFormat", "export_problem", "export_tokenizer", "import_tokenizer",
    # check a learner's trainer and encoder
    "CheckCorpus", "CheckResult", "EncodeCase", "EncodeCheckResult", "check_encoder", "check_merges", "check_report", "encode_report",
    "read_cases", "read_learner_merges",
    # what a tokenizer's merges reveal: its lineage, and the mix of data it was trained on
    "Lineage", "MixEstimate", "infer_mix", "lineage",
    # the registry type and the errors
    "BpeError", "FormatError", "PatternError", "Registry", "RegistryError", "SettingsError", "SpecialTokenError",
    "UnknownTokenError",
]
