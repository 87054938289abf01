"""The door of a real server (``ui/server/door.py``, ``ui/server/clients.py``): new tabs
and wrong codes counted per client (an address and a browser), a cap on sessions with a
sentence, connections of refused sessions closed, and the files a tab holds (what the
session cap counts).

Scripted sessions over Streamlit's websocket (``tools.app_client``) reach a server on
loopback, which trusts the ``X-Real-IP`` nginx would set: each test's clients come from
addresses of their own (documentation ranges). A script sends no cookie (``browser=None``);
a student's browser has its own ``perceptron_browser`` cookie (the client's default; a real
browser gets it from the page's response).
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from streamlit.proto.ClientState_pb2 import ClientState
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from websockets.exceptions import InvalidStatus

import perceptron_store as store_mod
from benchmarks.attack_crowd import join_state, open_files
from tests.load.test_load import run
from tools import streamlit_server
from tools.app_client import Session
from tools.streamlit_client import CLOSED_OR_FAILED, RunView, message, stream_url
from ui.classmode import classroom as cr
from ui.server import clients

TOO_MANY_TABS = clients.refused("tab")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str, int]]:
    """(websocket URL, store path, pid) of a server on its own SQLite store."""
    path = str(tmp_path_factory.mktemp("door") / "s.sqlite3")
    with streamlit_server.serve("app.py", env={"PERCEPTRON_STORE": path}) as (proc, url):
        yield stream_url(streamlit_server.port_of(url)), path, proc.pid


def from_(address: str) -> dict[str, str]:
    return {"X-Real-IP": address}


def alerts(view: RunView) -> str:
    return " ".join(body for _, body in view.alerts)


async def first_run(url: str, address: str, page: str = "", browser: object = "new") -> RunView:
    """A new tab's first page, the connection left open (returned with the view)."""
    options = {} if browser == "new" else {"browser": browser}
    s = Session(url, page=page, headers=from_(address), **options)  # type: ignore[arg-type]
    await s.__aenter__()
    view = await s.request(ClientState(page_name=page), timeout=60)  # a first visit
    view.session = s  # type: ignore[attr-defined]
    return view


async def closed_within(s: Session, seconds: float) -> bool:
    """Whether the server closes ``s``'s websocket within ``seconds``."""
    assert s.ws is not None
    try:
        async with asyncio.timeout(seconds):
            while True:
                await s.ws.recv()
    except TimeoutError:
        return False
    except CLOSED_OR_FAILED:
        return True


def test_a_script_opening_tabs_is_refused_and_closed_while_a_student_gets_in(server):
    url, _, _ = server

    async def scenario() -> None:
        script = "203.0.113.21"
        tried = await asyncio.gather(
            *(first_run(url, script, browser=None) for _ in range(30)), return_exceptions=True
        )  # thirty new tabs at once from one script (no cookie)
        views = [v for v in tried if isinstance(v, RunView)]
        at_door = [e for e in tried if not isinstance(e, RunView)]  # closed before a session
        assert all(isinstance(e, CLOSED_OR_FAILED) for e in at_door), at_door
        refused = [v for v in views if TOO_MANY_TABS in alerts(v)]
        # a script's burst gets in, then no more
        burst = clients.LIMITS["script tab"].per_browser[1]
        assert 30 - burst - 3 <= len(refused) + len(at_door) <= 30 - burst, len(at_door)
        # a student elsewhere opens the lecture at once, with the script's tabs still open
        start = time.monotonic()
        student = await first_run(url, "198.51.100.21", page="lecture")
        assert TOO_MANY_TABS not in alerts(student)
        assert student.player is not None and not student.exceptions
        assert time.monotonic() - start < 10
        # the refused tabs' connections are closed by the server (their files given back)
        closed = await asyncio.gather(
            *(closed_within(v.session, clients.CLOSE_AFTER_S + 5) for v in refused)  # type: ignore[attr-defined]
        )
        assert all(closed)
        for v in [*views, student]:
            await v.session.__aexit__()  # type: ignore[attr-defined]

    run(scenario())


async def closed_at_connection(url: str, address: str, page: str = "room") -> int | None:
    """A script's new tab (no cookie): the HTTP status its handshake was refused with
    (403: the door's), the code the server closed it with before sending anything, or None
    if a session answered."""
    s = Session(url, page=page, headers=from_(address), browser=None)
    try:
        await s.__aenter__()
    except InvalidStatus as refused:
        return int(refused.response.status_code)
    try:
        await s.send(message(ClientState(page_name=page)))  # its first visit
        async with asyncio.timeout(30):
            await s.ws.recv()  # type: ignore[union-attr]
        return None  # a message of a session
    except CLOSED_OR_FAILED as closed:
        received = getattr(closed, "rcvd", None)
        return None if received is None else int(received.code)
    finally:
        await s.__aexit__()


def test_past_its_burst_a_script_is_refused_before_it_is_a_session(server):
    """A script's tab (no cookie) past its rate of new tabs is refused at its handshake
    (HTTP 403), before Streamlit sees it: no session, no first run. A browser past its own
    rate (it has the app's cookie) is let in and told why."""
    url, _, _ = server

    async def scenario() -> None:
        script = "203.0.113.22"
        start = time.monotonic()
        size = clients.LIMITS["script tab"].per_browser[1]
        burst = [await first_run(url, script, browser=None) for _ in range(size)]
        assert not [alerts(v) for v in burst if TOO_MANY_TABS in alerts(v)]  # its burst
        codes = await asyncio.gather(*(closed_at_connection(url, script) for _ in range(20)))
        rate = clients.LIMITS["script tab"].per_browser[0]
        refilled = int(rate * (time.monotonic() - start)) + 1
        assert codes.count(403) >= max(10, 20 - refilled), codes
        assert set(codes) <= {None, 403}, codes
        one = "ab" * 16  # one browser's cookie in twenty tabs
        browser = await asyncio.gather(
            *(first_run(url, "203.0.113.23", browser=one) for _ in range(20))
        )
        told = [v for v in browser if TOO_MANY_TABS in alerts(v)]
        assert told, "a browser past its rate is told why"
        closed = await asyncio.gather(
            *(closed_within(v.session, clients.CLOSE_AFTER_S + 5) for v in told)  # type: ignore[attr-defined]
        )
        assert all(closed), "and its refused tabs are closed"
        for v in [*burst, *browser]:
            await v.session.__aexit__()  # type: ignore[attr-defined]

    run(scenario())


def test_students_behind_one_address_each_get_in(server):
    """A lecture hall behind one NAT: one address, forty browsers, all at once."""
    url, _, _ = server

    async def scenario() -> None:
        views = await asyncio.gather(*(first_run(url, "198.51.100.40") for _ in range(40)))
        assert not [alerts(v) for v in views if TOO_MANY_TABS in alerts(v)]
        for v in views:
            await v.session.__aexit__()  # type: ignore[attr-defined]

    run(scenario())


def test_wrong_codes_slow_their_sender_not_a_student_with_the_right_one(server):
    url, path, _ = server
    room, _ = cr.create_room(store_mod.open_store(path))

    async def guesser(k: int) -> list[str]:
        one = "cd" * 16  # a script guessing from one browser (its cookie: eight tabs at once)
        async with Session(url, page="room", headers=from_("203.0.113.30"), browser=one) as s:
            await s.open()
            said = []
            for j in range(6):
                view = await s.request(join_state(s, f"ZZZZZZZ{'23456789'[j]}", "x"), 60)
                said.append(alerts(view))
            return said

    async def student(k: int) -> str:
        async with Session(url, page="room", headers=from_(f"198.51.100.{50 + k}")) as s:
            await s.open()
            view = await s.request(join_state(s, room.code, f"student {k}"), 60)
            return " ".join(b for _, _, b in view.texts)

    async def scenario() -> None:
        said = [t for g in await asyncio.gather(*(guesser(k) for k in range(8))) for t in g]
        assert sum(clients.refused("wrong code") in t for t in said) >= 30  # 48 tried
        joined = await asyncio.gather(*(student(k) for k in range(3)))
        assert all("You joined as student" in t for t in joined), joined

    run(scenario())


@pytest.fixture(scope="module")
def small_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """A server that holds 4 sessions (``PERCEPTRON_MAX_SESSIONS``): its websocket URL and
    its log."""
    folder = tmp_path_factory.mktemp("small")
    env = {"PERCEPTRON_STORE": str(folder / "s.sqlite3"), clients.SESSIONS_ENV: "4"}
    with (
        open(folder / "server.log", "wb") as log,
        streamlit_server.serve("app.py", env=env, log=log) as (_, url),
    ):
        yield stream_url(streamlit_server.port_of(url)), folder / "server.log"


def test_a_full_server_says_so_and_closes_the_extra_tab(small_server):
    small_server, log = small_server

    async def scenario() -> None:
        views = [await first_run(small_server, f"198.51.100.{60 + k}") for k in range(4)]
        assert not any("full" in alerts(v) for v in views)
        extra = await first_run(small_server, "198.51.100.70")
        assert "This server is full: 4 people are connected" in alerts(extra)
        assert await closed_within(extra.session, clients.CLOSE_AFTER_S + 5)  # type: ignore[attr-defined]
        await views[0].session.__aexit__()  # type: ignore[attr-defined]
        await asyncio.sleep(1.0)
        again = await first_run(small_server, "198.51.100.71")  # room again: let in
        assert "full" not in alerts(again)
        for v in [*views[1:], again]:
            await v.session.__aexit__()  # type: ignore[attr-defined]

    run(scenario())
    # and whoever runs the server reads it in its log, once
    refusals = [line for line in log.read_text().splitlines() if "refused a new tab" in line]
    said = clients.FULL.format(n="4 people are")
    assert refusals == [f"perceptron: refused a new tab (5 connected, at most 4): {said}"]


def test_an_open_tab_costs_the_server_one_file(server):
    url, _, pid = server

    async def scenario() -> None:
        before = open_files(pid)
        views = [await first_run(url, f"198.51.100.{100 + k % 100}") for k in range(60)]
        per_tab = (open_files(pid) - before) / 60
        # its websocket; the sessions share one script loop (ui.server.loops)
        assert per_tab <= clients.FILES_PER_TAB + 0.1, per_tab
        for v in views:
            await v.session.__aexit__()  # type: ignore[attr-defined]

    run(scenario())


def test_under_a_limit_of_256_open_files_every_tab_the_cap_allows_gets_in(tmp_path):
    """A hall under a common default limit, scaled down: 256 files (a fixed hard limit, so
    the server cannot raise it) hold 192 tabs, and 180 of them all get their page."""
    import resource

    limit, tabs = 256, 180
    env = {"PERCEPTRON_STORE": str(tmp_path / "s.sqlite3")}
    with streamlit_server.serve("app.py", env=env) as (proc, http):
        resource.prlimit(proc.pid, resource.RLIMIT_NOFILE, (limit, limit))
        url = stream_url(streamlit_server.port_of(http))

        async def scenario() -> None:
            views: list[RunView] = []
            for k in range(0, tabs, 30):  # thirty at a time, each a browser of its own
                views += await asyncio.gather(
                    *(first_run(url, f"198.51.100.{1 + j}") for j in range(k, k + 30))
                )
            refused = [alerts(v) for v in views if alerts(v)]
            assert not refused, refused[:3]
            done = ForwardMsg.FINISHED_SUCCESSFULLY
            assert all(v.status == done and not v.exceptions for v in views)
            assert open_files(proc.pid) < limit
            for v in views:
                await v.session.__aexit__()  # type: ignore[attr-defined]

        run(scenario())


def test_the_cap_follows_the_open_file_limit_and_the_setting(monkeypatch):
    import subprocess
    import sys

    code = (
        "import resource; from ui.server import clients; "
        "s, h = resource.getrlimit(resource.RLIMIT_NOFILE); "
        "resource.setrlimit(resource.RLIMIT_NOFILE, (1024, h)); "
        "print(clients.max_sessions()); "
        "from ui.server import loops; loops.share(); "
        "print(clients.max_sessions())"
    )
    root = Path(__file__).resolve().parents[2]
    env = {k: v for k, v in os.environ.items() if k != clients.SESSIONS_ENV}
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=root, capture_output=True, text=True, env=env
    )
    # 3/4 of 1,024 files: 4 a tab with a script loop each, 1 with the loop shared
    assert out.stdout.split() == ["192", "768"], out.stderr[-500:]
    monkeypatch.setenv(clients.SESSIONS_ENV, "250")
    assert clients.max_sessions() == 250


def test_the_server_raises_its_open_file_limit_to_the_hard_limit():
    import subprocess
    import sys

    code = (
        "import resource; from ui.server import clients; "
        "s, h = resource.getrlimit(resource.RLIMIT_NOFILE); "
        "resource.setrlimit(resource.RLIMIT_NOFILE, (min(256, h), h)); "
        "print(clients.raise_file_limit() == (h, h))"
    )
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True)
    assert out.stdout.strip() == "True", out.stderr[-500:]


def test_the_page_names_a_browser_and_the_websocket_carries_its_name(server):
    """A real server's page response sets the app's cookie; a page that sends it back gets
    none; a browser's message over the bound closes its connection (1009)."""
    import re
    import urllib.request

    from tools.streamlit_client import http_base
    from ui.server import door

    url, _, _ = server
    with urllib.request.urlopen(http_base(url) + "/", timeout=30) as page:
        cookies = page.headers.get_all("Set-Cookie") or []
    mine = [c for c in cookies if c.startswith(clients.BROWSER_COOKIE + "=")]
    assert len(mine) == 1 and re.fullmatch(
        r"perceptron_browser=[0-9a-f]{32}\.[0-9a-f]{8}\.[0-9a-f]{32}; Path=/; Max-Age=31536000; "
        r"HttpOnly; SameSite=Lax",
        mine[0],
    ), cookies
    again = urllib.request.Request(http_base(url) + "/", headers={"Cookie": mine[0].split(";")[0]})
    with urllib.request.urlopen(again, timeout=30) as page:
        assert not [
            c
            for c in page.headers.get_all("Set-Cookie") or []
            if c.startswith(clients.BROWSER_COOKIE)
        ]

    async def scenario() -> None:
        view = await first_run(url, "198.51.100.90")
        s: Session = view.session  # type: ignore[attr-defined]
        await s.send(b"\x00" * (door.MAX_FRAME_BYTES + 1))
        try:
            async with asyncio.timeout(10):
                while True:
                    await s.ws.recv()  # type: ignore[union-attr]
        except CLOSED_OR_FAILED as closed:
            assert getattr(closed, "rcvd", None) is not None and closed.rcvd.code == 1009  # type: ignore[union-attr]
        await s.__aexit__()

    run(scenario())


def test_a_tab_closed_without_leave_is_counted_out_at_once(server):
    """A student joins, then closes the tab (no Leave): the door tells the app, and the
    class counts the seat out at once, not a minute later (classroom.SEEN_S)."""
    url, path, _ = server
    store = store_mod.open_store(path)
    room, _ = cr.create_room(store)

    async def scenario() -> None:
        async with Session(url, page="room", headers=from_("198.51.100.61")) as s:
            await s.open()
            view = await s.request(join_state(s, room.code, "Ana"), 60)
            assert "You joined as Ana" in " ".join(b for _, _, b in view.texts)
            assert cr.members(store, room) == 1
        deadline = time.monotonic() + 10
        while cr.members(store, room) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        assert cr.members(store, room) == 0  # the tab closed: counted out, seconds at most

    run(scenario())
