"""A phone joining a class: the light page (``/join``) beside Streamlit's own pages, on
the same phone in the same run.

Debian's chromium through Playwright as a mid-range phone: 390x844, touch, device pixel
ratio 3, the CPU slowed 4x by Chromium's own emulation (``Emulation.setCPUThrottlingRate``),
each visit in a fresh browser (an empty cache). One app server on its own SQLite store,
one class whose lecture has 500 points (``data_n=500``); and the bare one-chart Streamlit
page (``benchmarks/bare_page.py``), the reference: what any Streamlit page costs this
phone. Timed from the navigation:

- **light, seated**: the join link opened by a browser that holds a seat of the class (a
  student's second visit, or after joining), until the lecture's chart is drawn;
- **light, joining**: the join link until its form is ready, then from the Join tap until
  the chart is drawn (the typing is the student's, not counted);
- **Streamlit, seated**: Step by step with the class's link (``/lecture?room=``) and the
  same seat, until the chart is drawn (the page a student followed the lecture on);
- **bare page**: until its chart is drawn.

Each visit's bytes over the wire (``Network.loadingFinished.encodedDataLength``: headers
and encoded bodies; the websocket's frames apart). Then the follower's frame: the lecturer's
steps (published to the store: the page hears them within the channel's reread), each timed
in the light page from the channel's message to the end of the page's handlers (the
player's paint) and to the end of the next frame's rendering on the main thread (a task
queued from its animation frame).

Goals (issue 46): the light page's join link -> chart <= 1 s and <= 0.25x the bare page,
<= 250 kB over the wire; the follower's step drawn within one frame (its work <= 16.7 ms).

Run:  python3 benchmarks/light_page.py [--loads 5] [--rate 4] [--steps 15]
"""

from __future__ import annotations

import argparse
import functools
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import perceptron_store as store_mod  # noqa: E402
from tools.streamlit_server import serve  # noqa: E402
from ui.classmode import classroom as cr  # noqa: E402

if TYPE_CHECKING:
    from playwright._impl._api_structures import SetCookieParam
    from playwright.sync_api import Browser, BrowserContext, Page

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]
PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 3,
}
LIGHT_CHART = "#hall-player .lec .fig"
BARE_DRAWN = r"""() => [...document.querySelectorAll('.js-plotly-plot text')]
  .some((el) => /^t = 0(\D|$)/.test(el.textContent))"""
# the page's channel message, timed: the first listener (added before the page's own) notes
# when it arrives, the last (added after the player mounted) when the handlers are done,
# and a task queued from the next animation frame when that frame's rendering is done
FIRST = """() => { window.__frames = []; window.addEventListener("perceptron-live", () => {
  window.__t0 = performance.now(); }); }"""
# (the animation frame's own time to that task is the frame's rendering: with the handlers,
# the step's work; the wait for the frame between them is the display's)
LAST = """() => window.addEventListener("perceptron-live", () => {
  const t0 = window.__t0, t1 = performance.now();
  requestAnimationFrame(() => { const r = performance.now(); setTimeout(() => {
    const t2 = performance.now(); window.__frames.push([t1 - t0, t2 - t0, t1 - t0 + t2 - r]);
  }); }); })"""


class Wire:
    """The bytes a page's responses put on the wire (CDP), its websocket frames apart."""

    def __init__(self, page: Page) -> None:
        self.bytes = 0
        self.ws = 0
        session = page.context.new_cdp_session(page)
        session.send("Network.enable")
        session.on("Network.loadingFinished", self._done)
        session.on("Network.webSocketFrameReceived", self._frame)
        self.session = session

    def _done(self, event: dict[str, Any]) -> None:
        self.bytes += max(0, int(event.get("encodedDataLength", 0)))

    def _frame(self, event: dict[str, Any]) -> None:
        self.ws += len(event.get("response", {}).get("payloadData", ""))


def phone(
    browser: Browser, rate: float, cookies: list[SetCookieParam] | None = None
) -> tuple[BrowserContext, Page, Wire]:
    context = browser.new_context(**PHONE)
    if cookies:
        context.add_cookies(cookies)
    page = context.new_page()
    wire = Wire(page)
    wire.session.send("Emulation.setCPUThrottlingRate", {"rate": rate})
    return context, page, wire


def since(t0: float) -> float:
    return 1e3 * (time.perf_counter() - t0)


def seat_cookie(url: str, code: str, seat: str) -> list[SetCookieParam]:
    return [{"name": "perceptron_seat", "value": f"{code}.{seat}", "url": url}]


def stats(xs: list[float]) -> tuple[float, float]:
    ordered = sorted(xs)
    return statistics.median(ordered), ordered[
        min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--loads", type=int, default=5)
    ap.add_argument("--rate", type=float, default=4.0, help="CPU slowdown (Chromium's)")
    ap.add_argument("--steps", type=int, default=15, help="the lecturer's steps timed")
    args = ap.parse_args()
    from playwright.sync_api import expect, sync_playwright

    store_path = str(Path(tempfile.mkdtemp(prefix="light-bench-")) / "s.sqlite3")
    s = store_mod.open_store(store_path)
    room, secret = cr.create_room(s)
    cr.lecturer_update(s, room.code, secret, lambda r: cr.publish(r, {"data_n": "500"}))
    seat = cr.join(s, room, "bench")
    results: dict[str, list[float]] = {}
    wires: dict[str, list[int]] = {}

    def note(name: str, ms: float) -> None:
        results.setdefault(name, []).append(ms)

    def note_bytes(name: str, wire: Wire) -> None:
        wires.setdefault(name, []).append(wire.bytes)

    with (
        serve("app.py", env={"PERCEPTRON_STORE": store_path}) as (_, app),
        serve("benchmarks/bare_page.py") as (_, bare),
        sync_playwright() as p,
    ):
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        link = f"{app}/join?room={room.code}"
        # every server's first page of each kind, outside the counts (imports, caches)
        for url in (link, f"{app}/lecture?room={room.code}", bare):
            context, page, _ = phone(browser, 1.0, seat_cookie(app, room.code, seat))
            page.goto(url)
            page.wait_for_timeout(4000)
            context.close()
        for _ in range(args.loads):
            context, page, wire = phone(browser, args.rate, seat_cookie(app, room.code, seat))
            t0 = time.perf_counter()
            page.goto(link)
            expect(page.locator(LIGHT_CHART)).to_be_visible(timeout=60_000)
            note("light, seated", since(t0))
            page.wait_for_timeout(800)  # what the page fetches after its chart (the card's)
            note_bytes("light, seated", wire)
            context.close()

            context, page, wire = phone(browser, args.rate)
            t0 = time.perf_counter()
            page.goto(link)
            expect(page.get_by_label("Your nickname")).to_be_editable(timeout=60_000)
            note("light, joining: form", since(t0))
            page.get_by_label("Your nickname").fill("Pia")
            t0 = time.perf_counter()
            page.get_by_role("button", name="Join the class").tap()
            expect(page.locator(LIGHT_CHART)).to_be_visible(timeout=60_000)
            note("light, joining: Join -> chart", since(t0))
            page.wait_for_timeout(800)
            note_bytes("light, joining: Join -> chart", wire)
            context.close()

            context, page, wire = phone(browser, args.rate, seat_cookie(app, room.code, seat))
            t0 = time.perf_counter()
            page.goto(f"{app}/lecture?room={room.code}")
            expect(page.locator(".lec .fig")).to_be_visible(timeout=90_000)
            note("Streamlit, seated", since(t0))
            page.wait_for_timeout(800)
            note_bytes("Streamlit, seated", wire)
            context.close()

            context, page, wire = phone(browser, args.rate)
            t0 = time.perf_counter()
            page.goto(bare)
            page.wait_for_function(BARE_DRAWN, timeout=90_000)
            note("bare page", since(t0))
            page.wait_for_timeout(800)
            note_bytes("bare page", wire)
            context.close()

        # the follower's frame: the lecturer's steps, heard on the channel
        context, page, _ = phone(browser, args.rate, seat_cookie(app, room.code, seat))
        page.add_init_script(f"({FIRST})()")
        page.goto(link)
        expect(page.locator(LIGHT_CHART)).to_be_visible(timeout=60_000)
        page.wait_for_timeout(1000)
        page.evaluate(LAST)
        for t in range(1, args.steps + 1):
            query = {"data_n": "500", "lec_t": str(t)}
            cr.lecturer_update(s, room.code, secret, functools.partial(cr.publish, query=query))
            # looked for every 100 ms, not at every frame: the look would be in the frames timed
            page.wait_for_function(
                f"() => window.__frames.length >= {t}", polling=100, timeout=10_000
            )
        frames: list[list[float]] = page.evaluate("window.__frames")
        context.close()
        browser.close()

    if results:  # --loads 0: the follower's frame only
        bm = statistics.median(results["bare page"])
        print(
            f"A phone (390x844 touch, CPU {args.rate:g}x slower), {args.loads} fresh visits each, "
            "500 points:"
        )
        for name, xs in results.items():
            m, p95 = stats(xs)
            kb = f"{statistics.median(wires[name]) / 1e3:7.0f} kB" if name in wires else " " * 10
            print(f"  {name:30} median {m:6.0f} ms   p95 {p95:6.0f} ms  {kb}   ratio {m / bm:.2f}")
        seated = statistics.median(results["light, seated"])
        print(
            f"  goals: the light page's link -> chart <= 1000 ms ({seated:.0f}) and <= 0.25x "
            f"the bare page ({seated / bm:.2f}); <= 250 kB"
        )
    script = [f[0] for f in frames]
    frame = [f[1] for f in frames]
    work = [f[2] for f in frames]
    print(f"The lecturer's step on the light page, {len(frames)} steps:")
    rows = (
        ("the page's handlers (the paint)", script),
        ("to the frame rendered", frame),
        ("the work (handlers + rendering)", work),
    )
    for name, xs in rows:
        m, p95 = stats(xs)
        print(f"  {name:33} median {m:5.1f} ms   p95 {p95:5.1f} ms")
    print("  goal: the work within one frame, 16.7 ms")


if __name__ == "__main__":
    main()
