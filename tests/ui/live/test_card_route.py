"""A student's question card on its route, ``/api/card`` (ui.live.card), on a real uvicorn:
only a student's valid ticket reaches the card or answers; every malformed, oversized or
too frequent call is refused with its status and a sentence before any work is done."""

from __future__ import annotations

import http.client
import json
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

import pytest
from asgi_thread import serving
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.applications import Starlette

from ui.live import card, route

KEY = b"k" * 32
ROOMS = {"ROOMAAAA": KEY, "ROOMBBBB": b"b" * 32}


def key_of(code: str) -> bytes | None:
    return ROOMS.get(code)


@dataclass
class App:
    """What the route was asked to do: the cards it gave and the answers it wrote."""

    port: int
    asked: list[tuple[str, str, bool, str]] = field(default_factory=list)
    answered: list[tuple[str, str, card.Answer]] = field(default_factory=list)
    down: bool = False

    def card_of(self, code: str, seat: str, ringed: bool, want: str) -> dict[str, Any]:
        if self.down:
            raise ConnectionError("the store is down")
        self.asked.append((code, seat, ringed, want))
        return {"version": "v1", "q": 1, "said": ""}

    def answer(self, code: str, seat: str, given: card.Answer) -> dict[str, Any]:
        self.answered.append((code, seat, given))
        return {"version": "v1", "q": given.q, "said": "", "picked": given.said}

    def call(self, method: str, path: str, body: bytes | None = None, headers=None):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        try:
            conn.request(method, path, body=body, headers=headers or {})
            response = conn.getresponse()
            raw = response.read()
            json_body = response.getheader("content-type", "").startswith("application/json")
            return response.status, json.loads(raw) if json_body else raw
        finally:
            conn.close()

    def get(self, ticket: str, ringed: str = "0", want: str | None = None):
        query = {"ticket": ticket, "ringed": ringed} | ({} if want is None else {"v": want})
        return self.call("GET", f"{card.PATH}?{urlencode(query)}")

    def post(self, body: dict[str, Any] | bytes):
        raw = body if isinstance(body, bytes) else json.dumps(body).encode()
        return self.call("POST", card.PATH, raw)


@pytest.fixture
def app() -> Iterator[App]:
    made = App(port=0)
    rates = card.Rates(rate=0.001, burst=6)  # a burst, then almost nothing
    r = card.route(made.card_of, made.answer, key_of)
    r_rated = card.route(made.card_of, made.answer, key_of, base="/rated", rates=rates)
    with serving(Starlette(routes=[r, r_rated])) as port:
        made.port = port
        yield made


def ticket(seat: str = "s1", code: str = "ROOMAAAA") -> str:
    return route.sign(ROOMS[code], code, seat)


def answer(**fields: Any) -> dict[str, Any]:
    return {"ticket": ticket(), "q": 3, "vote": 1, "said": 0, "turn": None, "ringed": True} | fields


def test_a_students_ticket_gets_its_card_and_its_answer_is_written(app):
    assert app.get(ticket(), ringed="1") == (200, {"version": "v1", "q": 1, "said": ""})
    assert app.get(ticket(), want="0123456789ab")[0] == 200  # the version the channel named
    assert app.get(ticket(), want="<b>" * 10)[0] == 200  # not a version: not passed on
    assert app.asked == [
        ("ROOMAAAA", "s1", True, ""),
        ("ROOMAAAA", "s1", False, "0123456789ab"),
        ("ROOMAAAA", "s1", False, ""),
    ]
    status, got = app.post(answer(said=1, turn=0))
    assert status == 200 and got["picked"] == 1
    assert app.answered == [
        ("ROOMAAAA", "s1", card.Answer(q=3, vote=1, said=1, turn=0, ringed=True))
    ]


@pytest.mark.parametrize(
    "sent",
    [
        "",
        "nonsense",
        ticket("lecturer"),  # the projector answers nothing
        ticket("student"),  # a page without a seat's id
        ticket()[:-1] + ("0" if ticket()[-1] != "0" else "1"),  # altered
        route.sign(b"x" * 32, "ROOMAAAA", "s1"),  # another key: forged
        route.sign(ROOMS["ROOMBBBB"], "ROOMAAAA", "s1"),  # another room's key
        route.sign(KEY, "ROOMAAAA", "s1", now=time.time() - 2 * route.TICKET_S),  # expired
        "ROOMCCCC.s1.9999999999." + "0" * 32,  # no such room
    ],
    ids=range(9),
)
def test_without_a_students_valid_ticket_nothing_is_read_or_written(app, sent):
    status, got = app.get(sent)
    assert status == 403 and "reload the page" in got["error"]
    status, got = app.post(answer(ticket=sent))
    assert status == 403
    assert app.asked == [] and app.answered == []


@pytest.mark.parametrize(
    "sent",
    [
        b"",
        b"{",
        b"[]",
        json.dumps(answer() | {"extra": 1}).encode(),
        json.dumps({k: v for k, v in answer().items() if k != "turn"}).encode(),
        json.dumps(answer(q=-1)).encode(),
        json.dumps(answer(said=True)).encode(),
        json.dumps(answer(said=1.5)).encode(),
        json.dumps(answer(vote=2**31)).encode(),
        json.dumps(answer(turn="cw")).encode(),
        json.dumps(answer(ringed=1)).encode(),
        json.dumps(answer(ticket=7)).encode(),
        "\udcff".encode("utf-8", "surrogatepass"),
    ],
    ids=range(13),
)
def test_a_malformed_answer_is_refused_and_writes_nothing(app, sent):
    status, got = app.post(sent)
    assert status == 400 and got["error"] == "That answer could not be read."
    assert app.answered == []


def test_an_oversized_answer_is_refused_before_it_is_read(app):
    status, got = app.post(json.dumps(answer(ticket="x" * 2_000)).encode())
    assert status == 413 and "too large" in got["error"]
    status, _ = app.call(
        "POST", card.PATH, b"{}", headers={"Content-Length": "10000000000", "Connection": "close"}
    )
    assert status == 413
    status, _ = app.call("POST", card.PATH, b"{}", headers={"Content-Length": "many"})
    assert status in (400, 413)  # uvicorn may refuse it first
    assert app.answered == []


def test_a_seats_calls_past_its_rate_are_refused_with_a_sentence_and_others_go_on(app):
    path = f"/rated{card.PATH}"
    calls = [
        app.call("POST", path, json.dumps(answer(ticket=ticket("s2"))).encode())[0]
        for _ in range(9)
    ]
    assert calls == [200] * 6 + [429] * 3
    status, got = app.call("GET", f"{path}?{urlencode({'ticket': ticket('s2')})}")
    assert status == 429 and got["error"] == card.BUSY
    status, _ = app.call("GET", f"{path}?{urlencode({'ticket': ticket('s3')})}")
    assert status == 200  # a classmate is not held back
    assert len(app.answered) == 6


def test_a_store_that_cannot_be_read_is_said_and_the_page_asks_again(app):
    app.down = True
    status, got = app.get(ticket())
    assert status == 503 and "trying again" in got["error"]


def test_the_rate_table_is_bounded_and_forgets_the_least_recent_seat_first():
    rates = card.Rates(rate=0.0, burst=1, most=3)
    assert all(rates.allow(s, now=0.0) for s in ("a", "b", "c"))
    assert not rates.allow("a", now=0.0)  # a's burst spent
    assert rates.allow("d", now=0.0)  # b, the least recent, forgotten
    assert rates.allow("b", now=0.0)  # a new bucket: the table holds at most 3
    assert len(rates._seats) == 3


@settings(max_examples=200, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(["ticket", "q", "vote", "said", "turn", "ringed", "x"]),
        st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=8)),
    )
)
def test_parse_takes_exactly_one_answers_shape(value):
    got = card.parse(json.dumps(value).encode())
    shaped = (
        set(value) == {"ticket", "q", "vote", "said", "turn", "ringed"}
        and isinstance(value["ticket"], str)
        and isinstance(value["ringed"], bool)
        and all(
            type(value[k]) is int and 0 <= value[k] <= card.MAX_INT for k in ("q", "vote", "said")
        )
        and (
            value["turn"] is None
            or (type(value["turn"]) is int and 0 <= value["turn"] <= card.MAX_INT)
        )
    )
    assert (got is not None) == shaped
