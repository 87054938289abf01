"""A broken or hostile browser floods a component with events: the margin lab's drawing
surface and the lecture's player.

Thousands of trigger messages, sent at once without waiting, with every kind of bad
payload a client can forge (wrong types, NaN and infinities, huge and negative numbers,
indices out of range, stale versions, unknown events, payloads larger than a gesture,
text that is not JSON, HTML). The server must stay up and show no exception (nor the
page's error sentence); the margin lab must keep the dataset exactly as it was and
still take a real drop; the lecture's step must stay as it was or take the number a
report carried, clamped to 0..T, and a real report must still move it.
"""

import json
import math
import random

import pytest

from tools.app_client import Session
from tools.components import MISSING_SCENE, PLAYER_KEY
from tools.streamlit_client import OK_FINISH, stream_url

from .test_load import port, run  # noqa: F401  (port is a fixture)

NAN, INF = float("nan"), float("inf")


def hostile_texts(v: int) -> list[str]:
    """``json_trigger_value`` texts, none of which is a valid edit of version ``v``.

    (A move without ``"v"`` is not among them: the version is optional, and such a
    move is a real edit.)"""
    moved = [
        {"i": "0", "x": 1, "y": 1, "v": v},  # index as text
        {"i": 10**9, "x": 1, "y": 1, "v": v},  # out of range
        {"i": -1, "x": 1, "y": 1, "v": v},
        {"i": 0.5, "x": 1, "y": 1, "v": v},
        {"i": True, "x": 1, "y": 1, "v": v},
        {"i": 0, "x": NAN, "y": 1, "v": v},
        {"i": 0, "x": 1, "y": INF, "v": v},
        {"i": 0, "x": 1e300, "y": 1, "v": v},  # far outside the view
        {"i": 0, "x": "<img src=x onerror=alert(1)>", "y": 1, "v": v},
        {"i": 0, "x": 1, "y": 1, "v": v - 1},  # made on an older version
        {"i": 0, "x": 1, "y": 1, "v": str(v)},  # the version as text
        {"i": 0, "x": [1, 2], "y": {"a": 1}, "v": v},
    ]
    events = [{"event": "moved", "value": m} for m in moved] + [
        {"event": "added", "value": {"x": 0, "y": 0, "label": "<script>", "v": v}},
        {"event": "added", "value": {"x": NAN, "y": 0, "label": 1, "v": v}},
        {"event": "flipped", "value": {"i": 10**6, "v": v}},
        {"event": "deleted", "value": {"i": 0, "v": v + 7}},  # a version from the future
        {"event": "explode", "value": {"i": 0}},
        {"event": "moved", "value": None},
        {"event": "moved", "value": "x" * 10_000},
        {"event": ["moved"], "value": {}},
        {"value": {"i": 0}},
        [],
        17,
    ]
    texts = [json.dumps([e]) for e in events]  # NaN and Infinity go out as JSON5 literals
    return [*texts, "not json", "", "[", "null", json.dumps(events)]  # all at once, too


def hostile_payloads(v: int, n: int) -> list[str]:
    """``n`` of them, drawn at random."""
    rng = random.Random(0)
    texts = hostile_texts(v)
    return [rng.choice(texts) for _ in range(n)]


@pytest.mark.timeout(180)
def test_each_bad_event_alone_is_refused_and_changes_nothing(port):  # noqa: F811
    """One at a time, each answered before the next: the flood below may drop events
    while a run is busy; here every single one is run."""

    async def scenario():
        url = stream_url(port)
        async with Session(url, page="margin") as session:
            await session.open()
            before = session.scene
            changed = []
            for raw in hostile_texts(before["v"]):
                view = await session.canvas_event(raw)
                if view.scene is None or view.scene["points"] != before["points"]:
                    changed.append(raw[:80])
            return changed

    assert run(scenario()) == []


@pytest.mark.timeout(180)
def test_a_flood_of_bad_events_changes_nothing_and_the_lab_still_works(port):  # noqa: F811
    async def scenario():
        url = stream_url(port)
        async with Session(url, page="margin") as session:
            await session.open()
            before = session.scene
            after = await session.flood(hostile_payloads(before["v"], 2000))
            session.scene = after.scene or session.scene
            _, wrong = await session.drag(random.Random(1))
            return before, after, wrong

    before, after, wrong = run(scenario())
    assert after.exceptions == []
    assert after.status in OK_FINISH
    assert after.scene is not None
    assert after.scene["points"] == before["points"]  # not one point moved, added or lost
    assert after.scene["v"] == before["v"]
    assert wrong is None  # and a real drop still lands where it was dropped


# ---------------------------------------------------------------------------- the lecture player

PLAYER_QUERY = "data_name=xor&lec_max_epochs=500"  # 20,000 steps: windows of 100 to leave
LONG_DIGITS = "1" + "0" * 5000  # a number Python's json refuses to read (over 4,300 digits)


def at(value: object) -> dict:
    return {"event": "at", "value": value}


def hostile_reports(seq: int) -> list[tuple[str, list[float]]]:
    """Forged ``json_trigger_value`` texts for the lecture player, each with the steps it
    may set (a number it carries, clamped to 0..T; none: the step must not change).

    Strings, huge numbers, NaN and infinities, negative steps, wrong types, missing or
    bad ``seq``, payloads larger than a gesture, unknown events and the presenter switch
    with bad values, text that is not JSON."""
    s = seq + 1
    cases: list[tuple[object, list[float]]] = [
        ([at({"t": "5", "seq": s})], []),
        ([at({"t": "<img src=x onerror=alert(1)>", "seq": s})], []),
        ([at({"t": 10**30, "seq": s})], [10**30]),
        ([at({"t": 1e300, "seq": s})], [1e300]),
        ([at({"t": -7, "seq": s})], [-7]),
        ([at({"t": -(10**30), "seq": s})], [-(10**30)]),
        ([at({"t": 4.6, "seq": s})], [4.6]),
        ([at({"t": NAN, "seq": s})], []),
        ([at({"t": INF, "seq": s})], []),
        ([at({"t": -INF, "seq": s})], []),
        ([at({"t": True, "seq": s})], []),
        ([at({"t": None, "seq": s})], []),
        ([at({"t": [3], "seq": s})], []),
        ([at({"t": {"t": 3}, "seq": s})], []),
        ([at({"t": 3})], []),  # no seq
        ([at({"t": 3, "seq": "9"})], []),
        ([at({"t": 3, "seq": NAN})], []),
        ([at({"t": 6, "seq": -1})], [6]),  # a seq clamped to 0: the step is still taken
        ([at({"t": 7, "seq": 10**30})], [7]),
        ([at({"t": 8, "seq": s, "play": "yes"})], [8]),
        ([at({"t": 9, "seq": s, "pad": "x" * 10_000})], []),  # larger than a gesture
        ([at({"t": 9, "seq": s, "pad": list(range(100))})], []),
        ([at({"t": 9, "seq": s, "a": {"b": {"c": {"d": 1}}}})], []),  # too deep
        ([at({"t": 9, "seq": s, "pad": "x" * 20_000})], []),  # over the event size bound
        ([at([3, s])], []),
        ([at("3")], []),
        ([at(3)], []),
        ([at(None)], []),
        ([{"event": "at"}], []),
        ([{"event": "explode", "value": {"t": 3, "seq": s}}], []),
        ([{"event": ["at"], "value": {"t": 3, "seq": s}}], []),
        ([{"value": {"t": 3, "seq": s}}], []),
        ([{"event": "presenter", "value": {"on": "yes"}}], []),
        ([{"event": "presenter", "value": {"on": 1}}], []),
        ([{"event": "presenter", "value": None}], []),
        ([at({"t": 11, "seq": s}), at({"t": 12, "seq": s + 1})], [11, 12]),  # one is read
        ([at({"t": k, "seq": s + k}) for k in range(9)], []),  # more events than a gesture
        ([[]], []),
        ([17], []),
    ]
    texts = [(json.dumps(events), steps) for events, steps in cases]
    return [*texts, ("not json", []), ("", []), ("[", []), ("null", []), ("{}", [])]


def allowed(steps: list[float], before: int, T: int) -> set[int]:
    """The steps an answer may show: the one before, or a carried number clamped to 0..T."""
    out = {before}
    for v in steps:
        low, high = (max(min(f(v), T), 0) for f in (math.floor, math.ceil))
        out |= {int(low), int(high)}
    return out


@pytest.mark.timeout(240)
def test_each_forged_step_report_is_refused_or_clamped(port):  # noqa: F811
    """One at a time, each answered before the next: no exception (nor the page's error
    sentence), the player drawn, its step unchanged or the number carried clamped to
    0..T; and afterwards a real report still moves the step, there and in a new session."""

    async def scenario():
        url = stream_url(port)
        async with Session(url, query_string=PLAYER_QUERY) as session:
            await session.open()
            T, bad = session.n_steps, []
            for raw, steps in hostile_reports(session.seq):
                before = session.t
                view = await session.request(session.player_event(raw))
                if view.exceptions or view.status not in OK_FINISH:
                    bad.append(f"{raw[:70]}: {view.exceptions or view.status}")
                    continue
                if view.player is None or view.player.problem or view.t is None:
                    bad.append(f"{raw[:70]}: no player drawn")
                    continue
                if view.t not in allowed(steps, before, T):
                    bad.append(f"{raw[:70]}: t = {view.t} (was {before}, T = {T})")
                session.check(view)
            # a real report still moves this session's step (its seq may have been
            # forged up to the server's bound: so the step, not the full check) ...
            target = min(session.t + 1, T)
            view = await session.report_view(target)
            moved = view.t == target and not view.exceptions
            async with Session(url, query_string=PLAYER_QUERY) as other:
                await other.open()
                _, wrong = await other.press_step()  # ... and everybody else's
            return bad, moved, wrong

    bad, moved, wrong = run(scenario())
    assert bad == []
    assert moved
    assert wrong is None


@pytest.mark.timeout(60)
@pytest.mark.parametrize("where", ["t", "seq"])
def test_a_number_too_long_for_python_in_a_report_is_refused(port, where):  # noqa: F811
    async def scenario():
        url = stream_url(port)
        async with Session(url, query_string=PLAYER_QUERY) as session:
            await session.open()
            before = session.t
            t, seq = (LONG_DIGITS, "1") if where == "t" else ("3", LONG_DIGITS)
            raw = f'[{{"event":"at","value":{{"t":{t},"seq":{seq}}}}}]'
            view = await session.request(session.player_event(raw))
            return before, view

    before, view = run(scenario())
    assert view.exceptions == []
    assert view.status in OK_FINISH
    assert view.t == before


def hostile_report_payloads(seq: int, n: int) -> list[str]:
    rng = random.Random(2)
    texts = [raw for raw, _ in hostile_reports(seq)]
    return [rng.choice(texts) for _ in range(n)]


@pytest.mark.timeout(180)
def test_a_flood_of_forged_reports_leaves_the_player_working(port):  # noqa: F811
    """2,000 forged reports at once: the last answer (or, for a step whose scene was
    lost, the answer to the browser's ask) shows no exception and a step of the run in
    its window, and a real report afterwards is answered right."""

    async def scenario():
        url = stream_url(port)
        async with Session(url, query_string=PLAYER_QUERY) as session:
            await session.open()
            # quiet for 6 s: a report outside the window reruns the fragment, then the whole
            # app (the next scene); on a busy machine the second can start seconds later
            after = await session.flood(
                hostile_report_payloads(session.seq, 2000), quiet=6.0, key=PLAYER_KEY
            )
            if after.player is not None and after.player.problem == MISSING_SCENE:
                # a full run started before the scene of the one before was delivered (the
                # server drops it): the browser asks for it again after a second
                after = await session.ask_scene()
            session.check(after)
            _, wrong = await session.report(min(session.t + 1, session.n_steps))
            return session.n_steps, after, wrong

    T, after, wrong = run(scenario())
    assert after.exceptions == []
    assert after.status in OK_FINISH
    assert after.player is not None and after.player.problem is None
    assert 0 <= after.player.t <= T and after.player.start <= after.player.t <= after.player.stop
    assert wrong is None  # and a real report still moves the step


@pytest.mark.timeout(60)
def test_a_browser_that_lost_its_scene_gets_it_again(port):  # noqa: F811
    """The browser asks for the scene of the step it holds (as player.js does when a step
    has waited a second for it): the answer sends the scene again, and the step is in it."""

    async def scenario():
        url = stream_url(port)
        async with Session(url, query_string=PLAYER_QUERY) as session:
            await session.open()
            await session.report(250)  # a step in another window than the first
            session.lecture_scene = {}  # this scene never arrived
            return session.n_steps, await session.ask_scene()

    T, view = run(scenario())
    assert view.exceptions == []
    assert view.player is not None and view.player.problem is None
    assert view.player.t == 250 and view.player.start <= 250 <= view.player.stop <= T
