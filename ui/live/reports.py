"""A student's own step, told to the server outside Streamlit's reruns: ``POST /api/step``.

A student stepping through the lecture alone steps in the browser (``player.js``); the
server needs the step only for what it draws next (the URL it writes, the page after a
reload or another page, the offline file). So the page posts each pause's step here, a
few bytes answered on the event loop in well under a millisecond, instead of rerunning
the instrument (a few milliseconds of a core each, the server's whole capacity at 100
students stepping), and the session takes the newest report at its next run.

A page knows its session's *tab key* (a random 128-bit name the session gave its player):
the key opens nothing else, and a report under a key this process does not hold is
answered 404 (the page then reports through its Streamlit session, as before). The page
sends ``{"k": key, "t": step, "seq": n, "run": run id}``; a report is kept only if its
``seq`` is newer than the one kept. A body over :data:`MAX_BODY` bytes is refused before it
is read whole; anything else malformed is 400. At most :data:`MAX_TABS` keys are held (the
least recently opened go first), so the table is at most a few hundred kB.

May import: the standard library, ``starlette`` and ``ui.live.route``. Nothing of Streamlit or
of the app.
"""

from __future__ import annotations

import json
import re
import threading
from collections import OrderedDict
from dataclasses import dataclass

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ui.live.route import under

PATH = "/api/step"
MAX_BODY = 256  # bytes of a report: {"k": 32 hex, "t", "seq", "run": 32 hex}
MAX_TABS = 4096  # keys held per process: every open lecture page of a big class, and more
MAX_INT = 2**31 - 1
_KEY = re.compile(r"^[0-9a-f]{32}$")
_RUN = re.compile(r"^[0-9a-f]{1,64}$")


@dataclass(frozen=True)
class Report:
    """The newest step a page said it shows: step ``t`` of run ``run``, its report ``seq``."""

    t: int
    seq: int
    run: str


class Reports:
    """The newest report of each open tab key of this process (any thread)."""

    def __init__(self, max_tabs: int = MAX_TABS) -> None:
        self._lock = threading.Lock()
        self._tabs: OrderedDict[str, Report | None] = OrderedDict()
        self._max = max_tabs

    def open(self, key: str) -> None:
        """Let pages report under ``key`` (a session's, each time it mounts its player)."""
        with self._lock:
            if key in self._tabs:
                self._tabs.move_to_end(key)
                return
            self._tabs[key] = None
            while len(self._tabs) > self._max:
                self._tabs.popitem(last=False)

    def put(self, key: str, report: Report) -> bool:
        """Keep ``report`` under ``key`` unless a newer one is kept; False if the key is not
        open here."""
        with self._lock:
            if key not in self._tabs:
                return False
            kept = self._tabs[key]
            if kept is None or report.seq > kept.seq:
                self._tabs[key] = report
            return True

    def take(self, key: str) -> Report | None:
        """The report kept under ``key``, now taken (None: nothing new)."""
        with self._lock:
            if key not in self._tabs:
                return None
            report, self._tabs[key] = self._tabs[key], None
            return report

    def peek(self, key: str) -> Report | None:
        """The report kept under ``key``, left where it is."""
        with self._lock:
            return self._tabs.get(key)


REPORTS = Reports()  # this process's


def parse(body: bytes) -> tuple[str, Report] | None:
    """The key and report of a page's body; None unless it is exactly one."""
    try:
        value = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        return None
    if not isinstance(value, dict) or set(value) != {"k", "t", "seq", "run"}:
        return None
    key, t, seq, run = value["k"], value["t"], value["seq"], value["run"]
    if not (isinstance(key, str) and _KEY.match(key) and isinstance(run, str) and _RUN.match(run)):
        return None
    for n in (t, seq):
        if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= MAX_INT:
            return None
    return key, Report(t=t, seq=seq, run=run)


async def bounded_body(request: Request, most: int = MAX_BODY) -> bytes | None:
    """The request's body, or None once it is longer than ``most`` bytes (a declared
    length over it is refused before anything is read). ValueError: a Content-Length
    that is no number."""
    if int(request.headers.get("content-length", "0") or 0) > most:
        return None
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > most:
            return None
    return body


def route(reports: Reports, *, base: str = "") -> Route:
    """The route that keeps pages' reports in ``reports``, at :data:`PATH` under ``base``."""

    async def step(request: Request) -> Response:
        try:
            body = await bounded_body(request)
        except ValueError:  # a Content-Length that is no number
            return Response("malformed report", status_code=400)
        if body is None:
            return Response("report too large", status_code=413)
        found = parse(body)
        if found is None:
            return Response("malformed report", status_code=400)
        if not reports.put(*found):
            return Response("no such tab here", status_code=404)
        return Response(status_code=204)

    return Route(path(base), step, methods=["POST"])


def path(base: str) -> str:
    """The route's path under the server's base path ``base`` ("" or "/": the root)."""
    return under(base, PATH)
