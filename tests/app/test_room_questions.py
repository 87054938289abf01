"""A class's questions, challenge and end through AppTest: ask, answer and reveal; the
shares hidden until the reveal; discuss and vote again; the margin challenge from Submit
to the lecture; closing the class, its recap and summary, and old links after it.
"""

from __future__ import annotations

import numpy as np
from apptest_helpers import (
    answer_card,
    lecture_scene,
    open_app,
    plain_perceptron,
)
from room_helpers import (
    block,
    card_of,
    fresh_store,  # noqa: F401 (each test's own store)
    lecturer,
    presenting,
    room_of,
    second_mistake,
    shown,
    small_set,
    student,
    texts,
)

from ui.app import links
from ui.classmode import answers as an
from ui.classmode import arrive, turns
from ui.classmode import classroom as cr
from ui.classmode.summary import summary


def test_ask_answer_reveal() -> None:
    lec, seat = lecturer()
    lec.switch_page("pages/lecture.py").run()
    a = student(seat.code, page="pages/lecture.py")
    b = student(seat.code, "Bo", page="pages/lecture.py")
    assert lecture_scene(lec)["asked"] is None
    lec.button(key="room_ask").click().run()
    q = room_of(seat.code).question
    assert q is not None and q.t == lec.session_state["lec_t"]
    # the projector's chart marks the example asked about, at the step it was asked at
    assert lecture_scene(lec)["asked"] == [q.t, q.point]
    a.run()
    b.run()
    assert "Will it be a mistake?" in card_of(a, q.id)
    # a follower's chart rings it too: which example, not whether it will be a mistake
    assert lecture_scene(a)["asked"] == [q.t, q.point]
    answer_card(a, "mistake")
    answer_card(b, "mistake")
    answer_card(b, "no mistake")  # changed
    lec.run()
    assert "**2** of 2 answered" in texts(lec)
    t0 = lec.session_state["lec_t"]
    lec.button(key="room_reveal").click().run()
    lec.run()
    assert lec.session_state["lec_t"] == t0 + 1  # the reveal steps the lecture
    assert lecture_scene(lec)["asked"] is None  # revealed: the ring of the example shown
    a.run()
    a.run()
    b.run()
    b.run()
    truth = "It was a mistake" if q.mistake else "No mistake"
    assert truth in card_of(a, q.id) and truth in card_of(b, q.id)
    marks = [
        ("mistake ✓ right" in card_of(x, q.id), "mistake ✗" in card_of(x, q.id)) for x in (a, b)
    ]
    assert sorted(marks) == [(False, True), (True, False)]  # one right, one not
    assert a.session_state["lec_t"] == t0 + 1


def test_the_shares_are_hidden_until_the_reveal_unless_the_lecturer_shows_them_live() -> None:
    lec, seat = lecturer()
    lec.switch_page("pages/lecture.py").run()
    a = student(seat.code, page="pages/lecture.py")
    b = student(seat.code, "Bo", page="pages/lecture.py")
    lec.button(key="room_ask").click().run()
    q = room_of(seat.code).question
    a.run()
    answer_card(a, "mistake")
    b.run()
    answer_card(b, "no mistake")
    lec.run()
    said = texts(lec)
    assert "**2** of 2 answered" in said
    assert lec.get("progress") == [] and "50%" not in said and "mistake: 1" not in said
    assert lec.toggle(key="room_live_pick").value is False  # off by default
    # a student's card says the answer counted, never how the others answered
    mine = card_of(a, q.id)
    assert "Counted: you said mistake." in mine and "%" not in mine and "answered" not in mine
    # the lecturer shows the shares live: the bars, with words and numbers
    lec.toggle(key="room_live_pick").set_value(True).run()
    assert sorted(p.proto.text for p in lec.get("progress")) == [
        "mistake: 1 (50%)",
        "no mistake: 1 (50%)",
    ]
    # kept for the session: the class page (no strip there) and back
    lec.switch_page("pages/room.py").run()
    lec.switch_page("pages/lecture.py").run()
    assert lec.toggle(key="room_live_pick").value is True
    assert len(lec.get("progress")) == 2
    lec.toggle(key="room_live_pick").set_value(False).run()
    assert lec.get("progress") == []
    # the reveal shows the shares (and which answer was right) whatever the switch says
    lec.button(key="room_reveal").click().run()
    lec.run()
    right = "mistake" if q.mistake else "no mistake"
    bars = sorted(p.proto.text for p in lec.get("progress"))
    assert bars == sorted(
        [f"{right} ✓ right: 1 (50%)", f"{'no mistake' if q.mistake else 'mistake'}: 1 (50%)"]
    )


def test_the_presenters_strip_says_how_many_answered_not_what(monkeypatch) -> None:
    lec, seat = presenting(monkeypatch)
    lec.switch_page("pages/lecture.py").run()
    a = student(seat.code, page="pages/lecture.py")
    lec.button(key="room_ask").click().run()
    a.run()
    answer_card(a, "mistake")
    lec.run()
    row = shown(block(lec, "room_strip_state"))
    assert "**1 of 1 answered**" in row and "mistake" not in row
    lec.toggle(key="room_live_pick").set_value(True).run()
    assert "· mistake 1 · no mistake 0" in shown(block(lec, "room_strip_state"))


def test_discuss_and_vote_again_keeps_both_votes_and_grades_each_part() -> None:
    lec, seat = lecturer()
    lec.switch_page("pages/lecture.py").run()
    lec.session_state["lec_t"] = second_mistake(lec)
    lec.run()
    a = student(seat.code, page="pages/lecture.py")
    b = student(seat.code, "Bo", page="pages/lecture.py")
    lec.button(key="room_ask").click().run()
    q = room_of(seat.code).question
    assert q.mistake and q.turn in ("cw", "ccw"), q  # a mistake that turns the line
    right_turn = turns.TURN_WORDS[q.turn]
    wrong_turn = turns.TURN_WORDS["ccw" if q.turn == "cw" else "cw"]
    for x, said in ((a, "no mistake"), (b, "mistake")):  # the first vote
        x.run()
        answer_card(x, said)
    answer_card(b, None, wrong_turn)
    lec.run()
    assert "**2** of 2 answered" in texts(lec)
    # Vote again: the first vote closes and is kept; the shares stay hidden
    lec.button(key="room_again").click().run()
    lec.run()
    assert room_of(seat.code).question.rounds == 2
    assert "**0** of 2 answered" in texts(lec) and lec.get("progress") == []
    assert not [x for x in lec.button if x.key == "room_again"]  # one second vote
    a.run()
    card = card_of(a, 1)
    assert "vote again" in card and "Your first vote: no mistake." in card
    answer_card(a, "mistake")
    answer_card(a, None, right_turn)
    assert "Counted (second vote): you said mistake, " + right_turn in card_of(a, 1)
    b.run()
    answer_card(b, "mistake")
    answer_card(b, None, wrong_turn)
    lec.run()
    assert "**2** of 2 answered" in texts(lec)
    s = links.the_store()
    room = room_of(seat.code)
    first, second = an.tallies(s, room, room.question)
    assert (first.answered, first.mistake, second.answered, second.mistake) == (2, 1, 2, 2)
    lec.button(key="room_reveal").click().run()
    lec.run()
    # the reveal: both votes side by side, the right answer marked, the shift in words
    bars = [p.proto.text for p in lec.get("progress")]
    assert bars == [
        "mistake ✓ right: 1 (50%)",
        "no mistake: 1 (50%)",
        "mistake ✓ right: 2 (100%)",
        "no mistake: 0 (0%)",
    ]
    assert "right: 1 of 2 (50%) → 2 of 2 (100%)" in texts(lec)
    for x in (a, b):
        x.run()
        x.run()
    # each part graded on its own: B's "mistake" was right, its turn was not
    b_card = card_of(b, 1)
    assert (
        f"**Your first vote:** mistake ✓ right · {wrong_turn} ✗ (the line turned {right_turn})"
        in b_card
    )
    assert f"**Your second vote:** mistake ✓ right · {wrong_turn} ✗" in b_card
    a_card = card_of(a, 1)
    assert (
        "**Your first vote:** no mistake ✗ (it was a mistake) · which way: not answered" in a_card
    )
    assert f"**Your second vote:** mistake ✓ right · {right_turn} ✓ right." in a_card


def test_the_margin_challenge_from_submit_to_the_lecture() -> None:
    lec, seat = lecturer()
    lec.button(key="room_ch_open").click().run()
    assert room_of(seat.code).challenge.open
    a = student(seat.code, "Ana", page="pages/margin.py")
    assert "Submit this set" in [b.label for b in a.button]
    assert a.button(key="mar_submit").disabled  # 40 points: too many for 10
    small_set(a)
    a.run()
    a.button(key="mar_submit").click().run()
    said = texts(a)
    assert "Submitted: M = " in said and "number 1 of 1" in said
    lec.run()
    assert "1 submission" in texts(lec)
    lec.button(key="room_open").click().run()
    assert lec.session_state["data_custom"][0].shape == (4, 2)
    assert lecture_scene(lec)["t"] == 0


def test_the_challenge_takes_a_set_that_needs_hundreds_of_passes_with_its_whole_count() -> None:
    """(100, 10) labelled +1 and (100, 11) labelled −1: γ ≈ 0.497, and the perceptron
    (bias c = 1, w = 0, the given order) needs 922 passes; counted here with a plain loop."""
    X, y = np.array([[100.0, 10.0], [100.0, 11.0]]), np.array([1, -1])
    M, done, passes, _ = plain_perceptron(np.column_stack([X, np.ones(2)]), y, 100_000)
    assert done
    lec, seat = lecturer()
    lec.button(key="room_ch_open").click().run()
    a = student(seat.code, "Ana", page="pages/margin.py")
    a.session_state["data_custom"] = (X, y, "drawn in the margin lab")
    a.run()
    said = texts(a)
    assert f"This set: M = {M}," in said and "did not converge" not in said
    assert not a.button(key="mar_submit").disabled
    a.button(key="mar_submit").click().run()
    assert f"Submitted: M = {M} mistakes" in texts(a)
    lec.run()
    lec.button(key="room_open").click().run()  # the lecture runs it to the end, as counted
    assert lecture_scene(lec)["T"] == passes * 2


def test_closing_the_class_ends_it_for_students_and_the_summary_has_no_names() -> None:
    lec, seat = lecturer()
    a = student(seat.code, "Ana")
    assert lec.button(key="room_close").disabled  # not without the confirmation
    text = summary(links.the_store(), room_of(seat.code))
    assert text.startswith("kind,number,") and "Ana" not in text
    lec.checkbox(key="room_sure").check().run()
    lec.button(key="room_close").click().run()
    assert room_of(seat.code).closed
    a.run()  # the strip's next poll: the class has ended, and the page says so
    assert "room_seat" not in a.session_state
    assert "has ended" in texts(a)


def test_closing_the_class_shows_its_lecturer_the_recap_with_the_summary() -> None:
    lec, seat = lecturer()
    lec.switch_page("pages/lecture.py").run()
    a = student(seat.code, "Ana", page="pages/lecture.py")
    lec.button(key="room_ask").click().run()
    a.run()
    answer_card(a, "mistake")
    lec.button(key="room_again").click().run()
    a.run()
    answer_card(a, "no mistake")
    lec.button(key="room_reveal").click().run()
    lec.switch_page("pages/room.py").run()
    lec.checkbox(key="room_sure").check().run()
    lec.button(key="room_close").click().run()
    assert not lec.exception and room_of(seat.code).closed
    assert "room_seat" not in lec.session_state  # the class is over for the lecturer too
    said = texts(lec)
    assert f"Class {cr.shown_code(seat.code)} is closed: the recap" in said
    assert "Join a class" not in said  # not the join form
    csv_button = lec.get("download_button")
    assert [d.proto.label for d in csv_button] == ["Download the summary (CSV)"]
    q = room_of(seat.code).asked[0]
    right_m = "mistake" if q.mistake else "no mistake"
    recap = shown(block(lec, "room_recap_q1"))
    assert f"{right_m} ✓ right" in recap  # the right answer, marked in words
    assert "| first vote | 1 |" in recap and "| second vote | 1 |" in recap
    right = (1, 0) if q.mistake else (0, 1)
    moved = f"{right[0]} of 1 ({right[0]:.0%}) → {right[1]} of 1 ({right[1]:.0%})"
    assert f"Right on mistake or not, from the first vote to the second: {moved}." in recap
    assert "Ana" not in said
    # the lecturer link (or the lecturer's cookie, a reload) opens the recap again
    again = open_app("pages/room.py", query={"room": seat.code, "key": seat.secret})
    assert "is closed: the recap" in texts(again) and "room_seat" not in again.session_state
    session: dict = {}
    arrive.arrive(session, {}, lambda: {arrive.COOKIE: f"{seat.code}.{seat.secret}"})
    assert session["room_recap"] == (seat.code, seat.secret) and "room_seat" not in session
    forged = open_app("pages/room.py", query={"room": seat.code, "key": "guess"})
    assert "the recap" not in texts(forged)
    # Done: the page is the join form again
    lec.button(key="room_recap_done").click().run()
    assert "Join a class" in texts(lec) and "room_recap" not in lec.session_state


def test_an_old_seat_link_or_cookie_after_the_class_closed_says_the_class_has_ended() -> None:
    from ui.app.state import NOTICES

    lec, seat = lecturer()
    a = student(seat.code, "Bo")
    held = a.session_state["room_seat"].seat
    url = dict(a.query_params.items())
    lec.checkbox(key="room_sure").check().run()
    lec.button(key="room_close").click().run()
    ended = f"Class {cr.shown_code(seat.code)} has ended"
    cookies = {
        "the student's reload (the class's link and the seat's cookie)": (
            url,
            {arrive.SEAT_COOKIE: f"{seat.code}.{held}"},
        ),
        "the student's cookie, the app opened without the link": (
            {},
            {arrive.SEAT_COOKIE: f"{seat.code}.{held}"},
        ),
    }  # (the lecturer's cookie opens the class's recap: see the recap's test)
    for how, (query, jar) in cookies.items():
        session: dict = {}
        joining = arrive.arrive(session, query, lambda jar=jar: jar)
        said = " ".join(session.get(NOTICES, []))
        assert ended in said, how
        assert "room_seat" not in session and joining is None, how  # no join form for it
        assert session.get(arrive.COOKIE_SET), how  # the browser drops the cookie
    # a seat cookie of a class still open, in a tab opened without the link: kept, no word
    _, other = lecturer()
    b = student(other.code, "Cy")
    session = {}
    jar = {arrive.SEAT_COOKIE: f"{other.code}.{b.session_state['room_seat'].seat}"}
    arrive.arrive(session, {}, lambda: jar)
    assert not session.get(NOTICES) and not session.get(arrive.COOKIE_SET)
