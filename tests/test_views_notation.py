"""One token notation: every character that draws nothing gets a visible, named mark, everywhere.

Golden values come from the Unicode standard (general categories via ``unicodedata``; the control
pictures U+2400-U+241F are Unicode's symbols for the C0 controls), not from the marks' own table.
"""

import re
import sys
import unicodedata

import pytest

from bpe import PRESETS, Corpus, TrainSettings, train
from bpe.notation.spelling import mark, name, spell, visible_text
from bpe.teaching.byte_inspector import inspect_text
from bpe.teaching.counting import count_pair, symbols_of
from bpe.teaching.quiz import grade, make_question
from bpe.teaching.tie_lab import run_rules, why_rule_picks
from bpe.views.labs import bytes_html, tie_table_html
from bpe.views.tables import merges_frame
from bpe.views.token_html import Piece, chips_html

from .apptest_support import plain

INVISIBLE = {"Cc", "Cf", "Zs", "Zl", "Zp"}
EVERY_INVISIBLE = [chr(c) for c in range(sys.maxunicode + 1) if unicodedata.category(chr(c)) in INVISIBLE]
ZWJ, RLO, BEL, NUL = "\u200d", "\u202e", "\x07", "\x00"
BYTE_LITERAL = re.compile(r"(?<![\w'])b'")  # b'a', not the token 'b'


def test_every_control_format_and_space_character_has_a_mark_that_is_itself_visible():
    assert len(EVERY_INVISIBLE) > 200  # all of Unicode's, not a handful
    for char in EVERY_INVISIBLE:
        shown = mark(char)
        assert shown, f"U+{ord(char):04X} has no mark"
        assert all(unicodedata.category(c) not in INVISIBLE for c in shown), f"U+{ord(char):04X} -> {shown!r}"
        assert name(char), f"U+{ord(char):04X} has no name"


def test_visible_characters_are_left_as_they_are():
    assert spell("aé€🙂ö中") == "aé€🙂ö中"


def test_zwj_rlo_bel_and_nul_have_distinct_marks_and_controls_use_ascii_names():
    marks = [mark(c) for c in (ZWJ, RLO, BEL, NUL, " ")]
    assert len(set(marks)) == 5
    assert mark(BEL) == "‹BEL›" and mark(NUL) == "‹NUL›"
    assert name(BEL) == "bell" and name(ZWJ) == "zero-width joiner" and name(RLO) == "right-to-left override"


def test_a_zero_width_joiner_is_never_an_empty_token():
    chip = plain(chips_html([Piece(300, ZWJ.encode())]))
    assert chip.strip() == "‹ZWJ›"
    assert visible_text(("👩" + ZWJ + "💻").encode()) == "👩‹ZWJ›💻"


def test_merges_so_far_has_no_blank_cell_for_invisible_tokens():
    corpus = Corpus.from_text(f"a{ZWJ} a{ZWJ} a{ZWJ}", pretokenizer="none")
    frame = merges_frame(train(corpus, TrainSettings(unit="char", pretokenizer="none", merges=3)))
    cells = frame[["left", "right", "token"]].to_numpy().ravel().tolist()
    assert all(cell.strip() for cell in cells), cells
    assert "a‹ZWJ›" in cells and ZWJ not in "".join(cells) and " " not in "".join(cells)


def test_a_single_tie_reads_no_rather_than_tied_1():
    frame = merges_frame(train(PRESETS["wikipedia"].corpus(), PRESETS["wikipedia"].settings))
    assert frame["tie"].tolist() == ["no", "2 pairs", "no"]  # Wikipedia: the second merge is a tie


def test_the_byte_inspector_marks_zwj_rlo_and_bel_each_its_own_way():
    markup = bytes_html(inspect_text(ZWJ + RLO + BEL))
    assert "‹NUL›" not in markup
    assert "‹ZWJ›" in markup and "‹RLO›" in markup and "‹BEL›" in markup
    assert RLO not in markup  # left in the page it would reverse the text after it
    assert 'title="U+0007 bell"' in markup


SPACES = Corpus.from_text("a  b  a  b  ab  ab", pretokenizer="none")
SPACES_LAB = run_rules(SPACES, TrainSettings(unit="char", pretokenizer="none", merges=4), text="a  b  ab")


def test_the_tie_break_lab_shows_space_tokens_and_space_runs():
    table = plain(tie_table_html(SPACES_LAB))
    assert "··" in table  # the two-space token, not collapsed to one blank
    assert "'·' + '·'" in table
    explanation = SPACES_LAB.explanation()
    assert not BYTE_LITERAL.search(explanation) and "' '" not in explanation


@pytest.mark.parametrize("rule", ["lexicographic-min", "lexicographic-max"])
def test_the_quiz_and_compare_explain_byte_order_without_python_byte_literals(rule):
    settings = TrainSettings(unit="byte", pretokenizer="none", tie_break=rule, merges=3)
    trace = train(Corpus.from_text("ab ab ba ba", pretokenizer="none"), settings)
    step = trace.steps[0]
    why = why_rule_picks(trace, step.tied[0], step.tied[1])
    assert not BYTE_LITERAL.search(why) and "('" in why
    question = make_question(trace, 0)
    wrong = next(c for c in question.candidates if (c.left, c.right) != (step.left, step.right))
    assert not BYTE_LITERAL.search(grade(question, (wrong.left, wrong.right)).explanation)


def test_the_counting_lab_spells_partial_bytes_and_spaces_as_the_chips_do():
    assert [s.text for s in symbols_of("ö ", unit="byte")] == ["‹c3›", "‹b6›", "·"]
    assert count_pair("öö", ("‹b6›", "‹c3›")).count == 1
    assert count_pair("a a", (" ", "a"), unit="char").count == 1  # typed as itself, too
    with pytest.raises(ValueError) as refused:
        count_pair("abc", ("ab", "c"))
    assert "()" not in str(refused.value) and "pairs_present" not in str(refused.value)


def test_the_c0_controls_are_named_as_ascii_names_them_each_its_own():
    marks = [spell(chr(code)) for code in range(0x20) if chr(code) not in "\t\n\r"]
    assert marks[:9] == ["‹NUL›", "‹SOH›", "‹STX›", "‹ETX›", "‹EOT›", "‹ENQ›", "‹ACK›", "‹BEL›", "‹BS›"]
    assert len(set(marks)) == len(marks) and marks[-1] == "‹US›"
    assert spell("\x7f") == "‹DEL›"
