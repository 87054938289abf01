"""``ui.server.guard``: one event read per browser message, payloads the size of a gesture.

AppTest cannot fire a component's events, so the callbacks are called here as
Streamlit calls them: once per entry of the message's list, before the script runs.
"""

import json

import pytest

from ui.server import fair, guard
from ui.server.guard import SEEN, component_callbacks, new_run, within

MOVE = {"i": 3, "x": 0.5, "y": -1.25, "v": 7}


def message(session, key, events, callbacks):
    """Deliver one browser message carrying ``events`` [(name, value), ...]."""
    session[key] = dict(events)  # Streamlit's flat view: the last value of each event
    for name, _ in events:
        callbacks[f"on_{name}_change"]()


def test_a_gesture_sized_payload_passes_and_bigger_ones_do_not():
    assert within(MOVE) and within(None) and within([1, 2, 3]) and within("x" * 200)
    assert not within("x" * 201)
    assert not within(list(range(65)))
    assert not within({"a": {"b": {"c": {"d": 1}}}})  # nested deeper than a gesture
    assert not within({"k" * 300: 1})
    assert not within(object())
    assert not within({1: 2})  # JSON keys are strings


class Untouchable(list):
    """A list that fails the test if anything loops over it."""

    def __iter__(self):
        raise AssertionError("the payload was looped over")


def test_a_huge_payload_is_refused_before_anything_loops_over_it():
    huge = Untouchable([MOVE] * 1_000_000)
    assert not within(huge)
    assert not within({"x": huge})


def test_one_event_is_read_per_message_however_many_it_carries():
    session, handled, refused = {}, [], []
    cbs = component_callbacks(
        session, "surface", ("moved", "added"), lambda e, p: handled.append((e, p)), refused.append
    )
    message(session, "surface", [("moved", MOVE)] * 100_000, cbs)
    assert handled == [("moved", MOVE)]  # 100,000 entries, one edit
    assert new_run(session) == 100_000  # counted, for the page to say so
    message(session, "surface", [("added", MOVE)], cbs)
    assert handled[-1] == ("added", MOVE) and refused == []  # the next message is read


def test_without_a_new_run_a_second_message_is_not_read_twice():
    session, handled = {}, []
    cbs = component_callbacks(session, "s", ("moved",), lambda e, p: handled.append(p))
    message(session, "s", [("moved", MOVE)], cbs)
    message(session, "s", [("moved", MOVE)], cbs)
    assert len(handled) == 1 and session[SEEN] == {"s:moved": 2}


def test_events_of_different_kinds_in_one_message_are_each_read_once():
    """Streamlit merges the triggers of messages that arrive while a run is pending: the
    lecture's step report and the presenter key pressed right after it reach one run."""
    session, handled = {}, []
    player = component_callbacks(
        session, "lec_player", ("at", "presenter"), lambda e, p: handled.append(e)
    )
    other = component_callbacks(session, "app_reconnect", ("back",), lambda e, p: handled.append(e))
    session["app_reconnect"] = {"back": True}
    message(session, "lec_player", [("at", {"t": 5}), ("presenter", {"on": False})], player)
    other["on_back_change"]()
    assert handled == ["at", "presenter", "back"]
    message(session, "lec_player", [("at", {"t": 6})] * 1000 + [("presenter", {"on": 1})], player)
    assert handled == ["at", "presenter", "back"]  # no new run: nothing read twice
    assert new_run(session) == 3 + 1001  # every entry counted, for the page to say so
    message(session, "lec_player", [("at", {"t": 6})] * 1000, player)
    assert handled[-1] == "at" and handled.count("at") == 2  # 1,000 entries, one read


@pytest.mark.parametrize(
    "payload",
    [
        {"i": 1, "x": 0.0, "y": 0.0, "v": 0, "junk": list(range(1000))},
        "x" * 10_000,
        {"a": {"b": {"c": {}}}},
        json.loads("[" * 50 + "]" * 50),
    ],
)
def test_an_oversized_payload_is_refused_with_a_sentence(payload):
    session, handled, refused = {}, [], []
    cbs = component_callbacks(
        session, "s", ("moved",), lambda e, p: handled.append(p), refused.append
    )
    message(session, "s", [("moved", payload)], cbs)
    assert handled == [] and len(refused) == 1 and "refused" in refused[0]


PAGE = """
import math
from collections import OrderedDict

T = 10
run = list(range(1000))
picked = [r for r in run if r % 2]


def callback():
    return T + 1


fmt = OrderedDict(a=1)
label = (lambda k: fmt[k])
"""


def test_a_page_s_results_are_dropped_after_its_run_but_its_callbacks_still_work():
    """What a page computed does not stay alive through its callbacks (about 10 MB a
    student's run); what the callbacks and lambdas read stays."""
    from ui.server import guard

    code = compile(PAGE, "pages/example.py", "exec")
    module: dict = {"__name__": "__main__"}
    exec(code, module)
    callback, label = module["callback"], module["label"]
    assert guard.names_kept(code) >= {"T", "fmt"}
    assert "run" not in guard.names_kept(code)  # only the page's own comprehension reads it
    guard.release(module, code)
    assert "run" not in module and "picked" not in module
    assert {"math", "OrderedDict", "callback", "__name__"} <= set(module)
    assert callback() == 11 and label("a") == 1  # Streamlit calls them after the run


def test_every_page_registers_its_globals_for_release():
    """``require_router`` is the first call of every page: it tells the guard which
    globals are the page's, so none of them is kept past the run."""
    import ast
    from pathlib import Path

    for path in sorted(Path("pages").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        calls = [
            n.value.func.id
            for n in tree.body
            if isinstance(n, ast.Expr)
            and isinstance(n.value, ast.Call)
            and isinstance(n.value.func, ast.Name)
        ]
        assert calls and calls[0] == "require_router", path


def test_a_fragment_knows_a_rerun_of_its_own_from_the_whole_page_s_run(monkeypatch):
    """The lecture player judges its lateness, and the strip asks for the page's body, by
    this. A fragment's rerun is Streamlit calling the fragment's function alone; in the
    whole page's run (the shell's ``whole_page``) it is called with the rest. Here the
    function is called as Streamlit calls it (``st.fragment`` returns it as it is)."""
    import streamlit as st

    monkeypatch.setattr(fair, "ENABLED", False)
    monkeypatch.setattr(st, "fragment", lambda fn, run_every=None: fn)
    seen: list[bool] = []

    @guard.fragment
    def part() -> None:
        seen.append(guard.fragment_rerun())

    assert guard.fragment_rerun() is False  # no fragment at all
    with guard.whole_page():
        part()
        assert guard.fragment_rerun() is False
    part()  # Streamlit's rerun of the fragment alone
    assert seen == [False, True]
    assert guard.fragment_rerun() is False  # and after it, nothing is left over
