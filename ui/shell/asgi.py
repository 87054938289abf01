"""The server around the pages: the app's own routes, its middleware and its lifespan,
given to ``st.App`` in ``app.py``.

Imports ``ui.live`` (the class's live channel) and ``ui.server`` (the door, the
components' code) at once, and
class mode (``ui.classmode.live``: a room's key and state) only when a route or the
lifespan needs it, as a page's run would; nothing of a lesson. A new route or middleware
is a line here.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import logging
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from starlette.middleware import Middleware
from starlette.routing import BaseRoute

from ui.live import card, hub, light, reports, route
from ui.server import fair, sockets

_LOG = logging.getLogger(__name__)
REDIS_SCHEMES = ("redis://", "rediss://", "unix://")  # perceptron_store's Redis settings


def _key_of(code: str) -> bytes | None:
    from ui.classmode import live

    return live.key_of(code)


def _read(code: str) -> dict[str, Any] | None:
    from ui.classmode import live

    return live.read(code)


def _card_of(code: str, seat: str, ringed: bool, want: str) -> dict[str, Any]:
    from ui.app import links
    from ui.classmode import card as page_card

    return links.call(page_card.card_now, code, seat, ringed=ringed, want=want)


def _answer(code: str, seat: str, given: card.Answer) -> dict[str, Any]:
    from ui.app import links
    from ui.classmode import card as page_card

    return links.call(page_card.answer_now, code, seat, given)


def _here(ticket: route.Ticket) -> None:
    from ui.app import links
    from ui.classmode import presence

    links.call(presence.seen_now, ticket.code, ticket.seat)


# The light page of a class is the lecture's (its player and scene): named here as the page
# table names its pages, by where it lives, and imported at its first request
LIGHT_PAGE, REMOTE_PAGE = "ui.lecture.light", "ui.lecture.remote"


def _light() -> Any:
    return importlib.import_module(LIGHT_PAGE)


def _remote_page(code: str, asker: light.Asker) -> bytes:
    return importlib.import_module(REMOTE_PAGE).page(code, asker, base=_base())  # type: ignore[no-any-return]


def _remote(code: str, key: str, act: str, asker: light.Asker) -> light.Joined:
    return importlib.import_module(REMOTE_PAGE).press(code, key, act, asker)  # type: ignore[no-any-return]


def _light_page(code: str, asker: light.Asker) -> bytes:
    return _light().page(code, asker, base=_base())  # type: ignore[no-any-return]


def _light_join(code: str, nick: str, asker: light.Asker) -> light.Joined:
    return _light().join(code, nick, asker)  # type: ignore[no-any-return]


def _light_lecture(ticket: route.Ticket, t: int | None, have: str, lang: str) -> bytes:
    return _light().lecture(ticket, t, have, base=_base(), lang=lang)  # type: ignore[no-any-return]


def _base() -> str:
    import streamlit as st

    return str(st.get_option("server.baseUrlPath") or "")


def routes() -> list[BaseRoute]:
    """The app's own routes (under ``/api/``: Streamlit keeps ``/_stcore/`` and the pages):
    the class's live channel, a student's own step, a student's question card and the
    components' code, under the
    server's base path."""
    import streamlit as st

    from ui.server import code

    base = str(st.get_option("server.baseUrlPath") or "")
    return [
        route.route(hub.HUB, _key_of, base=base, here=_here),
        reports.route(reports.REPORTS, base=base),
        card.route(_card_of, _answer, _key_of, base=base),
        code.route(base=base),
        *light.routes(
            _light_page,
            _light_join,
            _light_lecture,
            _key_of,
            remote_page=_remote_page,
            remote=_remote,
            base=base,
        ),
    ]


def middleware() -> list[Middleware]:
    """What sees every request and websocket frame before Streamlit does: the door
    (``ui.server.door``: the browser's cookie, the new tabs' rate, the session cap, the
    frames' bound and the idle streams' close)."""
    from ui.server.door import Door

    return [Middleware(Door)]


@asynccontextmanager
async def lifespan(app: Any) -> AsyncIterator[dict[str, Any]]:
    """While the server runs: the rooms with pages here are read again now and then, the
    event loop's beat is noted (the fair share reads how late it is), and a class on Redis
    (several processes) hears the other processes' changes through it. First, every
    connection is made to send each write at once (``ui.server.sockets``)."""
    sockets.nodelay_listeners()
    setting = os.environ.get("PERCEPTRON_STORE", "")
    relay = None
    if setting.startswith(REDIS_SCHEMES):
        try:
            relay = hub.RedisRelay(hub.HUB, setting)
        except Exception:  # a setting redis cannot use: the rereads still tell every page
            _LOG.exception("the live channel's Redis relay could not start")
    tasks = [asyncio.create_task(hub.reread(hub.HUB, _read)), asyncio.create_task(fair.beat())]
    try:
        yield {}
    finally:
        for task in tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        if relay is not None:
            relay.close()
