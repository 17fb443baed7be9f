"""The special tokens of the pretrained tokenizers whose files do not hold them, as their owners name them.

Scope: one table per tokenizer family, each built the way its owner's code builds it (the parity
tests compare every entry with the owner's own tokenizer, so a copying mistake fails a test):

* Llama 3 (``llama_models/llama3/tokenizer.py``): 256 from id 128,000: ``<|begin_of_text|>``...
  ``<|image|>``, then ``<|reserved_special_token_2|>`` onwards.
* Llama 4 (``llama_models/llama4/tokenizer.py``): 2,048 from id 200,000: five basic ones, the
  text, vision and reasoning tokens, then ``<|reserved_special_token_0|>`` onwards.
* gpt-oss (tiktoken's ``o200k_harmony``): o200k's two, then ``<|startoftext|>`` 199998, the
  harmony chat format's (``<|start|>``, ``<|channel|>``, ``<|message|>``...) and reserved ones up to
  201087. Subtle: id 200018 has two names, o200k's ``<|endofprompt|>`` and ``<|reserved_200018|>``.
* Tekken (``mistral_common``'s ``Tekkenizer.DEPRECATED_SPECIAL_TOKENS``, for files that name none):
  1,000 at ids 0 to 999, ``<unk>``, ``<s>``, ``</s>``, ``[INST]``..., then ``<SPECIAL_20>`` onwards.

    >>> LLAMA3_SPECIALS["<|begin_of_text|>"], LLAMA4_SPECIALS["<|eot|>"], HARMONY_SPECIALS["<|start|>"], TEKKEN_SPECIALS[20]
    (128000, 200008, 200006, '<SPECIAL_20>')
"""

from __future__ import annotations

from types import MappingProxyType


def _numbered(first_id: int, named: list[str], total: int, reserved: str, first_reserved: int) -> MappingProxyType:
    """``named`` from ``first_id`` on, then ``reserved.format(n)`` from ``first_reserved`` up to ``total``."""
    names = [*named, *(reserved.format(first_reserved + i) for i in range(total - len(named)))]
    return MappingProxyType({name: first_id + index for index, name in enumerate(names)})


LLAMA3_SPECIALS = _numbered(128_000, [
    "<|begin_of_text|>", "<|end_of_text|>", "<|reserved_special_token_0|>", "<|reserved_special_token_1|>",
    "<|finetune_right_pad_id|>", "<|step_id|>", "<|start_header_id|>", "<|end_header_id|>", "<|eom_id|>",
    "<|eot_id|>", "<|python_tag|>", "<|image|>",
], 256, "<|reserved_special_token_{}|>", 2)


def _range(kind: str, count: int, start: int = 0) -> list[str]:
    return [f"<|{kind}_reserved_special_token_{i}|>" for i in range(start, start + count)]


LLAMA4_SPECIALS = _numbered(200_000, [
    "<|begin_of_text|>", "<|end_of_text|>", "<|fim_prefix|>", "<|fim_middle|>", "<|fim_suffix|>",
    "<|header_start|>", "<|header_end|>", "<|eom|>", "<|eot|>", "<|step|>", *_range("text_post_train", 6),
    "<|python_start|>", "<|python_end|>", "<|finetune_right_pad|>", *_range("text_post_train", 61, 8),
    "<|image_start|>", "<|image_end|>", *_range("vision", 2), "<|tile_x_separator|>", "<|tile_y_separator|>",
    *_range("vision", 4, 2), "<|image|>", "<|vision_reserved_special_token_6|>", "<|patch|>", *_range("vision", 1041, 7),
    *_range("reasoning", 8), "<|reasoning_thinking_start|>", "<|reasoning_thinking_end|>",
], 2048, "<|reserved_special_token_{}|>", 0)

HARMONY_SPECIALS = MappingProxyType({
    "<|endoftext|>": 199_999, "<|endofprompt|>": 200_018, "<|startoftext|>": 199_998,
    **{
        f"<|{name}|>": 200_000 + index for index, name in enumerate((
            "reserved_200000", "reserved_200001", "return", "constrain", "reserved_200004", "channel", "start", "end",
            "message", "reserved_200009", "reserved_200010", "reserved_200011", "call",
        ))
    },
    **{f"<|reserved_{i}|>": i for i in range(200_013, 201_088)},
})

TEKKEN_SPECIALS: tuple[str, ...] = (
    "<unk>", "<s>", "</s>", "[INST]", "[/INST]", "[AVAILABLE_TOOLS]", "[/AVAILABLE_TOOLS]", "[TOOL_RESULTS]",
    "[/TOOL_RESULTS]", "[TOOL_CALLS]", "[IMG]", "<pad>", "[IMG_BREAK]", "[IMG_END]", "[PREFIX]", "[MIDDLE]",
    "[SUFFIX]", "[SYSTEM_PROMPT]", "[/SYSTEM_PROMPT]", "[TOOL_CONTENT]", *(f"<SPECIAL_{i}>" for i in range(20, 1000)),
)
"""By id: ``TEKKEN_SPECIALS[0]`` is ``<unk>``."""
