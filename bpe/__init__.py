"""BPE Lab's engine: a step-traceable Byte-Pair Encoding trainer and tokenizer (pure Python)."""
