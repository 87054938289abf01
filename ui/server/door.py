"""The server's door: an ASGI middleware in front of Streamlit (``st.App(middleware=...)``
in ``ui.shell.asgi``). It works through public seams only: the ASGI scope and messages,
and the handshake's headers, which Streamlit hands a session as ``st.context.headers``.

It owns:

- **the browser's cookie.** A response to a request without a valid ``perceptron_browser``
  cookie sets one (32 random hex digits, a year, HttpOnly, SameSite=Lax). The page's
  response sets it, so the websocket the page opens next (same origin) carries it:
  ``ui.server.clients`` names a browser by it.
- **the stream's handshake** (``/_stcore/stream``, under any ``server.baseUrlPath``). A
  new tab is counted against its client's rate (``clients.LIMITS``). A script (no browser
  cookie) past its rate is refused before Streamlit sees it: ``websocket.close`` before
  ``accept``, an HTTP 403. Nobody reads a sentence there, and it costs the server no
  session and no first run. A browser past its rate, or any connection while the server
  holds ``clients.max_sessions()`` open streams, is let in with a mark among its
  handshake's headers (``clients.DOOR_HEADER``) so that its page says why
  (``clients.admit``), and is closed ``clients.CLOSE_AFTER_S`` later (1013: try again
  later). A browser is never refused without a sentence.
- **the frames.** A browser's frame over ``MAX_FRAME_BYTES`` closes its connection (1009)
  and never reaches Streamlit. A value ``ui.server.frames`` refuses (a component's flood of
  events, a number Python cannot parse, a value of another kind than its widget's) is taken
  out of its frame: Streamlit never sees it, as if the browser had not sent it. A stream's session
  is named by the session's own runs (``clients.name_stream``), for its widgets' kinds.
- **who may frame the app.** Every page says ``Content-Security-Policy: frame-ancestors``:
  the app's own pages and the course sites a lecturer lists in Streamlit's own
  ``client.allowedOrigins`` (empty by default, ``.streamlit/config.toml``: then no other
  site may frame the app, nor send host messages to its embed). An entry that is not an
  origin is left out, and said in the server's log.
- **a run's end on the wire.** When a run's last message leaves for the browser, the
  fair share hears it (``fair.sent``): pages wait while others' messages are on their way.
- **idle streams.** A stream on which the browser sent nothing for ``clients.IDLE_S`` is
  closed (1001), by a timer of its own.

Closing a stream here is ``websocket.close`` to the server and ``websocket.disconnect``
to Streamlit, which ends the session's connection as when a browser leaves; what
Streamlit sends after that fails as a send to a gone browser does.

May import: the standard library, ``starlette``, ``streamlit`` (``st.get_option``),
``ui.server.clients``, ``ui.server.fair`` (a run's last message sent),
``ui.server.frames``, ``ui.server.internals`` (reads),
``perceptron_store.ratelimit``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import secrets
import threading
from collections.abc import Iterable
from typing import Any

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ui.server import clients, fair, frames, internals

_LOG = logging.getLogger(__name__)

STREAM_PATH = "/_stcore/stream"  # the browser's session connection, after any base path
# The largest frame a browser may send, in bytes: Streamlit's own bound on a browser's
# message (``server.maxWidgetStateSize = 1`` in .streamlit/config.toml, which Streamlit
# counts as 10^6 bytes). A gesture, a typed e-mail or an edited table of 500 points is a
# few kB, and a file goes over HTTP, not this socket.
MAX_FRAME_BYTES = 1_000_000
REFUSED, TOO_BIG, IDLE = 1013, 1009, 1001  # the close codes: try again later, too big, gone
_MARKS = {clients.DOOR_HEADER.encode(), clients.STREAM_HEADER.encode()}

_LOCK = threading.Lock()
_STREAMS: dict[str, _Stream] = {}  # every open stream of every door, by id


class Gone(ConnectionResetError):
    """A send on a stream the door closed (an ``OSError``, as the server's own
    "client disconnected" is: Starlette turns it into ``WebSocketDisconnect``)."""


def browser_of(headers: Iterable[tuple[bytes, bytes]]) -> str:
    """The valid ``perceptron_browser`` cookie among a request's ``Cookie`` headers
    (``clients.browser_of`` says which are), or ""."""
    for name, value in headers:
        if name.lower() != b"cookie":
            continue
        for part in value.decode("latin-1").split(";"):
            key, eq, text = part.strip().partition("=")
            if eq and key == clients.BROWSER_COOKIE:
                found = clients.browser_of({key: text})
                if found:
                    return found
    return ""


def new_cookie(*, secure: bool = False) -> tuple[bytes, bytes]:
    """A ``Set-Cookie`` header naming a new browser (signed: ``clients.new_browser``).
    Over HTTPS it is also sent in a course site's frame of the app (``SameSite=None``), kept
    apart for each site that frames it (``Partitioned``): an embed's tabs are a browser's,
    not a script's. Over plain HTTP (a laptop in the room) no site can frame the app from
    an HTTPS course page anyway, and the cookie stays ``SameSite=Lax``."""
    where = "SameSite=None; Secure; Partitioned" if secure else "SameSite=Lax"
    value = (
        f"{clients.BROWSER_COOKIE}={clients.new_browser()}; Path=/; "
        f"Max-Age={clients.BROWSER_MAX_AGE_S}; HttpOnly; {where}"
    )
    return b"set-cookie", value.encode("latin-1")


# an origin a page may be framed by: a scheme, a host (its first label may be "*") and a port
_ORIGIN = re.compile(r"https?://(?:\*\.)?[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*(?::[0-9]{1,5})?")


def framing(sites: Iterable[object]) -> list[tuple[bytes, bytes]]:
    """The headers that say who may frame a page: the app itself and ``sites`` (origins such
    as ``https://moodle.example.edu`` or ``https://*.example.edu``); what is not an origin is
    left out (a header must never carry a stray ``;`` or a newline of a setting)."""
    kept: list[str] = []
    dropped: list[str] = []
    for site in sites:
        text = str(site).strip().rstrip("/")
        (kept if _ORIGIN.fullmatch(text) else dropped).append(text)
    if dropped:
        _LOG.warning("perceptron: client.allowedOrigins entries that are no origin: %r", dropped)
    policy = " ".join(["frame-ancestors 'self'", *kept])
    headers = [(b"content-security-policy", policy.encode("ascii"))]
    if not kept:  # a browser older than frame-ancestors reads this one
        headers.append((b"x-frame-options", b"SAMEORIGIN"))
    return headers


def listed_sites() -> list[str]:
    """The course sites a lecturer lists (Streamlit's ``client.allowedOrigins``)."""
    import streamlit as st

    try:
        return [str(v) for v in (st.get_option("client.allowedOrigins") or [])]
    except Exception:  # no such option in another Streamlit: nobody else frames the app
        return []


def _disconnect(code: int) -> Message:
    return {"type": "websocket.disconnect", "code": code, "reason": ""}


class _Stream:
    """One open stream: its id, its loop, when the browser last sent a frame; ``closing``
    once anyone began to close it, and ``ended``, its close code, once it is closed."""

    def __init__(self, stream_id: str, send: Send) -> None:
        self.id = stream_id
        self.loop = asyncio.get_running_loop()
        self.send = send
        self.last = self.loop.time()
        self.closing = False
        self.ended: asyncio.Future[int] = self.loop.create_future()
        self.pending: asyncio.Future[Message] | None = None  # the server's receive, waiting
        self.timer: asyncio.TimerHandle | None = None
        self.session: str | None = None  # its Streamlit session, once a run named it

    def kind_of(self, widget_id: str) -> str | None:
        """The kind of value the stream's session drew ``widget_id`` with (None: unknown)."""
        return None if self.session is None else internals.widget_kind(self.session, widget_id)

    def close(self, code: int) -> None:
        """Close it soon (on its loop): see :meth:`shut`."""
        if not self.closing:
            self.closing = True
            self.loop.create_task(self.shut(code))

    async def shut(self, code: int) -> None:
        """Tell the browser ``code``, then Streamlit that the browser left: in that order,
        or the server drops the connection without its code once Streamlit returns."""
        self.closing = True
        if self.ended.done():
            return
        with contextlib.suppress(Exception):  # the browser left meanwhile: nothing to tell
            await self.send({"type": "websocket.close", "code": code})
        self.end(code)

    def end(self, code: int) -> None:
        if not self.ended.done():
            self.ended.set_result(code)

    def watch_idle(self) -> None:
        """Close it once the browser sent nothing for ``clients.IDLE_S``; else look again
        when that could first be so (one timer a stream, no scan of all of them)."""
        if self.ended.done():
            return
        wait = self.last + clients.IDLE_S - self.loop.time()
        if wait <= 0:
            self.close(IDLE)
        else:
            self.timer = self.loop.call_later(wait, self.watch_idle)


def close_later(stream_id: str, after: float) -> bool:
    """Close stream ``stream_id`` ``after`` seconds from now with 1013 (from any thread:
    ``clients.close_stream``); False if no door holds it."""
    with _LOCK:
        stream = _STREAMS.get(stream_id)
    if stream is None:
        return False
    try:
        loop = stream.loop
        loop.call_soon_threadsafe(loop.call_later, max(0.0, after), stream.close, REFUSED)
    except RuntimeError:  # its loop is closed: the stream is gone with it
        return False
    return True


clients.on_close(close_later)


def name_session(stream_id: str, session_id: str) -> bool:
    """Stream ``stream_id`` belongs to session ``session_id`` (from its run, any thread:
    ``clients.name_stream``); False if no door holds it."""
    with _LOCK:
        stream = _STREAMS.get(stream_id)
        if stream is not None:
            stream.session = session_id
    return stream is not None


clients.on_name(name_session)


def _is_page(message: Message) -> bool:
    """A response that is a page: its content type is HTML."""
    for name, value in message.get("headers", ()):
        if name.lower() == b"content-type":
            return bytes(value).lower().startswith(b"text/html")
    return False


class Door:
    """The middleware (``Middleware(Door)``): see the module. ``open_streams()``: how many
    streams this door holds open now."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self._open: dict[str, _Stream] = {}
        self._framing = framing(listed_sites())

    def open_streams(self) -> int:
        return len(self._open)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            await self._http(scope, receive, send)
        elif scope["type"] == "websocket" and str(scope.get("path", "")).endswith(STREAM_PATH):
            await self._stream(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def send_marked(message: Message) -> None:
            # only on a page (HTML): a page is what a frame shows, and its response names
            # the browser before its websocket opens; a file with a Set-Cookie is never
            # kept by a cache (nginx's for the static files, a browser's), nor shared. A
            # file's response costs the door nothing: no cookie read, no signature made
            if message["type"] == "http.response.start" and _is_page(message):
                added = [*self._framing, *self._cookie_for(scope)]
                message = {**message, "headers": [*message.get("headers", ()), *added]}
            await send(message)

        await self.app(scope, receive, send_marked)

    @staticmethod
    def _cookie_for(scope: Scope) -> list[tuple[bytes, bytes]]:
        """A new browser's cookie for a page's response, unless the request names one."""
        if browser_of(scope.get("headers", ())):
            return []
        peer = scope.get("client")
        https = clients.secure(
            str(scope.get("scheme", "")), peer[0] if peer else None, Headers(scope=scope)
        )
        return [new_cookie(secure=https)]

    def _mark(self, scope: Scope) -> str | None:
        """The door's mark for a new stream (``clients.IN`` and the others), or None to
        refuse it before it is a session."""
        clients.start_once()
        headers = Headers(scope=scope)
        peer = scope.get("client")
        address = clients.client_of(peer[0] if peer else None, headers, {}).address
        client = clients.Client(address, browser_of(scope.get("headers", ())))
        # Streamlit's subprotocol entries: "streamlit", an XSRF token, the session to resume
        entries = [e.strip() for e in headers.get("sec-websocket-protocol", "").split(",")]
        again = len(entries) >= 3 and bool(entries[2])
        if not client.browser:
            # a script, whatever session it names: counted here, refused here
            if not clients.allow(clients.tab_action(client), client):
                return None
            again = False
        cap = clients.max_sessions()
        if len(self._open) >= cap:
            said = clients.full_sentence(cap)
            mark = clients.FULL_MARK
        elif again:
            # a browser's reconnection is no new tab: clients.admit counts it if its session
            # is new (it ran nothing yet)
            return clients.AGAIN
        elif not client.browser or clients.allow("tab", client):
            return clients.IN
        else:
            said, mark = clients.refused("tab"), clients.TAB
        _LOG.warning(
            "perceptron: refused a new tab (%d connected, at most %d): %s",
            len(self._open) + 1,
            cap,
            said,
        )
        return mark

    async def _stream(self, scope: Scope, receive: Receive, send: Send) -> None:
        mark = self._mark(scope)
        if mark is None:
            message = await receive()  # the handshake ("websocket.connect"), answered:
            if message["type"] == "websocket.connect":
                await send({"type": "websocket.close", "code": REFUSED})  # HTTP 403
            return
        stream = _Stream(secrets.token_hex(8), send)
        headers = [h for h in scope.get("headers", ()) if h[0].lower() not in _MARKS]
        headers += [
            (clients.DOOR_HEADER.encode(), mark.encode()),
            (clients.STREAM_HEADER.encode(), stream.id.encode()),
        ]
        self._open[stream.id] = stream
        with _LOCK:
            _STREAMS[stream.id] = stream
        if mark in (clients.TAB, clients.FULL_MARK):
            stream.loop.call_later(clients.CLOSE_AFTER_S, stream.close, REFUSED)
        stream.watch_idle()
        try:
            await self.app(
                {**scope, "headers": headers},
                lambda: self._receive(stream, receive),
                lambda message: self._send(stream, send, message),
            )
        finally:
            self._open.pop(stream.id, None)
            with _LOCK:
                _STREAMS.pop(stream.id, None)
            if stream.timer is not None:
                stream.timer.cancel()
            if stream.pending is not None and not stream.pending.done():
                stream.pending.cancel()
            stream.closing = True
            stream.end(1000)
            clients.stream_ended(stream.session)  # a seat of the tab is no longer counted

    async def _receive(self, stream: _Stream, receive: Receive) -> Message:
        """The server's next message for Streamlit, unless the door closed the stream
        first; a frame over the bound closes it, and what ``frames.screened`` takes out of a
        frame never reaches Streamlit."""
        message = await self._next(stream, receive)
        data: Any = message.get("bytes") if message["type"] == "websocket.receive" else None
        if data:
            screened, said = frames.screened(data, stream.kind_of)
            if said:
                _LOG.warning("perceptron: took out of a browser's frame: %s", "; ".join(said))
            if screened is not data:
                message = {**message, "bytes": screened}
        return message

    async def _next(self, stream: _Stream, receive: Receive) -> Message:
        if stream.ended.done():
            return _disconnect(stream.ended.result())
        if stream.pending is None:
            stream.pending = asyncio.ensure_future(receive())
        pending = stream.pending
        await asyncio.wait((pending, stream.ended), return_when=asyncio.FIRST_COMPLETED)
        if stream.ended.done():  # closed: a frame that came meanwhile is dropped
            return _disconnect(stream.ended.result())
        stream.pending = None
        message = pending.result()
        kind = message["type"]
        if kind == "websocket.receive":
            data: Any = message.get("bytes") or message.get("text") or b""
            if len(data) > MAX_FRAME_BYTES:  # a text's characters: at least as many bytes
                await stream.shut(TOO_BIG)
                return _disconnect(TOO_BIG)
            stream.last = stream.loop.time()
        elif kind == "websocket.disconnect":
            stream.closing = True
            stream.end(int(message.get("code", 1005)))
        return message

    async def _send(self, stream: _Stream, send: Send, message: Message) -> None:
        """Streamlit's message to the server, unless the stream is closed or closing."""
        if stream.closing:
            if message["type"] == "websocket.close":
                return  # closed already
            raise Gone("the stream was closed")
        if message["type"] == "websocket.close":
            stream.closing = True
            await send(message)
            stream.end(int(message.get("code", 1000)))
            return
        await send(message)
        data: bytes = (message.get("bytes") or b"") if message["type"] == "websocket.send" else b""
        # a run's last message is small: a page's other messages are not parsed for it
        small = 0 < len(data) <= internals.FINISH_BYTES
        if small and stream.session is not None and internals.run_finished(data):
            fair.sent(stream.session)  # its messages left: the next page may run
