"""The class's live channel (ui/live): the hub keeps each room's newest state and wakes its
pages; the websocket route opens only with a seat's ticket and takes nothing but
``{"seen": n}``; the Redis relay carries one process's states to another (a real
redis-server on loopback)."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from asgi_thread import serving
from starlette.applications import Starlette
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from ui.live import hub as hub_mod
from ui.live import route
from ui.live.hub import Hub, RedisRelay

KEY = b"k" * 32
ROOMS = {"ROOMAAAA": KEY, "ROOMBBBB": b"b" * 32}


def key_of(code: str) -> bytes | None:
    return ROOMS.get(code)


def state(n: int, t: int = 0) -> dict[str, object]:
    return {"lecture": {"n": n, "t": t}, "strip": f"v{n}"}


# ------------------------------------------------------------------------------- the hub


def test_a_page_gets_the_newest_state_then_each_new_one_and_an_equal_one_wakes_nobody():
    async def go() -> list[dict[str, object]]:
        hub = Hub()
        hub.publish("ROOMAAAA", state(1))
        got: list[dict[str, object]] = []

        async def page() -> None:
            async for s in hub.subscribe("ROOMAAAA"):
                got.append(json.loads(s.text))
                if len(got) == 3:
                    return

        task = asyncio.create_task(page())
        await asyncio.sleep(0.01)
        hub.publish("ROOMAAAA", state(1))  # the same state: nobody woken
        hub.publish("ROOMBBBB", state(9))  # another room: not this page's
        await asyncio.sleep(0.01)
        hub.publish("ROOMAAAA", state(2))
        await asyncio.sleep(0.01)
        await asyncio.to_thread(hub.publish, "ROOMAAAA", state(3))  # from a script thread
        await asyncio.wait_for(task, 2)
        assert hub.pages == 0 and hub.rooms() == []  # the page left: nothing kept for it
        return got

    got = asyncio.run(go())
    assert [g["lecture"]["n"] for g in got] == [1, 2, 3]  # type: ignore[index]


def test_a_page_that_shows_the_newest_state_is_not_sent_it_again():
    async def go() -> bool:
        hub = Hub()
        newest = hub.publish("ROOMAAAA", state(1))

        async def page() -> None:
            async for _ in hub.subscribe("ROOMAAAA", shown=newest.id):
                return

        task = asyncio.create_task(page())
        await asyncio.sleep(0.05)
        quiet = not task.done()
        task.cancel()
        return quiet

    assert asyncio.run(go())


def test_a_state_that_is_not_a_small_json_object_is_refused_by_name():
    hub = Hub()
    for bad in ({"x": "y" * 3000}, {"x": float("nan")}, ["a list"], {"x": object()}):
        with pytest.raises(ValueError, match="state"):
            hub.publish("ROOMAAAA", bad)  # type: ignore[arg-type]
    assert hub.newest("ROOMAAAA") is None


def test_past_its_pages_a_process_refuses_another(monkeypatch):
    monkeypatch.setattr(hub_mod, "MAX_PAGES", 2)

    async def go() -> None:
        hub = Hub()
        hub.publish("ROOMAAAA", state(1))
        pages = [hub.subscribe("ROOMAAAA") for _ in range(3)]
        await pages[0].__anext__()
        await pages[1].__anext__()
        with pytest.raises(hub_mod.Full):
            await pages[2].__anext__()
        assert hub.pages == 2
        for p in pages[:2]:
            await p.aclose()
        assert hub.pages == 0

    asyncio.run(go())


def test_the_reread_brings_a_change_the_process_was_not_told_of():
    store = {"ROOMAAAA": state(1)}

    async def go() -> list[int]:
        hub = Hub()
        got: list[int] = []

        async def page() -> None:
            async for s in hub.subscribe("ROOMAAAA"):
                got.append(json.loads(s.text)["lecture"]["n"])
                if len(got) == 2:
                    return

        task = asyncio.create_task(page())
        reread = asyncio.create_task(hub_mod.reread(hub, store.get, every=0.02))
        await asyncio.sleep(0.1)
        store["ROOMAAAA"] = state(2)  # written by another process, no message
        await asyncio.wait_for(task, 2)
        reread.cancel()
        return got

    assert asyncio.run(go()) == [1, 2]


def test_a_reread_overtaken_by_a_publish_does_not_step_the_pages_back():
    """The lecturer steps (to 2) while a reread's store read (of 1) is on its way: the pages
    show 2 and stay there; they never go back to 1 until the next read."""
    store = {"ROOMAAAA": state(1)}
    reading, answer = threading.Event(), threading.Event()

    def slow_read(code: str) -> dict[str, Any] | None:
        seen = store.get(code)
        reading.set()
        answer.wait(5)  # the read of 1 is held until the step to 2 is out
        return seen

    async def go() -> list[int]:
        hub = Hub()
        hub.publish("ROOMAAAA", state(1))
        got: list[int] = []

        async def page() -> None:
            async for s in hub.subscribe("ROOMAAAA"):
                got.append(json.loads(s.text)["lecture"]["n"])

        task = asyncio.create_task(page())
        reread = asyncio.create_task(hub_mod.reread(hub, slow_read, every=0.01))
        await asyncio.to_thread(reading.wait, 5)
        store["ROOMAAAA"] = state(2)
        hub.publish("ROOMAAAA", state(2))  # the lecturer's own process tells its pages
        answer.set()
        await asyncio.sleep(0.2)  # the stale read lands, and later reads of 2
        reread.cancel()
        task.cancel()
        return got

    assert asyncio.run(go()) == [1, 2]


# ----------------------------------------------------------------------------- the tickets


def test_a_ticket_opens_its_own_room_only_and_not_once_expired_or_altered():
    ticket = route.sign(KEY, "ROOMAAAA", "seat123")
    assert route.check(ticket, key_of) == route.parse(ticket)
    code, seat, expires, mac = ticket.split(".")
    assert route.check(f"ROOMBBBB.{seat}.{expires}.{mac}", key_of) is None  # another room
    assert route.check(f"{code}.lecturer.{expires}.{mac}", key_of) is None  # another seat
    assert route.check(f"{code}.{seat}.{int(expires) + 1}.{mac}", key_of) is None
    assert route.check(f"ROOMCCCC.{seat}.{expires}.{mac}", key_of) is None  # no such room
    assert route.check(ticket, key_of, now=int(expires) + 1) is None  # expired
    assert route.check("", key_of) is None and route.check("x" * 5000, key_of) is None


# ----------------------------------------------------------------------------- the route


@dataclass
class Served:
    port: int
    hub: Hub

    def open(self, ticket: str, seen: int = 0) -> ClientConnection:
        url = f"ws://127.0.0.1:{self.port}{route.PATH}?ticket={ticket}&seen={seen}"
        return connect(url, open_timeout=5)


@pytest.fixture
def served() -> Iterator[Served]:
    hub = Hub()
    with serving(Starlette(routes=[route.route(hub, key_of)])) as port:
        yield Served(port, hub)


def received(ws: ClientConnection, within: float = 2.0) -> dict[str, object] | None:
    try:
        return json.loads(ws.recv(timeout=within))  # type: ignore[no-any-return]
    except TimeoutError:
        return None


def closed_with(ws: ClientConnection, within: float = 2.0) -> int | None:
    try:
        while True:
            ws.recv(timeout=within)
    except TimeoutError:
        return None
    except ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd else -1


def test_a_seat_hears_its_rooms_changes_as_they_happen(served):
    served.hub.publish("ROOMAAAA", state(1))
    with served.open(route.sign(KEY, "ROOMAAAA", "seat123")) as ws:
        first = received(ws)
        assert first is not None and first["state"] == state(1)
        assert abs(float(first["sent"]) - time.time()) < 5  # type: ignore[arg-type]
        served.hub.publish("ROOMBBBB", state(7))  # another room: nothing here
        assert received(ws, 0.2) is None
        t0 = time.monotonic()
        served.hub.publish("ROOMAAAA", state(2, t=5))
        second = received(ws)
        assert second is not None and second["state"] == state(2, t=5)
        assert time.monotonic() - t0 < 1.0


def test_a_page_that_reconnects_is_sent_only_what_it_lacks_and_asks_again_by_seen(served):
    newest = served.hub.publish("ROOMAAAA", state(3))
    ticket = route.sign(KEY, "ROOMAAAA", "seat123")
    with served.open(ticket, seen=newest.id) as ws:
        assert received(ws, 0.3) is None  # it shows the newest already
        ws.send(json.dumps({"seen": newest.id - 1}))  # it lost one: the newest again
        again = received(ws)
        assert again is not None and again["id"] == newest.id and again["state"] == state(3)


@pytest.mark.parametrize(
    "ticket",
    [
        "",
        "ROOMAAAA.seat123.9999999999.0123456789abcdef0123456789abcdef",  # a made-up MAC
        "ROOMCCCC.seat123.9999999999.0123456789abcdef0123456789abcdef",  # no such room
    ],
)
def test_without_a_seats_ticket_the_handshake_is_refused(served, ticket):
    with pytest.raises(InvalidStatus) as refused:
        served.open(ticket)
    assert refused.value.response.status_code == 403
    assert served.hub.pages == 0


@pytest.mark.parametrize(
    "sent",
    [
        json.dumps({"step": 5}),  # a made-up step
        json.dumps({"seen": 1, "room": "ROOMBBBB"}),  # another room
        json.dumps({"ask": "mistake"}),  # a lecturer's action
        json.dumps({"seen": "1"}),
        "x" * 1000,
        b"\x00\x01binary",
    ],
)
def test_anything_but_seen_from_a_page_closes_the_channel_with_an_error_code(served, sent):
    before = served.hub.publish("ROOMAAAA", state(1))
    with served.open(route.sign(KEY, "ROOMAAAA", "seat123")) as ws:
        assert received(ws) is not None
        ws.send(sent)
        assert closed_with(ws) == route.BAD_MESSAGE
    assert served.hub.newest("ROOMAAAA") == before  # nothing changed


# ----------------------------------------------------------------------------- the relay


def test_the_relay_carries_a_change_from_one_process_to_another(tmp_path):
    from store.conftest import RedisServer  # tests/store's real redis-server

    redis_server = RedisServer(tmp_path)
    redis_server.start()
    one, two = Hub(), Hub()
    relays = [RedisRelay(one, redis_server.url), RedisRelay(two, redis_server.url)]
    try:
        assert all(r.ready.wait(5) for r in relays)
        one.publish("ROOMAAAA", state(4))
        deadline = time.monotonic() + 5
        while two.newest("ROOMAAAA") is None and time.monotonic() < deadline:
            time.sleep(0.01)
        got = two.newest("ROOMAAAA")
        assert got is not None and json.loads(got.text) == state(4)
        assert not relays[1].take({"channel": b"perceptron:live:X", "data": b"? not json"})
    finally:
        for r in relays:
            r.close()
        redis_server.stop()


@pytest.mark.parametrize(
    ("base", "path"),
    [("", "/api/live"), ("/", "/api/live"), ("perceptron", "/perceptron/api/live"),
     ("/a/b/", "/a/b/api/live")],
)  # fmt: skip
def test_the_channel_lives_under_the_servers_base_path(base, path):
    assert route.route(Hub(), key_of, base=base).path == path
