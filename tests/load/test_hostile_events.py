"""A broken or hostile browser floods the margin lab's drawing surface with events.

Thousands of trigger messages, sent at once without waiting, with every kind of bad
payload a client can forge (wrong types, NaN and infinities, indices out of range,
stale versions, unknown events, text that is not JSON, HTML). The server must stay up,
show no exception, keep the dataset exactly as it was, and still take a real drop.
"""

import json
import random

import pytest

from .test_load import load, port, run  # noqa: F401  (port is a fixture)

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
        url = f"ws://127.0.0.1:{port}/_stcore/stream"
        async with load.Session(url, page="margin") as session:
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
        url = f"ws://127.0.0.1:{port}/_stcore/stream"
        async with load.Session(url, page="margin") as session:
            await session.open()
            before = session.scene
            after = await session.flood(hostile_payloads(before["v"], 2000))
            session.scene = after.scene or session.scene
            _, wrong = await session.drag(random.Random(1))
            return before, after, wrong

    before, after, wrong = run(scenario())
    assert after.exceptions == []
    assert after.status in load.OK_FINISH
    assert after.scene is not None
    assert after.scene["points"] == before["points"]  # not one point moved, added or lost
    assert after.scene["v"] == before["v"]
    assert wrong is None  # and a real drop still lands where it was dropped
