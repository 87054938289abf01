"""The lecturer's remote: a tap on the phone to the projector's chart painted at the new step.

One app server on its own SQLite store, one class. Debian's chromium through Playwright:
the projector (Step by step at 1280x720, opened with the lecturer link, presenter mode)
and the lecturer's phone (390x844, touch) on the remote (``/remote``). Each tap on Step or
Back (alternately, ``--taps`` of them, ``--gap`` s apart) is timed from the tap, by the
wall clock both pages share on this machine, to the first animation frame after the
projector's chart took the new step (its ``data-t``). The reference, in the same run: the
same chart's own Step button clicked on the projector, to the same frame (the floor of a
step drawn there).

Goal (issue 46): the remote's tap -> the projector's chart painted, p95 <= 200 ms on one
server.

Run:  python3 benchmarks/remote.py [--taps 30] [--gap 0.6]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import perceptron_store as store_mod  # noqa: E402
from benchmarks.phone_step import p95  # noqa: E402
from tools.streamlit_server import serve  # noqa: E402
from ui.classmode import classroom as cr  # noqa: E402

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]
# the projector notes, by the wall clock, the first frame after each new step of its chart
# (in the shadow root of the player's component; a step inside its window keeps its SVG)
WATCH = """() => { window.__painted = [];
  const host = [...document.querySelectorAll('*')]
    .find((e) => e.shadowRoot && e.shadowRoot.querySelector('.lec .fig'));
  const svg = (host ? host.shadowRoot : document).querySelector('.lec .fig');
  const seen = () => requestAnimationFrame(() =>
    window.__painted.push([Number(svg.dataset.t), performance.timeOrigin + performance.now()]));
  new MutationObserver(seen).observe(svg, { attributes: true, attributeFilter: ['data-t'] }); }"""
NOW = "() => performance.timeOrigin + performance.now()"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--taps", type=int, default=30)
    ap.add_argument("--gap", type=float, default=0.6, help="seconds between taps")
    args = ap.parse_args()
    from playwright.sync_api import expect, sync_playwright

    store_path = str(Path(tempfile.mkdtemp(prefix="remote-bench-")) / "s.sqlite3")
    s = store_mod.open_store(store_path)
    room, secret = cr.create_room(s)
    with (
        serve("app.py", env={"PERCEPTRON_STORE": store_path}) as (_, app),
        sync_playwright() as p,
    ):
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        projector = browser.new_page(viewport={"width": 1280, "height": 720})
        projector.goto(f"{app}/lecture?room={room.code}&key={secret}&app_presenter=1&lec_t=10")
        chart = projector.locator(".lec .fig")
        expect(chart).to_be_visible(timeout=60_000)
        expect(projector.locator(".st-key-room_channel")).to_have_count(1, timeout=30_000)
        projector.wait_for_timeout(3000)  # the page's first runs over, its channel open
        phone = browser.new_context(
            viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
        ).new_page()
        phone.goto(f"{app}/remote?room={room.code}#key={secret}")
        expect(phone.locator("#rm-step")).to_contain_text("Step t = 10 of", timeout=30_000)
        phone.wait_for_timeout(1000)
        projector.evaluate(WATCH)

        def timed(tap: object, n: int) -> list[float]:
            out = []
            for i in range(n):
                before = len(projector.evaluate("window.__painted"))
                t0 = phone.evaluate(NOW)
                tap(i)  # type: ignore[operator]
                projector.wait_for_function(
                    f"() => window.__painted.length > {before}", timeout=10_000
                )
                out.append(projector.evaluate("window.__painted")[before][1] - t0)
                projector.wait_for_timeout(int(args.gap * 1000))
            return out

        names = ("Step ▶", "◀ Back")
        remote = timed(lambda i: phone.get_by_role("button", name=names[i % 2]).tap(), args.taps)
        acts = ("step", "back")
        own = timed(
            lambda i: projector.locator(f'.lec button[data-act="{acts[i % 2]}"]').click(),
            args.taps,
        )
        browser.close()

    print(f"A tap -> the projector's chart painted at the new step, {args.taps} taps each:")
    for name, xs in (("the remote's (phone)", remote), ("the projector's own button", own)):
        print(f"  {name:28} median {statistics.median(xs):6.1f} ms   p95 {p95(xs):6.1f} ms")
    print(
        f"  ratio (medians) {statistics.median(remote) / statistics.median(own):.2f}; "
        "goal: the remote's p95 <= 200 ms"
    )


if __name__ == "__main__":
    main()
