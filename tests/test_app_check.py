"""The Check my BPE page, headless: upload merges, see the first difference and the diagnosis."""

from __future__ import annotations

from .apptest_support import errors, html_with, open_page, plain

CHECK = "pages/11_Check_my_BPE.py"
# CS336's word table (low 5, lower 2, newest 6, widest 3) breaks ties to the greater pair: (s, t)
# before (e, s), both 9. These merges break them first-seen: (e, s), then (es, t), then (l, o).
FIRST_SEEN_MERGES = "e s\nes t\nl o\n"


def checked(merges: bytes, *, name: str = "merges.txt", **form) -> object:
    at = open_page(CHECK)
    at.file_uploader(key="w.check_merges_file").set_value([(name, merges, "text/plain")]).run()
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
    assert "Count at this step (reference corpus)" in table and "9" in table
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
    assert "All 3 of your merges match the reference." in [m.value for m in at.markdown]


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
    assert errors(at) == ["**Cannot check these merges:** merges.txt line 1: expected two tokens separated by one space, got 'e s t'"]
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
