"""A student's own step posted to ``/api/step`` (ui.live.reports): kept only for a tab key
the process gave out, the newest report wins, and every malformed or oversized body is
refused with its status before it changes anything, on a real uvicorn."""

from __future__ import annotations

import http.client
import json

import pytest
from asgi_thread import serving
from hypothesis import given
from hypothesis import strategies as st
from starlette.applications import Starlette

from ui.live import reports
from ui.live.reports import Report, Reports

KEY = "ab" * 16
RUN = "cd" * 16


def post(port: int, body: bytes, path: str = reports.PATH) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("POST", path, body=body, headers={"Content-Type": "text/plain"})
        return conn.getresponse().status
    finally:
        conn.close()


def body(**fields: object) -> bytes:
    return json.dumps({"k": KEY, "t": 6, "seq": 1, "run": RUN, **fields}).encode()


@pytest.fixture
def served():
    table = Reports()
    with serving(Starlette(routes=[reports.route(table)])) as port:
        yield table, port


def test_a_tabs_post_is_kept_and_taken_once_by_its_session(served):
    table, port = served
    assert post(port, body()) == 404  # a key this process never gave out keeps nothing
    assert table.take(KEY) is None
    table.open(KEY)
    assert post(port, body(t=6, seq=3)) == 204
    assert post(port, body(t=2, seq=2)) == 204  # older than the one kept: dropped
    assert table.peek(KEY) == Report(t=6, seq=3, run=RUN)
    assert table.take(KEY) == Report(t=6, seq=3, run=RUN)
    assert table.take(KEY) is None  # taken: nothing new until the next post


@pytest.mark.parametrize(
    "sent",
    [
        b"",
        b"{",
        b"[]",
        json.dumps({"k": KEY, "t": 6, "seq": 1}).encode(),  # no run
        body(extra=1),
        body(t=-1),
        body(t=True),
        body(seq=2**31),
        body(t=1.5),
        body(k="AB" * 16),
        body(k="ab" * 17),
        body(run="<script>"),
        body(run=""),
        "\udcff".encode("utf-8", "surrogatepass"),
    ],
    ids=lambda b: repr(b[:24]),
)
def test_a_malformed_report_is_refused_and_changes_nothing(served, sent):
    table, port = served
    table.open(KEY)
    assert post(port, sent) == 400
    assert table.peek(KEY) is None


def test_a_body_past_its_bound_is_refused_before_it_is_read_whole(served):
    table, port = served
    table.open(KEY)
    padded = body()[:-1] + b" " * reports.MAX_BODY + b"}"
    assert post(port, padded) == 413
    assert table.peek(KEY) is None


def test_the_table_holds_at_most_its_tabs_the_least_recently_opened_going_first():
    table = Reports(max_tabs=3)
    keys = [f"{i:032x}" for i in range(4)]
    for key in keys[:3]:
        table.open(key)
    table.open(keys[0])  # opened again: the most recent
    table.open(keys[3])
    assert not table.put(keys[1], Report(1, 1, RUN))  # the least recent went
    assert all(table.put(k, Report(1, 1, RUN)) for k in (keys[0], keys[2], keys[3]))


@given(st.binary(max_size=300))
def test_any_body_is_a_report_or_refused_without_an_exception(raw):
    found = reports.parse(raw)
    assert found is None or (len(found[0]) == 32 and 0 <= found[1].t <= reports.MAX_INT)


def test_the_route_lives_under_the_servers_base_path():
    assert reports.path("") == reports.path("/") == "/api/step"
    assert reports.path("/lab/") == "/lab/api/step"
