"""What reaches a student wherever they are, through AppTest (the lecturer and students
are separate sessions sharing one SQLite store, as in test_room.py): the open question's
answer bar and the ring on a follower's chart; the open challenge announced on every page;
a follower who edits told once that they no longer follow."""

from __future__ import annotations

import pytest
from apptest_helpers import lecture_scene
from test_room import lecturer, room_of, student, texts

import perceptron_store as store
from ui.app import links
from ui.classmode import classroom as cr


@pytest.fixture(autouse=True)
def fresh_store(tmp_path):
    s = store.open_store(f"sqlite:///{tmp_path / 'room.sqlite3'}")
    links.use_store(s)
    cr.forget_recent()
    yield s
    links.use_store(None)


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
    for s in (a, b):
        said = s.button_group(key=f"room_q{q.id}_said")
        assert said.options  # the answer: mistake or not
        assert f"Question {q.id}:** will point {q.point + 1}," in texts(s)
    assert lecture_scene(a)["asked"] == [q.t, q.point]
    assert "ringed with “?” on your chart" in texts(a)
    # B's chart is B's own run: a ring there could mark another example
    assert lecture_scene(b)["asked"] is None
    assert "ringed" not in texts(b) and "drawn in the question card" in texts(b)
    a.button_group(key=f"room_q{q.id}_said").set_value("mistake").run()
    assert "Counted: you said mistake." in texts(a)
    assert cr.tally(cr.answers_of(links.the_store(), room_of(seat.code), q.id)).answered == 1
