"""Texts the parity tests share: many scripts, and corpora built from them.

:data:`MULTILINGUAL` is Article 1 of the Universal Declaration of Human Rights in twelve languages
(CJK, Arabic, Hindi, Cyrillic, Greek, Hangul...), then emoji (skin tones, a family joined by
zero-width joiners, a flag, a keycap) and combining marks, some not in NFC (``e`` + U+0301,
decomposed Hangul jamo, ``>`` + U+0338, which NFC turns into ``≯``). :func:`multilingual_corpus`
and :func:`digits_corpus` make training corpora from seeded random choices (the same text on every
run; nothing is read from outside the repository).
"""

from __future__ import annotations

import random

ARTICLE_1 = (
    "All human beings are born free and equal in dignity and rights. They are endowed with reason and "
    "conscience and should act towards one another in a spirit of brotherhood.",
    "Tous les êtres humains naissent libres et égaux en dignité et en droits. Ils sont doués de raison et de "
    "conscience et doivent agir les uns envers les autres dans un esprit de fraternité.",
    "Alle Menschen sind frei und gleich an Würde und Rechten geboren. Sie sind mit Vernunft und Gewissen begabt "
    "und sollen einander im Geist der Brüderlichkeit begegnen.",
    "Todos los seres humanos nacen libres e iguales en dignidad y derechos y, dotados como están de razón y "
    "conciencia, deben comportarse fraternalmente los unos con los otros.",
    "Все люди рождаются свободными и равными в своем достоинстве и правах. Они наделены разумом и совестью и "
    "должны поступать в отношении друг друга в духе братства.",
    "Όλοι οι άνθρωποι γεννιούνται ελεύθεροι και ίσοι στην αξιοπρέπεια και τα δικαιώματα. Είναι προικισμένοι "
    "με λογική και συνείδηση, και οφείλουν να συμπεριφέρονται μεταξύ τους με πνεύμα αδελφοσύνης.",
    "يولد جميع الناس أحرارًا متساوين في الكرامة والحقوق. وقد وهبوا عقلاً وضميرًا وعليهم أن يعامل بعضهم بعضًا بروح الإخاء.",
    "सभी मनुष्यों को गौरव और अधिकारों के मामले में जन्मजात स्वतन्त्रता और समानता प्राप्त है। उन्हें बुद्धि और "
    "अन्तरात्मा की देन प्राप्त है और परस्पर उन्हें भाईचारे के भाव से बर्ताव करना चाहिए।",
    "人人生而自由，在尊严和权利上一律平等。他们赋有理性和良心，并应以兄弟关系的精神相对待。",
    "すべての人間は、生まれながらにして自由であり、かつ、尊厳と権利とについて平等である。人間は、理性と良心とを"
    "授けられており、互いに同胞の精神をもって行動しなければならない。",
    "모든 인간은 태어날 때부터 자유로우며 그 존엄과 권리에 있어 동등하다. 인간은 천부적으로 이성과 양심을 "
    "부여받았으며 서로 형제애의 정신으로 행동하여야 한다.",
    "Tất cả mọi người sinh ra đều được tự do và bình đẳng về nhân phẩm và quyền lợi.",
)
EMOJI_AND_MARKS = (
    "👋🏽 family 👨\u200d👩\u200d👧\u200d👦 flags 🇫🇷🇯🇵 ❤️ keycap 1️⃣ 😀😀",
    "Cafe\u0301 n\u0303 a\u030a Z\u0335\u0321a\u0334\u0322l\u0337g\u0336o \u1100\u1161\u11a8 >\u0338 <\u0338 "
    "\u1e9b\u0323 e\u0301α x\u20d7",
)
MULTILINGUAL = "\n".join(ARTICLE_1 + EMOJI_AND_MARKS) + "\n"


def multilingual_corpus(lines: int = 600, *, seed: int = 28) -> str:
    """Lines of two to four sentences of :data:`ARTICLE_1`, an emoji or marks line now and then,
    with numbers: a corpus where every script is frequent enough to learn merges."""
    chooser = random.Random(seed)
    sentences = [part.strip() + "." for text in ARTICLE_1 for part in text.replace("。", ".").split(".") if part.strip()]
    out = []
    for number in range(lines):
        line = " ".join(chooser.sample(sentences, chooser.randint(2, 4)))
        if number % 7 == 0:
            line += " " + chooser.choice(EMOJI_AND_MARKS)
        out.append(f"{line} ({number})")
    return "\n".join(out) + "\n"


def digits_corpus(lines: int = 1500, *, seed: int = 28) -> str:
    """Invoices, phone numbers, timestamps, versions and long digit runs (up to 40 digits)."""
    chooser = random.Random(seed)
    digits = lambda count: "".join(chooser.choice("0123456789") for _ in range(count))  # noqa: E731
    shapes = (
        lambda: f"Invoice {digits(4)}-{digits(6)} total {digits(1)},{digits(3)},{digits(3)}.{digits(2)} EUR",
        lambda: f"call +{digits(2)} {digits(3)} {digits(3)} {digits(4)} before {digits(2)}:{digits(2)}",
        lambda: f"at 2024-{chooser.randint(1, 12):02d}-{chooser.randint(1, 28):02d}T{digits(2)}:{digits(2)}:{digits(2)}Z",
        lambda: f"pi starts 3.14159265358979323846 and e 2.71828182845904523536; id {digits(chooser.randint(12, 40))}",
        lambda: f"version {chooser.randint(0, 12)}.{chooser.randint(0, 40)}.{digits(3)} build {digits(8)}",
        lambda: f"{digits(chooser.randint(1, 9))} items x {digits(3)} = {digits(chooser.randint(4, 12))} units",
    )
    return "\n".join(chooser.choice(shapes)() for _ in range(lines)) + "\n"
