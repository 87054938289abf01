"""Lecture page speed in a real browser, beside a bare one-chart Streamlit page.

Starts two ``streamlit run`` servers on free ports: the app, and a bare page
(``benchmarks/bare_page.py``) that redraws one 500-point Plotly chart titled
"t = <clicks>" when its button is clicked (the floor any Streamlit rerun pays).
Debian's chromium, through Playwright, then measures in the page:

- Step: from the button's click to the chart showing the new "t = ..." and two
  animation frames later (painted); median and p95 over ``--clicks`` clicks, on
  the lecture page with 500 points (``?data_n=500``) and on the bare page;
- Play: frames shown per second while the chart replays at 30 steps/s, and the
  websocket messages the browser sends meanwhile (goal: none);
- page load: from navigation to the chart drawn, median of ``--loads`` loads.

Goals (issue 3): Step median <= 60 ms and <= 1.3x the bare page; playback
>= 30 frames/s with 0 websocket messages; page load <= 1.2x the bare page.

Run:  python benchmarks/browser.py [--clicks 30] [--loads 5]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.streamlit_server import serve  # noqa: E402

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]

# Clicks the button, resolves with ms until the chart says "t = <want>" and is painted.
CLICK = """async ([selector, want]) => {
  const pattern = new RegExp('^t = ' + want + '(\\\\D|$)');
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

# Counts distinct steps shown by the chart over `ms` milliseconds of replay.
FPS = """async (ms) => {
  const stepShown = () => {
    for (const el of document.querySelectorAll('.js-plotly-plot text')) {
      const m = /^t = (\\d+)/.exec(el.textContent);
      if (m) return m[1];
    }
    return null;
  };
  let last = stepShown(), changes = 0;
  const t0 = performance.now();
  await new Promise((resolve) => {
    const tick = () => {
      const now = stepShown();
      if (now !== last) { changes += 1; last = now; }
      if (performance.now() - t0 < ms) requestAnimationFrame(tick); else resolve();
    };
    tick();
  });
  return changes / (ms / 1000);
}"""


def wait_for_step(page, t: int) -> None:
    page.wait_for_function(
        """(t) => [...document.querySelectorAll('.js-plotly-plot text')]
             .some((el) => new RegExp('^t = ' + t + '(\\\\D|$)').test(el.textContent))""",
        arg=t,
        timeout=60_000,
    )


def clicks(page, url: str, selector: str, n: int) -> list[float]:
    page.goto(url)
    wait_for_step(page, 0)
    for t in (1, 2):  # warm-up: caches, first paint of every element
        page.evaluate(CLICK, [selector, t])
    return [page.evaluate(CLICK, [selector, t]) for t in range(3, 3 + n)]


def load(page, url: str, n: int) -> list[float]:
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        page.goto(url)
        wait_for_step(page, 0)
        times.append(1e3 * (time.perf_counter() - t0))
    return times


def playback(page, url: str) -> tuple[float, int]:
    """Frames per second at 30 steps/s, and websocket messages sent while playing."""
    sent: list[float] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda _: sent.append(time.monotonic())))
    page.goto(url)
    wait_for_step(page, 0)
    page.locator(".js-plotly-plot .updatemenu-button", has_text="Play 30/s").click()
    page.wait_for_timeout(300)
    before = len(sent)
    fps = page.evaluate(FPS, 3000)
    return fps, len(sent) - before


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
        step_app = clicks(page, lecture, ".st-key-lec_step button", args.clicks)
        step_bare = clicks(page, bare, ".st-key-step button", args.clicks)
        load_app = load(page, lecture, args.loads)
        load_bare = load(page, bare, args.loads)
        fps, messages = playback(
            browser.new_page(viewport={"width": 1400, "height": 1000}), app + "/lecture"
        )
        browser.close()

    (am, ap95), (bm, bp95) = stats(step_app), stats(step_bare)
    lm, lb = statistics.median(load_app), statistics.median(load_bare)
    print(f"Step, click -> chart painted, {args.clicks} clicks, 500 points:")
    print(f"  lecture page  median {am:6.1f} ms   p95 {ap95:6.1f} ms")
    print(f"  bare page     median {bm:6.1f} ms   p95 {bp95:6.1f} ms")
    print(f"  ratio (median) {am / bm:.2f}   goals: <= 60 ms and <= 1.3")
    print(f"Play at 30 steps/s: {fps:.1f} frames/s, {messages} websocket messages sent")
    print("  goals: >= 30 frames/s, 0 messages")
    print(f"Page load -> chart drawn, median of {args.loads}:")
    print(f"  lecture {lm:.0f} ms   bare {lb:.0f} ms   ratio {lm / lb:.2f}   goal: <= 1.2")


if __name__ == "__main__":
    main()
