"""A live `streamlit run app.py` on localhost, driven by Debian's chromium through Playwright."""

import contextlib
import os
import shutil
import signal
import time
from pathlib import Path

import pytest

from tools import streamlit_server

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = Path(__file__).resolve().parent / "screenshots"
# Plotly's bundle loads after a page's text: under the parallel browser tests on two cores a
# page's charts have taken more than 30 s to appear (none had after 30 s, three times in
# one CI run), so a test waits a minute for them
CHARTS_MS = 60_000
_WORKER = "-" + os.environ["PYTEST_XDIST_WORKER"] if "PYTEST_XDIST_WORKER" in os.environ else ""
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
# What a person waits for a page to show, when the two cores also run the other parallel
# tests: 15 s, not Playwright's 5 s (a test that times the app says its own timeout).
EXPECT_TIMEOUT_MS = 15_000
# Chromium as root in a sandbox with no network beyond localhost.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def uploader(page):
    """The sidebar's file input, once there is one: a refused upload gives the uploader a
    new key (so it is empty), and while that run draws, the old one is still on the page."""
    from playwright.sync_api import expect

    inputs = page.get_by_test_id("stFileUploaderDropzoneInput")
    expect(inputs).to_have_count(1)
    return inputs


APP_LOG = ROOT / "tests" / "browser" / f"streamlit{_WORKER}.log"  # this worker's app server
APP_PID: list[int] = []  # its process
LOG_TAIL = 40  # lines of it a failed test shows
STACKS_TAIL = 400  # with the server's threads' stacks (a run that never finished: where it is)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A failed test that used the app server shows the end of its log: a refused tab, a
    slow run (ui.server.fair), a traceback the page did not show."""
    outcome = yield
    report = outcome.get_result()
    if not (report.when == "call" and report.failed and "app_url" in item.fixturenames):
        return
    lines = LOG_TAIL
    if APP_PID and hasattr(signal, "SIGUSR1"):  # the server prints its threads' stacks
        with contextlib.suppress(OSError):
            os.kill(APP_PID[-1], signal.SIGUSR1)
            time.sleep(1.0)
            lines = STACKS_TAIL
    if APP_LOG.exists():
        tail = APP_LOG.read_text(encoding="utf-8", errors="replace").splitlines()[-lines:]
        report.sections.append(("the app server's log, its last lines", "\n".join(tail)))
    from browser import wire

    for w in wire.recent():  # what the pages and the server said to each other, lately
        report.sections.append((f"the websocket of {w.name}", w.report()))


COURSE_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Week 3</title></head>
<body style="margin: 16px; font: 16px sans-serif">
<h1 style="font-size: 20px">Week 3: the perceptron</h1>
<iframe src="{src}" width="{w}" height="{h}" style="border: 0"
  title="The perceptron, step by step"></iframe>
</body></html>"""


class CourseSite:
    """A course site (Moodle, Canvas) on a port of its own: ``/frame?src=<url>&w=&h=`` is
    a page with the app's ``src`` in a frame. ``listed`` is its origin as the app's
    ``client.allowedOrigins`` lists it (http://localhost:<port>); the same pages at
    ``unlisted`` (http://127.0.0.1:<port>) are another origin, which the app does not list."""

    def __init__(self) -> None:
        import html
        import http.server
        import threading
        import urllib.parse

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                query = urllib.parse.parse_qs(urllib.parse.urlparse(self.path).query)
                body = COURSE_PAGE.format(
                    src=html.escape(query.get("src", [""])[0]),
                    w=int(query.get("w", ["800"])[0]),
                    h=int(query.get("h", ["600"])[0]),
                ).encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: object) -> None:  # quiet
                pass

        self.port = streamlit_server.free_port()
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.listed = f"http://localhost:{self.port}"
        self.unlisted = f"http://127.0.0.1:{self.port}"

    def frame(self, src: str, *, w: int = 800, h: int = 600, listed: bool = True) -> str:
        """The URL of a course page with ``src`` in an ``<iframe>`` of ``w`` × ``h``."""
        import urllib.parse

        query = urllib.parse.urlencode({"src": src, "w": w, "h": h})
        return f"{self.listed if listed else self.unlisted}/frame?{query}"


@pytest.fixture(scope="session")
def course_site():
    site = CourseSite()
    site.thread.start()
    yield site
    site.server.shutdown()


@pytest.fixture(scope="session")
def app_url(course_site):
    port = streamlit_server.free_port()
    env = {
        # a deployment whose public address is this loopback one: the class page's QR
        # code and join address are the URL the tests' students open
        "PERCEPTRON_PUBLIC_URL": f"http://127.0.0.1:{port}",
        # the course site a lecturer lists: it may embed the app (client.allowedOrigins)
        "STREAMLIT_CLIENT_ALLOWED_ORIGINS": course_site.listed,
    }
    with (
        open(APP_LOG, "wb") as log,
        streamlit_server.serve("app.py", log=log, port=port, env=env) as (proc, url),
    ):
        APP_PID.append(proc.pid)
        warm_up(url)
        yield url


def warm_up(url: str) -> None:
    """Open every page once on a fresh server, over its websocket, before any test: a
    page's first run in a new process imports its lesson and fills its caches (6-10 s on
    two busy cores), which is the server starting, not what a test times or waits for."""
    import asyncio
    import threading

    from streamlit.proto.ClientState_pb2 import ClientState

    from tools.app_client import Session
    from tools.streamlit_client import stream_url
    from ui.shell import PAGES

    async def visit(page: str) -> None:
        async with Session(stream_url(streamlit_server.port_of(url)), page=page) as s:
            await s.request(ClientState(page_name=page), timeout=120)

    async def visit_all() -> None:
        for spec in PAGES:
            await visit(spec.url_path)

    # a thread of its own: Playwright's sync API may already run an event loop in this one
    failed: list[BaseException] = []

    def run() -> None:
        try:
            asyncio.run(visit_all())
        except BaseException as error:  # said in the test that waits for the server
            failed.append(error)

    worker = threading.Thread(target=run)
    worker.start()
    worker.join()
    if failed:
        raise failed[0]


def _watched(new_context):
    """``Browser.new_context`` whose pages keep their websocket traffic (browser.wire), for
    a failed test to show."""
    from browser import wire

    def make(*args, **kwargs):
        context = new_context(*args, **kwargs)
        context.on("page", wire.watch)
        return context

    return make


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=EXPECT_TIMEOUT_MS)

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        b.new_context = _watched(b.new_context)  # type: ignore[method-assign]
        yield b
        b.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    pg = context.new_page()
    yield pg
    context.close()


@pytest.fixture
def screenshot(page):
    """Save a full-page PNG under tests/browser/screenshots/ to look at."""
    SCREENSHOTS.mkdir(exist_ok=True)

    def take(name: str) -> Path:
        path = SCREENSHOTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take


# --- what the page tests share ----------------------------------------------------------


def open_page(page, url: str, heading: str) -> None:
    """Go to ``url`` and wait for its ``heading`` (30 s: a page's first run computes and
    draws everything); the address must be a page of the app, not "Page not found"."""
    from playwright.sync_api import expect

    page.goto(url)
    expect(page.get_by_role("heading", name=heading)).to_be_visible(timeout=30_000)
    expect(page.get_by_text("Page not found")).to_have_count(0)


def run_ended(page, timeout: float = 30_000) -> None:
    """Wait until the page's run has ended (Streamlit's root says ``notRunning``): what the
    run draws is all there, and a click reaches the widgets it drew, not a copy Streamlit
    keeps disabled while it draws anew."""
    page.wait_for_selector(
        '[data-testid="stApp"][data-test-script-state="notRunning"]', timeout=timeout
    )


def metric(page, label: str):
    """The value of the ``st.metric`` whose label says ``label``."""
    return page.get_by_test_id("stMetric").filter(has_text=label).get_by_test_id("stMetricValue")


@pytest.fixture
def on_device(app_url, browser):
    """Opens a path of the app on a device of ``devices.DEVICES`` and waits until it is drawn
    with its charts: ``on_device("phone", "/sgd", 13)`` returns the page. Every context it
    opened is closed after the test."""
    from browser.devices import open_on

    contexts = []

    def open_path(device: str, path: str, charts: int):
        context, page = open_on(browser, device, app_url + path, charts)
        contexts.append(context)
        return page

    yield open_path
    for context in contexts:
        context.close()


def fits_and_scrolls_past(page, device: str, name: str, *charts: str) -> None:
    """Nothing is wider than the screen and every number reads plainly; the mouse wheel
    (laptop) or a swipe (phone) over each of ``charts`` (CSS selectors) scrolls the page;
    screenshots ``{name}-{device}-NN.png``, a screen at a time, to look at."""
    from browser.devices import assert_fits_and_reads_plainly, screens, scrolls_past

    assert_fits_and_reads_plainly(page)
    for chart in charts:
        scrolls_past(page, page.locator(chart), device)
    screens(page, f"{name}-{device}")
