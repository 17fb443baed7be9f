"""The Check my BPE page, headless: upload merges, see the first difference and the diagnosis."""

from __future__ import annotations

import re

from bpe.tokens.byte_level import to_byte_text
from bpe.training.presets import SENNRICH_WORDS

from bpe.checking import MISTAKES

from .apptest_support import errors, html_with, open_page, plain, unescape_markdown

CHECK = "pages/11_Check_my_BPE.py"
# CS336's word table (low 5, lower 2, newest 6, widest 3) breaks ties to the greater pair: (s, t)
# before (e, s), both 9. These merges break them first-seen: (e, s), then (es, t), then (l, o).
FIRST_SEEN_MERGES = "e s\nes t\nl o\n"
MISTAKES_TITLES = {code: mistake.title for code, mistake in MISTAKES.items()}


def checked(merges: bytes, *, name: str = "merges.txt", preset: str | None = None, **form) -> object:
    at = open_page(CHECK)
    at.file_uploader(key="w.check_merges_file").set_value([(name, merges, "text/plain")]).run()
    if preset is not None:
        at.selectbox(key="w.check_preset").set_value(preset).run()
    for key, value in form.items():
        widget = at.checkbox(key=key) if key == "w.check_guess" else at.text_area(key=key)
        widget.set_value(value).run()
    return at.button(key="w.check_run").click().run()


def test_an_uploaded_merges_file_shows_the_first_difference_side_by_side():
    at = checked(FIRST_SEEN_MERGES.encode())
    assert not at.exception and not errors(at)
    assert at.metric[0].value == "0 / 3"
    table = plain(html_with(at, "bpe-check\""))
    assert "Merge 1" in table and "e + s" in table and "s + t" in table
    assert "Count in the reference's training99" in table
    assert "Count in your training (re-trained with ties broken by first-seen)99" in table
    assert "A tie: 2 pairs share the top count" in plain(html_with(at, "A tie:"))


def test_the_diagnosis_names_the_tie_rule_and_its_fix():
    at = checked(FIRST_SEEN_MERGES.encode())
    cause = plain(html_with(at, "<div class=\"bpe-cause"))
    assert cause.startswith("tie-break · another tie-break rule")
    assert "ties broken by first-seen" in cause and "reproduces all 3 of your merges" in cause
    rest = at.dataframe[0].value
    # the reference learns (s, t), (e, st), (o, w): none of these three
    assert list(rest["in the reference"]) == ["never learned (in its first 3)"] * 3


def test_matching_merges_get_no_diagnosis():
    at = checked(b"s t\ne st\no w\n")
    assert at.metric[0].value == "3 / 3"
    assert not [element for element in at.html if "bpe-cause" in element.value and "<style>" not in element.value]
    (verdict,) = [unescape_markdown(element.value) for element in at.success]
    assert verdict.startswith("All 3 of your merges match the reference.")


def test_i_dont_know_my_settings_guesses_them():
    at = checked(FIRST_SEEN_MERGES.encode(), **{"w.check_guess": True})
    assert at.metric[0].value == "3 / 3"
    assert any("settings guessed from your merges" in caption.value for caption in at.caption)


def test_a_pasted_corpus_and_pasted_merges_are_checked():
    at = open_page(CHECK)
    at.radio(key="w.check_corpus").set_value("text").run()
    at.text_area(key="w.check_text").set_value("aaa aaa ab ab ab").run()
    at.selectbox(key="w.check_pretokenizer").set_value("whitespace").run()
    at.text_area(key="w.check_merges_text").set_value("a a\naa a\n").run()
    at = at.button(key="w.check_run").click().run()
    # (a, a) 4 first; then (a, b) 3 beats (aa, a) 2
    table = plain(html_with(at, "bpe-check\""))
    assert "Merge 2" in table and "aa + a" in table and "a + b" in table


def test_a_broken_merges_file_is_an_error_on_the_page_and_keeps_the_form():
    at = checked(b"e s t\n")
    assert not at.exception
    assert errors(at) == ["**Cannot check these merges:** merges.txt line 1: expected two tokens separated by one space, "
                          "got 'e·s·t'. Write it as merges lines of plain text, two tokens separated by one space, e.g. e s"]
    assert at.radio(key="w.check_corpus").value == "preset"


def test_hostile_tokens_and_file_names_stay_text():
    at = checked(b"<img/src=x/onerror=alert(1)> x\n", name="<b>evil</b>.txt")
    assert not at.exception
    shown = html_with(at, "bpe-check\"")
    assert "<img" not in shown and "&lt;img" in shown
    assert any("\\<b\\>evil" in caption.value for caption in at.caption)


def test_special_tokens_typed_on_the_page_are_split_out_and_a_learner_who_did_not_is_told():
    from .learners import LEARNERS

    text = "hello world<|endoftext|>the world says hello<|endoftext|>" * 8
    merges = LEARNERS["special-token"](text, 25, ("<|endoftext|>",))
    at = open_page(CHECK)
    at.radio(key="w.check_corpus").set_value("text").run()
    at.text_area(key="w.check_text").set_value(text).run()
    at.selectbox(key="w.check_pretokenizer").set_value("gpt2").run()
    at.text_input(key="w.check_special_tokens").set_value("<|endoftext|>").run()
    # ASCII text: GPT-2's merges lines spell a space "Ġ"
    lines = "".join(f"{a.decode().replace(' ', 'Ġ')} {b.decode().replace(' ', 'Ġ')}\n" for a, b in merges)
    at.text_area(key="w.check_merges_text").set_value(lines).run()
    at = at.button(key="w.check_run").click().run()
    cause = plain(html_with(at, "<div class=\"bpe-cause"))
    assert cause.startswith("special-token · special tokens not split out")
    assert "split the text around <|endoftext|> first" in cause


def test_a_byte_level_difference_is_drawn_with_the_space_mark_never_a_blank_chip():
    # Sennrich's text, bytes, GPT-2's split: after (s, t) and (e, st) the reference merges (o, w) (7, the
    # greatest of the pairs tied at 7); this learner merges (space, l), spelled Ġ l in GPT-2's merges lines.
    at = checked("s t\ne st\nĠ l\n".encode(), preset="sennrich")
    table = html_with(at, "bpe-check\"")
    assert "<span>·</span> + <span>l</span>" in table
    assert not re.search(r"<span>\s*</span>", table)  # no blank chip anywhere in the table or the tie
    assert "Merge 3" in plain(table) and "o + w" in plain(table)
    assert "· + l" in plain(html_with(at, "A tie:"))


def test_both_counts_are_shown_at_the_first_difference():
    # each distinct word counted once: (w, e) wins with 2 in the learner's training; the reference counts
    # it 8 (lower 2, newest 6) and merges (s, t), 9
    from .learners import LEARNERS

    pairs = LEARNERS["word-frequency"](words=dict(SENNRICH_WORDS), num_merges=6)
    at = checked("".join(f"{a.decode()} {b.decode()}\n" for a, b in pairs).encode())
    rows = {plain(row.split("</th>")[0]): [plain(cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row)]
            for row in html_with(at, "bpe-check\"").split("<tr>")[2:]}
    assert rows["Count in the reference's training"] == ["8", "9"]
    assert rows["Count in your training (re-trained with each distinct word counted once)"] == ["2", "2"]
    assert rows["Where it occurs most in your training"][0] == "in lower ×1, newest ×1"


def test_a_poor_guess_is_shown_with_a_warning():
    from .learners import learn

    pairs = learn("東京は日本の首都です。東京タワー、東京駅、京都と大阪。 " * 6, 20)  # another corpus altogether
    lines = "".join(f"{to_byte_text(a)} {to_byte_text(b)}\n" for a, b in pairs)
    at = checked(lines.encode(), preset="sennrich", **{"w.check_guess": True})
    assert not at.exception
    (warning,) = [element.value for element in at.warning]
    assert "The best guess reproduces only 0 of your 20 merges: these settings are probably not yours." in (
        unescape_markdown(warning))
    assert not at.info


def test_a_good_guess_says_how_many_it_reproduces():
    at = checked(FIRST_SEEN_MERGES.encode(), **{"w.check_guess": True})
    assert [unescape_markdown(element.value) for element in at.info][0] == (
        "The guessed settings reproduce 3 of your 3 merges.")
    assert not at.warning


def _pasted_check(text: str, merges: list, **settings) -> object:
    import json

    at = open_page(CHECK)
    at.radio(key="w.check_corpus").set_value("text").run()
    at.text_area(key="w.check_text").set_value(text).run()
    for field, value in settings.items():
        widget = at.text_input(key=f"w.check_{field}") if field == "end_of_word" else at.selectbox(key=f"w.check_{field}")
        widget.set_value(value).run()
    at.text_area(key="w.check_merges_text").set_value(json.dumps([[list(a), list(b)] for a, b in merges])).run()
    return at.button(key="w.check_run").click().run()


def test_the_two_homework_trainers_are_named_on_the_page_which_says_their_settings_match():
    from .test_checking_homework import HOMEWORK, homework

    for trainer, (_, settings, code, _, verdict) in HOMEWORK.items():
        text, merges = homework(trainer)
        chosen = {"unit": settings.unit, "pretokenizer": settings.pretokenizer, "tie_break": settings.tie_break,
                  "end_of_word": settings.end_of_word or ""}
        at = _pasted_check(text, merges, **chosen)
        assert not at.exception and not errors(at)
        cause = plain(html_with(at, "<div class=\"bpe-cause"))
        assert cause.startswith(f"{code} · {MISTAKES_TITLES[code]}")
        assert [unescape_markdown(element.value) for element in at.warning] == [verdict]


def test_a_difference_no_retraining_reproduces_says_what_to_print_instead_of_unknown():
    from .test_checking_homework import CS336, homework

    text, merges = homework("minbpe")
    at = _pasted_check(text, merges[:3] + [(b"z", b"q")], unit=CS336.unit, pretokenizer=CS336.pretokenizer,
                       tie_break=CS336.tie_break)
    table = plain(html_with(at, "bpe-check\""))
    assert "Count in your trainingnot re-derived: none of the re-trainings reproduces your merge 4" in table
    assert "unknown" not in table
    (verdict,) = [unescape_markdown(element.value) for element in at.warning]
    assert verdict.startswith("Not one of the mistakes I know") and "print your trainer's count of both" in verdict
    assert not [element for element in at.html if 'class="bpe-cause' in element.value]  # the verdict says it, once


def test_the_caption_counts_the_merges_of_a_json_file_not_its_lines():
    at = checked(b'[["e", "s"], ["es", "t"], ["l", "o"]]', name="d_merges.json")
    assert "Checking d_merges.json: 3 merges." in [unescape_markdown(caption.value) for caption in at.caption]


def test_where_a_pair_occurs_in_a_text_nothing_splits_is_the_place_in_it_not_the_whole_text():
    text = "qqqq wxyz " * 8 + "the newest of the widest lowest ones is the newest one here " * 20
    at = _pasted_check(text, [(b"x", b"y")], pretokenizer="none")  # the reference's first merge is another
    rows = {plain(row.split("</th>")[0]): [plain(cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row)]
            for row in html_with(at, "bpe-check\"").split("<tr>")[2:]}
    _, reference = rows["Where it occurs most in the reference's training"]
    assert reference.startswith("in …") and "·the·newest" in reference  # the place of the pair, not the text's start
