"""A class on 2 app servers behind nginx, for real: Debian's nginx and
redis-server, two ``streamlit run app.py``, chromium through the front door.

- the lecture page loads through nginx and its Step talks to the server over the
  websocket nginx upgrades; every request of one browser reaches one server (sticky);
- the server a browser is on is killed: the page reconnects through nginx to the other
  server and keeps working (a Step the server must answer);
- a dataset drawn through one server opens from its link (data=<id>) through the other
  and through nginx, the same points, on the margin lab and the lecture page (the data are
  in Redis under the link's id);
- the configurations: the same templates for several machines, Redis never on a public
  address.
"""

from __future__ import annotations

import json
import re
import socket
import subprocess
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from browser.test_margin import SURFACE, metric, said, settle, tick
from class_browser import in_browser, screenshot
from playwright.sync_api import expect
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

import perceptron_store as store
from deploy import class_server, configs
from deploy.class_server import Class
from tests.browser.conftest import uploader
from ui.app.links import FROM_LINK

pytestmark = pytest.mark.browser


def status(page: Any) -> Any:
    return page.locator(".lec .status")


def open_lecture(page: Any, url: str) -> None:
    page.goto(url)
    expect(page.locator(".lec .fig")).to_be_visible(timeout=60_000)


def route_cookie(page: Any) -> str:
    cookies = {c["name"]: c["value"] for c in page.context.cookies()}
    assert "perceptron_server" in cookies, f"nginx set no sticky cookie: {sorted(cookies)}"
    return str(cookies["perceptron_server"])


def step_heard(page: Any, t: int) -> None:
    """Press Step; the browser draws step t, and once the burst pauses it posts the step to
    the server that holds its session (through nginx's sticky route), which takes it (204),
    and puts lec_t=t in the URL."""
    with page.expect_response(
        lambda r: r.url.endswith("/api/step") and r.request.method == "POST", timeout=30_000
    ) as heard:
        page.locator('.lec button[data-act="step"]').click()
        expect(status(page)).to_contain_text(f"step t = {t} of", timeout=30_000)
    assert heard.value.status == 204, f"the step's post was answered {heard.value.status}"
    expect(page).to_have_url(re.compile(rf"lec_t={t}(&|$)"), timeout=30_000)


def record_runs(page: Any) -> list[list[int]]:
    """For every websocket the page opens from now on, the script_finished statuses the
    server sends on it (listening from the socket's first frame)."""
    sockets: list[list[int]] = []

    def opened(ws: Any) -> None:
        runs: list[int] = []
        sockets.append(runs)

        def read(payload: bytes | str) -> None:
            msg = ForwardMsg()
            msg.ParseFromString(payload if isinstance(payload, bytes) else payload.encode())
            if msg.WhichOneof("type") == "script_finished":
                runs.append(msg.script_finished)

        ws.on("framereceived", read)

    page.on("websocket", opened)
    return sockets


def reconnected_and_ran(cls: Class, page: Any, sockets: list[list[int]], before: int) -> None:
    """Wait until a websocket opened after the first ``before`` ones has had a run; if
    none has within 90 s, fail with what the servers and nginx were doing."""
    try:
        expect_until(
            page,
            lambda: any(runs for runs in sockets[before:]),
            "the browser reconnected and the other server ran the page",
            90,
        )
    except AssertionError as failed:
        runs = [len(r) for r in sockets]
        raise AssertionError(
            f"{failed}\nruns on each socket: {runs}\n{cls.report(lines=400)}"
        ) from failed


def expect_until(page: Any, check: Callable[[], bool], what: str, timeout_s: float) -> None:
    """Wait for ``check()``, letting Playwright deliver its events meanwhile."""
    deadline = time.monotonic() + timeout_s
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout_s:g} s: {what}")
        page.wait_for_timeout(100)


def test_the_lecture_page_loads_and_steps_through_nginx_on_one_sticky_server(cls: Class):
    def body(browser: Any) -> tuple[str, list[str]]:
        page = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
        sockets: list[str] = []
        page.on("websocket", lambda ws: sockets.append(ws.url))
        open_lecture(page, cls.url + "/lecture")
        expect(status(page)).to_contain_text("step t = 0 of")
        for t in (1, 2):
            step_heard(page, t)
        screenshot(page, "nginx-lecture")
        key = route_cookie(page)
        page.reload()  # the same browser again: the same server, at its step
        expect(status(page)).to_contain_text("step t = 2 of", timeout=60_000)
        step_heard(page, 3)
        return key, sockets

    key, sockets = in_browser(body)
    stream = f"ws://127.0.0.1:{cls.port}/_stcore/stream"
    assert sockets and all(s == stream for s in sockets), sockets
    served = {up.split(",")[-1].strip() for _, up, route in cls.routes() if route == key}
    assert len(served) == 1, f"one browser's requests went to {served}"
    assert served <= {a.address for a in cls.apps}
    with urllib.request.urlopen(cls.url + "/_stcore/health", timeout=5) as r:
        assert r.read() == b"ok"


def test_a_page_keeps_working_when_its_server_is_killed(cls: Class):
    """Kill the server a tab is on: the tab reconnects through nginx to the other server,
    which opens the page from the URL, and a Step out of the window (a new window the
    server must send) and a Step it must hear both work."""

    def body(browser: Any) -> tuple[int, int]:
        page = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
        sockets = record_runs(page)
        open_lecture(page, cls.url + "/lecture?data_n=150")
        step_heard(page, 1)
        key = route_cookie(page)
        first = cls.server_of(key)
        opened = len(sockets)
        cls.kill(first)  # the browser notices, pings through nginx, opens a new socket
        # The other server runs the page for the new session (from the URL's lec_t=1);
        # a step out of the window sent during that first run would be dropped by
        # Streamlit (a fragment's rerun asked for during the page's run), so wait for it.
        reconnected_and_ran(cls, page, sockets, opened)
        expect(status(page)).to_contain_text("step t = 1 of", timeout=60_000)
        page.keyboard.press("End")  # the last window: only a live server can send it
        expect(status(page)).to_contain_text("end of the run", timeout=90_000)
        page.keyboard.press("Home")
        expect(status(page)).to_contain_text("step t = 0 of", timeout=60_000)
        step_heard(page, 1)
        step_heard(page, 2)
        screenshot(page, "nginx-after-kill")
        return first, cls.server_of(key)

    try:
        first, then = in_browser(body)
    finally:
        for i, app in enumerate(cls.apps):
            if app.proc.poll() is not None:
                cls.restart(i)  # the next test has its two servers again
    assert then != first, "after its server died the tab's requests still named it"


def test_redis_and_the_app_servers_listen_on_loopback_only(cls: Class):
    assert class_server.redis_ping(cls.redis_port)
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("192.0.2.1", 9))  # no packet sent: the machine's outward address
        outward = probe.getsockname()[0]
    if outward.startswith("127."):
        pytest.fail("this machine has no address but loopback to probe from")
    for port in (cls.redis_port, *(a.port for a in cls.apps)):
        with pytest.raises(OSError):
            socket.create_connection((outward, port), timeout=2).close()
    conf = (cls.run_dir / "redis.conf").read_text()
    assert re.search(r"^bind 127\.0\.0\.1$", conf, re.M)
    assert re.search(r"^protected-mode yes$", conf, re.M)
    assert re.search(r'^save ""$', conf, re.M)


def test_the_templates_for_several_machines(tmp_path: Path):
    conf = configs.nginx_conf(
        listen="8080",
        upstreams=["10.0.0.11:8501", "10.0.0.12:8501", "[fd00::13]:8501"],
        run_dir=tmp_path,
    )
    assert "@@" not in conf
    for needed in (
        "hash $perceptron_route consistent;",
        "server 10.0.0.12:8501 max_fails=2 fail_timeout=10s;",
        "location ~ /_stcore/stream$",
        "proxy_buffering off;",
        "proxy_read_timeout 1d;",
        "location ~ /_stcore/health$",
        "proxy_set_header Upgrade $http_upgrade;",
    ):
        assert needed in conf, needed
    (tmp_path / "nginx.conf").write_text(conf)
    files = ("-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf"), "-e", str(tmp_path / "e"))
    checked = subprocess.run(
        [configs.tool("nginx"), "-t", *files],
        capture_output=True,
        text=True,
    )
    assert checked.returncode == 0, checked.stderr
    named = configs.nginx_conf(listen="80", upstreams=["app3.lan:8501"], run_dir=tmp_path)
    assert "server app3.lan:8501 max_fails" in named  # a name resolved when nginx starts
    for bad in ("10.0.0.11:8501; evil", "10.0.0.11", "host:port"):
        with pytest.raises(ValueError):
            configs.nginx_conf(listen="80", upstreams=[bad], run_dir=tmp_path)
    private = configs.redis_conf(
        port=6379, run_dir=tmp_path, bind="10.0.0.10", password="s3cret-long-enough-pw"
    )
    assert "bind 10.0.0.10\n" in private and "requirepass s3cret-long-enough-pw\n" in private
    for public in ("0.0.0.0", "203.0.113.7", "8.8.8.8"):
        with pytest.raises(ValueError, match="never"):
            configs.redis_conf(port=6379, run_dir=tmp_path, bind=public, password="x" * 20)
    with pytest.raises(ValueError, match="password"):
        configs.redis_conf(port=6379, run_dir=tmp_path, bind="192.168.1.5")


# ---------------------------------------------------------------------------- links (data=)


def drag_point_one(page: Any) -> str:
    """Drag point 1 of the margin lab a little, as a mouse does; returns the link's id once
    the URL carries the new data=<id>."""
    before = page.url
    mark = page.locator('.pt[data-i="0"] .mark')
    # after a reconnection the surface is drawn anew, and can be replaced between two
    # looks: wait for the run to end, then for a mark that is still there when measured
    settle(page)
    expect(mark).to_be_visible(timeout=30_000)
    box = mark.bounding_box()
    deadline = time.monotonic() + 30
    while box is None and time.monotonic() < deadline:
        page.wait_for_timeout(100)
        box = mark.bounding_box()
    assert box is not None, "point 1 of the margin lab is not drawn"
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    ticks = tick(page)
    page.mouse.move(x, y)
    page.mouse.down()
    for k in range(1, 9):
        page.mouse.move(x + 4 * k, y - 3 * k)
    page.mouse.up()
    expect(page.locator(SURFACE)).to_have_attribute("data-tick", str(ticks + 1), timeout=30_000)
    settle(page)
    expect(said(page)).to_contain_text("Moved point 1 to")
    expect(page).not_to_have_url(before, timeout=30_000)
    expect(page).to_have_url(re.compile(r"[?&]data=[a-z2-7]{12}(&|$)"), timeout=30_000)
    return re.search(r"[?&]data=([a-z2-7]{12})", page.url).group(1)  # type: ignore[union-attr]


def open_margin(page: Any, url: str) -> None:
    page.goto(url)
    expect(page.locator(".pt").first).to_be_visible(timeout=60_000)
    settle(page)


def points(page: Any) -> list[str]:
    """Every point of the margin lab as its tooltip gives it (number, label, x, margins)."""
    return [str(t) for t in page.locator(".pt title").all_text_contents()]


def lecture_status(page: Any, url: str) -> str:
    """The lecture page's status line at step 0 (the data's name, γ, R, the bound)."""
    open_lecture(page, url)
    expect(status(page)).to_contain_text("step t = 0 of")
    return str(status(page).inner_text())


def test_a_dataset_saved_through_one_server_opens_through_the_other_and_through_nginx(cls: Class):
    """Drawn on server A: its link opens the same points on server B directly and through
    nginx (a browser of its own each, no session, no cookie), on the margin lab and the
    lecture page; the dataset is in Redis, under the link's id."""

    def body(browser: Any) -> dict[str, Any]:
        seen: dict[str, Any] = {}
        a = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
        open_margin(a, cls.apps[0].url + "/margin")
        seen["default"] = points(a)
        seen["default status"] = lecture_status(a, cls.apps[0].url + "/lecture")
        open_margin(a, cls.apps[0].url + "/margin")
        data_id = seen["id"] = drag_point_one(a)
        seen["A"] = (points(a), metric(a, "margin γ"))
        seen["A status"] = lecture_status(a, f"{cls.apps[0].url}/lecture?data={data_id}")
        for name, base in (("B", cls.apps[1].url), ("nginx", cls.url)):
            context = browser.new_context(viewport={"width": 1366, "height": 768})
            page = context.new_page()
            open_margin(page, f"{base}/margin?data={data_id}")
            seen[name] = (points(page), metric(page, "margin γ"))
            expect(page.get_by_test_id("stSidebar")).to_contain_text(
                f"Using your data: {FROM_LINK} ({len(seen['A'][0])} points)"
            )
            seen[f"{name} status"] = lecture_status(page, f"{base}/lecture?data={data_id}")
            expect(page.get_by_test_id("stException")).to_have_count(0)
            screenshot(page, f"nginx-link-{name}")
            context.close()
        return seen

    seen = in_browser(body)
    drawn, gamma = seen["A"]
    assert len(drawn) == 40 and drawn != seen["default"], "the drag changed nothing"
    assert seen["B"] == (drawn, gamma), "server B opened other points from the link"
    assert seen["nginx"] == (drawn, gamma), "nginx's server opened other points from the link"
    assert seen["A status"] != seen["default status"]
    assert seen["B status"] == seen["A status"] == seen["nginx status"]
    assert FROM_LINK in seen["nginx status"] or "40 points" in seen["nginx status"]
    redis = store.open_store(cls.store)
    try:
        found = store.load_dataset(redis, seen["id"])
    finally:
        redis.close()
    assert found is not None and len(found[1]) == 40, "the link's data are not in Redis"


def test_an_upload_through_nginx_reaches_its_tabs_server_and_its_link_opens_on_the_other(
    cls: Class, tmp_path: Path
):
    """An upload is a PUT to /_stcore/upload_file/<session id>/..., accepted only by the
    server holding the tab's session: the sticky cookie sends it there. The uploaded
    points' link then opens on each server directly."""
    rows = ["x1,x2,y", *(f"{i % 7 - 3},{i // 7 - 1},{1 if i % 7 > 3 else -1}" for i in range(21))]
    csv = tmp_path / "class points.csv"
    csv.write_text("\n".join(rows) + "\n", encoding="utf-8")

    def body(browser: Any) -> tuple[str, dict[int, str], str, set[str]]:
        page = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
        open_lecture(page, cls.url + "/lecture")
        uploader(page).set_input_files(str(csv))
        expect(status(page)).to_contain_text("class points.csv", timeout=30_000)
        expect(page).to_have_url(re.compile(r"[?&]data=[a-z2-7]{12}(&|$)"), timeout=30_000)
        data_id = re.search(r"[?&]data=([a-z2-7]{12})", page.url).group(1)  # type: ignore[union-attr]
        key = route_cookie(page)
        uploads = {
            up.split(",")[-1].strip()
            for req, up, route in cls.routes()
            if route == key and "/_stcore/upload_file/" in req
        }
        shown = {}
        for i, app in enumerate(cls.apps):
            context = browser.new_context(viewport={"width": 1366, "height": 768})
            other = context.new_page()
            shown[i] = lecture_status(other, f"{app.url}/lecture?data={data_id}")
            context.close()
        return data_id, shown, cls.apps[cls.server_of(key)].address, uploads

    data_id, shown, server, uploads = in_browser(body)
    assert uploads == {server}, f"the upload went to {uploads}, the tab is on {server}"
    assert shown[0] == shown[1], "the two servers open the link's data differently"
    assert FROM_LINK in shown[0]
    redis = store.open_store(cls.store)
    try:
        found = store.load_dataset(redis, data_id)
    finally:
        redis.close()
    assert found is not None and len(found[1]) == 21, "the uploaded points are not in Redis"


def test_a_lecturers_change_on_one_server_reaches_pages_on_every_server_live(cls: Class):
    """The class's live channel across servers: a page's channel through nginx and one on
    each app server (a seat's ticket) hear a change published by another process at once,
    through Redis pub/sub; a change written to the store with no message reaches them by
    the servers' rereads; a forged ticket is refused at nginx's door as at the server's."""
    from websockets.exceptions import InvalidStatus
    from websockets.sync.client import connect

    from ui.classmode import classroom as cr
    from ui.classmode import live
    from ui.live import route
    from ui.live.hub import Hub, RedisRelay

    s = store.open_store(cls.store)
    room, secret = cr.create_room(s)
    key = live.key_of_room(room)
    ticket = route.sign(key, room.code, "seat1")
    ports = [cls.port, *(int(a.url.rsplit(":", 1)[1]) for a in cls.apps)]
    url = "ws://127.0.0.1:{}" + route.PATH + "?ticket={}"
    pages = [connect(url.format(p, ticket), legacy=True) for p in ports]
    try:

        def heard(step: int, within: float) -> list[float]:
            """Seconds until each page showed the lecturer at ``step``."""
            t0 = time.monotonic()
            out = []
            for page in pages:
                while True:
                    left = within - (time.monotonic() - t0)
                    assert left > 0, f"a page did not hear step {step}"
                    state = json.loads(page.recv(timeout=left))["state"]
                    if state.get("lecture", {}).get("t") == step:
                        out.append(time.monotonic() - t0)
                        break
            return out

        def lecturer_steps_to(step: int) -> cr.Room:
            return cr.lecturer_update(
                s, room.code, secret, lambda r: cr.publish(r, {"lec_t": str(step)}, None)
            )

        for page in pages:
            json.loads(page.recv(timeout=10))  # the room as it is
        relay = RedisRelay(Hub(), cls.store)  # another app server's process
        try:
            assert relay.ready.wait(5)
            relay.hub.publish(room.code, live.state_of(lecturer_steps_to(3)))
            assert max(heard(3, 5.0)) < 1.0  # through Redis pub/sub, not the 2 s reread
        finally:
            relay.close()
        lecturer_steps_to(4)  # written with no message: the rereads find it
        assert max(heard(4, 6.0)) < 4.0
        forged = ticket[:-4] + ("0000" if not ticket.endswith("0000") else "1111")
        for p in ports:
            with pytest.raises(InvalidStatus) as refused:
                connect(url.format(p, forged), legacy=True)
            assert refused.value.response.status_code == 403
    finally:
        for page in pages:
            page.close()
