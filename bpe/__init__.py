"""BPE Lab's engine: a step-traceable Byte-Pair Encoding trainer and tokenizer (pure Python).

    >>> from bpe import Corpus, TrainSettings, Tokenizer, train
    >>> trace = train(Corpus.from_text("aaabdaaabac", pretokenizer="none"),
    ...               TrainSettings(pretokenizer="none", tie_break="lexicographic-min"))
    >>> [trace.token_text(step.new_id) for step in trace.steps], trace.stop_reason
    (['aa', 'ab', 'aaab'], 'min_frequency')
    >>> Tokenizer.from_trace(trace, step=1).encode("aaabdaaabac")
    [256, 97, 98, 100, 256, 97, 98, 97, 99]
"""

from .analysis.lineage import Lineage, lineage
from .analysis.mixture import MixEstimate, infer_mix
from .encoding.dropout import Dropout, sample_segmentations
from .encoding.merge_loop import AppliedMerge
from .encoding.tokenizer import ChunkWalk, Tokenizer
from .errors import BpeError, FormatError, PatternError, SettingsError, SpecialTokenError, UnknownTokenError
from .text.corpus import Corpus, parse_word_counts
from .training.presets import PRESETS, Preset, get_preset
from .training.settings import TrainSettings
from .training.tiebreak import TIE_BREAK_RULES
from .training.trace import MergeStep, PairCount, Trace
from .training.trainer import train

__all__ = [
    "PRESETS", "TIE_BREAK_RULES", "AppliedMerge", "BpeError", "ChunkWalk", "Corpus", "Dropout", "FormatError",
    "Lineage", "MergeStep", "MixEstimate", "PairCount", "PatternError", "Preset", "SettingsError", "SpecialTokenError",
    "Tokenizer", "Trace", "TrainSettings", "UnknownTokenError", "get_preset", "infer_mix", "lineage", "parse_word_counts",
    "sample_segmentations", "train",
]
