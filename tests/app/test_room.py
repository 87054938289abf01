"""The class page and the class strip, through AppTest: a lecturer and students
are separate sessions (separate ``AppTest`` objects) sharing one real SQLite store, as
students' tabs share the store of a class's servers.

``AppTest`` does not run a fragment's ``run_every`` by itself: a test's ``.run()`` is the
browser's next poll.
"""

from __future__ import annotations

import dataclasses
import itertools
import json

import numpy as np
import pytest
import streamlit as st
from apptest_helpers import (
    answer_card,
    card_call,
    card_data,
    card_now,
    card_rates,
    card_words,
    lecture_scene,
    open_app,
    plain_perceptron,
)

import perceptron_store as store
from ui.app import links
from ui.classmode import answers as an
from ui.classmode import arrive, turns
from ui.classmode import classroom as cr
from ui.classmode.summary import summary


@pytest.fixture(autouse=True)
def fresh_store(tmp_path):
    s = store.open_store(f"sqlite:///{tmp_path / 'room.sqlite3'}")
    links.use_store(s)
    cr.forget_recent()
    yield s
    links.use_store(None)


def texts(at) -> str:
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption]
    parts += [w.value for w in at.warning] + [e.value for e in at.error]
    parts += [i.value for i in at.info] + [t.value for t in at.title]
    return "\n".join(parts)


def lecturer():
    at = open_app("pages/room.py")
    next(b for b in at.sidebar.button if b.key == "room_start").click().run()
    assert not at.exception
    return at, at.session_state["room_seat"]


def student(code: str, nick: str = "Ana", page: str = "pages/room.py"):
    at = open_app("pages/room.py", query={"room": code})
    assert at.text_input(key="room_join_code").value == cr.shown_code(code)  # the link's code
    at.text_input(key="room_join_nick").input(nick)
    at.button(key="room_join_go").click().run()
    assert not at.exception
    if page != "pages/room.py":
        at.switch_page(page).run()
    return at


def room_of(code: str) -> cr.Room:
    return cr.load_room(links.the_store(), code, fresh=True)


def test_a_lecturer_starts_a_class_and_the_page_shows_its_code_and_qr(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("PERCEPTRON_PUBLIC_URL", "https://lab.example.edu")
    at, seat = lecturer()
    assert seat.lecturer and room_of(seat.code) is not None
    assert cr.shown_code(seat.code) in texts(at)
    assert "0 students have joined" in texts(at).replace("**", "")
    assert len(at.get("image")) == 1  # the QR code
    assert "lab\\.example\\.edu" in texts(at)  # the join address, as plain text
    assert "key" not in at.query_params and "room" not in at.query_params  # nothing on show


def test_with_no_address_phones_can_reach_the_projector_says_so_instead_of_a_qr_code(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("PERCEPTRON_PUBLIC_URL", raising=False)
    at, seat = lecturer()  # AppTest's page has no address at all
    assert len(at.get("image")) == 0
    said = " ".join(w.value for w in at.warning)
    assert "Phones cannot join" in said and "PERCEPTRON_PUBLIC_URL" in said
    assert cr.shown_code(seat.code) in texts(at)  # the code is still shown


def test_students_join_by_link_and_by_code_and_are_counted() -> None:
    at, seat = lecturer()
    a = student(seat.code, "<b>Ana</b>")
    assert a.session_state["room_seat"].seat and dict(a.query_params)["room"] == seat.code
    assert "\\<b\\>Ana\\<\\/b\\>" in texts(a)  # the nickname shown escaped, never as markup
    b = open_app("pages/room.py")
    b.text_input(key="room_join_code").input(cr.shown_code(seat.code).lower())
    b.button(key="room_join_go").click().run()
    assert b.session_state["room_seat"].code == seat.code
    at.run()
    assert "2 students have joined" in texts(at).replace("**", "")


def test_leaving_gives_the_seat_back_and_the_projector_counts_one_fewer() -> None:
    at, seat = lecturer()
    a, b = student(seat.code, "Ana"), student(seat.code, "Ben")
    at.run()
    assert "2 students have joined" in texts(at).replace("**", "")
    a.button(key="room_leave").click().run()
    assert not a.exception and "room_seat" not in a.session_state
    assert "Join a class" in texts(a)  # the join form, in the same run
    assert cr.members(links.the_store(), room_of(seat.code)) == 1
    at.run()
    assert "1 student has joined" in texts(at).replace("**", ""), texts(at)
    assert b.session_state["room_seat"].seat  # the others keep theirs


def test_a_students_open_page_keeps_them_counted_and_a_closed_one_does_not() -> None:
    """The projector counts seats whose page ran its strip in the last SEEN_S: Ana's page
    runs on (its strip's heartbeat), Ben closed his tab without Leave."""
    at, seat = lecturer()
    a, _ = student(seat.code, "Ana"), student(seat.code, "Ben")
    store_ = links.the_store()
    key = cr.members_key(seat.code)
    for field, blob in store_.fields(key).items():  # both were last seen two minutes ago
        entry = json.loads(blob)
        old = json.dumps({**entry, "seen": entry["seen"] - 2 * cr.SEEN_S}).encode()
        store_.put_field(key, field, old, ttl=3600)
    a.session_state["room_seat"].seen_at = 0.0  # its strip has not said so for a while
    a.run()  # Ana's page's strip runs (its heartbeat)
    at.run()
    assert "1 student has joined" in texts(at).replace("**", ""), texts(at)


@pytest.mark.parametrize(
    ("code", "says"),
    [
        ("ABCD", "8 letters and digits, like ABCD-2345; this one has 4"),
        ("<img src=x onerror=alert(1)>", "Type the class code"),  # past max_chars: not sent
        ("ABCD-EF#H", "only the letters and the digits 2 to 9"),
        # 8 characters, each a look-alike the code alphabet leaves out
        (
            "0O1I-LLLL",
            "never uses 0, 1, I, L or O (each looks like another character); "
            "this one has 0, 1, I, L and O",
        ),
        ("ABCD-EFGH", "No class ABCD-EFGH is open"),
    ],
)
def test_a_wrong_code_says_so(code, says) -> None:
    at = open_app("pages/room.py")
    at.text_input(key="room_join_code").input(code)
    at.button(key="room_join_go").click().run()
    assert not at.exception
    assert says in texts(at)
    assert "room_seat" not in at.session_state


def test_join_attempts_are_rate_limited() -> None:
    at = open_app("pages/room.py")
    said = []
    for i in range(8):
        at.text_input(key="room_join_code").input(f"ABCD-EFG{'23456789'[i]}")
        at.button(key="room_join_go").click().run()
        said.append(texts(at))
    assert all("No class" in s for s in said[:5])
    assert all("Too many attempts" in s for s in said[5:])


@pytest.mark.parametrize(
    "query",
    [
        {"room": "<script>alert(1)</script>"},
        {"room": "ABCDEFGH"},  # no such class
        {"room": "x" * 5000},
    ],
)
def test_a_tampered_class_link_says_so(query) -> None:
    at = open_app("pages/room.py", query=query)
    assert not at.exception
    assert "room_seat" not in at.session_state
    assert "<script>" not in texts(at)


def test_a_forged_key_or_seat_gives_no_seat() -> None:
    _, seat = lecturer()
    for query in (
        {"room": seat.code, "key": "guess"},
        {"room": seat.code, "seat": "aaaaaaaaaaaaaaaa"},  # a seat in a link: never a seat
        {"room": seat.code, "seat": "../../../etc/passwd"},
    ):
        at = open_app("pages/room.py", query=query)
        assert not at.exception
        assert "room_seat" not in at.session_state, query
    for cookie in (
        f"{seat.code}.aaaaaaaaaaaaaaaa",  # a seat id no one has
        f"{seat.code}.../../../etc/passwd",
        "ZZZZZZZZ.aaaaaaaaaaaaaaaa",  # another class's
        "x" * 5000,
    ):
        session: dict = {}
        arrive.arrive(session, {"room": seat.code}, lambda c=cookie: {arrive.SEAT_COOKIE: c})
        assert "room_seat" not in session, cookie
        assert session["room_cookie"] is True  # the browser is told once to drop it


def test_a_students_link_carries_the_class_not_the_seat() -> None:
    _, seat = lecturer()
    a = student(seat.code, "Bo")
    assert dict(a.query_params.items()).get("room") == seat.code
    assert "seat" not in a.query_params  # "Copy link" and the address bar give no seat
    copied = open_app("pages/room.py", query=dict(a.query_params.items()))
    assert "room_seat" not in copied.session_state  # whoever opens it is asked to join
    assert copied.text_input(key="room_join_code").value == cr.shown_code(seat.code)


def test_the_lecturer_link_reopens_the_class_and_leaves_the_address_bar() -> None:
    _, seat = lecturer()
    at = open_app("pages/room.py", query={"room": seat.code, "key": seat.secret})
    assert at.session_state["room_seat"].lecturer
    assert "key" not in at.query_params  # the secret is not left in the address bar
    assert "Open the challenge" in [b.label for b in at.button]


def test_a_reload_keeps_the_students_seat() -> None:
    _, seat = lecturer()
    a = student(seat.code, "Bo")
    held = a.session_state["room_seat"].seat
    # the browser keeps the seat in its cookie; the reload's URL carries the class
    session: dict = {}
    url = dict(a.query_params.items())
    arrive.arrive(session, url, lambda: {arrive.SEAT_COOKIE: f"{seat.code}.{held}"})
    mine = session["room_seat"]
    assert (mine.seat, mine.nick, mine.following) == (held, "Bo", True)
    assert cr.members(links.the_store(), room_of(seat.code)) == 1  # not a second seat


def test_followers_show_the_lecturers_data_settings_and_step() -> None:
    lec, seat = lecturer()
    lec.switch_page("pages/lecture.py").run()
    a = student(seat.code, page="pages/lecture.py")
    lec.session_state["data_seed"] = 7
    lec.session_state["data_seed_w"] = 7
    lec.run()  # a new run: step 0 of the new data
    lec.session_state["lec_t"] = 12
    lec.run()
    a.run()  # the strip's next poll: catch up
    a.run()
    assert a.session_state["data_seed"] == 7 and a.session_state["lec_t"] == 12
    assert lecture_scene(a)["t"] == 12
    # the student steps alone: no longer following; the lecturer moves on, the student stays
    a.session_state["lec_t"] = 3
    a.run()
    assert not a.session_state["room_seat"].following
    lec.session_state["lec_t"] = 20
    lec.run()
    a.run()
    assert a.session_state["lec_t"] == 3
    a.button(key="room_follow").click().run()
    a.run()
    assert a.session_state["lec_t"] == 20


def test_a_follower_who_explores_starts_from_the_lecturers_step_on_their_screen() -> None:
    # the follower's browser drew the lecturer's steps from the live channel, with no run
    # of the student's own session: exploring goes on from there, not from an older step
    lec, seat = lecturer()
    lec.switch_page("pages/lecture.py").run()
    a = student(seat.code, page="pages/lecture.py")
    lec.session_state["lec_t"] = 9
    lec.run()  # published to the room; the student's session has not run since
    a.button(key="room_unfollow").click().run()
    a.run()
    assert not a.session_state["room_seat"].following
    assert a.session_state["lec_t"] == 9 and lecture_scene(a)["t"] == 9
    lec.session_state["lec_t"] = 15
    lec.run()
    a.run()
    assert a.session_state["lec_t"] == 9  # exploring: the lecturer's next steps pass by


def test_followers_play_along_with_the_lecturers_play_and_stop_where_it_stops(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from ui.classmode import follow
    from ui.lecture.player import on_event

    clock = [1_000.0]
    monkeypatch.setattr(follow.time, "time", lambda: clock[0])
    lec, seat = lecturer()
    lec.switch_page("pages/lecture.py").run()
    lec.session_state["lec_t"] = 5
    lec.run()
    a = student(seat.code, page="pages/lecture.py")
    assert lecture_scene(a)["t"] == 5 and lecture_scene(a)["along"] is None
    # the lecturer presses Play at 8 steps/s: the browser says so, the run publishes it
    on_event(lec.session_state, {"t": 5, "seq": 1, "from": 5.0, "rate": 8}, n_steps=40)
    lec.run()
    assert lecture_scene(lec)["lead"] is True
    assert room_of(seat.code).playing == (5.0, 8.0, 1_000.0)
    clock[0] += 2.0  # two seconds later the student's page runs (the room changed)
    a.run()
    sent = lecture_scene(a)
    assert sent["t"] == 21  # 5 + 8 × 2: where the lecturer is now
    assert sent["along"] == {"from": 5.0, "rate": 8.0, "elapsed": 2.0}  # its browser plays on
    assert sent["lead"] is False and a.session_state["room_seat"].following
    # the lecturer pauses at 23: the student stops there, still following
    on_event(lec.session_state, {"t": 23, "seq": 2}, n_steps=40)
    lec.run()
    clock[0] += 0.3
    a.run()
    sent = lecture_scene(a)
    assert (sent["t"], sent["along"]) == (23, None)
    assert a.session_state["room_seat"].following and a.session_state["lec_t"] == 23


def lecture_class(monkeypatch: pytest.MonkeyPatch):
    """A lecturer and a following student on Step by step, the server's clock at
    ``clock[0]`` (1,000 s; the tests move it)."""
    from ui.classmode import follow

    clock = [1_000.0]
    monkeypatch.setattr(follow.time, "time", lambda: clock[0])
    lec, seat = lecturer()
    lec.switch_page("pages/lecture.py").run()
    return clock, lec, student(seat.code, page="pages/lecture.py")


def test_a_play_that_starts_after_its_count_in_holds_the_followers_at_its_start(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from ui.classmode import follow
    from ui.lecture.player import on_event

    clock, lec, a = lecture_class(monkeypatch)
    # the lecturer's Play starts 0.6 s after the report (player.js's count-in)
    on_event(
        lec.session_state, {"t": 0, "seq": 1, "from": 0.0, "rate": 8, "elapsed": -0.6}, n_steps=40
    )
    lec.run()
    assert lecture_scene(lec)["along"] == {"from": 0.0, "rate": 8.0, "elapsed": -0.6}
    clock[0] += 0.25  # the room's phones hear of it before it starts: at its start, waiting
    a.run()
    sent = lecture_scene(a)
    assert sent["t"] == 0 and sent["along"] == {"from": 0.0, "rate": 8.0, "elapsed": -0.35}
    assert sent["sent"] == 1_000.25  # the server's clock, for the browser's lateness
    clock[0] += 1.35  # a second after it started: 8 steps on
    a.run()
    assert lecture_scene(a)["t"] == 8
    # a forged count-in of an hour is held at the longest one a browser may ask for
    on_event(
        lec.session_state, {"t": 8, "seq": 2, "from": 8.0, "rate": 8, "elapsed": -3600}, n_steps=40
    )
    lec.run()
    assert lecture_scene(lec)["along"]["elapsed"] == -follow.MAX_LEAD_IN_S


def test_a_follower_who_moves_during_the_lecturers_play_explores_from_there(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from ui.lecture.player import on_event

    clock, lec, a = lecture_class(monkeypatch)
    on_event(lec.session_state, {"t": 0, "seq": 1, "from": 0.0, "rate": 2}, n_steps=40)
    lec.run()
    clock[0] += 3.0
    a.run()
    assert lecture_scene(a)["t"] == 6
    on_event(a.session_state, {"t": 4, "seq": 1}, n_steps=40)  # the student's own Pause/Back
    clock[0] += 1.0
    a.run()
    assert not a.session_state["room_seat"].following
    assert a.session_state["lec_t"] == 4 and lecture_scene(a)["along"] is None


def count_reruns(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every ``st.rerun`` a page asks for from now on (a page run spent for nothing)."""
    reruns: list[str] = []
    rerun = st.rerun

    def counted(*args: object, **kwargs: object) -> None:
        reruns.append(repr(kwargs))
        rerun(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(st, "rerun", counted)
    return reruns


def test_join_draws_the_class_in_the_same_run(monkeypatch: pytest.MonkeyPatch) -> None:
    _, seat = lecturer()
    at = open_app("pages/room.py", query={"room": seat.code})
    at.text_input(key="room_join_nick").input("Pia")
    reruns = count_reruns(monkeypatch)
    at.button(key="room_join_go").click().run()
    assert not at.exception
    assert reruns == []
    assert "You joined as Pia" in texts(at)
    assert at.session_state["room_seat"].following


def test_the_lecturers_actions_draw_the_room_as_they_left_it_in_one_run(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    lec, seat = lecturer()
    reruns = count_reruns(monkeypatch)
    lec.number_input(key="room_ch_n").set_value(7)
    lec.button(key="room_ch_open").click().run()
    assert not lec.exception
    assert room_of(seat.code).challenge.max_points == 7  # the input's value as pressed
    assert "Challenge 1 (open): at most **7 points**" in texts(lec)
    assert "room_ch_close" in [b.key for b in lec.button]  # in the same run
    lec.button(key="room_ch_close").click().run()
    assert not room_of(seat.code).challenge.open
    assert "room_ch_open" in [b.key for b in lec.button]
    lec.checkbox(key="room_sure").check().run()
    lec.button(key="room_close").click().run()
    assert not lec.exception
    assert room_of(seat.code).closed
    assert "room_seat" not in lec.session_state  # the recap, drawn by the same run
    assert reruns == []


def test_a_refused_action_is_said_under_the_lecturers_controls() -> None:
    lec, seat = lecturer()
    lec.session_state["room_seat"] = dataclasses.replace(seat, secret="not-the-key")
    lec.button(key="room_ch_open").click().run()
    assert not lec.exception
    assert room_of(seat.code).challenge is None
    assert [e.value for e in lec.error], "a refusal says why"
    lec.run()  # said once: the next run does not repeat it
    assert not lec.error


def test_a_student_who_joined_opens_step_by_step_on_the_lecturers_lecture_in_one_run(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Joined on the class page, then Follow: the page's first run draws the lecturer's
    data and step, not the student's own run followed by a second run."""
    lec, seat = lecturer()
    lec.switch_page("pages/lecture.py").run()
    lec.session_state["data_seed"] = 7
    lec.session_state["data_seed_w"] = 7
    lec.run()
    lec.session_state["lec_t"] = 12
    lec.run()
    a = student(seat.code)  # on the class page: nothing of the lecture applied yet
    assert a.session_state["data_seed"] != 7
    reruns = count_reruns(monkeypatch)
    a.switch_page("pages/lecture.py").run()
    assert not a.exception
    assert reruns == []
    assert a.session_state["data_seed"] == 7
    assert lecture_scene(a)["t"] == 12


def card_of(at, qid: int) -> str:
    """The text of a student's card of question ``qid``: on Step by step as its page draws
    it (asked of the card's route, as the page does when the channel tells of a change);
    elsewhere in the strip."""
    if card_data(at) is not None:
        view = card_now(at)
        assert view["q"] == qid, f"the card shows question {view['q']}, not {qid}"
        return card_words(view)
    node = block(at, f"room_card_{qid}")
    assert node is not None, f"no card of question {qid}"
    return shown(node)


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


def second_mistake(at) -> int:
    """The step t at which the run's next example is its second mistake (the first, from
    w = 0, only makes the line appear; the second turns it)."""
    steps = lecture_scene(at)["steps"]
    return next(s["t"] for s, nxt in itertools.pairwise(steps) if s["k"] == 1 and nxt["k"] == 2)


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


def small_set(at) -> None:
    """Four points with a wide margin, as a drawn dataset."""
    X = np.array([[1.0, 1.0], [2.0, 1.5], [-1.0, -1.0], [-1.5, -2.0]])
    y = np.array([1, 1, -1, -1])
    at.session_state["data_custom"] = (X, y, "drawn in the margin lab")


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


def test_the_lecturers_cookie_reopens_the_class_after_a_reload() -> None:

    _, seat = lecturer()
    session: dict = {}
    arrive.arrive(session, {}, lambda: {arrive.COOKIE: f"{seat.code}.{seat.secret}"})
    assert session["room_seat"].lecturer and session["room_seat"].code == seat.code
    for forged in (f"{seat.code}.wrong", "nonsense", seat.code, "x" * 1000, f"{seat.code}."):
        session = {}
        arrive.arrive(session, {}, lambda forged=forged: {arrive.COOKIE: forged})
        assert "room_seat" not in session, forged
        assert session["room_cookie"] is True  # the browser is told once to drop it
    cr.lecturer_update(links.the_store(), seat.code, seat.secret, cr.close_room)
    session = {}
    arrive.arrive(session, {}, lambda: {arrive.COOKIE: f"{seat.code}.{seat.secret}"})
    assert "room_seat" not in session  # a closed class is not reopened


def test_wrong_codes_slow_their_sender_not_the_class(monkeypatch) -> None:
    from ui.server import clients

    _, seat = lecturer()
    guesser = clients.Client("203.0.113.9", "")  # a script: no cookie
    monkeypatch.setattr(clients, "current", lambda: guesser)
    said = []
    for _ in range(30):  # 30 tabs, 5 wrong codes each (each tab's own limit allows 5)
        session: dict = {}
        said += [arrive.join(session, f"ZZZZ-ZZZ{'23456'[k]}", "") for k in range(5)]
    assert said.count(clients.refused("wrong code")) >= 140  # 5 looked up, then refused
    assert arrive.join({}, seat.code, "") == clients.refused("wrong code")  # it waits
    # a student at the same address with a browser of their own joins at once
    monkeypatch.setattr(clients, "current", lambda: clients.Client("203.0.113.9", "ab12"))
    assert arrive.join({}, seat.code, "") is None
    # and one elsewhere
    monkeypatch.setattr(clients, "current", lambda: clients.Client("198.51.100.7", ""))
    assert arrive.join({}, seat.code, "") is None


def test_wrong_codes_from_the_halls_address_never_refuse_a_right_code(monkeypatch) -> None:
    """Fresh browsers behind the hall's one address send codes that open nothing until the
    address's limit is spent; a classmate behind it with the right code still joins (the
    address is asked only once the store said the code opens nothing)."""
    from ui.server import clients

    _, seat = lecturer()
    hall = "203.0.113.50"
    limit = clients.LIMITS["wrong code"].per_address[1]
    said: list[str | None] = []
    # a fresh browser a try, as a script can mint them, until the address's limit is spent
    # (it refills as the tries go: a few more than its burst)
    while clients.refused("wrong code") not in said and len(said) < 3 * limit:
        guesser = clients.Client(hall, f"{len(said):032x}")
        monkeypatch.setattr(clients, "current", lambda guesser=guesser: guesser)
        said.append(arrive.join({}, "ZZZZ-ZZZZ", ""))
    assert said[0] == "No class ZZZZ-ZZZZ is open. Check the code on the projector."
    assert said[-1] == clients.refused("wrong code")  # the address's limit spent
    for k in range(3):  # classmates behind the same address, with the code on the projector
        classmate = clients.Client(hall, f"{10**6 + k:032x}")
        monkeypatch.setattr(clients, "current", lambda classmate=classmate: classmate)
        assert arrive.join({}, seat.code, f"classmate {k}") is None


def test_seats_and_classes_per_browser_are_bounded(monkeypatch) -> None:
    from ui.server import clients

    _, seat = lecturer()
    script = clients.Client("203.0.113.9", "")
    monkeypatch.setattr(clients, "current", lambda: script)
    sessions = [{} for _ in range(arrive.SEATS_PER_BROWSER + 2)]
    said = [arrive.join(s, seat.code, f"bot{k}") for k, s in enumerate(sessions)]
    assert said[: arrive.SEATS_PER_BROWSER] == [None] * arrive.SEATS_PER_BROWSER
    assert all("already holds" in (t or "") for t in said[arrive.SEATS_PER_BROWSER :])
    assert cr.members(links.the_store(), room_of(seat.code)) == arrive.SEATS_PER_BROWSER
    arrive.leave(sessions[0])  # Leave gives the seat back: the browser may take another
    assert arrive.join(sessions[-1], seat.code, "late") is None
    # Start a class: a few, then the sentence
    started = [arrive.start({}) for _ in range(6)]
    assert started[:3] == [None] * 3 and started[3] == clients.refused("room")


def test_answering_in_a_loop_is_limited(monkeypatch) -> None:
    # the seat's burst, and almost no refill: however slowly the machine runs the clicks
    rates = card_rates()
    monkeypatch.setattr(rates, "rate", 0.001)
    monkeypatch.setattr(rates, "burst", 10)
    lec, seat = lecturer()
    lec.switch_page("pages/lecture.py").run()
    lec.button(key="room_ask").click().run()
    a = student(seat.code, page="pages/lecture.py")
    data, view = card_data(a), card_now(a)  # the card's first call of the burst
    sent = [
        card_call(
            {"ticket": data["ticket"], "q": view["q"], "vote": 1, "said": i % 2, "turn": None}
            | {"ringed": data["ringed"]}
        )
        for i in range(14)
    ]
    assert [status for status, _ in sent] == [200] * 9 + [429] * 5
    assert all("Many answers at once" in got["error"] for _, got in sent[9:])  # said on the card
    answers = an.answers_of(links.the_store(), room_of(seat.code), 1)
    assert len(answers) == 1  # one seat, one answer, however many clicks


def test_asking_at_the_end_of_the_run_says_there_is_no_next_example() -> None:
    lec, seat = lecturer()
    lec.switch_page("pages/lecture.py").run()
    lec.session_state["lec_t"] = lecture_scene(lec)["T"]  # the end of the run
    lec.run()
    lec.button(key="room_ask").click().run()
    assert "no next example" in texts(lec)
    assert room_of(seat.code).question is None


def test_a_student_with_too_many_points_starts_from_four() -> None:
    lec, seat = lecturer()
    lec.button(key="room_ch_open").click().run()
    a = student(seat.code, "Ana", page="pages/margin.py")
    assert "at most 10 points; you have 40" in texts(a)
    a.button(key="mar_challenge_small").click().run()
    a.run()
    assert not a.exception
    assert a.session_state["data_name"] == "four_points"
    assert not a.button(key="mar_submit").disabled
    a.button(key="mar_submit").click().run()
    assert "Submitted: M = " in texts(a)


# ------------------------------------------------------------------ presenter mode: the projector

ADMIN = {"room_ch_open", "room_ch_close", "room_csv", "room_sure", "room_close", "room_pick"}


def block(at, key: str):
    """The container the page keyed ``key``, or None."""
    stack = [at._tree]
    while stack:
        node = stack.pop()
        if getattr(node, "key", None) == key and not hasattr(node, "value"):
            return node
        children = getattr(node, "children", {})
        stack.extend(children.values() if isinstance(children, dict) else children)
    return None


def within(node) -> list:
    """Every element under ``node``."""
    out, stack = [], [node]
    while stack:
        n = stack.pop()
        out.append(n)
        children = getattr(n, "children", {})
        stack.extend(children.values() if isinstance(children, dict) else children)
    return out


def shown(node) -> str:
    """The text of the markdown, headers and captions under ``node``."""
    return "\n".join(
        str(n.value)
        for n in within(node)
        if type(n).__name__ in ("Markdown", "Header", "Subheader", "Caption", "Warning")
    )


def keys_in(node) -> set[str]:
    return {n.key for n in within(node) if isinstance(getattr(n, "key", None), str)}


def board_drawings(node) -> list[str]:
    """The SVG drawings of the challenge's board under ``node``."""
    for n in within(node):
        proto = getattr(n, "proto", None)
        if getattr(proto, "component_name", "") == "perceptron_room_board":
            return [d["svg"] for d in json.loads(proto.json or proto.bytes)["drawings"]]
    return []


def presenting(monkeypatch: pytest.MonkeyPatch):
    """A lecturer who started a class in presenter mode (an address phones can reach)."""
    monkeypatch.setenv("PERCEPTRON_PUBLIC_URL", "https://lab.example.edu")
    at = open_app("pages/room.py", query={"app_presenter": "1"})
    next(b for b in at.sidebar.button if b.key == "room_start").click().run()
    assert not at.exception
    return at, at.session_state["room_seat"]


def submit_from_margin_lab(code: str, nick: str, shift: float) -> None:
    """A student joins and submits a 4-point set (the margin lab's Submit this set)."""
    a = student(code, nick, page="pages/margin.py")
    small_set(a)
    X, y, name = a.session_state["data_custom"]
    a.session_state["data_custom"] = (X * shift, y, name)
    a.run()
    a.button(key="mar_submit").click().run()
    assert "Submitted: M = " in texts(a)


def test_presenter_mode_shows_the_join_view_alone_on_the_projector(monkeypatch) -> None:
    at, seat = presenting(monkeypatch)
    student(seat.code, "Ana")
    student(seat.code, "Bo")
    at.run()
    assert block(at, "room_presenter_on") is not None  # the page's presenter CSS is on
    screen = block(at, "room_screen")
    assert at.button_group(key="room_view_pick").value == "join"
    said = shown(screen).replace("**", "")
    assert cr.shown_code(seat.code) in said and "2 students have joined" in said
    assert "lab\\.example\\.edu" in said  # the join address
    qr = at.get("image")
    assert len(qr) == 1 and any(n is qr[0] for n in within(screen))  # the QR code
    # on the projector: the switch and the way out of presenter mode; the lecturer's
    # controls only in the menu beside them (closed until the lecturer opens it), never
    # under the screen a scroll away, and no lecturer link on the projector's page
    assert keys_in(screen) >= {"room_view_pick", "room_presenter_off"}
    menu = [n for n in within(screen) if getattr(n, "type", "") == "popover"]
    assert len(menu) == 1 and menu[0].proto.popover.label == "Lecturer's controls"
    assert {"room_ch_open", "room_csv", "room_close"} <= keys_in(menu[0])
    assert not (keys_in(screen) - keys_in(menu[0])) & ADMIN
    page = block(at, "room_presenter_on")
    assert not (keys_in(page) - keys_in(screen)) & ADMIN
    # the private lecturer link and the remote's: in the menu, folded, nowhere else on the
    # page; the remote's carries the key in its fragment, never in its query
    links = [n for n in within(page) if type(n).__name__ == "Code"]
    assert len(links) == 2 and all(any(n is c for n in within(menu[0])) for c in links)
    remote_link = next(c.value for c in links if "/remote?" in c.value)
    assert remote_link.endswith(f"/remote?room={seat.code}#key={seat.secret}")


def test_presenter_mode_shows_the_board_with_the_best_few_and_keeps_the_view(
    monkeypatch,
) -> None:
    at, seat = presenting(monkeypatch)
    at.button(key="room_ch_open").click().run()  # under the projector's screen
    submit_from_margin_lab(seat.code, "<b>Ana</b>", 1.0)
    submit_from_margin_lab(seat.code, "Bo", 2.0)
    at.button_group(key="room_view_pick").set_value("board").run()
    assert not at.exception
    screen = block(at, "room_screen")
    said = shown(screen)
    assert "The margin challenge" in said and "at most **10 points**" in said
    assert "\\<b\\>Ana\\<\\/b\\>" in said and "| #2 |" in said  # the best few, escaped
    assert "2 submissions; 2 of them make at most" in said
    drawings = board_drawings(screen)
    assert drawings and all('aria-label="Mistakes M against the bound' in d for d in drawings)
    assert all("Ana" not in d for d in drawings)  # no nickname in the chart
    assert len(at.get("image")) == 0  # the board alone: no QR code
    # the controls in the menu beside the view switch, the submissions' picker under it
    menu = next(n for n in within(screen) if getattr(n, "type", "") == "popover")
    assert not (keys_in(screen) - keys_in(menu)) & ADMIN
    assert "room_ch_close" in keys_in(menu)
    assert {"room_pick", "room_open"} <= keys_in(block(at, "room_presenter_on"))
    # the choice outlives the page: Step by step and back, the board again
    at.switch_page("pages/lecture.py").run()
    at.switch_page("pages/room.py").run()
    assert at.button_group(key="room_view_pick").value == "board"
    assert board_drawings(block(at, "room_screen"))


def test_leaving_presenter_mode_gives_the_class_page_as_it_was(monkeypatch) -> None:
    at, seat = presenting(monkeypatch)
    at.button(key="room_presenter_off").click().run()
    assert not at.exception
    assert at.session_state["app_presenter"] is False
    assert at.sidebar.toggle[0].value is False  # the sidebar's switch agrees
    assert block(at, "room_presenter_on") is None and block(at, "room_screen") is None
    assert block(at, "room_board") is not None  # join and board on one page, as always
    assert cr.shown_code(seat.code) in texts(at)


def test_a_following_student_gets_the_run_file_once_exploring_on_their_own() -> None:
    # a follower's instrument reruns at each of the lecturer's steps, a class at once: the
    # file (the lecturer's run) is offered once the student explores on their own
    lec, seat = lecturer()
    lec.switch_page("pages/lecture.py").run()
    assert any(b.key == "lec_run_download" for b in lec.get("download_button"))
    a = student(seat.code, page="pages/lecture.py")
    assert a.session_state["room_seat"].following
    assert not any(b.key == "lec_run_download" for b in a.get("download_button"))
    a.button(key="room_unfollow").click().run()
    assert not a.session_state["room_seat"].following
    assert any(b.key == "lec_run_download" for b in a.get("download_button"))


def test_in_presenter_mode_the_menu_opens_a_challenge_and_closes_the_class(monkeypatch) -> None:
    """The projector's menu holds the lecturer's controls, and they act as under the page:
    a challenge opens, and closing the class ends it and shows the lecturer its recap."""
    at, seat = presenting(monkeypatch)
    at.button(key="room_ch_open").click().run()
    assert not at.exception and room_of(seat.code).challenge is not None
    at.checkbox(key="room_sure").check().run()
    at.button(key="room_close").click().run()
    assert not at.exception
    assert room_of(seat.code).closed and "room_seat" not in at.session_state
    assert block(at, "room_screen") is None  # the projector's class view is gone
    assert f"Class {cr.shown_code(seat.code)} is closed: the recap" in [t.value for t in at.title]


def test_the_join_view_tells_the_lecturer_when_one_address_holds_many_seats() -> None:
    """40 browsers of one address take seats (each within its own 3) while the rest of the
    class comes from elsewhere: the projector's join view says so, in words; a class whose
    phones all share one router (one address) is not remarked on."""
    from ui.room.join import one_network
    from ui.server import clients

    at, seat = lecturer()
    room = room_of(seat.code)
    script, elsewhere = clients.network_tag("203.0.113.9"), clients.network_tag("198.51.100.7")
    for k in range(40):
        cr.join(links.the_store(), room, f"bot{k}", net=script)
    for k in range(5):
        cr.join(links.the_store(), room, f"student {k}", net=elsewhere)
    at.run()
    assert "40 of 45 seats come from one network address" in texts(at), texts(at)
    assert one_network([45]) == ""  # a hall behind one router: usual
    assert one_network([9, 1]) == "" and one_network([30, 11]) == ""  # few, or not far ahead
    assert script != elsewhere and "203" not in script  # a keyed hash, not the address
