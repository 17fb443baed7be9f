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
from bpe.limits import JOIN_ATTEMPTS_PER_BROWSER, JOIN_ATTEMPTS_PER_MINUTE, JOIN_ATTEMPTS_PER_SESSION, SEAT_LAPSE_S
from bpe.teaching.quiz import CORRECT, RIGHT_COUNT, WRONG
from bpe.teaching.room import (
    ASKING, CODE_ALPHABET, CODE_LENGTH, REVEALED, Room, RoomRefused, RoomView, clean_nickname, new_code,
    new_teacher_token, parse_code, tally,
)
from bpe.teaching.room_questions import (
    CountAsk, MergeAsk, ask_count, close_margin, grade_guess, guess_cases, guess_histogram, question_from_data,
)
from bpe.teaching.room_seats import (
    Seat, client_key, is_browser_id, is_seat, join_budgets, new_browser_id, new_seat, seat_for, seats_to_free,
)
from bpe.views.room import answer_rows, answers_html, choices_html, counts_html, guesses_html, join_panel_html, names_html, phrase_html

from .peers import tiktoken_encoding
from .shared_tokenizers import shared_pretrained

LOOK_ALIKES = "0O1IL"
LESSON = (("preset", "wikipedia"), ("special", ("<|a|>", "<|b|>")))


def wikipedia_question(step: int = 1):
    return make_question(train(PRESETS["wikipedia"].corpus(), PRESETS["wikipedia"].settings), step)


def open_room(size: int = 60) -> Room:
    return Room.open("K7QX3M", teacher_token="key", lesson=LESSON, step=1, question=MergeAsk(((97, 98), (256, 97))), now=5.0,
                     size=size, screen="p" * 22)


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
    room = Room.open("K7QX3M", teacher_token=token, lesson=LESSON, step=0, question=MergeAsk(()), now=0.0)
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
        Room.from_json(room.to_json().replace('"version":2', '"version":1'))  # a room stored before seats and question kinds


def test_a_teachers_click_on_a_question_the_class_has_left_changes_nothing():
    room = open_room().next_question("key", step=2, question=MergeAsk(((1, 2),)), round=1)
    assert (room.round, room.step, room.phase) == (2, 2, ASKING)
    with pytest.raises(RoomRefused, match="already on question 2"):
        room.revealed_by("key", round=1)
    with pytest.raises(RoomRefused, match="already on question 2"):
        room.next_question("key", step=3, question=MergeAsk(()), round=1)
    assert room.revealed_by("key", round=2).phase == REVEALED


def test_revealing_twice_is_harmless_and_a_closed_room_takes_no_teacher_action():
    room = open_room().revealed_by("key")
    assert room.revealed_by("key") == room
    closed = room.closed_by("key")
    for action in (lambda r: r.revealed_by("key"), lambda r: r.next_question("key", step=2, question=MergeAsk(())),
                   lambda r: r.closed_by("key")):
        with pytest.raises(RoomRefused, match="closed this room"):
            action(closed)


def test_a_view_tallies_only_this_questions_choices_in_their_order():
    room = open_room()
    seats = tuple(Seat(seat, name, "c", 0.0) for seat, name in (("s1", "Ana"), ("s2", ""), ("s3", "bo")))
    view = RoomView(room, seats, (("s1", (256, 97)), ("s2", (256, 97)), ("s3", (9, 9))))
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


# -- a seat is a browser, not a click ------------------------------------------------------------------
def test_a_browser_has_one_seat_per_room_whatever_it_does_and_another_in_another_room():
    browser = new_browser_id()
    assert is_browser_id(browser) and not is_browser_id(browser[:-1]) and not is_browser_id(None)
    assert not is_browser_id(browser[:-1] + "/") and not is_browser_id("<script>" + "a" * 14)
    seats = {seat_for("K7QX3M", browser) for _ in range(60)}  # Leave and Join sixty times, reloads, tabs
    assert len(seats) == 1 and is_seat(seats.pop())
    assert seat_for("K7QX3M", browser) != seat_for("K7QX3N", browser) != seat_for("K7QX3M", new_browser_id())


def test_the_projectors_browser_acts_as_the_teacher_and_any_other_does_not():
    room = open_room()
    assert room.is_teacher("key") and room.is_teacher("p" * 22)
    assert not room.is_teacher("q" * 22) and not room.is_teacher("") and not room.is_teacher(None)
    assert room.revealed_by("p" * 22).phase == REVEALED
    phone = room.screen_added_by("p" * 22, "phone-key")
    assert phone.is_teacher("phone-key") and "phone-key" not in phone.to_json()
    with pytest.raises(RoomRefused, match="only the teacher can add a screen"):
        room.screen_added_by("q" * 22, "mine now")
    many = room
    for number in range(10):
        many = many.screen_added_by("key", f"screen {number}")
    assert len(many.screens) == 4 and many.is_teacher("screen 9") and not many.is_teacher("p" * 22)


def test_a_full_room_seats_no_one_new_until_a_seat_has_been_away_two_minutes():
    room = open_room(size=2)
    here = [Seat("a" * 16, "", "c", 100.0), Seat("b" * 16, "", "c", 100.0)]
    assert seats_to_free(room, here, "a" * 16, now=100.0) == ()  # a seated student comes back
    assert seats_to_free(room, here[:1], "c" * 16, now=100.0) == ()  # a place left
    with pytest.raises(RoomRefused, match=r"this room is full \(2 students\)"):
        seats_to_free(room, here, "c" * 16, now=100.0 + SEAT_LAPSE_S)
    assert seats_to_free(room, here, "c" * 16, now=100.0 + SEAT_LAPSE_S + 1) == ("a" * 16,)
    smaller = room.resized_by("key", 1)  # the teacher shrank it: two must give way for one newcomer
    assert seats_to_free(smaller, here, "c" * 16, now=100.0 + SEAT_LAPSE_S + 1) == ("a" * 16, "b" * 16)
    with pytest.raises(RoomRefused, match="a room has 1 to 500 seats"):
        room.resized_by("key", 501)


def test_join_budgets_are_checked_tab_browser_room_then_address_each_counted_apart():
    budgets = join_budgets(session="tab", browser="b" * 22, client="school", code="K7QX3M", size=30)
    assert [(budget.key.split(":")[0], budget.limit) for budget in budgets] == [
        ("session", JOIN_ATTEMPTS_PER_SESSION), ("browser", JOIN_ATTEMPTS_PER_BROWSER), ("room", 120),
        ("address", JOIN_ATTEMPTS_PER_MINUTE)]
    assert "b" * 22 not in budgets[1].key  # the browser's id is a credential: its budget is keyed by a hash
    assert [budget.key.split(":")[0] for budget in join_budgets(session="t", browser="b", client="c")] == ["session", "browser", "address"]
    # a class of 60 behind one address, each opening the link and joining: under the address's budget
    assert 60 * 2 < JOIN_ATTEMPTS_PER_MINUTE and JOIN_ATTEMPTS_PER_SESSION <= JOIN_ATTEMPTS_PER_BROWSER


# -- "Guess the tokens": the second kind of question ------------------------------------------------------
def test_a_guess_question_round_trips_through_the_room_and_takes_only_whole_numbers_in_range():
    room = open_room().next_question("key", step=1, question=CountAsk("Hello world", "gpt2", 2))
    again = Room.from_json(room.to_json())
    assert again == room and again.question == CountAsk("Hello world", "gpt2", 2) and again.choices == ()
    again.check_answer(round=2, answer=5)
    for bad in (0, 10_000, -1, 2.5, "3", True, (97, 98)):
        with pytest.raises(RoomRefused, match="a guess is a whole number of tokens from 1 to 9,999"):
            again.check_answer(round=2, answer=bad)
    assert question_from_data({"kind": "merge", "choices": [[97, 98]]}) == MergeAsk(((97, 98),))
    assert tally(again, [3, 4]) == ()


@pytest.mark.parametrize("text", ["", "   ", "x" * 301])
def test_a_guess_question_needs_a_phrase_a_projector_can_show(text):
    with pytest.raises(RoomRefused, match="a phrase to guess is 1 to 300 characters"):
        CountAsk(text, "gpt2", 1)


@pytest.mark.parametrize("count, guess, verdict", [
    (10, 10, CORRECT), (10, 12, RIGHT_COUNT), (10, 8, RIGHT_COUNT), (10, 13, WRONG), (10, 7, WRONG),
    (3, 2, WRONG), (3, 4, WRONG), (1, 2, WRONG), (5, 6, RIGHT_COUNT), (5, 4, RIGHT_COUNT), (12, 14, RIGHT_COUNT),
    (12, 15, WRONG), (100, 120, RIGHT_COUNT), (100, 121, WRONG),
])
def test_a_guess_is_green_exact_amber_within_a_fifth_and_red_beyond(count, guess, verdict):
    result = grade_guess(CountAsk("phrase", "gpt2", count), guess)
    assert result.verdict == verdict and f"it costs {count:,} token" in result.explanation.lower()
    assert (abs(guess - count) * 5 <= count) == (verdict in (CORRECT, RIGHT_COUNT))  # "within a fifth", as the README says


def test_the_count_asked_is_the_tokenizers_own_and_the_why_cards_cases_are_offered():
    phrase = "How many r's are in strawberry?"
    question = ask_count(phrase, name="cl100k_base", tokenizer=shared_pretrained("cl100k_base"))
    assert question.count == len(tiktoken_encoding("cl100k_base").encode(phrase))  # the owner's library counts the same
    cases = guess_cases()
    assert cases["Spelling: ' strawberry'"] == " strawberry" and all(0 < len(text) <= 300 for text in cases.values())


def test_the_guesses_histogram_keeps_the_real_count_and_bins_a_wide_spread():
    assert guess_histogram([], real=4) == ((4, 0),)
    assert guess_histogram([3, 3, 5], real=4) == ((3, 2), (4, 0), (5, 1))
    wide = guess_histogram([1, 50, 100, *range(200, 230)], real=7, bars=5)
    assert len(wide) <= 5 and sum(count for _, count in wide) == 33 and any(low <= 7 <= high for (low, high), _ in wide)
    markup = guesses_html([3, 3, 5], real=4)
    assert re.search(r'<tr class="bpe-chosen"><th scope="row">4</th>.*?<b>0</b> <span class="bpe-answer-mark">◀ the real count', markup)


def test_a_phone_marks_its_pick_with_a_tick_only_when_it_was_right():
    labels = ["'a' + 'b'", "'aa' + 'a'"]
    assert "✓" not in choices_html(labels, picked=1, merged=0, verdict=WRONG)
    assert "✗ your answer" in choices_html(labels, picked=1, merged=0, verdict=WRONG)
    assert "✓ your answer" in choices_html(labels, picked=0, merged=0, verdict=CORRECT)
    assert "⚖ your answer" in choices_html(labels, picked=1, merged=0, verdict=RIGHT_COUNT)
    assert "✓" not in choices_html(labels, picked=1)  # before the reveal: recorded, not judged


def test_a_phrase_is_escaped_and_keeps_its_spaces():
    shown = phrase_html("<img src=x onerror=alert(1)>\n  indented", tokenizer="<b>GPT</b>")
    assert "<img" not in shown and "&lt;img" in shown and "&lt;b&gt;GPT&lt;/b&gt;" in shown and "\n  indented" in shown
