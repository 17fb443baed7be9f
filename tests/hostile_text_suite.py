"""Texts that break naive offset and streaming code: tokens that split characters, joiners, marks,
controls, direction overrides, special-token text, lone surrogates, long runs.

Used where an engine result must equal a peer's on text chosen to be hard, not typical: the
offsets of ``decode_with_offsets`` against tiktoken's, and the streaming decoder against a whole
decode. tiktoken's own test prompts (``tests/test_offsets.py`` in openai/tiktoken) are among them.
"""

from __future__ import annotations

from .multilingual import ARTICLE_1, EMOJI_AND_MARKS

TIKTOKEN_PROMPTS = {
    "hello world": "hello world",
    "special token between words": "hello world<|endoftext|> green cow",
    "Chinese (tiktoken's test)": "我非常渴望与人工智能一起工作",
    "Tamil (tiktoken's test)": "நடிகர் சூர்யா",
    "GPT-2's stand-in Ġ typed (tiktoken's test)": " Ġ除",
}
HOSTILE_TEXTS = {
    **TIKTOKEN_PROMPTS,
    "empty": "",
    "emoji with joiners, skin tones, flags, keycaps": EMOJI_AND_MARKS[0],
    "combining marks and decomposed Hangul": EMOJI_AND_MARKS[1],
    "Zalgo": "Z\u0335\u0321\u0317a\u0334\u0322\u031cl\u0337\u0327g\u0336\u0328o\u0338\u0316" * 3,
    "direction overrides": "\u202eevil\u202c text \u2067\u05e9\u05dc\u05d5\u05dd\u2069 end",
    "C0 controls, NUL, escape codes": "\x00a\x07\x1b[31mred\x1b[0m\r\n\tb\x7f",
    "lone surrogate": "a\ud800b\udfffc",
    "byte order mark inside": "\ufeffhello\ufeff world",
    "spaces, tabs and newlines": " " * 40 + "x\t\t\n\n\n   \r\n  y  ",
    "digits": "12345678901234567890 3.14159 1,000,000",
    "private use and noncharacters": "\ue000\uf8ff\ufffe\uffff\U0010fffd",
    "four-byte characters": "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 𐍈 🀄 𓀀",
    "HTML": "<script>alert(1)</script><img src=x onerror=alert(2)>",
    "mixed scripts": "Café naïve 東京タワー Привет مرحبا नमस्ते สวัสดี 🙂",
    "every article line": "\n".join(ARTICLE_1),
}
"""Name -> text; a lone surrogate is read as U+FFFD by every encoder here, as by tiktoken."""
