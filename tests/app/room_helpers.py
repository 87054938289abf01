"""The class through AppTest, for the tests of the class page and strip: a lecturer and
students are separate sessions (separate ``AppTest`` objects) sharing one real SQLite store
(``fresh_store``, imported by each test module), as students' tabs share the store of a
class's servers; and reads of a page's tree (its keyed blocks and their text).

``AppTest`` does not run a fragment's ``run_every`` by itself: a test's ``.run()`` is the
browser's next poll.
"""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest
import streamlit as st
from apptest_helpers import (
    card_data,
    card_now,
    card_words,
    lecture_scene,
    open_app,
)

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


def lecture_class(monkeypatch: pytest.MonkeyPatch):
    """A lecturer and a following student on Step by step, the server's clock at
    ``clock[0]`` (1,000 s; the tests move it)."""
    from ui.classmode import follow

    clock = [1_000.0]
    monkeypatch.setattr(follow.time, "time", lambda: clock[0])
    lec, seat = lecturer()
    lec.switch_page("pages/lecture.py").run()
    return clock, lec, student(seat.code, page="pages/lecture.py")


def count_reruns(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every ``st.rerun`` a page asks for from now on (a page run spent for nothing)."""
    reruns: list[str] = []
    rerun = st.rerun

    def counted(*args: object, **kwargs: object) -> None:
        reruns.append(repr(kwargs))
        rerun(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(st, "rerun", counted)
    return reruns


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


def second_mistake(at) -> int:
    """The step t at which the run's next example is its second mistake (the first, from
    w = 0, only makes the line appear; the second turns it)."""
    steps = lecture_scene(at)["steps"]
    return next(s["t"] for s, nxt in itertools.pairwise(steps) if s["k"] == 1 and nxt["k"] == 2)


def small_set(at) -> None:
    """Four points with a wide margin, as a drawn dataset."""
    X = np.array([[1.0, 1.0], [2.0, 1.5], [-1.0, -1.0], [-1.5, -2.0]])
    y = np.array([1, 1, -1, -1])
    at.session_state["data_custom"] = (X, y, "drawn in the margin lab")


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
