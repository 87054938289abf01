"""A student's first visit: the bytes it puts through the hall's Wi-Fi, on one plain
server and through the class deployment, measured in the same run.

Starts one ``streamlit run app.py`` (``tools.streamlit_server``: a lecturer's laptop, the
reference) and the class deployment (``deploy.class_server.serve_class``: 2 app servers,
Redis and nginx, what ``scripts/serve_class.sh`` runs), both on every interface as in a
lecture hall. On each, the first browsers after the start open the lecture page (nginx's
cache of compressed files is still empty: what compressing costs, once), each app server
runs its first page directly (outside the counts), a lecturer's browser starts a class;
then Debian's chromium, through Playwright, makes a student's visits, each in a fresh
browser (an empty cache):

- the lecture page (``/lecture``, until its chart is drawn) and the class's join link
  (``/room?room=<code>``, until the join form shows the code), then the network is quiet
  for 1.5 s;
- the same page again in the same browser (a second visit: its cache);
- reached two ways: as a phone in the hall reaches it, by plain http to this machine's
  network address (chromium then accepts gzip only: it offers brotli over https and to
  localhost alone), and at 127.0.0.1 (brotli offered), which is what https would get.

Counted through the DevTools protocol: every HTTP response (``blob:`` URLs the page makes
itself are not traffic), its bytes on the wire as chromium received them (headers and
the encoded body: ``Network.loadingFinished.encodedDataLength``), the responses the
browser's cache answered, and the websocket's payload apart (Streamlit's websocket is
not compressed: ``server.enableWebsocketCompression`` is off; beside it, the same
messages deflated as permessage-deflate would send them). The CPU of the app servers and
of nginx (Linux /proc) during each visit, and each font's bytes (woff2: compressed
already; through nginx the icon font is cut to the app's icons, ``deploy/fonts/``). Then
the main bundle's size in each encoding through nginx, and what one plain server would
pay to gzip a first visit's files on every request (zlib in this process, at
Streamlit's own level).

Goal (the hall's Wi-Fi): a student's first visit through the class deployment, as a
phone in the hall gets it, at most 1.2 MB; the ratio against one plain server in the
same run.

Run:  python3 benchmarks/first_visit.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import os
import re
import shutil
import socket
import sys
import tempfile
import time
import zlib
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.load_phases import cpu_seconds  # noqa: E402
from deploy import class_server  # noqa: E402
from tools import streamlit_server  # noqa: E402

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
# As tests/browser/conftest.py: no background traffic of chromium's own in the counts.
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
GOAL_BYTES = 1_200_000
QUIET_S = 1.5  # the visit is over once the page is drawn and no request has moved this long
STARLETTE_GZIP_LEVEL = 5  # Streamlit's own gzip level (starlette_server_config.GZIP_COMPRESSLEVEL)
STATIC_SEEN: list[str] = []  # the frontend's files the first visits fetched (paths)
FONT_NAME = re.compile(r"(?:\.ttf)?\.[\w-]{8}\.woff2$")  # a font's file name less its hash


@dataclass
class Door:
    """A front door: its name, its address by way of reaching it, the processes behind."""

    name: str
    port: int
    apps: tuple[int, ...]
    app_urls: tuple[str, ...]  # each app server directly (its first page run, warmed apart)
    nginx: int | None = None  # nginx's master

    def url(self, host: str) -> str:
        return f"http://{host}:{self.port}"

    def nginx_cpu(self) -> float:
        """CPU seconds of nginx so far: its master, the workers and cache processes it
        has now, and those that have exited (the cache loader leaves after a minute)."""
        if self.nginx is None:
            return 0.0
        master = Path(f"/proc/{self.nginx}/stat").read_text().rsplit(")", 1)[1].split()
        total = sum(int(f) for f in master[11:15]) / os.sysconf("SC_CLK_TCK")
        children = Path(f"/proc/{self.nginx}/task/{self.nginx}/children").read_text().split()
        for child in children:
            with contextlib.suppress(FileNotFoundError):  # exited: the master counts it
                total += cpu_seconds(int(child))
        return total


@dataclass
class Visit:
    """One page load as chromium saw it."""

    responses: int = 0  # HTTP responses over the network
    cached: int = 0  # answered by the browser's cache
    failed: list[str] = field(default_factory=list)  # requests that failed: why, and what
    bytes: int = 0  # on the wire: headers and encoded bodies
    ws_bytes: int = 0  # websocket payload received
    ws_deflated: int = 0  # the same, were the websocket compressed (permessage-deflate)
    encodings: dict[str, int] = field(default_factory=dict)  # Content-Encoding -> responses
    fonts: dict[str, int] = field(default_factory=dict)  # a woff2's name -> bytes on the wire
    seconds: float = 0.0
    app_cpu: float = 0.0
    nginx_cpu: float = 0.0


class Recorder:
    """The DevTools protocol's network events of one page."""

    def __init__(self, page: Page) -> None:
        self.session = page.context.new_cdp_session(page)
        self.session.send("Network.enable")
        self.url: dict[str, str] = {}
        self.open: set[str] = set()
        self.encoding: dict[str, str] = {}
        self.cached: set[str] = set()
        self.visit = Visit()
        self.last = time.monotonic()
        # permessage-deflate as browsers and servers negotiate it by default: raw deflate,
        # one context kept over the messages of a direction, each message flushed
        self.deflate = zlib.compressobj(6, zlib.DEFLATED, -15)
        on = self.session.on
        on("Network.requestWillBeSent", self.sent)
        on("Network.responseReceived", self.received)
        on("Network.requestServedFromCache", self.from_cache)
        on("Network.loadingFinished", self.finished)
        on("Network.loadingFailed", self.failed)
        on("Network.webSocketFrameReceived", self.frame)

    def sent(self, event: dict[str, Any]) -> None:
        url = event["request"]["url"]
        if url.startswith("http"):
            self.url[event["requestId"]] = url
            self.open.add(event["requestId"])
            self.last = time.monotonic()

    def received(self, event: dict[str, Any]) -> None:
        if event["requestId"] not in self.url:
            return
        response = event["response"]
        if response.get("fromDiskCache") or response.get("fromPrefetchCache"):
            self.cached.add(event["requestId"])
        headers = {k.lower(): v for k, v in response["headers"].items()}
        self.encoding[event["requestId"]] = headers.get("content-encoding", "none")

    def from_cache(self, event: dict[str, Any]) -> None:
        if event["requestId"] in self.url:
            self.cached.add(event["requestId"])

    def finished(self, event: dict[str, Any]) -> None:
        rid = event["requestId"]
        if rid not in self.open:
            return
        self.open.discard(rid)
        self.last = time.monotonic()
        if rid in self.cached or event["encodedDataLength"] <= 0:
            self.visit.cached += 1
            return
        self.visit.responses += 1
        self.visit.bytes += int(event["encodedDataLength"])
        path = urlsplit(self.url[rid]).path
        if path.endswith(".woff2"):
            name = FONT_NAME.sub("", path.rsplit("/", 1)[-1])
            self.visit.fonts[name] = int(event["encodedDataLength"])
        encoding = self.encoding.get(rid, "none")
        self.visit.encodings[encoding] = self.visit.encodings.get(encoding, 0) + 1

    def failed(self, event: dict[str, Any]) -> None:
        rid = event["requestId"]
        if rid in self.open:
            self.open.discard(rid)
            self.visit.failed.append(f"{event.get('errorText')} {self.url[rid]}")

    def frame(self, event: dict[str, Any]) -> None:
        response = event["response"]
        data = response["payloadData"]  # a binary frame's comes base64-encoded
        payload = base64.b64decode(data) if response["opcode"] == 2 else data.encode()
        self.visit.ws_bytes += len(payload)
        deflated = self.deflate.compress(payload) + self.deflate.flush(zlib.Z_SYNC_FLUSH)
        self.visit.ws_deflated += len(deflated) - 4  # the flush's empty block is not sent

    def wait_quiet(self, page: Page, timeout_s: float = 60) -> None:
        deadline = time.monotonic() + timeout_s
        while self.open or time.monotonic() - self.last < QUIET_S:
            if time.monotonic() > deadline:
                raise TimeoutError(f"requests still open after {timeout_s:g} s: {len(self.open)}")
            page.wait_for_timeout(100)


def lecture_drawn(page: Page) -> None:
    from playwright.sync_api import expect

    expect(page.locator(".lec .fig")).to_be_visible(timeout=60_000)


def lecture_drawn_at(page: Page, url: str) -> None:
    page.goto(url)
    lecture_drawn(page)


def join_form_filled(page: Page) -> None:
    from playwright.sync_api import expect

    expect(page.get_by_label(re.compile(r"^Class code"))).not_to_have_value("", timeout=60_000)


def visit(page: Page, url: str, drawn: Callable[[Page], None], door: Door) -> Visit:
    """Open ``url`` in ``page`` and wait until it is drawn and the network is quiet."""
    recorder = Recorder(page)
    app0, nginx0 = cpu_seconds(door.apps), door.nginx_cpu()
    t0 = time.perf_counter()
    page.goto(url)
    drawn(page)
    recorder.wait_quiet(page)
    out = recorder.visit
    out.seconds = time.perf_counter() - t0
    out.app_cpu = cpu_seconds(door.apps) - app0
    out.nginx_cpu = door.nginx_cpu() - nginx0
    recorder.session.detach()
    return out


def start_class(browser: Browser, base: str) -> str:
    """A lecturer starts a class from the sidebar; its code as a join link carries it."""
    from playwright.sync_api import expect

    context = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        page = context.new_page()
        page.goto(base + "/")
        page.get_by_text("Class mode", exact=True).first.click()
        page.get_by_role("button", name="Start a class").first.click()
        code = page.locator(".st-key-room_code").filter(visible=True)
        expect(code).to_be_visible(timeout=60_000)
        return re.sub(r"[^A-Z0-9]", "", code.inner_text().upper())
    finally:
        context.close()


def outward_address() -> str | None:
    """This machine's address on its network (what a phone in the hall opens), if any."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("192.0.2.1", 9))  # no packet sent: the route's source address
        address = str(probe.getsockname()[0])
    return None if address.startswith("127.") else address


@contextmanager
def doors(store: Path) -> Iterator[tuple[Door, Door]]:
    """One plain server and the class deployment (2 app servers), on every interface."""
    with ExitStack() as stack:
        proc, url = stack.enter_context(
            streamlit_server.serve(
                "app.py", address="0.0.0.0", env={"PERCEPTRON_STORE": str(store)}
            )
        )
        one = Door("one server", streamlit_server.port_of(url), (proc.pid,), (url,))
        cls = stack.enter_context(class_server.serve_class(2, host="0.0.0.0"))
        pids = tuple(a.proc.pid for a in cls.apps)
        urls = tuple(a.url for a in cls.apps)
        yield one, Door("nginx, 2 servers", cls.port, pids, urls, cls.nginx.pid)


def main_bundle_sizes(door: Door) -> dict[str, int]:
    """The main bundle (``static/js/index.<hash>.js``) as nginx sends it in each encoding."""
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", door.port, timeout=60)
    conn.request("GET", "/lecture")
    html = conn.getresponse().read().decode()
    name = re.search(r'src="\./(static/js/index\.[\w-]{8}\.js)"', html)
    if name is None:
        raise RuntimeError("the page names no main bundle")
    out = {}
    for encoding in ("identity", "gzip", "br"):
        conn.putrequest("GET", "/" + name.group(1), skip_accept_encoding=True)
        conn.putheader("Accept-Encoding", encoding)
        conn.endheaders()
        response = conn.getresponse()
        body = response.read()
        out[response.getheader("Content-Encoding") or "none"] = len(body)
    conn.close()
    return out


def plain_gzip_cost(door: Door) -> tuple[float, int, int]:
    """What one plain server would pay to gzip a first visit's JavaScript and CSS on
    every request (zlib at Streamlit's level, in this process): CPU seconds, and the
    bytes before and after."""
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", door.port, timeout=60)
    bodies = []
    for path in STATIC_SEEN:
        if path.endswith((".js", ".css")):
            conn.request("GET", path, headers={"Accept-Encoding": "identity"})
            bodies.append(conn.getresponse().read())
    conn.close()
    t0 = time.process_time()
    after = sum(len(zlib.compress(b, STARLETTE_GZIP_LEVEL)) for b in bodies)
    return time.process_time() - t0, sum(len(b) for b in bodies), after


def record_paths(page: Page) -> None:
    def seen(response: Any) -> None:
        path = urlsplit(response.url).path
        if path.startswith("/static/") and path not in STATIC_SEEN:
            STATIC_SEEN.append(path)

    page.on("response", seen)


def kb(n: float) -> str:
    return f"{n / 1000:,.0f} kB"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=1, help="first visits per row (median)")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    hall = outward_address()
    ways = [("hall: http to this machine's address", hall)] if hall else []
    ways.append(("127.0.0.1 (brotli offered, as https)", "127.0.0.1"))
    if not hall:
        print("this machine has no address but loopback: the hall's way is not measured")
    pages: list[tuple[str, str, Callable[[Page], None]]] = [
        ("/lecture", "/lecture", lecture_drawn),
        ("/room?room=…", "/room?room={code}", join_form_filled),
    ]
    rows: list[tuple[str, str, str, str, Visit]] = []  # (page, way, door, visit, numbers)
    cold: list[tuple[str, str, Visit]] = []
    store = Path(tempfile.mkdtemp(prefix="perceptron-first-visit-")) / "store.sqlite3"
    with doors(store) as (one, through), sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        print(f"2 cores, load average {os.getloadavg()[0]:.2f} at the start")
        for door in (one, through):
            for way, host in ways:  # the first browsers after the start: nginx's cache empty
                context = browser.new_context()
                page = context.new_page()
                record_paths(page)
                cold.append(
                    (door.name, way, visit(page, door.url(host) + "/lecture", lecture_drawn, door))
                )
                context.close()
            for url in door.app_urls:  # each app server's first page run, outside the counts
                context = browser.new_context()
                lecture_drawn_at(context.new_page(), url + "/lecture")
                context.close()
            code = start_class(browser, door.url("127.0.0.1"))
            for name, path, drawn in pages:
                for way, host in ways:
                    url = door.url(host) + path.format(code=code)
                    firsts, seconds = [], []
                    for _ in range(args.repeat):
                        context = browser.new_context()
                        firsts.append(visit(context.new_page(), url, drawn, door))
                        seconds.append(visit(context.new_page(), url, drawn, door))
                        context.close()
                    rows.append((name, way, door.name, "first", median_visit(firsts)))
                    rows.append((name, way, door.name, "second", median_visit(seconds)))
        browser.close()
        bundle = main_bundle_sizes(through)
        gzip_cpu, gzip_in, gzip_out = plain_gzip_cost(one)
    shutil.rmtree(store.parent, ignore_errors=True)
    report(rows, cold, bundle, (gzip_cpu, gzip_in, gzip_out), ways[0][0] if hall else None)


def median_visit(visits: list[Visit]) -> Visit:
    """The visit of median bytes (its other numbers with it)."""
    ordered = sorted(visits, key=lambda v: v.bytes)
    return ordered[len(ordered) // 2]


def report(
    rows: list[tuple[str, str, str, str, Visit]],
    cold: list[tuple[str, str, Visit]],
    bundle: dict[str, int],
    gzip_cost: tuple[float, int, int],
    hall: str | None,
) -> None:
    """The table (markdown), the cold start, the main bundle, the plain server's gzip
    cost, and the goal judged on the hall's way (``hall``: its name; None if none)."""
    reference = {(r[0], r[1], r[3]): r[4].bytes for r in rows if r[2] == "one server"}
    print()
    print(
        "| page | reached | front door | visit | responses (cached) | bytes | ratio | "
        "encodings | websocket (deflated) | app CPU | nginx CPU | s | failed |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for name, way, door, which, v in rows:
        ratio = v.bytes / max(1, reference[(name, way, which)])
        encodings = ", ".join(f"{k} {n}" for k, n in sorted(v.encodings.items()))
        print(
            f"| {name} | {way} | {door} | {which} | {v.responses} ({v.cached}) | "
            f"{kb(v.bytes)} | {ratio:.2f} | {encodings} | {kb(v.ws_bytes)} ({kb(v.ws_deflated)}) | "
            f"{1e3 * v.app_cpu:.0f} ms | {1e3 * v.nginx_cpu:.0f} ms | {v.seconds:.1f} | "
            f"{len(v.failed)} |"
        )
    print()
    print("The first browsers after the start (the lecture page; nginx's cache empty):")
    for door, way, v in cold:
        print(
            f"  {door}, {way}: {kb(v.bytes)} in {v.responses} responses, "
            f"app CPU {1e3 * v.app_cpu:.0f} ms, nginx CPU {1e3 * v.nginx_cpu:.0f} ms, "
            f"{v.seconds:.1f} s, {len(v.failed)} failed"
        )
    print("The fonts of a first visit (bytes on the wire, headers included):")
    for name, way, door, which, v in rows:
        if which == "first":
            fonts = ", ".join(f"{k} {kb(n)}" for k, n in sorted(v.fonts.items()))
            print(f"  {name}, {door}, {way}: {kb(sum(v.fonts.values()))}: {fonts}")
    for v in [r[4] for r in rows] + [c[2] for c in cold]:
        for failure in v.failed:
            print(f"  failed: {failure}")
    print("The main bundle through nginx: " + ", ".join(f"{k} {kb(n)}" for k, n in bundle.items()))
    cpu, before, after = gzip_cost
    print(
        f"One plain server gzipping per request (level {STARLETTE_GZIP_LEVEL}, as Streamlit "
        f"does its other responses): {1e3 * cpu:.0f} ms of CPU per first visit, "
        f"{kb(before)} -> {kb(after)} of JavaScript and CSS"
    )
    if hall is None:
        print("Goal not judged: no hall address on this machine")
        return
    worst = max(
        r[4].bytes for r in rows if r[1] == hall and r[2] != "one server" and r[3] == "first"
    )
    verdict = "met" if worst <= GOAL_BYTES else "NOT met"
    print(
        f"Goal: a first visit through the class deployment, as a phone in the hall gets it, "
        f"<= {kb(GOAL_BYTES)}: {kb(worst)} at most -> {verdict}"
    )


if __name__ == "__main__":
    main()
