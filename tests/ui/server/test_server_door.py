"""ui.server.door around a tiny Starlette app (one page, one stream endpoint that echoes),
served by a real uvicorn on loopback (the server Streamlit runs), reached by a real
websocket client: the browser's cookie, the new tabs' rate and the session cap at the
handshake, the frames' bound, idle streams and the count of open streams."""

from __future__ import annotations

import re
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Any

import pytest
from asgi_thread import serving
from starlette.applications import Starlette
from starlette.responses import HTMLResponse, PlainTextResponse
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Subprotocol

from ui.server import clients, door

COOKIE = re.compile(
    r"perceptron_browser=(([0-9a-f]{32})\.[0-9a-f]{8}\.[0-9a-f]{32}); Path=/; Max-Age=31536000; "
    r"HttpOnly; SameSite=Lax"
)


def _finished() -> bytes:
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    msg = ForwardMsg()
    msg.script_finished = ForwardMsg.FINISHED_SUCCESSFULLY
    msg.metadata.delta_path[:] = [0]
    return msg.SerializeToString()


FINISHED = _finished()  # a run's last message, as Streamlit sends it


@dataclass
class Seen:
    """What the app behind the door saw."""

    pages: int = 0
    handshakes: list[dict[str, Any]] = field(default_factory=list)
    frames: list[int] = field(default_factory=list)
    data: list[bytes] = field(default_factory=list)  # the frames themselves
    ends: list[int] = field(default_factory=list)


@dataclass
class Served:
    port: int
    door: door.Door
    seen: Seen

    def url(self, path: str = "/_stcore/stream") -> str:
        return f"ws://127.0.0.1:{self.port}{path}"


def tiny_app(seen: Seen) -> Starlette:
    async def page(request: Any) -> HTMLResponse:
        seen.pages += 1
        return HTMLResponse("the page")

    async def style(request: Any) -> PlainTextResponse:
        return PlainTextResponse("p {}", media_type="text/css")

    async def stream(ws: WebSocket) -> None:
        seen.handshakes.append(
            {
                "mark": ws.headers.getlist(clients.DOOR_HEADER),
                "stream": ws.headers.get(clients.STREAM_HEADER, ""),
                "cookies": dict(ws.cookies),
            }
        )
        await ws.accept(subprotocol="streamlit")
        try:
            while True:
                data = await ws.receive_bytes()
                seen.frames.append(len(data))
                seen.data.append(data)
                await ws.send_bytes(FINISHED if data == b"finish" else b"echo")
        except WebSocketDisconnect as gone:
            seen.ends.append(gone.code)

    return Starlette(
        routes=[
            Route("/", page),
            Route("/style.css", style),
            WebSocketRoute("/_stcore/stream", stream),
            WebSocketRoute("/base/_stcore/stream", stream),
        ]
    )


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> Iterator[Served]:
    # a burst is counted in real time: a slow machine must not earn a token back mid-test
    for action in ("tab", "script tab"):
        limit = clients.LIMITS[action]
        slow = replace(limit, per_browser=(1e-6, limit.per_browser[1]))
        monkeypatch.setitem(clients.LIMITS, action, slow)
    seen = Seen()
    guarded = door.Door(tiny_app(seen))
    with serving(guarded) as port:
        yield Served(port, guarded, seen)


def tab(
    served: Served,
    address: str,
    browser: str | None = None,
    *,
    resume: str = "",
    path: str = "/_stcore/stream",
    extra: dict[str, str] | None = None,
) -> ClientConnection:
    """A new tab from ``address`` (the X-Real-IP loopback's proxy passes), with a browser
    cookie or none; ``resume``: the session it names, as a reconnecting browser does."""
    headers = {"X-Real-IP": address, **(extra or {})}
    if browser is not None:  # a browser's name is sent signed, as the door gave it
        signed = clients.signed_browser(browser) if re.fullmatch("[0-9a-f]{32}", browser) else None
        headers["Cookie"] = f"{clients.BROWSER_COOKIE}={signed or browser}"
    protocols = ["streamlit", "an-xsrf-token", resume] if resume else ["streamlit"]
    return connect(
        served.url(path),
        additional_headers=headers,
        subprotocols=[Subprotocol(p) for p in protocols],
        max_size=None,
        open_timeout=5,
        legacy=True,
    )


def refused_status(served: Served, address: str, browser: str | None = None) -> int | None:
    """The HTTP status the handshake was refused with, or None if it was accepted."""
    try:
        tab(served, address, browser).close()
    except InvalidStatus as refused:
        return refused.response.status_code
    return None


def close_code(ws: ClientConnection, within: float) -> int | None:
    """The code the server closes ``ws`` with within ``within`` seconds (None: still open)."""
    deadline = time.monotonic() + within
    try:
        while (left := deadline - time.monotonic()) > 0:
            ws.recv(timeout=left)
    except TimeoutError:
        return None
    except ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd else -1
    return None


def wait_for(condition: Any, within: float = 5.0) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return bool(condition())


def page(served: Served, cookie: str | None = None) -> list[str]:
    """The Set-Cookie headers of the page's response."""
    request = urllib.request.Request(f"http://127.0.0.1:{served.port}/")
    if cookie is not None:
        request.add_header("Cookie", cookie)
    with urllib.request.urlopen(request, timeout=5) as response:
        assert response.read() == b"the page"
        return list(response.headers.get_all("Set-Cookie") or [])


# ------------------------------------------------------------------------- the cookie


def test_a_page_without_the_cookie_names_a_new_browser_and_one_with_it_keeps_its_name(served):
    first = page(served)
    assert len(first) == 1 and COOKIE.fullmatch(first[0]), first
    other = page(served)
    assert COOKIE.fullmatch(other[0]).group(2) != COOKIE.fullmatch(first[0]).group(2)  # type: ignore[union-attr]
    value = COOKIE.fullmatch(first[0]).group(1)  # type: ignore[union-attr]
    assert page(served, f"theme=dark; perceptron_browser={value}") == []
    assert served.seen.pages == 3


def test_a_file_that_is_not_a_page_sets_no_cookie_so_a_cache_may_keep_it(served):
    with urllib.request.urlopen(f"http://127.0.0.1:{served.port}/style.css", timeout=5) as r:
        assert r.read() == b"p {}" and not r.headers.get_all("Set-Cookie")


def _forgery(kind: str) -> str:
    good = clients.signed_browser("ab" * 16)
    name, issued, mac = good.split(".")
    return {
        "unsigned": "ab" * 16,  # the shape a browser's name had
        "made-up signature": f"{name}.{issued}.{'0' * 32}",
        "another name": f"{'cd' * 16}.{issued}.{mac}",  # under this one's signature
        "issued later": f"{name}.{int(issued, 16) + 1:08x}.{mac}",
        # signed, over a year ago: replayed
        "a year old": clients.signed_browser(
            "ab" * 16, time.time() - clients.BROWSER_MAX_AGE_S - 60
        ),
        "upper case": good.upper(),
        "longer": good + "0",
        "quoted": f'"{good}"',
        "empty": "",
        "a NUL after": good + "%00",
        "huge": "x" * 5000,
    }[kind]


KINDS = [
    "unsigned",
    "made-up signature",
    "another name",
    "issued later",
    "a year old",
    "upper case",
    "longer",
    "quoted",
    "empty",
    "a NUL after",
    "huge",
]


@pytest.mark.parametrize("kind", KINDS)
def test_a_cookie_the_server_did_not_sign_names_no_browser(served, kind):
    forged = _forgery(kind)
    assert clients.browser_of({clients.BROWSER_COOKIE: forged}) == ""
    set_cookie = page(served, f"perceptron_browser={forged}")
    assert len(set_cookie) == 1 and COOKIE.fullmatch(set_cookie[0])


# ----------------------------------------------------------------------- the handshake


def test_a_script_past_its_rate_is_refused_with_403_before_the_app_sees_it(served):
    burst = clients.LIMITS["script tab"].per_browser[1]
    tabs = [tab(served, "203.0.113.5") for _ in range(burst)]
    assert [h["mark"] for h in served.seen.handshakes] == [[clients.IN]] * burst
    assert refused_status(served, "203.0.113.5") == 403
    assert refused_status(served, "203.0.113.5", "not-a-browser") == 403  # a forged cookie
    made_up = f"{'ab' * 16}.{int(time.time()):08x}.{'0' * 32}"  # its shape, not its signature
    assert refused_status(served, "203.0.113.5", made_up) == 403
    # naming a session to resume does not make a script a browser's reconnection
    with pytest.raises(InvalidStatus):
        tab(served, "203.0.113.5", resume="0" * 36)
    assert len(served.seen.handshakes) == burst  # the app never saw them
    assert served.door.open_streams() == burst
    assert refused_status(served, "203.0.113.6") is None  # another address: its own rate
    for ws in tabs:
        ws.close()
    assert wait_for(lambda: served.door.open_streams() == 0)


def test_a_browser_past_its_rate_is_let_in_marked_then_closed(served, monkeypatch):
    monkeypatch.setattr(clients, "CLOSE_AFTER_S", 0.4)
    browser = "ab" * 16
    burst = clients.LIMITS["tab"].per_browser[1]
    tabs = [tab(served, "198.51.100.5", browser) for _ in range(burst)]
    asked = time.monotonic()
    extra = tab(served, "198.51.100.5", browser)  # let in: its page says why
    marks = [h["mark"] for h in served.seen.handshakes]
    assert marks == [[clients.IN]] * burst + [[clients.TAB]]
    assert clients.browser_of(served.seen.handshakes[-1]["cookies"]) == browser
    assert clients.admit(clients.Client("198.51.100.5", browser), {clients.DOOR_HEADER: "tab"})
    assert close_code(extra, 5.0) == door.REFUSED
    # its sentence was shown a while first (measured from before the tab asked, so a slow
    # machine only makes the time longer)
    assert time.monotonic() - asked >= clients.CLOSE_AFTER_S
    assert wait_for(lambda: served.seen.ends[-1:] == [door.REFUSED])
    assert all(close_code(ws, 0.05) is None for ws in tabs)  # the others stay
    for ws in tabs:
        ws.close()


def test_a_full_server_lets_a_tab_in_marked_closes_it_and_counts_down(served, monkeypatch):
    monkeypatch.setattr(clients, "CLOSE_AFTER_S", 0.3)
    monkeypatch.setenv(clients.SESSIONS_ENV, "2")
    tabs = [tab(served, f"198.51.100.{10 + k}", f"{k:032x}") for k in range(2)]
    assert served.door.open_streams() == 2
    extra = tab(served, "198.51.100.20", "f" * 32)
    assert served.seen.handshakes[-1]["mark"] == [clients.FULL_MARK]
    said = clients.admit(clients.Client("198.51.100.20", "f" * 32), {"X-Perceptron-Door": "full"})
    assert said == clients.FULL.format(n="2 people are")
    assert close_code(extra, 2.0) == door.REFUSED
    assert wait_for(lambda: served.door.open_streams() == 2)
    tabs.pop().close()
    assert wait_for(lambda: served.door.open_streams() == 1)
    again = tab(served, "198.51.100.21", "e" * 32)  # room again: let in
    assert served.seen.handshakes[-1]["mark"] == [clients.IN]
    assert close_code(again, 0.6) is None
    for ws in [*tabs, again]:
        ws.close()
    assert wait_for(lambda: served.door.open_streams() == 0)


def test_a_browser_reconnecting_is_not_a_new_tab_until_its_session_is_new(served, monkeypatch):
    monkeypatch.setattr(clients, "CLOSE_AFTER_S", 0.2)
    browser = "cd" * 16
    burst = clients.LIMITS["tab"].per_browser[1]
    tabs = [tab(served, "198.51.100.30", browser) for _ in range(burst)]
    back = tab(served, "198.51.100.30", browser, resume="1" * 36)
    seen = served.seen.handshakes[-1]
    assert seen["mark"] == [clients.AGAIN]
    assert close_code(back, 0.5) is None  # not counted, not closed
    # its session is new (it ran nothing): its first run counts it, past the rate: closed
    headers = {clients.DOOR_HEADER: clients.AGAIN, clients.STREAM_HEADER: seen["stream"]}
    said = clients.admit(clients.Client("198.51.100.30", browser), headers)
    assert said == clients.refused("tab")
    assert close_code(back, 2.0) == door.REFUSED
    for ws in tabs:
        ws.close()


def test_a_mark_the_client_sends_is_not_believed(served):
    ws = tab(served, "198.51.100.40", "12" * 16, extra={"X-Perceptron-Door": "full"})
    seen = served.seen.handshakes[-1]
    assert seen["mark"] == [clients.IN] and len(seen["stream"]) == 16
    ws.close()
    assert clients.admit(clients.Client("198.51.100.40", "12" * 16), {}) is None  # no door


def test_the_stream_under_a_base_path_has_the_door_too(served):
    burst = clients.LIMITS["script tab"].per_browser[1]
    tabs = [tab(served, "203.0.113.8", path="/base/_stcore/stream") for _ in range(burst)]
    with pytest.raises(InvalidStatus):
        tab(served, "203.0.113.8", path="/base/_stcore/stream")
    for ws in tabs:
        ws.close()


# -------------------------------------------------------------------------- the frames


def test_a_frame_over_the_bound_closes_the_stream_and_never_reaches_the_app(served):
    ws = tab(served, "198.51.100.50", "34" * 16)
    ws.send(b"x" * door.MAX_FRAME_BYTES)  # at the bound: through
    assert ws.recv(timeout=5) == b"echo"
    ws.send(b"x" * (door.MAX_FRAME_BYTES + 1))
    assert close_code(ws, 5.0) == door.TOO_BIG
    assert served.seen.frames == [door.MAX_FRAME_BYTES]
    assert wait_for(lambda: served.seen.ends == [door.TOO_BIG])
    assert wait_for(lambda: served.door.open_streams() == 0)


def rerun(*widgets: Any) -> bytes:
    """A browser's rerun with these widgets' states (a real ``BackMsg``)."""
    from streamlit.proto.BackMsg_pb2 import BackMsg

    msg = BackMsg()
    msg.rerun_script.widget_states.widgets.extend(widgets)
    return msg.SerializeToString()


def test_what_the_frames_check_refuses_never_reaches_the_app_and_the_stream_goes_on(
    served, monkeypatch
):
    """A component flood and a value of another kind than its widget's (the session, named
    by its run through ``clients.name_stream``, drew "pills" as a list of strings) are taken
    out of their frames; the frames still reach the app (the rerun is answered), and a
    good frame passes as it was sent."""
    import json

    from streamlit.proto.BackMsg_pb2 import BackMsg
    from streamlit.proto.WidgetStates_pb2 import WidgetState

    from ui.server import internals

    kinds = {("session-1", "pills"): "string_array_value"}
    monkeypatch.setattr(internals, "widget_kind", lambda s, w: kinds.get((s, w)))
    received = served.seen.data
    ws = tab(served, "198.51.100.51", "35" * 16)
    assert wait_for(lambda: len(served.seen.handshakes) == 1)
    stream_id = served.seen.handshakes[0]["stream"]
    clients.name_stream({clients.STREAM_HEADER: stream_id}, "session-1")
    flood = json.dumps([{"event": "moved", "value": {"i": 1}}] * 100)
    fine = rerun(WidgetState(id="pills", string_array_value={"data": ["a"]}))
    for data in (
        rerun(WidgetState(id="canvas", json_trigger_value=flood)),
        rerun(WidgetState(id="pills", int_value=1)),
        fine,
    ):
        ws.send(data)
        assert ws.recv(timeout=5) == b"echo"
    assert len(received) == 3
    for data in received[:2]:
        msg = BackMsg()
        msg.ParseFromString(data)
        assert list(msg.rerun_script.widget_states.widgets) == []  # as if not sent
    assert received[2] == fine
    ws.close()


def test_a_runs_last_message_leaving_is_told_to_the_fair_share(served, monkeypatch):
    """Pages wait while other pages' messages are on their way (ui.server.fair): the door
    tells the fair share when a run's last message has left for the stream's session, and
    of no other message."""
    from ui.server import fair

    told: list[str] = []
    monkeypatch.setattr(fair, "sent", told.append)
    ws = tab(served, "198.51.100.52", "36" * 16)
    assert wait_for(lambda: len(served.seen.handshakes) == 1)
    clients.name_stream({clients.STREAM_HEADER: served.seen.handshakes[0]["stream"]}, "s-2")
    ws.send(b"a delta")
    assert ws.recv(timeout=5) == b"echo"
    assert told == []
    ws.send(b"finish")
    assert ws.recv(timeout=5) == FINISHED
    assert wait_for(lambda: told == ["s-2"])
    ws.close()


# ------------------------------------------------------------------------ idle streams


def test_a_stream_the_browser_sends_nothing_on_is_closed(served, monkeypatch):
    monkeypatch.setattr(clients, "IDLE_S", 0.6)
    quiet = tab(served, "198.51.100.60", "56" * 16)
    busy = tab(served, "198.51.100.61", "78" * 16)
    start = time.monotonic()
    while time.monotonic() - start < 1.5:  # the busy one sends a frame every 0.2 s
        busy.send(b"step")
        assert busy.recv(timeout=2) == b"echo"
        time.sleep(0.2)
    assert close_code(quiet, 0.1) == door.IDLE
    assert close_code(busy, 0.1) is None
    assert close_code(busy, 2.0) == door.IDLE  # once it is quiet too
    assert wait_for(lambda: served.door.open_streams() == 0)
    assert sorted(served.seen.ends) == [door.IDLE, door.IDLE]


def test_the_open_streams_count_down_as_browsers_leave(served):
    tabs = [tab(served, "198.51.100.70", f"{k + 100:032x}") for k in range(5)]
    assert served.door.open_streams() == 5
    for k, ws in enumerate(tabs):
        ws.close()
        assert wait_for(lambda k=k: served.door.open_streams() == 4 - k)
    assert not door._STREAMS


def test_a_page_says_who_may_frame_it_and_no_setting_smuggles_a_header() -> None:
    """frame-ancestors: the app itself and each listed origin (a wildcard host too); what is
    not an origin (a path, a second directive, a newline, a scheme of script) is left out."""
    assert dict(door.framing([])) == {
        b"content-security-policy": b"frame-ancestors 'self'",
        b"x-frame-options": b"SAMEORIGIN",
    }
    listed = door.framing(
        [
            "https://moodle.example.edu",
            "https://*.example.edu/",
            "http://localhost:8080",
            "https://a.example.edu; script-src *",
            "https://b.example.edu\r\nSet-Cookie: x=1",
            "javascript:alert(1)",
            "https://c.example.edu/course/view.php",
            "*",
        ]
    )
    assert listed == [
        (
            b"content-security-policy",
            b"frame-ancestors 'self' https://moodle.example.edu https://*.example.edu "
            b"http://localhost:8080",
        )
    ]


def test_every_page_says_who_may_frame_it(served: Served) -> None:
    """A page (HTML) says it, a browser's cookie or not; a file need not (no frame shows it)."""
    for cookie in ({}, {"Cookie": f"{clients.BROWSER_COOKIE}={'ab' * 16}"}):
        request = urllib.request.Request(f"http://127.0.0.1:{served.port}/", headers=cookie)
        with urllib.request.urlopen(request, timeout=5) as response:
            assert response.headers["content-security-policy"] == "frame-ancestors 'self'"
            assert response.headers["x-frame-options"] == "SAMEORIGIN"


def test_over_https_the_cookie_reaches_a_course_sites_frame_kept_apart_per_site(served):
    """Behind a TLS proxy (X-Forwarded-Proto from a trusted one) the browser's cookie is
    SameSite=None, Secure and Partitioned: an embed on a course site of another domain is
    a browser, not a script; over plain HTTP, or when anyone else says https, it is Lax."""

    def cookie(headers: dict[str, str]) -> str:
        request = urllib.request.Request(f"http://127.0.0.1:{served.port}/", headers=headers)
        with urllib.request.urlopen(request, timeout=5) as response:
            return next(c for c in response.headers.get_all("Set-Cookie") or [])

    tls = cookie({"X-Forwarded-Proto": "https"})  # loopback: the trusted proxy (nginx)
    assert tls.endswith("; HttpOnly; SameSite=None; Secure; Partitioned"), tls
    assert cookie({}).endswith("; HttpOnly; SameSite=Lax")
    assert not clients.secure("http", "192.0.2.5", {"X-Forwarded-Proto": "https"})  # untrusted
    assert clients.secure("https", "192.0.2.5", {})
