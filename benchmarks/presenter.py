"""Presenter mode's cost in a real browser: each lesson page in and out of presenter mode.

For each page, Debian's chromium (through Playwright, 1280x720) opens it out of presenter
mode and then in it (``?app_presenter=1``), waits ``--settle`` seconds for its charts, and
measures in the page:

- **layout**: ms of one forced layout of the page after a change of one text (the median
  of 20). Plotly forces one for each tick label it measures, so a page whose layouts are
  slow freezes for seconds while its charts draw;
- **blocked**: ms of the main thread in long tasks (over 50 ms) from the page's opening
  until ``--settle`` s later, what a lecturer sees as a page that does not answer.

The reference is the same page out of presenter mode, in the same run. Goal: in presenter
mode both within 1.5x of it (a rule keyed on ``html:has(...)`` made SGD's layout 40x and
froze the page for 15 s).

Run:  python benchmarks/presenter.py [--pages sgd,xor] [--settle 20] [--app-dir DIR]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tools.streamlit_server import serve  # noqa: E402

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
PAGES = ["sgd", "xor", "experts", "spam", "variants", "lecture", "proof", "margin"]

# long tasks from the page's start (registered before any script of the page runs)
WATCH = """
window.__blocked = 0;
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) window.__blocked += e.duration;
}).observe({ type: "longtask", buffered: true });
"""

LAYOUT = """() => {
  const d = document.createElement("div");
  document.body.appendChild(d);
  const times = [];
  for (let i = 0; i < 20; i++) {
    const t0 = performance.now();
    d.textContent = "x" + i;
    d.getBoundingClientRect();
    times.push(performance.now() - t0);
  }
  d.remove();
  times.sort((a, b) => a - b);
  return times[10];
}"""


def measure(browser: object, url: str, settle: float) -> tuple[float, float]:
    """(layout ms, blocked ms) of the page at ``url``."""
    page = browser.new_page(viewport={"width": 1280, "height": 720})  # type: ignore[attr-defined]
    try:
        page.add_init_script(WATCH)
        page.goto(url)
        page.wait_for_timeout(settle * 1000)
        return float(page.evaluate(LAYOUT)), float(page.evaluate("window.__blocked"))
    finally:
        page.close()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pages", default=",".join(PAGES))
    ap.add_argument("--settle", type=float, default=20.0, help="s after opening a page")
    ap.add_argument("--app-dir", type=Path, default=ROOT, help="serve the app from here")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    ratios: list[float] = []
    with serve("app.py", app_dir=args.app_dir.resolve()) as (_, url), sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        measure(browser, f"{url}/xor", 5)  # the server's and the browser's first page
        print(f"{'page':10} {'layout ms':>18} {'ratio':>6} {'blocked ms':>20} {'ratio':>6}")
        for name in args.pages.split(","):
            base = measure(browser, f"{url}/{name}", args.settle)
            shown = measure(browser, f"{url}/{name}?app_presenter=1", args.settle)
            lay, blk = shown[0] / max(base[0], 0.05), shown[1] / max(base[1], 50.0)
            ratios += [lay, blk]
            print(
                f"{name:10} {base[0]:7.2f} -> {shown[0]:7.2f} {lay:6.1f} "
                f"{base[1]:8.0f} -> {shown[1]:8.0f} {blk:6.1f}"
            )
        browser.close()
    worst = max(ratios)
    print(f"worst ratio {worst:.1f} (goal <= 1.5), median {statistics.median(ratios):.1f}")
    return 0 if worst <= 1.5 else 1


if __name__ == "__main__":
    sys.exit(main())
