"""The class page through AppTest: starting a class, joining by link and by code, seats
given back and counted, links and cookies that carry no seat, wrong codes and the limits
on what one browser may do (the helpers and the store: ``room_helpers``).
"""

from __future__ import annotations

import json

import pytest
from apptest_helpers import (
    card_call,
    card_data,
    card_now,
    card_rates,
    lecture_scene,
    open_app,
)
from room_helpers import (
    fresh_store,  # noqa: F401 (each test's own store)
    lecturer,
    room_of,
    student,
    texts,
)

from ui.app import links
from ui.classmode import answers as an
from ui.classmode import arrive
from ui.classmode import classroom as cr


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
