"""A class's followers through AppTest: a student's Step by step shows the lecturer's data,
settings and step, plays along with the lecturer's Play, and explores from where it
stands; joining and the lecturer's actions draw the page in one run.
"""

from __future__ import annotations

import dataclasses

import pytest
from apptest_helpers import (
    lecture_scene,
    open_app,
)
from room_helpers import (
    count_reruns,
    fresh_store,  # noqa: F401 (each test's own store)
    lecture_class,
    lecturer,
    room_of,
    student,
    texts,
)


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
