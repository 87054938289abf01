"""What reaches a student wherever they are, through AppTest (the lecturer and students
are separate sessions sharing one SQLite store, as in test_room.py): the open question's
answer bar and the ring on a follower's chart; the open challenge announced on every page;
a follower who edits told once that they no longer follow."""

from __future__ import annotations

import numpy as np
from apptest_helpers import answer_card, card_data, card_now, lecture_scene
from room_helpers import fresh_store, lecturer, room_of, student, texts  # noqa: F401 (its store)

from ui.app import links
from ui.classmode import answers as an


def test_the_answer_sits_in_the_bar_and_a_followers_chart_rings_the_example_an_explorers_not():
    lec, seat = lecturer()
    lec.switch_page("pages/lecture.py").run()
    a = student(seat.code, page="pages/lecture.py")
    b = student(seat.code, "Bo", page="pages/lecture.py")
    b.button(key="room_unfollow").click().run()  # B explores a run of their own
    lec.button(key="room_ask").click().run()
    q = room_of(seat.code).question
    assert q is not None
    a.run()
    b.run()
    cards = {s: card_now(s) for s in (a, b)}
    for view in cards.values():
        assert view["options"] == ["mistake", "no mistake"]  # the answer: mistake or not
        assert view["barHead"] == f"Question {q.id}:"
        assert view["bar"].startswith(f"will point {q.point + 1},")
    assert lecture_scene(a)["asked"] == [q.t, q.point]
    assert "ringed with “?” on your chart" in cards[a]["bar"]
    assert cards[a]["figure"] is None  # the chart above shows the example
    # B's chart is B's own run: a ring there could mark another example
    assert lecture_scene(b)["asked"] is None
    assert "ringed" not in cards[b]["bar"] and "drawn in the question card" in cards[b]["bar"]
    assert cards[b]["figure"]["point"] == list(q.x)  # the card draws it
    assert card_data(a)["ringed"] and not card_data(b)["ringed"]
    assert "Counted: you said mistake." in answer_card(a, "mistake")["counted"]
    assert an.tally(an.answers_of(links.the_store(), room_of(seat.code), q.id)).answered == 1


CALL = "The lecturer's margin challenge is open"


def calls(at) -> int:
    """How many of the page's links open the margin lab from the challenge's call."""
    said = texts(at).count(CALL)
    links_to_lab = [p for p in at.get("page_link") if p.proto.label == "Open the margin lab"]
    assert said == len(links_to_lab), (said, len(links_to_lab))  # the call has its one tap
    return said


def test_the_challenge_is_announced_on_every_page_of_a_student_while_it_is_open() -> None:
    lec, seat = lecturer()
    a = student(seat.code, page="pages/lecture.py")
    outsider = student(seat.code, "Cy", page="pages/home.py")
    nobody = student(seat.code, "Di", page="pages/room.py")
    nobody.button(key="room_leave").click().run()  # left the class
    nobody.switch_page("pages/lecture.py").run()
    assert calls(a) == 0  # no challenge yet
    lec.button(key="room_ch_open").click().run()
    c = room_of(seat.code).challenge
    assert c is not None and c.open
    for page in ("pages/lecture.py", "pages/home.py", "pages/proof.py", "pages/sgd.py"):
        a.switch_page(page).run()
        assert not a.exception
        assert calls(a) == 1, page
        assert f"at most {c.max_points} points, γ ≥ {c.min_gamma:g}" in texts(a)
    a.switch_page("pages/margin.py").run()
    assert calls(a) == 0  # the lab's own challenge box takes the set
    assert "Submit this set" in [b.label for b in a.button]
    outsider.run()
    assert calls(outsider) == 1
    nobody.run()
    assert calls(nobody) == 0  # not in the class: no challenge of theirs
    lec.switch_page("pages/lecture.py").run()
    assert calls(lec) == 0  # the lecturer opened it
    lec.switch_page("pages/room.py").run()
    lec.button(key="room_ch_close").click().run()
    assert not room_of(seat.code).challenge.open
    a.switch_page("pages/lecture.py").run()
    assert calls(a) == 0  # closed: no call


def seed(at, value: int) -> None:
    """The student's own seed from the sidebar; a follower's dataset controls are folded
    on Step by step (the lecturer's dataset), so they unfold them first."""
    if not [w for w in at.sidebar.number_input if w.key == "data_seed_w"]:
        at.session_state["data_elsewhere"] = True
        at.run()
    at.sidebar.number_input(key="data_seed_w").set_value(value).run()


def test_a_follower_who_edits_is_told_once_in_the_strip_not_in_a_toast() -> None:
    lec, seat = lecturer()
    lec.switch_page("pages/lecture.py").run()
    lec.session_state["data_seed"] = lec.session_state["data_seed_w"] = 7
    lec.run()  # the lecturer's lecture, published to the room
    a = student(seat.code, page="pages/lecture.py")
    a.run()  # the strip's next poll: caught up
    assert a.session_state["data_seed"] == 7
    assert "Following the lecturer" in texts(a)
    # the sidebar names the lecturer's dataset, its controls folded (a phone's closed
    # sidebar must not send back the dataset it showed before the lecturer's)
    assert "The lecturer's dataset: Separable" in texts(a)
    assert "seed 7" in texts(a).replace("\\", "")  # the name as safe text (escaped)
    assert not [w for w in a.sidebar.number_input if w.key == "data_seed_w"]
    seed(a, 5)  # the student's own data, from the sidebar
    s = a.session_state["room_seat"]
    assert not s.following
    said = texts(a)
    assert said.count("you no longer follow the lecturer.") == 1, said  # in the follow line
    assert not a.toast  # not over the page's numbers
    # another change: nothing new is said, and the lab says it once, in the strip, until OK
    seed(a, 6)
    assert texts(a).count("you no longer follow the lecturer.") == 1 and not a.toast
    a.switch_page("pages/margin.py").run()
    assert texts(a).count("you no longer follow the lecturer.") == 1
    a.button(key="room_stopped_ok").click().run()
    assert "you no longer follow the lecturer." not in texts(a)
    a.switch_page("pages/lecture.py").run()
    assert "you no longer follow" not in texts(a)
    assert "Exploring on your own" in texts(a)
    # following again, then an edit on the margin lab: told again, once
    a.button(key="room_follow").click().run()
    assert a.session_state["room_seat"].following
    a.switch_page("pages/margin.py").run()
    X, y = np.array([[1.0, 1.0], [-1.0, -1.0], [2.0, 0.5]]), np.array([1, -1, 1])
    a.session_state["data_custom"] = (X, y, "drawn in the margin lab")  # points drawn
    a.run()
    a.run()
    assert not a.session_state["room_seat"].following
    assert texts(a).count("you no longer follow the lecturer.") == 1, texts(a)
    assert not a.toast
