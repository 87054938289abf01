"""A student's question card, outside Streamlit's reruns: ``/api/card``.

When the live channel says a room's question changed, each student's page asks
``GET /api/card?ticket=<ticket>&ringed=<0|1>&v=<the channel's card version>`` for its card
and draws it (``ui/live/card.js``); an answer is ``POST /api/card`` with ``{"ticket", "q", "vote",
"said", "turn", "ringed"}`` (the question's number and vote, the choice's index, the turn's
index or null) and is answered with the card as it now stands. The ticket is the one that
opens the seat's channel (:mod:`ui.live.route`): no valid ticket, 403; the lecturer's
ticket answers nothing (403). A body over :data:`MAX_BODY` bytes is refused before it is
read whole (413), anything malformed is 400, and a seat's calls past :data:`RATE` a second
(a burst of :data:`BURST`) are 429 with a sentence, before any work. The card's words and
the store's reads are the app's (``card_of`` and ``answer``, called beside the event
loop); here only the request's shape and its bounds.

May import: the standard library, ``starlette``, ``ui.words``, ``ui.live.route`` and
``ui.live.reports``.
Nothing of Streamlit or of the app.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ui import words
from ui.live.reports import bounded_body
from ui.live.route import Ticket, check, under

_LOG = logging.getLogger(__name__)
PATH = "/api/card"
MAX_BODY = 512  # bytes: a ticket (under 120) and five small numbers
RATE, BURST = 4.0, 12  # a seat's calls a second, and at once (a question, a vote, a change)
MAX_SEATS = 5_000  # seats whose rate is kept (the least recent forgotten first)
MAX_INT = 2**31 - 1
_VERSION = re.compile(r"^[0-9a-f]{1,16}$")  # a card's version as the channel names it
NO_STORE = {"Cache-Control": "no-store"}
BUSY = words.N_("Many answers at once: your last one was not counted; answer again in a moment.")
UNREAD = words.N_("That answer could not be read.")


@dataclass(frozen=True)
class Answer:
    """A seat's answer as posted: question ``q``'s vote ``vote``, the choice's index
    ``said``, the turn's index ``turn`` (None: not said); ``ringed``: the page's chart rings
    the example (the card it is answered with draws no picture)."""

    q: int
    vote: int
    said: int
    turn: int | None
    ringed: bool


class Rates:
    """A token bucket per seat (any thread), at most :data:`MAX_SEATS` of them."""

    def __init__(self, rate: float = RATE, burst: int = BURST, most: int = MAX_SEATS) -> None:
        self._lock = threading.Lock()
        self._seats: OrderedDict[str, tuple[float, float]] = OrderedDict()
        self.rate, self.burst, self.most = rate, burst, most

    def allow(self, seat: str, *, now: float | None = None) -> bool:
        """Whether ``seat`` may make one more call now (it is charged if so)."""
        t = time.monotonic() if now is None else now
        with self._lock:
            tokens, at = self._seats.pop(seat, (float(self.burst), t))
            tokens = min(float(self.burst), tokens + (t - at) * self.rate)
            ok = tokens >= 1.0
            self._seats[seat] = (tokens - 1.0 if ok else tokens, t)
            while len(self._seats) > self.most:
                self._seats.popitem(last=False)
            return ok


def parse(body: bytes) -> tuple[str, Answer] | None:
    """The ticket and answer of a POST's body; None unless it is exactly one."""
    try:
        value = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        return None
    if not isinstance(value, dict) or set(value) != {
        "ticket",
        "q",
        "vote",
        "said",
        "turn",
        "ringed",
    }:
        return None
    ticket, turn, ringed = value["ticket"], value["turn"], value["ringed"]
    numbers = [value["q"], value["vote"], value["said"]] + ([] if turn is None else [turn])
    if not isinstance(ticket, str) or not isinstance(ringed, bool):
        return None
    for n in numbers:
        if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= MAX_INT:
            return None
    return ticket, Answer(
        q=value["q"], vote=value["vote"], said=value["said"], turn=turn, ringed=ringed
    )


def route(
    card_of: Callable[[str, str, bool, str], dict[str, Any]],
    answer: Callable[[str, str, Answer], dict[str, Any]],
    key_of: Callable[[str], bytes | None],
    *,
    base: str = "",
    rates: Rates | None = None,
) -> Route:
    """The card's route at :data:`PATH` under ``base``: ``card_of(code, seat, ringed,
    want)`` gives a seat's card (``want``: the card version the page's channel named, or
    ""), ``answer(code, seat, given)`` writes an answer and gives the card
    after it, ``key_of(code)`` a room's ticket key (each called in a thread: they read the
    store). The card is JSON; the server's failure to read the store is 503 with a
    sentence."""
    bucket = rates or Rates()

    def seated(ticket_text: str) -> Ticket | Response:
        """The ticket's seat, or the refusal: a thread's work (the key may be read)."""
        found = check(ticket_text[:200], key_of)
        if found is None or found.seat in ("lecturer", "student"):
            return _said(words.N_("This page's class seat is not valid: reload the page."), 403)
        if not bucket.allow(f"{found.code}.{found.seat}"):
            return _said(BUSY, 429)
        return found

    def get(ticket_text: str, ringed: bool, want: str) -> Response:
        seat = seated(ticket_text)
        if isinstance(seat, Response):
            return seat
        return JSONResponse(card_of(seat.code, seat.seat, ringed, want), headers=NO_STORE)

    def post(ticket_text: str, given: Answer) -> Response:
        seat = seated(ticket_text)
        if isinstance(seat, Response):
            return seat
        return JSONResponse(answer(seat.code, seat.seat, given), headers=NO_STORE)

    async def card(request: Request) -> Response:
        with words.speaking(request_language(request)):
            return await answered(request)

    async def answered(request: Request) -> Response:
        try:
            if request.method == "GET":
                ticket_text = request.query_params.get("ticket", "")
                ringed = request.query_params.get("ringed", "0") == "1"
                want = request.query_params.get("v", "")[:16]
                want = want if _VERSION.match(want) else ""
                return await asyncio.to_thread(get, ticket_text, ringed, want)  # one hop
            try:
                body = await bounded_body(request, MAX_BODY)
            except ValueError:  # a Content-Length that is no number
                return _said(UNREAD, 400)
            if body is None:
                return _said(words.N_("That answer is too large."), 413)
            found = parse(body)
            if found is None:
                return _said(UNREAD, 400)
            return await asyncio.to_thread(post, *found)
        except Exception:  # the store is down (or slow): the page keeps its card, asks again
            _LOG.warning("the question card's route could not answer", exc_info=True)
            return _said(words.N_("The class cannot be reached just now: trying again."), 503)

    return Route(under(base, PATH), card, methods=["GET", "POST"])


def request_language(request: Request) -> str:
    """The language a request to the class's routes reads: its ``?lang=`` (at most 8
    characters), else its ``Accept-Language``, else English (``ui.words.of_request``)."""
    asked = request.query_params.get("lang", "")[:8]
    return words.of_request(asked, request.headers.get("accept-language", ""))


def _said(sentence: str, status: int) -> Response:
    """A refusal's JSON, its sentence in the request's language (``words.speaking``)."""
    return JSONResponse(
        {"error": words.t(sentence)}, status_code=status, headers={"Cache-Control": "no-store"}
    )
