"""Other libraries' tokenizer files, one module per format (see each module for what it holds).

Which tokenizers can go where: BPE Lab JSON (``ours``) holds every tokenizer. minbpe, Hugging
Face ``tokenizer.json``, tiktoken rank files and GPT-2's ``encoder.json``/``vocab.bpe`` need a
byte-level tokenizer without an end-of-word marker; subword-nmt codes need characters and the
marker ``</w>``; :func:`export_problem` says why not otherwise. Each format is one
:class:`TokenizerFormat`, declared in its module and listed in :data:`FORMATS` (``files``).
"""

from .common import TokenizerFormat
from .files import FORMATS, all_formats, export_problem, export_tokenizer, import_tokenizer, tokenizer_format
from .gpt2 import from_gpt2, to_gpt2
from .huggingface import from_hf, to_hf
from .minbpe import from_minbpe, render_token, to_minbpe
from .ours import from_ours, to_ours
from .subword_nmt import from_subword_nmt, to_subword_nmt
from .tiktoken_bpe import from_tiktoken, recover_merges, tiktoken_pattern, to_tiktoken

__all__ = [
    "FORMATS", "TokenizerFormat", "all_formats", "export_problem", "export_tokenizer", "tokenizer_format",
    "from_gpt2", "from_hf", "from_minbpe", "from_ours", "from_subword_nmt", "from_tiktoken", "import_tokenizer", "recover_merges",
    "render_token", "tiktoken_pattern", "to_gpt2", "to_hf", "to_minbpe", "to_ours", "to_subword_nmt", "to_tiktoken",
]
