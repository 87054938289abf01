"""Lecture page speed in a real browser, beside a bare one-chart Streamlit page.

Starts two ``streamlit run`` servers on free ports: the app, and a bare page
(``benchmarks/bare_page.py``) that redraws one 500-point Plotly chart titled
"t = <clicks>" when its button is clicked (the floor any Streamlit rerun pays).
Debian's chromium, through Playwright, then measures in the page:

- Step and Back: from the click on the lecture's Step / Back button, or
  the → / ← key, to the chart drawing the new step (the SVG's ``data-t``) and two
  animation frames later (painted); median and p95, on the lecture page with 500
  points (``?data_n=500``), against the bare page's button;
- the messages the browser sends during a burst of steps, websocket frames and posts of
  the step (goal: none until it pauses, then one);
- Play: distinct steps drawn per second while the lecture plays at 30 steps/s;
- page load: from navigation to the chart drawn, median of ``--loads`` loads.

Goals: Step and Back median <= 50 ms and <= 0.5x the bare page;
no message inside a burst and one after it; playback >= 30 frames/s; page load
<= 1.5x the bare page.

Run:  python benchmarks/browser.py [--clicks 30] [--loads 5]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tools.streamlit_server import serve  # noqa: E402

if TYPE_CHECKING:
    from playwright.sync_api import Page

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]

# The lecture's instrument lives in a shadow root (a Streamlit v2 component).
LECTURE = (
    "[...document.querySelectorAll('*')]"
    ".find((e) => e.shadowRoot && e.shadowRoot.querySelector('.lec')).shadowRoot"
)

# Fires the lecture's Step/Back (a click on its button, or its key on the page),
# resolves with ms until the chart draws step `want` and is painted.
LECTURE_STEP = (
    """async ([how, want]) => {
  const root = """
    + LECTURE
    + """;
  const svg = () => root.querySelector('.fig');
  const t0 = performance.now();
  if (how === 'step' || how === 'back') root.querySelector(`button[data-act="${how}"]`).click();
  else document.body.dispatchEvent(new KeyboardEvent('keydown', { key: how, bubbles: true }));
  await new Promise((resolve) => {
    const check = () =>
      svg().dataset.t === String(want) ? resolve() : requestAnimationFrame(check);
    check();
  });
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  return performance.now() - t0;
}"""
)

# Clicks the bare page's button, resolves with ms until its chart says "t = <want>", painted.
BARE_STEP = """async ([selector, want]) => {
  const pattern = new RegExp('^t = ' + want + '(\\D|$)');
  const shown = () => [...document.querySelectorAll('.js-plotly-plot text')]
    .some((el) => pattern.test(el.textContent));
  const t0 = performance.now();
  document.querySelector(selector).click();
  await new Promise((resolve) => {
    const check = () => (shown() ? resolve() : requestAnimationFrame(check));
    check();
  });
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  return performance.now() - t0;
}"""

# Counts distinct steps the lecture's chart draws over `ms` milliseconds of replay.
FPS = (
    """async (ms) => {
  const root = """
    + LECTURE
    + """;
  let last = root.querySelector('.fig').dataset.t, changes = 0;
  const t0 = performance.now();
  await new Promise((resolve) => {
    const tick = () => {
      const now = root.querySelector('.fig').dataset.t;
      if (now !== last) { changes += 1; last = now; }
      if (performance.now() - t0 < ms) requestAnimationFrame(tick); else resolve();
    };
    tick();
  });
  return changes / (ms / 1000);
}"""
)

LECTURE_READY = (
    "() => { try { return Boolean(("
    + LECTURE
    + ").querySelector('.fig')); } catch (e) { return false; } }"
)


def open_lecture(page: Page, url: str) -> None:
    page.goto(url)
    page.wait_for_function(LECTURE_READY, timeout=60_000)


def open_bare(page: Page, url: str) -> None:
    page.goto(url)
    page.wait_for_function(
        r"""() => [...document.querySelectorAll('.js-plotly-plot text')]
             .some((el) => /^t = 0(\D|$)/.test(el.textContent))""",
        timeout=60_000,
    )


def lecture_steps(page: Page, url: str, n: int, how: tuple[str, str]) -> list[float]:
    """n forward moves then n back moves (``how``: a button or a key for each)."""
    open_lecture(page, url)
    forward, back = how
    out = [page.evaluate(LECTURE_STEP, [forward, t]) for t in range(1, n + 1)]
    out += [page.evaluate(LECTURE_STEP, [back, t]) for t in range(n - 1, -1, -1)]
    return out


def bare_clicks(page: Page, url: str, n: int) -> list[float]:
    open_bare(page, url)
    for t in (1, 2):  # warm-up: caches, first paint of every element
        page.evaluate(BARE_STEP, [".st-key-step button", t])
    return [page.evaluate(BARE_STEP, [".st-key-step button", t]) for t in range(3, 3 + n)]


def load(page: Page, url: str, n: int, lecture: bool) -> list[float]:
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        (open_lecture if lecture else open_bare)(page, url)
        times.append(1e3 * (time.perf_counter() - t0))
    return times


def burst_messages(page: Page, url: str, steps: int = 8) -> tuple[int, int]:
    """Messages the browser sends during a burst of → presses, and in the 1.5 s after: its
    websocket frames and its posts of a step (a student alone posts it, /api/step)."""
    sent: list[float] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda _: sent.append(time.monotonic())))
    page.on(
        "request",
        lambda r: sent.append(time.monotonic()) if r.url.endswith("/api/step") else None,
    )
    open_lecture(page, url)
    page.wait_for_timeout(1500)
    before = len(sent)
    for t in range(1, steps + 1):
        page.evaluate(LECTURE_STEP, ["ArrowRight", t])
    during = len(sent) - before
    page.wait_for_timeout(1500)
    return during, len(sent) - before - during


def playback(page: Page, url: str) -> float:
    """Steps drawn per second while the lecture plays at 30 steps/s."""
    open_lecture(page, url)
    page.evaluate(
        "() => { const r = "
        + LECTURE
        + "; const s = r.querySelector('select.speed'); s.value = '30';"
        " s.dispatchEvent(new Event('change')); r.querySelector('button[data-act=play]').click(); }"
    )
    page.wait_for_timeout(300)
    return float(page.evaluate(FPS, 2500))


def stats(xs: list[float]) -> tuple[float, float]:
    xs = sorted(xs)
    return statistics.median(xs), xs[min(len(xs) - 1, round(0.95 * (len(xs) - 1)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--clicks", type=int, default=30)
    ap.add_argument("--loads", type=int, default=5)
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    with (
        serve("app.py") as (_, app),
        serve("benchmarks/bare_page.py") as (_, bare),
        sync_playwright() as p,
    ):
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        lecture = app + "/lecture?data_n=500"
        n = min(args.clicks, 99)  # inside the first window (100 steps)
        clicked = lecture_steps(page, lecture, n, ("step", "back"))
        keyed = lecture_steps(page, lecture, n, ("ArrowRight", "ArrowLeft"))
        step_bare = bare_clicks(page, bare, args.clicks)
        load_app = load(page, lecture, args.loads, True)
        load_bare = load(page, bare, args.loads, False)
        during, after = burst_messages(browser.new_page(), app + "/lecture")
        fps = playback(browser.new_page(viewport={"width": 1400, "height": 1000}), lecture)
        browser.close()

    (bm, bp95) = stats(step_bare)
    lm, lb = statistics.median(load_app), statistics.median(load_bare)
    print(f"Step and Back -> chart painted, {n} of each, 500 points:")
    for name, xs in (("lecture, clicks", clicked), ("lecture, keys  ", keyed)):
        m, p95 = stats(xs)
        print(f"  {name}  median {m:6.1f} ms   p95 {p95:6.1f} ms   ratio {m / bm:.2f}")
    print(f"  bare page        median {bm:6.1f} ms   p95 {bp95:6.1f} ms")
    print("  goals: median <= 50 ms and ratio <= 0.5")
    print(f"A burst of 8 steps: {during} messages sent during it, {after} after it pauses")
    print("  goals: 0 during, 1 after")
    print(f"Play at 30 steps/s: {fps:.1f} steps drawn per second   goal: >= 30")
    print(f"Page load -> chart drawn, median of {args.loads}:")
    print(f"  lecture {lm:.0f} ms   bare {lb:.0f} ms   ratio {lm / lb:.2f}   goal: <= 1.5")


if __name__ == "__main__":
    main()
