"""Failover without a reload: a tab whose server is killed reconnects through
nginx to the other server and its next gesture is answered there. Streamlit's frontend
asks no rerun on reconnect when its last run was a full one, and the new session would
drop the gesture's fragment rerun (its fragment unknown); ``ui.server.reconnect`` reruns
the whole page when the connection comes back, which these tests need."""

from __future__ import annotations

import re
from typing import Any

import pytest
from class_browser import in_browser, screenshot
from playwright.sync_api import expect
from test_serve_class import (
    drag_point_one,
    open_lecture,
    open_margin,
    points,
    reconnected_and_ran,
    record_runs,
    route_cookie,
    status,
)

from deploy.class_server import Class

pytestmark = pytest.mark.browser


def _restart_dead(cls: Class) -> None:
    for i, app in enumerate(cls.apps):
        if app.proc.poll() is not None:
            cls.restart(i)


def test_a_tab_on_its_own_data_keeps_them_and_drags_on_when_its_server_is_killed(cls: Class):
    def body(browser: Any) -> tuple[int, int, list[str], list[str], str, str]:
        page = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
        sockets = record_runs(page)
        open_margin(page, cls.url + "/margin")
        first_id = drag_point_one(page)
        drawn = points(page)
        key = route_cookie(page)
        first = cls.server_of(key)
        opened = len(sockets)
        cls.kill(first)
        # the page ran again on the other server (a drag during that run would be a
        # fragment rerun asked of a session that runs the whole page: Streamlit drops it)
        reconnected_and_ran(cls, page, sockets, opened)
        second_id = drag_point_one(page)  # the other server must answer this drag
        after = points(page)
        screenshot(page, "nginx-link-after-kill")
        return first, cls.server_of(key), drawn, after, first_id, second_id

    try:
        first, then, drawn, after, first_id, second_id = in_browser(body)
    finally:
        _restart_dead(cls)
    assert then != first
    where = [tip.split(" · ")[0] for tip in after[1:]]  # "point 2: (x, y), y = +1"
    assert where == [tip.split(" · ")[0] for tip in drawn[1:]], "other points after failover"
    assert second_id != first_id


def test_a_fresh_lecture_tab_steps_on_when_its_server_is_killed(cls: Class):
    def body(browser: Any) -> None:
        page = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
        sockets = record_runs(page)
        open_lecture(page, cls.url + "/lecture")  # a full run, no step yet
        first = cls.server_of(route_cookie(page))
        opened = len(sockets)
        cls.kill(first)
        reconnected_and_ran(cls, page, sockets, opened)  # the page ran again on the other server
        page.locator('.lec button[data-act="step"]').click()
        expect(status(page)).to_contain_text("step t = 1 of", timeout=30_000)
        expect(page).to_have_url(re.compile(r"lec_t=1(&|$)"), timeout=30_000)  # heard

    try:
        in_browser(body)
    finally:
        _restart_dead(cls)
