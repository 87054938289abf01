"""The lecturer's remote (ui.lecture.remote) on a real SQLite store: only the class's secret
presses anything; the projector's buttons become the room's press for its player, on the
live channel; Ask, Vote again and Reveal are the strip's own actions; a refusal changes
nothing in the room."""

from __future__ import annotations

import json
import re

from ui.classmode import classroom as cr
from ui.classmode import live as channel
from ui.lecture import remote
from ui.live import route
from ui.live.hub import HUB
from ui.live.light import Asker


def asker(peer: str = "10.1.2.3") -> Asker:
    return Asker(peer, "http", {}, {})


def test_a_wrong_or_missing_key_presses_nothing(s) -> None:
    room, secret = cr.create_room(s)
    before = cr.load_room(s, room.code, fresh=True)
    for key in ("", "not-the-key", secret[:-1], secret + "x"):
        got = remote.press(room.code, key, "step", asker())
        assert got.status == 403 and "not this class's" in got.body["error"]
    assert remote.press("ZZZZZZZZ", secret, "step", asker()).status == 404
    assert remote.press("not a code", secret, "step", asker()).status == 400
    assert cr.load_room(s, room.code, fresh=True) == before


def test_the_projectors_buttons_are_pressed_for_its_player_on_the_channel(s) -> None:
    room, secret = cr.create_room(s)
    cr.lecturer_update(s, room.code, secret, lambda r: cr.publish(r, {"lec_t": "7"}))
    got = remote.press(room.code, secret, "status", asker())
    assert got.status == 200 and got.body["t"] == 7 and got.body["T"] > 7
    assert got.body["question"] == "No question open." and not got.body["open"]
    ticket = route.check(got.body["ticket"], channel.key_of)
    assert ticket is not None and ticket.seat == "lecturer"
    for n, act in enumerate(("step", "back", "next", "play"), start=1):
        assert remote.press(room.code, secret, act, asker()).status == 200
        now = cr.load_room(s, room.code, fresh=True)
        assert now.remote == (n, act, 0)
        state = json.loads(HUB.newest(room.code).text)  # told to the room's pages at once
        assert state["lecture"]["remote"] == [n, act, 0]
        assert now.lecture_n == 1  # the lecture itself is the projector's to publish


def test_ask_vote_again_and_reveal_are_the_strips_own(s) -> None:
    room, secret = cr.create_room(s)
    cr.lecturer_update(s, room.code, secret, lambda r: cr.publish(r, {"lec_t": "4"}))
    got = remote.press(room.code, secret, "ask", asker())
    q = cr.load_room(s, room.code, fresh=True).question
    assert q is not None and q.t == 4 and not q.revealed
    assert re.match(rf"^Question {q.id}: 0 of 0 answered", got.body["question"])
    assert got.body["open"] and got.body["again"]
    again = remote.press(room.code, secret, "ask", asker())  # one question at a time
    assert again.body["said"] and cr.load_room(s, room.code, fresh=True).question.id == q.id
    assert not remote.press(room.code, secret, "again", asker()).body["again"]
    assert cr.load_room(s, room.code, fresh=True).question.rounds == 2
    remote.press(room.code, secret, "reveal", asker())
    now = cr.load_room(s, room.code, fresh=True)
    # revealed, and the lecture past the example: the projector's player goes there
    assert now.question.revealed and channel.step_of(now.lecture_query) == 5
    assert now.remote is not None and now.remote[1:] == ("at", 5)
    said = remote.press(room.code, secret, "reveal", asker()).body["said"]
    assert said == "There is no open question to reveal."


def test_the_end_of_the_run_has_no_question_to_ask(s) -> None:
    room, secret = cr.create_room(s)
    cr.lecturer_update(s, room.code, secret, lambda r: cr.publish(r, {"lec_t": "100000"}))
    got = remote.press(room.code, secret, "ask", asker())
    assert "no next example" in got.body["said"]
    assert cr.load_room(s, room.code, fresh=True).question is None


def test_a_closed_class_is_said_ended_and_a_script_is_slowed(s) -> None:
    room, secret = cr.create_room(s)
    statuses = [
        remote.press(room.code, "wrong", "status", asker("10.7.7.7")).status for _ in range(30)
    ]
    assert statuses.count(429) >= 5 and 429 not in statuses[:20]
    cr.lecturer_update(s, room.code, secret, cr.close_room)
    got = remote.press(room.code, secret, "step", asker())
    assert got.status == 410 and got.body["closed"]
