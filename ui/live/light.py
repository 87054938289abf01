"""A class on a light page, outside Streamlit: the page and its two calls.

The QR code and the join link open ``GET /join?room=<code>``: one HTML page of the app's
own (its words and code are the app's, :mod:`ui.lecture.light`), answered from a thread
beside the event loop. The page then asks:

- ``POST /api/join`` with ``{"code", "nick"}``: a seat in the class, answered with the
  seat's ticket and nickname, and the seat's cookie (the one Streamlit's pages read, so
  a student moves between the two in one seat); a refusal is 4xx with the sentence;
- ``GET /api/lecture?ticket=<ticket>&t=<step>&have=<run>:<start>``: the room's lecture
  now (or at step ``t``, the next window of a Play), as the player draws it; its scene
  is left out when the page holds it already (``have``).

A body over :data:`MAX_BODY` bytes is refused before it is read whole (413), anything
malformed is 400, a seat's lecture calls past :data:`RATE` a second are 429, and the
answers are compressed for a phone's Wi-Fi. The class channel and the question card are
``/api/live`` and ``/api/card``, as on the Streamlit pages.

May import: the standard library, ``starlette``, ``ui.words`` and ``ui.live`` (route, card,
reports).
Nothing of Streamlit or of the app.
"""

from __future__ import annotations

import asyncio
import gzip
import json
import logging
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ui import words
from ui.live.card import Rates, request_language
from ui.live.reports import bounded_body
from ui.live.route import Ticket, check, under

_LOG = logging.getLogger(__name__)
PAGE_PATH, JOIN_PATH, LECTURE_PATH = "/join", "/api/join", "/api/lecture"
REMOTE_PAGE_PATH, REMOTE_PATH = "/remote", "/api/remote"  # the lecturer's phone
# what the remote may ask: its view, the projector player's buttons, the class's question
REMOTE_ACTS = frozenset({"status", "step", "back", "next", "play", "ask", "again", "reveal"})
MAX_KEY = 100  # characters of a lecturer's secret (43)
MAX_BODY = 256  # bytes of a join: a code (under 20) and a nickname (under 80)
MAX_FIELD = 80  # characters of a join's field
RATE, BURST = 2.0, 8  # a seat's lecture calls a second, and at once (a new run, a window)
ZIP_OVER = 1_024  # bytes: a longer answer is compressed when the browser takes gzip
_HAVE = re.compile(r"^[0-9a-f]{1,16}:[0-9]{1,9}$")
NO_STORE = {"Cache-Control": "no-store"}
UNREADABLE = words.N_("That could not be read: reload the page and try again.")
DOWN = words.N_("The class cannot be reached just now: trying again.")


@dataclass(frozen=True)
class Asker:
    """Who asks: the connection's peer, its headers and cookies (the app makes its client
    of them, ``ui.server.clients``)."""

    peer: str | None
    scheme: str
    headers: Mapping[str, str]
    cookies: Mapping[str, str]
    lang: str = ""  # the address's ?lang= (at most 8 characters), for the app to judge


@dataclass(frozen=True)
class Joined:
    """What a join answers: ``body`` (JSON), its ``status``, and the seat's cookie (a
    ``Set-Cookie`` value, or None)."""

    body: dict[str, Any]
    status: int = 200
    cookie: str | None = None


def parse_join(body: bytes) -> tuple[str, str] | None:
    """(code, nickname) of a join's body; None unless it is exactly that."""
    try:
        value = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        return None
    if not isinstance(value, dict) or set(value) != {"code", "nick"}:
        return None
    code, nick = value["code"], value["nick"]
    if not isinstance(code, str) or not isinstance(nick, str):
        return None
    if len(code) > MAX_FIELD or len(nick) > MAX_FIELD:
        return None
    return code, nick


def parse_remote(body: bytes) -> tuple[str, str, str] | None:
    """(code, key, act) of a remote's body; None unless it is exactly that."""
    try:
        value = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        return None
    if not isinstance(value, dict) or set(value) != {"code", "key", "act"}:
        return None
    code, key, act = value["code"], value["key"], value["act"]
    if not all(isinstance(v, str) for v in (code, key, act)):
        return None
    if len(code) > MAX_FIELD or len(key) > MAX_KEY or act not in REMOTE_ACTS:
        return None
    return code, key, act


def step_asked(text: str | None) -> int | None:
    """The step a lecture call asks for (None: the room's own)."""
    if text is None or not text.isdigit() or len(text) > 9:
        return None
    return int(text)


def zipped(body: bytes, request: Request, media: str) -> Response:
    """``body`` as the answer, compressed when it is long and the browser takes gzip."""
    headers = dict(NO_STORE)
    if len(body) > ZIP_OVER and "gzip" in request.headers.get("accept-encoding", ""):
        body = gzip.compress(body, compresslevel=5)
        headers |= {"Content-Encoding": "gzip", "Vary": "Accept-Encoding"}
    return Response(body, media_type=media, headers=headers)


def routes(
    page: Callable[[str, Asker], bytes],
    join: Callable[[str, str, Asker], Joined],
    lecture: Callable[[Ticket, int | None, str, str], bytes],
    key_of: Callable[[str], bytes | None],
    *,
    remote_page: Callable[[str, Asker], bytes] | None = None,
    remote: Callable[[str, str, str, Asker], Joined] | None = None,
    base: str = "",
    rates: Rates | None = None,
) -> list[BaseRoute]:
    """The light page's three routes under ``base``: ``page(code text, asker)`` makes the
    page (HTML), ``join(code, nick, asker)`` takes a seat, ``lecture(ticket, t, have, lang)`` gives
    the room's lecture (JSON) and ``key_of(code)`` a room's
    ticket key (each called in a thread: they read the store). With ``remote_page`` and
    ``remote(code, key, act, asker)``, the lecturer's remote too: its page and its presses
    (``POST /api/remote`` with ``{"code", "key", "act"}``, the same bounds as a join's)."""
    bucket = rates or Rates(RATE, BURST)

    def asker(request: Request) -> Asker:
        peer = request.client.host if request.client else None
        lang = request.query_params.get("lang", "")[:8]
        return Asker(peer, request.url.scheme, dict(request.headers), dict(request.cookies), lang)

    def html_route(make: Callable[[str, Asker], bytes], what: str) -> Any:
        """A page of the class (its ``room=``), made by ``make`` beside the event loop."""

        async def endpoint(request: Request) -> Response:
            code = request.query_params.get("room", "")[:MAX_FIELD]
            with words.speaking(request_language(request)):
                try:
                    html = await asyncio.to_thread(make, code, asker(request))
                except Exception:  # the page is made of the app's own parts: the store is down
                    _LOG.warning("%s could not be made", what, exc_info=True)
                    return Response(
                        words.t(DOWN), status_code=503, media_type="text/plain", headers=NO_STORE
                    )
            return zipped(html, request, "text/html; charset=utf-8")

        return endpoint

    def post_route(
        parse: Callable[[bytes], tuple[str, ...] | None],
        call: Callable[..., Joined],
        too_long: str,
        what: str,
    ) -> Any:
        """A JSON post of at most :data:`MAX_BODY` bytes, read by ``parse`` (None: 400) and
        answered by ``call(*fields, asker)`` beside the event loop."""

        async def endpoint(request: Request) -> Response:
            with words.speaking(request_language(request)):
                return await answered(request)

        async def answered(request: Request) -> Response:
            try:
                body = await bounded_body(request, MAX_BODY)
            except ValueError:  # a Content-Length that is no number
                return _said(UNREADABLE, 400)
            if body is None:
                return _said(too_long, 413)
            found = parse(body)
            if found is None:
                return _said(UNREADABLE, 400)
            try:
                done = await asyncio.to_thread(call, *found, asker(request))
            except Exception:
                _LOG.warning("%s could not answer", what, exc_info=True)
                return _said(DOWN, 503)
            response = JSONResponse(done.body, status_code=done.status, headers=NO_STORE)
            if done.cookie is not None:
                response.headers.append("Set-Cookie", done.cookie)
            return response

        return endpoint

    def seated(text: str) -> Ticket | Response:
        found = check(text[:200], key_of)
        if found is None or found.seat in ("lecturer", "student"):
            return _said(words.N_("This page's class seat is not valid: join again."), 403)
        if not bucket.allow(f"{found.code}.{found.seat}"):
            return _said(words.N_("Many calls at once: the lecture follows in a moment."), 429)
        return found

    async def lecture_route(request: Request) -> Response:
        with words.speaking(request_language(request)):
            return await lecture_answer(request)

    async def lecture_answer(request: Request) -> Response:
        query = request.query_params
        have = query.get("have", "")[:32]
        have = have if _HAVE.match(have) else ""
        try:
            seat = await asyncio.to_thread(seated, query.get("ticket", ""))
            if isinstance(seat, Response):
                return seat
            lang = query.get("lang", "")[:8]  # the page's language, for the app to judge
            body = await asyncio.to_thread(lecture, seat, step_asked(query.get("t")), have, lang)
        except Exception:
            _LOG.warning("the light page's lecture could not answer", exc_info=True)
            return _said(DOWN, 503)
        return zipped(body, request, "application/json")

    made: list[BaseRoute] = [
        Route(under(base, PAGE_PATH), html_route(page, "the light page"), methods=["GET", "HEAD"]),
        Route(
            under(base, JOIN_PATH),
            post_route(
                parse_join,
                join,
                words.N_("That is too long for a class code and a nickname."),
                "a join",
            ),
            methods=["POST"],
        ),
        Route(under(base, LECTURE_PATH), lecture_route, methods=["GET"]),
    ]
    if remote_page is None or remote is None:
        return made
    return [
        *made,
        Route(
            under(base, REMOTE_PAGE_PATH),
            html_route(remote_page, "the remote's page"),
            methods=["GET", "HEAD"],
        ),
        Route(
            under(base, REMOTE_PATH),
            post_route(
                parse_remote, remote, words.N_("That is too long for a remote's press."), "a press"
            ),
            methods=["POST"],
        ),
    ]


def _said(sentence: str, status: int) -> Response:
    """A refusal's JSON, its sentence in the request's language (``words.speaking``)."""
    return JSONResponse({"error": words.t(sentence)}, status_code=status, headers=NO_STORE)
