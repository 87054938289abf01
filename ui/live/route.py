"""The live channel's websocket, ``/api/live`` (see :mod:`ui.live`), and the seats'
tickets that open it.

A page opens ``/api/live?ticket=<ticket>&seen=<id>``. The ticket is what the page's server
gave its seat in the room (:func:`sign`): the room's code, the seat, when it expires, and
an HMAC of them under the room's key, which only the store holds (the app's ``key_of``).
No valid ticket, no connection: the handshake is answered 403 and nothing is subscribed.
The server sends ``{"id": n, "sent": <its clock>, "state": {...}}`` for each new state of the
room; the page sends only ``{"seen": n}``, the state it shows, and is sent the newest again
if that is not it. Anything else from a page (another room, a step, a lecturer's action: a
page's actions go through its own Streamlit session, never this channel) closes the
channel with :data:`BAD_MESSAGE`; the page reconnects and carries on.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass

from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from ui.live.hub import Full, Hub

PATH = "/api/live"
TICKET_S = 12 * 3600.0  # a ticket opens the channel this long (a day's lectures)
MAX_MESSAGE = 64  # bytes of a page's message: {"seen": <id>}
MAX_TICKET = 200
BAD_TICKET = 4403  # the close code of a connection without a valid ticket
BAD_MESSAGE = 4400  # ... of a page that sent something else than {"seen": n}
FULL = 1013  # ... of a connection past Hub's MAX_PAGES ("try again later")
HERE_S = 20.0  # a light page's seat is said to be here this often while its channel is open
_TICKET = re.compile(r"^([A-Za-z0-9]{1,16})\.([A-Za-z0-9_-]{1,32})\.([0-9]{1,12})\.([0-9a-f]{32})$")


@dataclass(frozen=True)
class Ticket:
    code: str
    seat: str
    expires: int


def _mac(key: bytes, code: str, seat: str, expires: int) -> str:
    text = f"{code}.{seat}.{expires}".encode()
    return hmac.new(key, text, hashlib.sha256).hexdigest()[:32]


def sign(key: bytes, code: str, seat: str, *, now: float | None = None) -> str:
    """The ticket of ``seat`` (a seat id, or "lecturer") in room ``code`` under the room's
    ``key``, valid for :data:`TICKET_S` or an hour more: the same ticket all the hour, so a
    page's strip, drawn again, does not give its page a new one."""
    hour = int((time.time() if now is None else now) // 3600) * 3600
    expires = int(hour + 3600 + TICKET_S)
    return f"{code}.{seat}.{expires}.{_mac(key, code, seat, expires)}"


def parse(ticket: str) -> Ticket | None:
    """The ticket's fields if it has a ticket's shape (its MAC is not checked here)."""
    m = _TICKET.match(ticket[:MAX_TICKET])
    return None if m is None else Ticket(m[1], m[2], int(m[3]))


def check(
    ticket: str, key_of: Callable[[str], bytes | None], *, now: float | None = None
) -> Ticket | None:
    """The ticket's fields if ``key_of(code)`` (None: no such room) signed it and it has not
    expired; else None."""
    found = parse(ticket)
    if found is None or found.expires < (time.time() if now is None else now):
        return None
    key = key_of(found.code)
    if key is None:
        return None
    mac = ticket.rsplit(".", 1)[1]
    good = _mac(key, found.code, found.seat, found.expires)
    return found if hmac.compare_digest(mac, good) else None


def _seen(text: str) -> int | None:
    """The id of ``{"seen": <id>}``; None for anything else."""
    try:
        value = json.loads(text)
    except ValueError:
        return None
    if not isinstance(value, dict) or set(value) != {"seen"}:
        return None
    n = value["seen"]
    return n if isinstance(n, int) and not isinstance(n, bool) and 0 <= n < 2**53 else None


def route(
    hub: Hub,
    key_of: Callable[[str], bytes | None],
    *,
    base: str = "",
    here: Callable[[Ticket], None] | None = None,
) -> WebSocketRoute:
    """The websocket route of ``hub``'s rooms, at :data:`PATH` under ``base`` (the server's
    ``server.baseUrlPath``); ``key_of`` (called in a thread: it may read the store) gives a
    room's ticket key, or None when the room does not exist. A page that opens it with
    ``here=1`` (a light page, which has no strip to say so) has its seat said to be here,
    ``here(ticket)`` in a thread, as it opens and every :data:`HERE_S` while it is open."""

    async def live(ws: WebSocket) -> None:
        ticket = await asyncio.to_thread(check, ws.query_params.get("ticket", ""), key_of)
        if ticket is None:
            await ws.close(BAD_TICKET)  # before accept: the handshake is answered 403
            return
        raw = ws.query_params.get("seen", "0")[:16]
        await ws.accept()

        async def send(shown: int) -> None:
            try:
                async for state in hub.subscribe(ticket.code, shown=shown):
                    await ws.send_text(
                        f'{{"id":{state.id},"sent":{time.time():.3f},"state":{state.text}}}'
                    )
            except Full:
                await ws.close(FULL)

        sender = asyncio.create_task(send(int(raw) if raw.isdigit() else 0))
        seated = ticket.seat not in ("lecturer", "student")
        keeper = None
        if here is not None and seated and ws.query_params.get("here") == "1":

            async def keep_here() -> None:
                while True:
                    with contextlib.suppress(Exception):  # the store is down: said next time
                        await asyncio.to_thread(here, ticket)
                    await asyncio.sleep(HERE_S)

            keeper = asyncio.create_task(keep_here())
        try:
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if text is None or len(text) > MAX_MESSAGE or (n := _seen(text)) is None:
                    await ws.close(BAD_MESSAGE)
                    break
                newest = hub.newest(ticket.code)
                if newest is not None and newest.id != n:  # the page lacks the newest
                    sender.cancel()
                    sender = asyncio.create_task(send(n))
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            sender.cancel()
            if keeper is not None:
                keeper.cancel()

    return WebSocketRoute(under(base, PATH), live)


def under(base: str, path: str) -> str:
    """``path`` under the server's base path ``base`` ("" or "/": the root)."""
    return "/" + "/".join(p for p in (base.strip("/"), path.strip("/")) if p)
