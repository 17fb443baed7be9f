"""One sentence in many languages: the first article of the Universal Declaration of Human Rights.

The Declaration (UN General Assembly resolution 217 A, 1948) was written to be spread as widely as
possible, and anyone may reproduce it; it is the most translated document in the world. The
translations are the Office of the UN High Commissioner for Human Rights' (OHCHR), as the UDHR in
Unicode project publishes them (github.com/unicode-org/udhr, ``data/udhr/udhr_<code>.xml``, article
1, its paragraphs joined by a space; the project's files are under the Unicode licence). The same
texts are in NLTK's ``udhr2`` corpus and Hugging Face's ``udhr`` data set, which draw on that
project. One correction: the Thai file marks a typo in place, "เกียรติศักด[เกียรติศักดิ์]"; the
corrected word is used.

The same meaning in every language makes the token counts comparable: a tokenizer that needs three
times as many tokens for a language charges its speakers three times as much, and fits a third as
much of their text in its context.

    >>> [sentence.language for sentence in ARTICLE_1][:4]
    ['English', 'French', 'Swahili', 'Vietnamese']
    >>> ARTICLE_1[0].text[:40]
    'All human beings are born free and equal'
"""

from __future__ import annotations

from typing import NamedTuple


class Sentence(NamedTuple):
    language: str
    script: str
    code: str
    """The UDHR in Unicode project's key for the translation (its file ``udhr_<code>.xml``)."""
    text: str


ARTICLE_1: tuple[Sentence, ...] = (
    Sentence('English', 'Latin', 'eng',
             'All human beings are born free and equal in dignity and rights. They are endowed with reason and conscience and should act towards one another in a spirit of brotherhood.'),
    Sentence('French', 'Latin', 'fra',
             'Tous les êtres humains naissent libres et égaux en dignité et en droits. Ils sont doués de raison et de conscience et doivent agir les uns envers les autres dans un esprit de fraternité.'),
    Sentence('Swahili', 'Latin', 'swh',
             'Watu wote wamezaliwa huru, hadhi na haki zao ni sawa. Wote wamejaliwa akili na dhamiri, hivyo yapasa watendeane kindugu.'),
    Sentence('Vietnamese', 'Latin', 'vie',
             'Tất cả mọi người sinh ra đều được tự do và bình đẳng về nhân phẩm và quyền. Mọi con người đều được tạo hoá ban cho lý trí và lương tâm và cần phải đối xử với nhau trong tình bằng hữu.'),
    Sentence('Russian', 'Cyrillic', 'rus',
             'Все люди рождаются свободными и равными в своем достоинстве и правах. Они наделены разумом и совестью и должны поступать в отношении друг друга в духе братства.'),
    Sentence('Greek', 'Greek', 'ell_monotonic',
             'Όλοι οι άνθρωποι γεννιούνται ελεύθεροι και ίσοι στην αξιοπρέπεια και τα δικαιώματα. Είναι προικισμένοι με λογική και συνείδηση, και οφείλουν να συμπεριφέρονται μεταξύ τους με πνεύμα αδελφοσύνης.'),
    Sentence('Arabic', 'Arabic', 'arb',
             'يولد جميع الناس أحرارًا متساوين في الكرامة والحقوق. وقد وهبوا عقلاً وضميرًا وعليهم أن يعامل بعضهم بعضًا بروح الإخاء.'),
    Sentence('Hebrew', 'Hebrew', 'heb',
             'כל בני אדם נולדו בני חורין ושווים בערכם ובזכויותיהם. כולם חוננו בתבונה ובמצפון, לפיכך חובה עליהם לנהוג איש ברעהו ברוח של אחוה.'),
    Sentence('Hindi', 'Devanagari', 'hin',
             'सभी मनुष्यों को गौरव और अधिकारों के मामले में जन्मजात स्वतन्त्रता और समानता प्राप्त है । उन्हें बुद्धि और अन्तरात्मा की देन प्राप्त है और परस्पर उन्हें भाईचारे के भाव से बर्ताव करना चाहिए ।'),
    Sentence('Bengali', 'Bengali', 'ben',
             'সমস্ত মানুষ স্বাধীনভাবে সমান মর্যাদা এবং অধিকার নিয়ে জন্মগ্রহণ করে। তাঁদের বিবেক এবং বুদ্ধি আছে; সুতরাং সকলেরই একে অপরের প্রতি ভ্রাতৃত্বসুলভ মনোভাব নিয়ে আচরণ করা উচিত।'),
    Sentence('Tamil', 'Tamil', 'tam',
             'மனிதப் பிறிவியினர் சகலரும் சுதந்திரமாகவே பிறக்கின்றனர்; அவர்கள் மதிப்பிலும், உரிமைகளிலும் சமமானவர்கள், அவர்கள் நியாயத்தையும் மனச்சாட்சியையும் இயற்பண்பாகப் பெற்றவர்கள். அவர்கள் ஒருவருடனொருவர் சகோதர உணர்வுப் பாங்கில் நடந்துகொள்ளல் வேண்டும்.'),
    Sentence('Thai', 'Thai', 'tha',
             'มนุษย์ทั้งหลายเกิดมามีอิสระและเสมอภาคกันในเกียรติศักดิ์และสิทธิ ต่างมีเหตุผลและมโนธรรม และควรปฏิบัติต่อกันด้วยเจตนารมณ์แห่งภราดรภาพ'),
    Sentence('Chinese', 'Han (simplified)', 'cmn_hans',
             '人人生而自由,在尊严和权利上一律平等。他们赋有理性和良心,并应以兄弟关系的精神相对待。'),
    Sentence('Japanese', 'Kanji and kana', 'jpn',
             'すべての人間は、生まれながらにして自由であり、かつ、尊厳と権利とについて平等である。人間は、理性と良心とを授けられており、互いに同胞の精神をもって行動しなければならない。'),
    Sentence('Korean', 'Hangul', 'kor',
             '모든 인간은 태어날 때부터 자유로우며 그 존엄과 권리에 있어 동등하다. 인간은 천부적으로 이성과 양심을 부여받았으며 서로 형제애의 정신으로 행동하여야 한다.'),
    Sentence('Amharic', "Ge'ez", 'amh',
             'የሰው፡ልጅ፡ሁሉ፡ሲወለድ፡ነጻና፡በክብርና፡በመብትም፡እኩልነት፡ያለው፡ነው።፡የተፈጥሮ፡ማስተዋልና፡ሕሊና፡ስላለው፡አንዱ፡ሌላውን፡በወንድማማችነት፡መንፈስ፡መመልከት፡ይገባዋል።'),
)
"""English first: the other languages' token counts are compared with its."""
