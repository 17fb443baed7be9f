"""The byte inspector: code points, UTF-8 bytes, GPT-2's stand-ins, and tokens that split a character."""

from hypothesis import given, strategies as st

from bpe.teaching.byte_inspector import byte_role, inspect_text, inspect_token
from bpe.tokens.byte_level import gpt2_text_to_bytes


def test_the_byte_inspector_shows_a_space_as_g_with_a_dot_and_a_newline_as_c_with_a_dot():
    space, newline = inspect_text(" \n")
    assert (space.gpt2, space.hex, space.remapped) == ("Ġ", "20", True)
    assert (newline.gpt2, newline.codepoint) == ("Ċ", "U+000A")
    assert "not a printable character" in byte_role(0x20).why_gpt2


def test_the_byte_inspector_shows_a_partial_sequence_as_the_replacement_character():
    token = inspect_token(b"\xe2\x82")
    assert not token.whole and token.shown == "\ufffd"
    assert "starts a 3-byte character but only 2 of its bytes are in this token" in token.explanation
    assert [role.role for role in token.roles] == ["lead", "continuation"]


def test_a_token_that_starts_mid_character_blames_the_continuation_byte():
    token = inspect_token(b"\xac")
    assert token.shown == "\ufffd" and "continuation byte" in token.explanation


def test_a_whole_character_decodes_on_its_own():
    token = inspect_token("€".encode())
    assert token.whole and token.shown == "€" and token.hex == "e2 82 ac"
    assert token.explanation.startswith("Whole UTF-8: these 3 bytes are 1 complete character")


def test_each_character_lists_its_code_point_name_and_bytes():
    (euro,) = inspect_text("€")
    assert (euro.codepoint, euro.name, euro.utf8, euro.gpt2) == ("U+20AC", "EURO SIGN", b"\xe2\x82\xac", "âĤ¬")


@given(st.text(alphabet=st.characters(exclude_categories=("Cs",))))
def test_the_rows_add_up_to_the_texts_utf8_and_gpt2_spelling_round_trips(text):
    rows = inspect_text(text)
    assert b"".join(row.utf8 for row in rows) == text.encode("utf-8")
    assert gpt2_text_to_bytes("".join(row.gpt2 for row in rows)) == text.encode("utf-8")


@given(st.binary(max_size=12))
def test_any_token_is_whole_exactly_when_its_bytes_are_valid_utf8(data):
    token = inspect_token(data)
    try:
        data.decode("utf-8")
        valid = True
    except UnicodeDecodeError:
        valid = False
    assert token.whole == valid and token.shown == data.decode("utf-8", errors="replace")
    assert token.explanation.startswith("Whole UTF-8" if valid and data else "Not a whole" if data else "An empty")
