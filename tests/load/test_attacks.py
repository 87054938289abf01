"""A mischievous student's messages, each answered in bounded time and changing nothing
it should not: small, fast versions of ``benchmarks/attack.py`` against a live server.

- One drawing-surface (or lecture-player) message carrying 20,000 events (drops, or
  the player's ``at`` reports ``{"t", "seq"}``) is answered within 15 s or refused by
  closing the connection, moves at most one point (the step stays a step of the run,
  in the player's window), and the page works normally afterwards (a drop lands, the
  next step report moves the step by exactly one).
- A table-editor state with 60,000 added rows is refused (the connection closed, or
  the points unchanged and the page saying why) and the session's next ordinary rerun
  finishes: liveness timeouts of 10 s, not speed goals.
- A link with hostile values in every setting (``?data_n=[CLICK ME](http://...)``,
  ``?lec_eta=![t](http://...)``, HTML) or with 1,000 parameters puts no live link,
  image, autolink or HTML into any text the browser renders as markdown, on any page,
  and shows at most a handful of warnings.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from streamlit.proto.WidgetStates_pb2 import WidgetState

from benchmarks import attack_phases
from benchmarks.attack_markup import (
    FIELDS,
    MAX_WARNINGS,
    hostile_query,
    live_markup,
    live_markup_in,
)
from benchmarks.attack_phases import (
    CLOSED,
    CLOSED_BY_SERVER,
    NO_ANSWER,
    AttackerStats,
    compact,
    setting_keys,
    timed,
    visit,
    warnings_of,
)
from benchmarks.attack_victim import Latencies
from tools import streamlit_server
from tools.app_client import Session
from tools.streamlit_client import OK_FINISH, message, stream_url
from ui.server import frames

from .test_load import run

ROOT = Path(__file__).resolve().parents[2]
ANSWER = 15.0  # s: a message that is not answered by then has stalled the session
LIVE = 10.0  # s: an ordinary rerun after the attack must finish by then


def _served() -> Iterator[int]:
    """A ``streamlit run app.py`` of this test's own, by its port; stopped by its PID."""
    with streamlit_server.serve("app.py") as (_, url):
        yield streamlit_server.port_of(url)


@pytest.fixture
def fresh_port() -> Iterator[int]:
    """A server of its own: an attack that stalls it cannot spill into another test."""
    yield from _served()


@pytest.fixture(scope="module")
def port() -> Iterator[int]:
    yield from _served()


def moves(scene: dict, n: int) -> str:
    """``n`` valid drops (no version), each of a point in turn, near the view's centre."""
    count = len(scene["points"])
    x0, x1, y0, y1 = scene["view"]
    cx, cy = round((x0 + x1) / 2), round((y0 + y1) / 2)
    events = [
        {"event": "moved", "value": {"i": k % count, "x": cx + k % 3 - 1, "y": cy + k % 2}}
        for k in range(n)
    ]
    return compact(events)


async def send_and_wait(session, state, timeout: float):
    """Send one rerun; its answer, or ``"closed"`` if the server closed the connection."""
    try:
        await session.send(message(state))
        return await session.answer(timeout)
    except CLOSED:
        return "closed"


def changed_points(before: list, after: list) -> int:
    """How many points moved or changed label (a point is drawn as [x, y, label, ...])."""
    if len(before) != len(after):
        return 10**9
    return sum(a[:3] != b[:3] for a, b in zip(before, after, strict=True))


@pytest.mark.timeout(90)
def test_a_canvas_message_with_20000_events_moves_at_most_one_point(fresh_port: int) -> None:
    async def scenario() -> tuple[object, list, list, str | None]:
        async with Session(stream_url(fresh_port), page="margin") as s:
            await s.open()
            before = s.scene["points"]
            try:
                view = await send_and_wait(
                    s, s.trigger("mar_canvas", moves(s.scene, 20_000)), ANSWER
                )
            except TimeoutError:
                return "no answer", before, [], None
            if view == "closed":  # refused at the door: the lab must still work for anyone
                async with Session(stream_url(fresh_port), page="margin") as again:
                    await again.open()
                    _, wrong = await again.drag(random.Random(3))
                    return view, before, before, wrong
            after = view.scene["points"] if view.scene else []
            assert not view.exceptions and view.status in OK_FINISH
            s.scene = view.scene or s.scene
            _, wrong = await s.drag(random.Random(3))  # a real drop afterwards still lands
            return "answered", before, after, wrong

    outcome, before, after, wrong = run(scenario())
    assert outcome != "no answer", f"a 20,000-event message was not answered within {ANSWER} s"
    assert changed_points(before, after) <= 1
    assert wrong is None


@pytest.mark.timeout(90)
def test_a_player_message_with_20000_events_leaves_step_working(fresh_port: int) -> None:
    async def scenario() -> tuple[str, int | None, int, str | None]:
        async with Session(stream_url(fresh_port)) as s:
            await s.open()
            n = s.n_steps
            events = [
                {"event": "at", "value": {"t": (7 * k + 5) % (n + 1), "seq": s.seq + 1 + k}}
                for k in range(20_000)
            ]
            try:
                view = await send_and_wait(s, s.trigger("lec_player", compact(events)), ANSWER)
            except TimeoutError:
                return "no answer", None, n, None
            if view == "closed":
                async with Session(stream_url(fresh_port)) as again:
                    await again.open()
                    return "closed", again.t, n, (await again.press_step())[1]
            assert not view.exceptions and view.status in OK_FINISH
            assert view.player is not None and view.t is not None
            assert view.player.start <= view.t <= view.player.stop
            s.check(view)
            return "answered", view.t, n, (await s.press_step())[1]

    outcome, t, n, wrong = run(scenario())
    assert outcome != "no answer", f"a 20,000-event message was not answered within {ANSWER} s"
    assert t is not None and 0 <= t <= n  # one step of the run, in the chart's window
    assert wrong is None  # and the next step report moves it by exactly one


@pytest.mark.timeout(90)
@pytest.mark.parametrize("rows", ["full", "empty"])
def test_a_table_with_60000_added_rows_is_refused_and_the_session_goes_on(
    fresh_port: int, rows: str
) -> None:
    """Full rows (x1, x2, y: 1.3 MB, over a 1 MB frame limit) or empty ones (0.2 MB)."""
    row = {"x1": 0, "x2": 0, "y": 1} if rows == "full" else {}
    value = compact({"edited_rows": {}, "added_rows": [row] * 60_000, "deleted_rows": []})

    async def scenario() -> tuple[str, list, object, object]:
        async with Session(stream_url(fresh_port), page="margin") as s:
            await s.open()
            await s.open_expander("mar_open_table")
            editors = [k for k in s.last.keyed if k.startswith("mar_table")]
            assert editors, "the open expander shows no table editor"
            editor_id, fragment_id = s.element(editors[-1])
            before = s.scene["points"]
            widget = WidgetState(id=editor_id, string_value=value)
            try:
                view = await send_and_wait(s, s.state([widget], fragment_id), LIVE)
            except TimeoutError:
                return "no answer", before, None, None
            if view == "closed":
                async with Session(stream_url(fresh_port), page="margin") as again:
                    try:
                        await again.open()  # within RUN_TIMEOUT; then the expander too
                        return "closed", before, None, await again.open_expander("mar_open_table")
                    except TimeoutError:
                        return "closed", before, None, "no answer"
            try:
                later = await s.rerun(timeout=LIVE)  # the next ordinary rerun (expander open)
            except TimeoutError:
                later = "no answer"
            return "answered", before, view, later

    outcome, before, view, later = run(scenario())
    assert outcome != "no answer", f"60,000 added rows were not answered within {LIVE} s"
    if outcome == "answered":
        assert not view.exceptions and view.status in OK_FINISH
        assert view.scene is not None and changed_points(before, view.scene["points"]) == 0
        said = [body for _, body in view.alerts] + [view.scene.get("error") or ""]  # the lab's line
        assert any(re.search(r"row|point|table", b, re.I) for b in said), said  # and why
    assert later != "no answer", f"the session's next rerun did not finish within {LIVE} s"
    assert not later.exceptions and later.status in OK_FINISH
    if outcome == "answered":
        assert later.scene is None or changed_points(before, later.scene["points"]) == 0


def live_markup_and_warnings(port: int, page: str, query: str) -> tuple[list[str], int]:
    view = run(visit(port, page, query, 60.0))
    assert not view.exceptions, view.exceptions
    assert view.status in OK_FINISH
    return live_markup_in(view), warnings_of(view)


def test_the_markup_check_has_teeth() -> None:
    """What a renderer would act on is found; what is escaped or in a code span is not."""
    assert live_markup("see [CLICK ME](http://example.invalid)")
    assert live_markup("![t](http://example.invalid/track.gif)")
    assert live_markup("x <img src=x onerror=alert(1)>")
    assert live_markup("go to http://example.invalid now")
    assert live_markup("`a` [b](http://example.invalid) `c`")
    assert not live_markup("`[CLICK ME](http://example.invalid)`")
    assert not live_markup("``a ` [b](http://example.invalid)``")
    assert not live_markup(r"\[CLICK ME\]\(http:⁠//example.invalid\)")
    assert not live_markup(r"\<img src=x onerror=alert(1)\>")


PAGES = [p or "home" for p in attack_phases.PAGES]


@pytest.mark.timeout(60)
@pytest.mark.parametrize("page", PAGES)
def test_a_link_with_hostile_values_shows_no_markup_and_few_warnings(port: int, page: str) -> None:
    query = hostile_query(setting_keys(ROOT))  # every setting, and two names
    markup, warnings = live_markup_and_warnings(port, "" if page == "home" else page, query)
    assert markup == []
    assert warnings <= MAX_WARNINGS


@pytest.mark.timeout(60)
@pytest.mark.parametrize("page", ["home", "lecture", "margin"])
def test_a_link_with_300_parameters_shows_a_handful_of_warnings(port: int, page: str) -> None:
    query = hostile_query([], fields=300)  # about as many as a page's address can carry
    assert len(query) < frames.MAX_QUERY_CHARS
    markup, warnings = live_markup_and_warnings(port, "" if page == "home" else page, query)
    assert markup == []
    assert 1 <= warnings <= MAX_WARNINGS  # they are mentioned, in a handful of lines


@pytest.mark.timeout(60)
def test_a_query_longer_than_any_page_s_address_is_taken_out_at_the_door(port: int) -> None:
    """1,000 hostile parameters (51 kB), the most Streamlit still reads: no page is served
    at such an address, so only a script sends it, and the page opens with its defaults."""
    query = hostile_query([], fields=FIELDS)
    assert len(query) > frames.MAX_QUERY_CHARS
    markup, warnings = live_markup_and_warnings(port, "lecture", query)
    assert markup == [] and warnings == 0


def test_the_victims_latencies_count_an_unanswered_press_as_a_lower_bound() -> None:
    stats = Latencies(values_ms=[10.0, 12.0], unanswered_ms=[5000.0])
    assert stats.stat(0.5) == 12.0 and not stats.bound(0.5)
    assert stats.stat(0.95) == 5000.0 and stats.bound(0.95)
    assert json.loads(compact({"a": [1]})) == {"a": [1]}


def test_an_attackers_request_is_timed_and_its_failures_counted() -> None:
    """``attack_phases.timed``: an answer's time is kept; no answer counts with the time
    waited; a connection the server closed counts with no time."""

    async def answer() -> str:
        return "view"

    async def fail(exc: BaseException) -> str:
        raise exc

    stats = AttackerStats()
    assert run(timed(stats, answer())) == "view"
    assert run(timed(stats, fail(TimeoutError()), "edit")) == NO_ANSWER
    assert run(timed(stats, fail(ConnectionResetError()))) == CLOSED_BY_SERVER
    assert len(stats.times_ms) == 2
    assert stats.outcomes == {"edit: no answer": 1, "connection closed": 1}


def test_the_attacks_visit_every_page_of_the_page_table() -> None:
    from ui import shell

    urls = tuple(p.url_path for p in shell.PAGES)
    assert urls == attack_phases.PAGES
