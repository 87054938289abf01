"""Peer instruction: a question voted on twice with a discussion between (both votes kept,
one answer per seat in each), each part of an answer graded on its own, the summary and
the recap with both votes. A real SQLite store in a temp dir; the store's own tests run
both backends (tests/store/test_store_rounds.py)."""

from __future__ import annotations

import csv
import io
import json
import time

import pytest
from classroom_helpers import answer_blob
from classroom_helpers import question as base_question

from ui.classmode import answers as an
from ui.classmode import classroom as cr
from ui.classmode.question import graded_text
from ui.classmode.summary import (
    not_kept_words,
    shift_words,
    summary,
    summary_rows,
    truth_words,
    votes_table,
)


def question(**kw) -> cr.Question:
    return base_question(**{"turn": "cw", **kw})  # the line turning clockwise


blob = answer_blob


# ----------------------------------------------------------------------------- grading


@pytest.mark.parametrize(
    ("truth", "said", "grade"),
    [
        # the line turned clockwise at a mistake
        ({"mistake": True, "turn": "cw"}, (True, "cw"), (True, True)),
        ({"mistake": True, "turn": "cw"}, (True, "ccw"), (True, False)),  # the case
        ({"mistake": True, "turn": "cw"}, (False, "cw"), (False, True)),
        ({"mistake": True, "turn": "cw"}, (True, None), (True, None)),  # the turn not given
        # a mistake whose line did not turn (it appeared, vanished, moved or reversed)
        ({"mistake": True, "turn": "none"}, (True, "none"), (True, True)),
        ({"mistake": True, "turn": "none"}, (True, "ccw"), (True, False)),
        # no mistake: the line does not move, so "no turn" is the right turn
        ({"mistake": False, "turn": "none"}, (False, "none"), (True, True)),
        ({"mistake": False, "turn": "none"}, (True, "cw"), (False, False)),
    ],
)
def test_each_part_is_graded_on_its_own(truth, said, grade) -> None:
    g = an.grade(question(**truth), *said)
    assert (g.mistake_right, g.turn_right) == grade


def test_the_card_says_each_part_right_or_wrong_in_words_and_marks() -> None:
    q = question(mistake=True, turn="cw")
    # the case: a right "mistake" does not make a wrong turn right
    assert graded_text(q, True, "ccw") == (
        "mistake ✓ right · counter-clockwise ✗ (the line turned clockwise)"
    )
    assert graded_text(q, True, "cw") == "mistake ✓ right · clockwise ✓ right"
    assert graded_text(q, False, None) == (
        "no mistake ✗ (it was a mistake) · which way: not answered"
    )
    calm = question(mistake=False, turn="none")
    assert graded_text(calm, True, "cw") == (
        "mistake ✗ (it was no mistake) · clockwise ✗ (no mistake: the line did not move)"
    )
    # w = (1, 0, 0) + (2, 0, 1): the same direction, another place
    moved = question(x=(2.0, 0.0), z=(2.0, 0.0, 1.0), w=(1.0, 0.0, 0.0), turn="none")
    assert graded_text(moved, True, "ccw").endswith(
        "(the line did not turn: it moved without turning)"
    )


def test_a_tally_counts_each_part_right_separately() -> None:
    q = question(mistake=True, turn="cw")
    answers = {
        "a": blob(True, "cw"),  # both right
        "b": blob(True, "ccw"),  # mistake right, turn wrong
        "c": blob(False, "cw"),  # mistake wrong, turn right
        "d": blob(True),  # mistake right, no turn given
        "e": blob(False, "sideways"),  # counted; its turn is not a choice
    }
    t = an.tally(answers, q)
    assert (t.answered, t.right_mistake, t.right_turn, t.turned) == (5, 3, 2, 3)
    assert an.tally(answers).right_mistake == 0  # no question: nothing graded


# ----------------------------------------------------------------------------- two votes


def asked(s):
    room, secret = cr.create_room(s)
    seats = [cr.join(s, room, n) for n in ("Ana", "Bo", "Cy", "Di")]
    room = cr.lecturer_update(s, room.code, secret, lambda r: cr.ask(r, question()))
    return room, secret, seats


def test_vote_again_keeps_the_first_vote_and_counts_each_seat_once_per_vote(s) -> None:
    room, secret, seats = asked(s)
    for seat, said in zip(seats[:3], (False, False, True), strict=True):
        an.answer(s, room, seat, 1, said, None)
    an.answer(s, room, seats[0], 1, False, "ccw")  # changed: still one answer
    room = cr.lecturer_update(s, room.code, secret, cr.vote_again)
    assert room.question is not None and room.question.rounds == 2
    assert room.asked[-1].rounds == 2  # the summary's copy too
    with pytest.raises(cr.RoomError, match="first vote has closed"):
        an.answer(s, room, seats[3], 1, True, None)  # a late click on the first card
    for seat in seats:
        an.answer(s, room, seat, 1, True, "cw", 2)
    an.answer(s, room, seats[1], 1, True, "ccw", 2)  # changed in the second vote
    first, second = an.tallies(s, room, room.question)
    assert (first.answered, first.mistake, first.right_mistake) == (3, 1, 1)
    assert (second.answered, second.mistake, second.right_mistake) == (4, 4, 4)
    assert (second.turned, second.right_turn) == (4, 3)
    room = cr.lecturer_update(s, room.code, secret, cr.reveal)
    with pytest.raises(cr.RoomError, match="revealed"):
        an.answer(s, room, seats[0], 1, False, None, 2)
    assert [t.answered for t in an.tallies(s, room, room.question)] == [3, 4]


@pytest.mark.parametrize("vote", [3, 0, True, "2", None])
def test_an_answer_to_a_vote_that_is_not_open_is_refused(s, vote) -> None:
    room, secret, seats = asked(s)
    room = cr.lecturer_update(s, room.code, secret, cr.vote_again)
    with pytest.raises(cr.RoomError, match="not open"):
        an.answer(s, room, seats[0], 1, True, None, vote)
    assert an.answers_of(s, room, 1, 2) == {} and an.answers_of(s, room, 1) == {}


def test_a_second_vote_opens_once_and_only_on_an_open_question(s) -> None:
    room, secret, _ = asked(s)
    up = lambda change: cr.lecturer_update(s, room.code, secret, change)  # noqa: E731
    room = up(cr.vote_again)
    with pytest.raises(cr.RoomError, match="already voted again"):
        up(cr.vote_again)
    room = up(cr.reveal)
    with pytest.raises(cr.RoomError, match="no open question"):
        up(cr.vote_again)
    with pytest.raises(cr.NotLecturer):  # a student's forged event changes nothing
        cr.lecturer_update(s, room.code, "guess", cr.vote_again)
    assert cr.Room.from_json(room.to_json()) == room  # the rounds survive the store


def test_a_room_document_from_before_rounds_reads_as_one_vote(s) -> None:
    room, _secret, _ = asked(s)
    doc = json.loads(room.to_json())
    for q in (doc["question"], *doc["asked"]):
        del q["rounds"]
    old = cr.Room.from_json(json.dumps(doc).encode())
    assert old.question is not None and old.question.rounds == 1


def test_the_answers_are_kept_as_long_as_the_closed_room(s, monkeypatch) -> None:
    """Each answer map expires ttl after its own last write; closing the class gives it
    the room's remaining life, so the recap does not lose the early questions' votes."""
    room, secret = cr.create_room(s, ttl=4.0)
    seat = cr.join(s, room, "Ana")
    room = cr.lecturer_update(s, room.code, secret, lambda r: cr.ask(r, question()))
    an.answer(s, room, seat, 1, True, None)
    room = cr.lecturer_update(s, room.code, secret, cr.vote_again)
    an.answer(s, room, seat, 1, True, "cw", 2)
    time.sleep(2.4)  # the answers have 1.6 s left, the closed room will have 4 s
    room = cr.lecturer_update(s, room.code, secret, cr.close_room)
    cr.keep_results(s, room)
    time.sleep(2.4)  # past the votes' own expiry, within the room's
    assert cr.load_room(s, room.code, fresh=True) is not None
    assert [t.answered for t in an.tallies(s, room, room.asked[0])] == [1, 1]


# ----------------------------------------------------------------------------- the summary


def test_the_summary_has_a_row_per_vote_and_a_column_per_part(s) -> None:
    room, secret, seats = asked(s)
    up = lambda change: cr.lecturer_update(s, room.code, secret, change)  # noqa: E731
    firsts = ((False, "cw"), (True, "ccw"), (False, None), (True, "cw"))
    for seat, said in zip(seats, firsts, strict=True):
        an.answer(s, room, seat, 1, *said)
    room = up(cr.vote_again)
    for seat in seats[:3]:
        an.answer(s, room, seat, 1, True, "cw", 2)
    text = summary(s, room)  # before the reveal: no grades
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [(r["number"], r["vote"], r["right on mistake"]) for r in rows] == [
        ("1", "1", ""),
        ("1", "2", ""),
    ]
    room = up(cr.reveal)
    rows = list(csv.DictReader(io.StringIO(summary(s, room))))
    first, second = rows
    assert (first["answered"], first["said mistake"], first["said clockwise"]) == ("4", "2", "2")
    assert (first["right on mistake"], first["right on turn"]) == ("2", "2")
    assert (second["answered"], second["right on mistake"], second["right on turn"]) == (
        "3",
        "3",
        "3",
    )
    assert first["answer"] == "mistake" and first["turn"] == "clockwise"


def test_the_recap_sets_the_votes_side_by_side_with_the_right_answer_marked() -> None:
    q = question(mistake=True, turn="cw", revealed=True, rounds=2)
    first = an.tally({"a": blob(False), "b": blob(True, "ccw"), "c": blob(False, "cw")}, q)
    second = an.tally({"a": blob(True, "cw"), "b": blob(True, "cw"), "c": blob(False)}, q)
    table = votes_table(q, [first, second])
    head, _, row1, row2 = table.splitlines()
    assert "mistake ✓ right" in head and "clockwise ✓ right" in head
    assert "no mistake ✓" not in head and "counter-clockwise ✓" not in head
    assert row1.startswith("| first vote | 3 | 1 (33%) | 2 (67%) |")
    assert row2.startswith("| second vote | 3 | 2 (67%) | 1 (33%) |")
    assert row2.endswith("| 2 (67%) | 2 (100%) |")  # right on mistake; on turn, of 2 turns
    assert shift_words(q, [first, second]) == "right: 1 of 3 (33%) → 2 of 3 (67%)"
    assert truth_words(q) == "a mistake, the line turned clockwise"
    hidden = question(rounds=2)  # not revealed: no mark, no grades
    assert "✓" not in votes_table(hidden, [first, second])
    assert shift_words(hidden, [first, second]) == ""


def test_the_summary_and_the_recap_say_which_of_the_oldest_are_no_longer_kept(s) -> None:
    room, _ = cr.create_room(s)
    assert "not kept" not in str(summary_rows(room, {}, {}))
    for _ in range(cr.MAX_CHALLENGES + 2):  # the room keeps the last MAX_CHALLENGES
        room = cr.open_challenge(room, max_points=10, min_gamma=0.1)
    assert room.challenges[0].id == 3
    rows = summary_rows(room, {}, {})
    assert {"kind": "challenges not kept", "number": 2} in rows
    assert not_kept_words(room, "challenges") == (
        f"Challenges 1 to 2 are not kept: a class keeps its last {cr.MAX_CHALLENGES} challenges."
    )
    assert not_kept_words(room, "questions") == ""
