"""ui.classmode.push: one watch per process tells each session of a room that changed, once per
change; and the pieces of Streamlit it uses are where it expects them."""

from __future__ import annotations

import dataclasses
import inspect

import pytest

from ui.classmode import push
from ui.server import internals


@pytest.fixture
def told(monkeypatch):
    calls: list[tuple[str, str]] = []
    gone: set[str] = set()

    def rerun(sid: str, fid: str) -> bool:
        if sid in gone:
            return False
        calls.append((sid, fid))
        return True

    monkeypatch.setattr(push, "rerun_fragment", rerun)
    monkeypatch.setattr(push.threading.Thread, "start", lambda self: None)  # checks by hand
    return calls, gone


def test_each_session_is_told_once_per_change_and_never_without_one(told) -> None:
    calls, _ = told
    versions = {"ROOMAAAA": 1, "ROOMBBBB": 1}
    w = push.Watch(lambda code: {"strip": versions[code]})
    w.here("ROOMAAAA", "s1", "f1", shown=1)
    w.here("ROOMAAAA", "s2", "f2", shown=1)
    w.here("ROOMBBBB", "s3", "f3", shown=1)
    assert w.check() == 0  # each drew what the room holds: nothing to tell
    assert w.check() == 0
    versions["ROOMAAAA"] = 2
    assert w.check() == 2
    assert sorted(calls) == [("s1", "f1"), ("s2", "f2")]  # not s3: its room did not change
    assert w.check() == 0  # asked once: not again while the rerun is on its way
    w.here("ROOMAAAA", "s1", "f1", shown=2)  # their strips ran again
    w.here("ROOMAAAA", "s2", "f2", shown=2)
    assert w.check() == 0
    assert w.told == 2


def test_a_session_shows_one_room_and_a_gone_session_is_dropped(told) -> None:
    calls, gone = told
    versions = {"ROOMAAAA": 1, "ROOMBBBB": 1}
    w = push.Watch(lambda code: {"strip": versions[code]})
    w.here("ROOMAAAA", "s1", "f1", shown=1)
    w.here("ROOMBBBB", "s1", "f9", shown=1)  # the student joined another class
    w.check()
    versions["ROOMAAAA"] = versions["ROOMBBBB"] = 2
    assert w.check() == 1 and calls == [("s1", "f9")]
    w.here("ROOMBBBB", "s1", "f9", shown=2)
    gone.add("s1")  # the tab was closed
    versions["ROOMBBBB"] = 3
    assert w.check() == 0
    gone.clear()
    versions["ROOMBBBB"] = 4
    assert w.check() == 0  # dropped: told again only after its strip runs again


def test_a_room_that_cannot_be_read_is_read_again_later(told) -> None:
    state = {"v": 1, "down": False}

    def version(code):
        if state["down"]:
            raise OSError("store down")
        return {"strip": state["v"]}

    w = push.Watch(version)
    w.here("ROOMAAAA", "s1", "f1", shown=1)
    w.check()
    state.update(down=True, v=2)
    assert w.check() == 0
    state["down"] = False
    assert w.check() == 1


def test_sessions_not_seen_for_a_while_are_forgotten(told, monkeypatch) -> None:
    clock = [1000.0]
    monkeypatch.setattr(push.time, "monotonic", lambda: clock[0])
    versions = {"ROOMAAAA": 1}
    w = push.Watch(lambda code: {"strip": versions[code]})
    w.here("ROOMAAAA", "s1", "f1", shown=1)
    w.check()
    clock[0] += push.FORGET_S + 1
    versions["ROOMAAAA"] = 2
    assert w.check() == 0


def test_without_a_streamlit_server_nothing_is_asked() -> None:
    assert internals.running_fragment() is None
    assert push.rerun_fragment("no-such-session", "f") is False


def test_the_streamlit_pieces_push_uses_are_there() -> None:
    """If a Streamlit upgrade moves one of these, students' strips are rerun only by their
    heartbeat (every strip.HEARTBEAT_S): this fails first."""
    from streamlit.proto.ClientState_pb2 import ClientState
    from streamlit.runtime import Runtime
    from streamlit.runtime.app_session import AppSession
    from streamlit.runtime.scriptrunner_utils.script_run_context import (
        FragmentThreadState,
        ThreadState,
    )

    assert "fragment_id" in ClientState.DESCRIPTOR.fields_by_name
    assert "is_auto_rerun" in ClientState.DESCRIPTOR.fields_by_name
    assert "client_state" in inspect.signature(AppSession.request_rerun).parameters
    assert "self._client_state" in inspect.getsource(AppSession.__init__)
    assert hasattr(Runtime, "_get_async_objs")
    assert "self._session_mgr" in inspect.getsource(Runtime.__init__)
    assert "fragment_id" in {f.name for f in dataclasses.fields(FragmentThreadState)}
    assert callable(ThreadState.get)


def test_only_the_fragments_of_the_topic_that_changed_are_rerun(told) -> None:
    calls, _ = told
    room = {"strip": 1, "lecture": 1}
    w = push.Watch(lambda code: dict(room))
    w.here("ROOMAAAA", "s1", "strip-of-s1", shown=1)
    w.here("ROOMAAAA", "s1", "player-of-s1", shown=1, topic="lecture")
    w.check()
    room["lecture"] = 2  # the lecturer stepped: only the player follows
    assert w.check() == 1 and calls == [("s1", "player-of-s1")]
    w.here("ROOMAAAA", "s1", "player-of-s1", shown=2, topic="lecture")
    room["strip"] = 2  # a question: only the strip
    assert w.check() == 1 and calls[-1] == ("s1", "strip-of-s1")


def test_a_session_with_two_parts_changed_is_asked_one_rerun(told) -> None:
    calls, _ = told
    room = {"strip": 1, "lecture": 1}
    w = push.Watch(lambda code: dict(room))
    w.here("ROOMAAAA", "s1", "player-of-s1", shown=1, topic="lecture")
    w.here("ROOMAAAA", "s1", "strip-of-s1", shown=1)
    w.check()
    room.update(strip=2, lecture=2)  # the reveal: the answer and the step at once
    assert w.check() == 1 and calls == [("s1", "strip-of-s1")]  # the strip runs the page
    assert w.check() == 0


def test_a_change_the_watch_never_saw_is_not_missed(told) -> None:
    """The room changed after the student's strip drew it and before the watch first read
    the room (a question asked the moment a student joined): the strip is rerun."""
    calls, _ = told
    room = {"strip": 1}
    w = push.Watch(lambda code: dict(room))
    w.here("ROOMAAAA", "s1", "f1", shown=1)
    room["strip"] = 2  # before the watch's first check
    assert w.check() == 1 and calls == [("s1", "f1")]


def test_a_strip_that_drew_an_old_copy_is_rerun_until_it_draws_the_room(told) -> None:
    calls, _ = told
    room = {"strip": 2}
    w = push.Watch(lambda code: dict(room))
    w.here("ROOMAAAA", "s1", "f1", shown=1)  # a copy of the room read just before the change
    assert w.check() == 1
    w.here("ROOMAAAA", "s1", "f1", shown=2)
    assert w.check() == 0 and len(calls) == 1


def test_a_lost_rerun_is_asked_again_after_a_while(told, monkeypatch) -> None:
    """A session busy or reconnecting when it was asked did not run its strip: it is asked
    again after RETRY_S, not at every check before that."""
    calls, _ = told
    clock = [1000.0]
    monkeypatch.setattr(push.time, "monotonic", lambda: clock[0])
    room = {"strip": 1}
    w = push.Watch(lambda code: dict(room))
    w.here("ROOMAAAA", "s1", "f1", shown=1)
    room["strip"] = 2
    assert w.check() == 1
    clock[0] += push.RETRY_S / 2
    assert w.check() == 0
    clock[0] += push.RETRY_S
    assert w.check() == 1 and calls == [("s1", "f1")] * 2


def test_a_strip_that_could_not_read_the_room_is_rerun_when_it_can(told) -> None:
    calls, _ = told
    w = push.Watch(lambda code: {"lecture": 5})
    w.here("ROOMAAAA", "s1", "player", shown=None, topic="lecture")  # the store was down
    assert w.check() == 1 and calls == [("s1", "player")]
