"""The light page's routes (ui.live.light) on a real uvicorn: the page, a join and the
lecture each reach the app only when well formed; every malformed, oversized, forged or
too frequent call is refused with its status and a sentence, and nothing is asked of the
app for it."""

from __future__ import annotations

import gzip
import http.client
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

import pytest
from asgi_thread import serving
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.applications import Starlette

from ui.live import card, light, route

KEY = b"k" * 32


def key_of(code: str) -> bytes | None:
    return KEY if code == "ROOMAAAA" else None


@dataclass
class App:
    port: int
    pages: list[str] = field(default_factory=list)
    joins: list[tuple[str, str]] = field(default_factory=list)
    lectures: list[tuple[route.Ticket, int | None, str]] = field(default_factory=list)
    langs: list[str] = field(default_factory=list)
    presses: list[tuple[str, str, str]] = field(default_factory=list)
    down: bool = False

    def page(self, code: str, asker: light.Asker) -> bytes:
        self.pages.append(code)
        return b"<!doctype html><p>" + b"x" * 4000

    def join(self, code: str, nick: str, asker: light.Asker) -> light.Joined:
        if self.down:
            raise ConnectionError("the store is down")
        self.joins.append((code, nick))
        return light.Joined(
            {"ticket": "t", "nick": nick}, 200, "perceptron_seat=ROOMAAAA.s; Path=/"
        )

    def remote(self, code: str, key: str, act: str, asker: light.Asker) -> light.Joined:
        self.presses.append((code, key, act))
        return light.Joined({"t": 1})

    def remote_page(self, code: str, asker: light.Asker) -> bytes:
        return b"<!doctype html><p>the remote"

    def lecture(self, ticket: route.Ticket, t: int | None, have: str, lang: str) -> bytes:
        self.lectures.append((ticket, t, have))
        self.langs.append(lang)
        return json.dumps({"scene": None, "step": {"t": t}, "pad": "y" * 3000}).encode()

    def call(self, method: str, path: str, body: bytes | None = None, headers=None):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        try:
            conn.request(method, path, body=body, headers=headers or {})
            r = conn.getresponse()
            return r.status, dict(r.getheaders()), r.read()
        finally:
            conn.close()

    def join_post(self, body: bytes | dict[str, Any]):
        raw = body if isinstance(body, bytes) else json.dumps(body).encode()
        return self.call("POST", light.JOIN_PATH, raw, {"Content-Type": "application/json"})

    def lecture_get(self, ticket: str, **query: str):
        return self.call("GET", f"{light.LECTURE_PATH}?{urlencode({'ticket': ticket, **query})}")


@pytest.fixture
def app() -> Iterator[App]:
    made = App(port=0)
    rates = card.Rates(rate=0.001, burst=3)
    routes = light.routes(
        made.page,
        made.join,
        made.lecture,
        key_of,
        remote_page=made.remote_page,
        remote=made.remote,
        rates=rates,
    )
    with serving(Starlette(routes=routes)) as port:
        made.port = port
        yield made


def seat_ticket(seat: str = "seat1234seat1234") -> str:
    return route.sign(KEY, "ROOMAAAA", seat)


def test_the_page_is_html_compressed_for_a_browser_that_takes_gzip(app: App) -> None:
    status, headers, body = app.call(
        "GET", "/join?room=ab12-cd34", headers={"Accept-Encoding": "gzip"}
    )
    assert status == 200 and headers["content-encoding"] == "gzip"
    assert headers["content-type"].startswith("text/html")
    assert gzip.decompress(body).startswith(b"<!doctype html>")
    assert app.pages == ["ab12-cd34"]
    status, headers, body = app.call("GET", "/join")
    assert status == 200 and "content-encoding" not in headers and body.startswith(b"<!doctype")


def test_a_join_is_passed_on_with_the_seats_cookie(app: App) -> None:
    status, headers, body = app.join_post({"code": "ROOMAAAA", "nick": "Ada"})
    assert status == 200 and json.loads(body)["nick"] == "Ada"
    assert headers["set-cookie"].startswith("perceptron_seat=ROOMAAAA.s")
    assert app.joins == [("ROOMAAAA", "Ada")]


@pytest.mark.parametrize(
    ("body", "status"),
    [
        (b"not json", 400),
        (b'{"code": "ROOMAAAA"}', 400),
        (b'{"code": "ROOMAAAA", "nick": "Ada", "seat": "x"}', 400),
        (b'{"code": 12345678, "nick": "Ada"}', 400),
        (json.dumps({"code": "ROOMAAAA", "nick": "A" * 81}).encode(), 400),
        (json.dumps({"code": "ROOMAAAA", "nick": "A" * 300}).encode(), 413),
    ],
)
def test_a_malformed_or_oversized_join_is_refused_unasked(
    app: App, body: bytes, status: int
) -> None:
    got, _, raw = app.join_post(body)
    assert got == status
    assert json.loads(raw)["error"].endswith(".")
    assert app.joins == []


def test_a_refusal_is_said_in_the_pages_language(app: App) -> None:
    """The page's ?lang= (or else its browser's language) is the refusal's: the app's
    callables run in it too."""
    json_body = {"Content-Type": "application/json"}
    status, _, raw = app.call("POST", light.JOIN_PATH + "?lang=fr", b"not json", json_body)
    assert status == 400 and json.loads(raw)["error"].startswith("Impossible de lire")
    german = {**json_body, "Accept-Language": "de-CH, de;q=0.9"}
    status, _, raw = app.call("POST", light.JOIN_PATH, b"not json", german)
    assert status == 400 and json.loads(raw)["error"] != light.UNREADABLE
    status, _, raw = app.call("POST", light.JOIN_PATH + "?lang=xx", b"not json", german)
    assert json.loads(raw)["error"] != light.UNREADABLE  # not on offer: the browser's
    status, _, raw = app.join_post(b"not json")
    assert json.loads(raw)["error"] == light.UNREADABLE  # no language asked: English


def test_a_store_that_is_down_is_a_sentence_not_a_traceback(app: App) -> None:
    app.down = True
    status, _, raw = app.join_post({"code": "ROOMAAAA", "nick": "Ada"})
    assert status == 503 and "cannot be reached" in json.loads(raw)["error"]


@given(raw=st.binary(max_size=300))
@settings(max_examples=60, deadline=None)
def test_no_body_a_script_sends_fails_the_server(raw: bytes) -> None:
    made = App(port=0)
    with serving(
        Starlette(routes=light.routes(made.page, made.join, made.lecture, key_of))
    ) as port:
        made.port = port
        status, _, _ = made.join_post(raw)
    assert status in (200, 400, 413)
    assert status != 200 or light.parse_join(raw) is not None


def test_the_lecture_answers_a_seats_ticket_only(app: App) -> None:
    forged = seat_ticket()[:-4] + "0000"
    other_room = route.sign(b"x" * 32, "ROOMBBBB", "seat1234seat1234")
    lecturer = route.sign(KEY, "ROOMAAAA", "lecturer")
    for ticket in ("", "nonsense", forged, other_room, lecturer):
        status, _, raw = app.lecture_get(ticket)
        assert status == 403 and "join again" in json.loads(raw)["error"], ticket
    assert app.lectures == []
    status, headers, raw = app.lecture_get(
        seat_ticket(), t="120", have="0123abcd:100", **{"x": "y"}
    )
    assert status == 200 and headers["cache-control"] == "no-store"
    ((ticket, t, have),) = app.lectures
    assert (ticket.code, ticket.seat, t, have) == (
        "ROOMAAAA",
        "seat1234seat1234",
        120,
        "0123abcd:100",
    )


def test_a_lectures_step_and_window_are_read_or_dropped(app: App) -> None:
    for t, have in (("-3", "../etc"), ("1e9", "abc:def"), ("9" * 12, "a" * 40 + ":1")):
        app.lecture_get(seat_ticket(f"seat{len(app.lectures):012d}"), t=t, have=have)
    assert [(t, have) for _, t, have in app.lectures] == [(None, "")] * 3


def test_a_seat_past_its_rate_is_told_to_wait(app: App) -> None:
    ticket = seat_ticket()
    statuses = [app.lecture_get(ticket)[0] for _ in range(5)]
    assert statuses == [200, 200, 200, 429, 429]
    assert len(app.lectures) == 3
    assert app.lecture_get(seat_ticket("another1another1"))[0] == 200  # its own bucket


@pytest.mark.parametrize(
    ("body", "status"),
    [
        (b"[]", 400),
        (b'{"code": "ROOMAAAA", "key": "k"}', 400),
        (b'{"code": "ROOMAAAA", "key": "k", "act": "close"}', 400),
        (b'{"code": "ROOMAAAA", "key": 5, "act": "step"}', 400),
        (json.dumps({"code": "ROOMAAAA", "key": "k" * 101, "act": "step"}).encode(), 400),
        (json.dumps({"code": "ROOMAAAA", "key": "k" * 300, "act": "step"}).encode(), 413),
    ],
)
def test_a_malformed_press_of_the_remote_is_refused_unasked(
    app: App, body: bytes, status: int
) -> None:
    got, _, raw = app.call("POST", light.REMOTE_PATH, body, {"Content-Type": "application/json"})
    assert got == status and json.loads(raw)["error"].endswith(".")
    assert app.presses == []


def test_a_press_of_the_remote_is_passed_on(app: App) -> None:
    body = json.dumps({"code": "ROOMAAAA", "key": "secret", "act": "reveal"}).encode()
    got, headers, raw = app.call("POST", light.REMOTE_PATH, body)
    assert got == 200 and json.loads(raw) == {"t": 1} and headers["cache-control"] == "no-store"
    assert app.presses == [("ROOMAAAA", "secret", "reveal")]
    assert app.call("GET", "/remote?room=x")[2].startswith(b"<!doctype html>")
