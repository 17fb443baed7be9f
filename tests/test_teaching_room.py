"""The class room's rules as plain data (bpe/teaching/room.py) and what it draws (bpe/views/room.py):
codes a class can read and type, who may do what, nicknames, and the chart of the answers."""

from __future__ import annotations

import html
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bpe import PRESETS, train
from bpe.teaching.quiz import make_question
from bpe.teaching.room import (
    ASKING, CODE_ALPHABET, CODE_LENGTH, REVEALED, Room, RoomRefused, RoomView, clean_nickname, client_key, is_seat,
    new_code, new_seat, new_teacher_token, parse_code,
)
from bpe.views.room import answer_rows, answers_html, counts_html, join_panel_html, names_html

LOOK_ALIKES = "0O1IL"
LESSON = (("preset", "wikipedia"), ("special", ("<|a|>", "<|b|>")))


def wikipedia_question(step: int = 1):
    return make_question(train(PRESETS["wikipedia"].corpus(), PRESETS["wikipedia"].settings), step)


def open_room(**changes) -> Room:
    return Room.open("K7QX3M", teacher_token="key", lesson=LESSON, step=1, choices=((97, 98), (256, 97)), now=5.0)


# -- codes ---------------------------------------------------------------------------------------
def test_codes_have_six_characters_and_no_look_alikes():
    assert not set(LOOK_ALIKES) & set(CODE_ALPHABET) and len(set(CODE_ALPHABET)) == 31
    codes = {new_code() for _ in range(500)}
    assert len(codes) == 500 and all(len(code) == CODE_LENGTH and set(code) <= set(CODE_ALPHABET) for code in codes)


@pytest.mark.parametrize("typed, code", [
    ("K7QX3M", "K7QX3M"), (" k7q x3m ", "K7QX3M"), ("k7q-x3m", "K7QX3M"), ("Ｋ７ＱＸ３Ｍ", "K7QX3M"),
])
def test_a_typed_code_is_read_as_a_person_types_it(typed, code):
    assert parse_code(typed) == code


@pytest.mark.parametrize("typed, message", [
    ("K7QX0M", "never use 0 (it looks like O)"),
    ("k7qxom", "never use O (it looks like 0)"),
    ("K7QX1M", "never use 1 (it looks like I or L)"),
    ("k7qxlm", "never use L (it looks like 1)"),
    ("K7QX3", "a room code is 6 letters and digits, like K7QX3M; got 5 characters"),
    ("K7QX3MM", "got 7 characters"),
    ("K7Q<b>", "a room code has only letters and digits, like K7QX3M"),
    ("K7Q*X3", "a room code has only letters and digits"),
    ("K7QX3É", "a room code has only letters and digits"),
    ("x" * 10_000, "got 10,000 characters"),
])
def test_an_odd_code_is_refused_with_a_message_that_says_what_to_check(typed, message):
    with pytest.raises(RoomRefused, match=re.escape(message)):
        parse_code(typed)


@given(st.text(max_size=40))
def test_any_typed_text_is_a_valid_code_or_a_refusal(text):
    try:
        code = parse_code(text)
    except RoomRefused as refusal:
        assert "<" not in str(refusal) or "<" not in text  # a refusal never echoes what was typed
    else:
        assert len(code) == CODE_LENGTH and set(code) <= set(CODE_ALPHABET)


# -- keys, seats, nicknames ----------------------------------------------------------------------------
def test_the_room_keeps_only_a_hash_of_the_teacher_key():
    token = new_teacher_token()
    room = Room.open("K7QX3M", teacher_token=token, lesson=LESSON, step=0, choices=(), now=0.0)
    assert token not in room.to_json() and room.is_teacher(token)
    assert not room.is_teacher(None) and not room.is_teacher("") and not room.is_teacher(token + "x")
    assert len(token) >= 24


def test_seats_are_random_and_checked_before_they_reach_a_store():
    seat = new_seat()
    assert is_seat(seat) and seat != new_seat()
    assert not any(is_seat(bad) for bad in ("", "short", seat + "x", "<script>alert(1)</", "a" * 15 + "/"))


@pytest.mark.parametrize("typed, kept", [
    ("Ana", "Ana"),
    ("  Bo   Li  ", "Bo Li"),
    ("<svg onload=alert(1)>", "<svg onload=alert(1)>"),  # kept as text; every view escapes it
    ("Eve\u202egnp.exe", "Evegnp.exe"),  # a right-to-left override cannot disguise a name
    ("tab\tand\nnewline\x00", "tab and newline"),
    ("\u200b\u200d", ""),
    ("é" * 30, "é" * 24),
    ("x" * 10_000, "x" * 24),
])
def test_nicknames_lose_invisible_characters_and_stop_at_24(typed, kept):
    assert clean_nickname(typed) == kept


def test_the_rate_limit_counts_a_hash_of_the_address_never_the_address():
    key = client_key("203.0.113.7")
    assert "203" not in key and key == client_key("203.0.113.7") != client_key("203.0.113.8")


# -- the room's transitions ----------------------------------------------------------------------------
def test_a_room_round_trips_through_json_whole():
    room = open_room()
    assert Room.from_json(room.to_json()) == room
    with pytest.raises(RoomRefused, match="another version"):
        Room.from_json(room.to_json().replace('"version":1', '"version":9'))


def test_a_teachers_click_on_a_question_the_class_has_left_changes_nothing():
    room = open_room().next_question("key", step=2, choices=((1, 2),), round=1)
    assert (room.round, room.step, room.phase) == (2, 2, ASKING)
    with pytest.raises(RoomRefused, match="already on question 2"):
        room.revealed_by("key", round=1)
    with pytest.raises(RoomRefused, match="already on question 2"):
        room.next_question("key", step=3, choices=(), round=1)
    assert room.revealed_by("key", round=2).phase == REVEALED


def test_revealing_twice_is_harmless_and_a_closed_room_takes_no_teacher_action():
    room = open_room().revealed_by("key")
    assert room.revealed_by("key") == room
    closed = room.closed_by("key")
    for action in (lambda r: r.revealed_by("key"), lambda r: r.next_question("key", step=2, choices=()),
                   lambda r: r.closed_by("key")):
        with pytest.raises(RoomRefused, match="closed this room"):
            action(closed)


def test_a_view_tallies_only_this_questions_choices_in_their_order():
    room = open_room()
    view = RoomView(room, (("s1", "Ana"), ("s2", ""), ("s3", "bo")), (("s1", (256, 97)), ("s2", (256, 97)), ("s3", (9, 9))))
    assert view.tally() == (((97, 98), 0), ((256, 97), 2))
    assert view.nicknames() == ["Ana", "bo"] and view.answer_of("s2") == (256, 97) and view.answer_of("s4") is None


# -- what it draws ------------------------------------------------------------------------------------------
def test_the_answers_chart_marks_the_merge_and_the_tie_in_words_and_keeps_the_offered_order():
    question = wikipedia_question()
    tally = [(candidate.pair, count) for candidate, count in zip(question.candidates, (3, 1, 0, 2))]
    rows = answer_rows(question, tally)
    assert [row.choice.split(". ", 1)[0] for row in rows] == ["1", "2", "3", "4"]
    by_label = {row.choice.split(". ", 1)[1]: row for row in rows}
    assert by_label["'a' + 'b'"].status == "chosen" and by_label["'aa' + 'a'"].status == "tied"
    markup = answers_html(rows)
    assert markup.count("◀ merged next") == 1 and markup.count(">tied<") == 1
    assert "--bpe-share: 1.000" in markup and "--bpe-share: 0.000" in markup


def test_every_string_a_stranger_or_a_corpus_chose_is_escaped():
    attack = "<svg onload=alert(1)>"
    assert "<svg" not in names_html([attack]) and html.escape(attack) in names_html([attack])
    assert "and 2 more" in names_html(["a", "b", "c"], limit=1)
    panel = join_panel_html(link=f'http://x/?room=K7QX3M"><script>', code="K7QX3M", qr_image="data:image/svg+xml,%3Csvg", note=attack)
    assert "<script>" not in panel and "<svg" not in panel and 'src="data:image/svg+xml,%3Csvg"' in panel
    assert "K7Q X3M" in panel
    rows = answer_rows(wikipedia_question(), [((97, 98), 1)])
    assert "<" not in answers_html([type(rows[0])(attack, 1, "other")]).split("<th scope=\"row\">")[1].split("</th>")[0]
    assert counts_html(joined=1_200, answered=3) == (
        '<p class="bpe-room-counts"><span><b>1,200</b> joined</span> <span><b>3</b> of 1,200 answered</span></p>'
    )
