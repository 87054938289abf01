"""The light page's work (ui.lecture.light) on a real SQLite store: the page a link opens,
a join's seat (the seat the Streamlit pages take, in the same cookie), and the lecture a
seat's page is sent, which is the room's own run and step as a follower's player needs
them."""

from __future__ import annotations

import json
import re
import time

import perceptron_store as store_mod
from ui.classmode import arrive
from ui.classmode import classroom as cr
from ui.classmode import live as channel
from ui.lecture import light
from ui.live import route
from ui.live.light import Asker

HOSTILE = "</script><img src=x onerror=alert(1)>\u2028"


def asker(cookies: dict[str, str] | None = None, peer: str = "10.1.2.3") -> Asker:
    return Asker(peer, "http", {}, cookies or {})


def data_of(page: bytes) -> dict:
    found = re.search(rb'<script type="application/json" id="hall-data">(.*?)</script>', page, re.S)
    assert found is not None
    return json.loads(found.group(1))


def seated(s: store_mod.Store, nick: str = "Ada", cookies: dict[str, str] | None = None):
    room, secret = cr.create_room(s)
    joined = light.join(room.code, nick, asker(cookies))
    assert joined.status == 200, joined.body
    return room, secret, joined


def test_a_link_opens_the_join_form_with_its_code_or_says_why_not(s) -> None:
    room, _ = cr.create_room(s)
    data = data_of(light.page(room.code.lower(), asker()))
    assert data["code"] == cr.shown_code(room.code) and data["said"] == "" and data["seat"] is None
    assert data_of(light.page("", asker()))["code"] == ""
    assert "is open" in data_of(light.page("ABCDEFGH", asker()))["said"]
    assert data_of(light.page("not a code!", asker()))["said"].endswith(".")
    closed = cr.lecturer_update(s, room.code, _, cr.close_room)
    assert "has ended" in data_of(light.page(closed.code, asker()))["said"]


def test_a_join_takes_a_seat_in_the_cookie_the_streamlit_pages_read(s) -> None:
    room, _, joined = seated(s)
    seat = joined.body
    found = route.check(seat["ticket"], channel.key_of)
    assert found is not None and found.code == room.code and found.seat != "student"
    assert cr.seat_nick(s, room, found.seat) == "Ada"
    assert joined.cookie is not None
    assert joined.cookie.startswith(f"{arrive.SEAT_COOKIE}={room.code}.{found.seat};")
    assert "SameSite=Strict" in joined.cookie and "Secure" not in joined.cookie
    # the link opened again with that cookie: in the class at once, the same seat
    cookies = {arrive.SEAT_COOKIE: f"{room.code}.{found.seat}"}
    again = data_of(light.page(room.code, asker(cookies)))["seat"]
    assert again is not None and again["nick"] == "Ada" and again["ticket"] == seat["ticket"]
    # joining again from that browser keeps the seat
    rejoined = light.join(room.code, "Ada B.", asker(cookies))
    assert route.check(rejoined.body["ticket"], channel.key_of).seat == found.seat


def test_a_forged_seat_cookie_gives_no_seat(s) -> None:
    room, _ = cr.create_room(s)
    forged = {arrive.SEAT_COOKIE: f"{room.code}.{'a' * cr.SEAT_LENGTH}"}
    assert data_of(light.page(room.code, asker(forged)))["seat"] is None
    joined = light.join(room.code, "Eve", asker(forged))
    seat = route.check(joined.body["ticket"], channel.key_of).seat
    assert seat != "a" * cr.SEAT_LENGTH  # a new seat, not the one the cookie named


def test_a_join_refused_says_why_and_takes_no_seat(s) -> None:
    room, _ = cr.create_room(s)
    assert light.join(room.code, "  ", asker()).status == 400
    wrong = light.join("ZZZZZZZZ", "Ada", asker())
    assert wrong.status == 400 and "No class ZZZZ-ZZZZ is open" in wrong.body["error"]
    assert wrong.cookie is None
    assert cr.members(s, room) == 0
    # a browser holds at most SEATS_PER_BROWSER seats of one class
    for n in range(arrive.SEATS_PER_BROWSER):
        assert light.join(room.code, f"tab {n}", asker({}, peer="10.9.9.9")).status == 200
    over = light.join(room.code, "one more", asker({}, peer="10.9.9.9"))
    assert over.status == 400 and "already holds" in over.body["error"]


def test_a_hostile_nickname_stays_text_in_the_page(s) -> None:
    room, _, joined = seated(s, nick=HOSTILE)
    seat = route.check(joined.body["ticket"], channel.key_of).seat
    page = light.page(room.code, asker({arrive.SEAT_COOKIE: f"{room.code}.{seat}"}))
    head = page.split(b"</head>")[0]
    assert b"<img" not in head and b"\xe2\x80\xa8" not in head
    assert data_of(page)["seat"]["nick"].startswith("</script><img")  # kept, as text


def lecture_of(ticket_text: str, t: int | None = None, have: str = "") -> dict:
    ticket = route.check(ticket_text, channel.key_of)
    assert ticket is not None
    return json.loads(light.lecture(ticket, t, have))


def test_the_lecture_is_the_rooms_run_at_its_step_as_a_follower_draws_it(s) -> None:
    room, secret, joined = seated(s)
    query = {"data_n": "60", "lec_t": "130"}
    room = cr.lecturer_update(s, room.code, secret, lambda r: cr.publish(r, query))
    got = lecture_of(joined.body["ticket"])
    step, scene = got["step"], got["scene"]
    state = channel.state_of(room)["lecture"]
    # the channel's run and change: the player draws the lecturer's next steps itself
    assert step["run"] == state["run"] == scene["run"]
    assert step["follow"] == {
        "following": True,
        "n": state["n"],
        "run": state["run"],
        "q": state["q"],
    }
    assert step["t"] == 130 and step["start"] <= 130 <= step["stop"]
    assert (scene["start"], scene["stop"]) == (step["start"], step["stop"])
    assert scene["n"] == 60 and len(scene["steps"]) == step["stop"] - step["start"] + 1
    assert got["explore"].startswith("/lecture?") and f"room={room.code}" in got["explore"]
    assert "data_n=60" in got["explore"] and got["stepKey"] == "lec_t"
    # the page holds that window: the scene is not sent again; step 10 is another window
    again = lecture_of(joined.body["ticket"], have=f"{step['run']}:{step['start']}")
    assert again["scene"] is None and again["step"]["t"] == 130
    other = lecture_of(joined.body["ticket"], t=10, have=f"{step['run']}:{step['start']}")
    assert other["step"]["t"] == 10 and other["scene"]["start"] <= 10 <= other["scene"]["stop"]
    # a step past the run's end is its end
    assert lecture_of(joined.body["ticket"], t=10**8)["step"]["t"] == scene["T"]


def test_a_lecturer_playing_is_where_the_play_is_now(s) -> None:
    room, secret, joined = seated(s)
    began = time.time() - 2.0  # two seconds ago, from step 5, at 4 steps a second
    cr.lecturer_update(
        s, room.code, secret, lambda r: cr.publish(r, {"lec_t": "5"}, (5.0, 4.0, began))
    )
    got = lecture_of(joined.body["ticket"])
    assert 12 <= got["step"]["t"] <= 14
    along = got["step"]["along"]
    assert along["from"] == 5.0 and along["rate"] == 4.0 and along["elapsed"] >= 2.0


def test_a_class_that_ended_is_said_ended_with_its_challenge_gone(s) -> None:
    room, secret, joined = seated(s)
    cr.lecturer_update(
        s, room.code, secret, lambda r: cr.open_challenge(r, max_points=10, min_gamma=0.1)
    )
    head, rest = lecture_of(joined.body["ticket"])["challenge"]
    assert head == "The lecturer's margin challenge is open:" and "at most 10 points" in rest
    cr.lecturer_update(s, room.code, secret, cr.close_room)
    assert lecture_of(joined.body["ticket"]) == {"closed": True}


def test_the_light_page_speaks_the_language_of_its_link_or_of_the_browser(s) -> None:
    room, _ = cr.create_room(s)
    german = Asker("10.1.2.3", "http", {"accept-language": "de-DE,de;q=0.9,en;q=0.5"}, {})
    page = light.page(room.code, german).decode()
    assert '<html lang="de">' in page and "Kurs beitreten" in page
    assert '<option value="de" selected>Deutsch</option>' in page  # its Language switch
    data = data_of(page.encode())
    assert data["urls"]["join"].endswith("?lang=de") and data["urls"]["lecture"].endswith(
        "?lang=de"
    )
    assert data["words"]["Type the class code from the projector."].startswith("Geben Sie")
    # the link's ?lang= first; a language not on offer, or none: English, with no words to send
    french = Asker("10.1.2.3", "http", {"accept-language": "de"}, {}, "fr")
    assert '<html lang="fr">' in light.page(room.code, french).decode()
    malformed = {"accept-language": "<script>;q=1," + "x" * 10_000}
    for lang, headers in (("xx", {}), ("", {}), ("", malformed)):
        other = light.page(room.code, Asker("10.1.2.3", "http", headers, {}, lang)).decode()
        assert '<html lang="en">' in other and "Join the class" in other
        assert data_of(other.encode())["words"] == {}


def test_a_join_refused_and_the_lecture_come_in_the_pages_language(s) -> None:
    room, _, joined = seated(s)
    refused = light.join(room.code, "  ", Asker("10.9.9.9", "http", {}, {}, "fr"))
    assert refused.status == 400 and "pseudo" in refused.body["error"]
    ticket = route.check(joined.body["ticket"], channel.key_of)
    assert ticket is not None
    french = json.loads(light.lecture(ticket, None, "", lang="fr"))
    english = json.loads(light.lecture(ticket, None, ""))
    assert french["scene"]["facts"][0].startswith("γ = 0,")
    assert english["scene"]["facts"][0].startswith("γ = 0.")
