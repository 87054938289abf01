"""A question's card in a real browser: from the lecturer's Ask to the card on a student's page.

Debian's chromium through Playwright: a lecturer and two students (a phone and a laptop)
in one class, all three on Step by step (the students following), as the browser tests
seat them (``tests/browser/test_room.py``'s helpers). The lecturer asks ``--questions``
questions in a row (revealing each before the next); each is timed from the click on Ask
to the card's "Will it be a mistake?" on the laptop student's page. The first question
of a page is the one a lost or merged rerun shows most: its strip and its card change on
the same channel message.

The same-run reference: ``--app-dir`` serves another copy of the app (a worktree of the
code before, ``git worktree add /tmp/ref <commit>``) and is timed the same way, after.

Run:  python benchmarks/card_browser.py [--questions 12] [--app-dir /tmp/ref]
"""

from __future__ import annotations

import argparse
import importlib
import re
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from tools.streamlit_server import serve  # noqa: E402


def card_times(app_dir: Path, questions: int) -> list[float]:
    """Seconds from each Ask to the card on the laptop student's page."""
    from playwright.sync_api import expect, sync_playwright

    # the browser tests' own helpers, which seat a class as those tests do
    devices: Any = importlib.import_module("browser.devices")
    room: Any = importlib.import_module("tests.browser.test_room")
    Klass, card, key = room.Klass, room.card, room.key
    DEVICES = devices.DEVICES

    with serve(app_dir=app_dir) as (_, url), sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium")
        contexts = [browser.new_context(**DEVICES[d]) for d in ("laptop", "phone", "laptop")]
        k = Klass(*(c.new_page() for c in contexts), url=url)
        room.ensure_joined(k)
        for page in (k.lecturer, k.a, k.b):
            room.on_lecture(page)
        out = []
        for _ in range(questions):
            if key(k.lecturer, "room_reveal").count():
                key(k.lecturer, "room_reveal").get_by_role("button").click()
                expect(key(k.lecturer, "room_ask")).to_be_visible(timeout=15_000)
            start = time.perf_counter()
            key(k.lecturer, "room_ask").get_by_role("button", name="Ask the class").click()
            expect(key(k.lecturer, "room_reveal")).to_be_visible(timeout=15_000)
            said = re.search(r"Question (\d+):", key(k.lecturer, "room_strip").inner_text())
            assert said is not None, "the lecturer's strip names no question"
            expect(card(k.b, int(said.group(1)))).to_contain_text(
                "Will it be a mistake?", timeout=15_000
            )
            out.append(time.perf_counter() - start)
            k.b.wait_for_timeout(500)
        browser.close()
        return out


def summary(name: str, times: list[float]) -> str:
    return (
        f"{name}: first {times[0]:.2f} s, median {statistics.median(times):.2f} s, "
        f"max {max(times):.2f} s ({', '.join(f'{t:.2f}' for t in times)})"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--questions", type=int, default=12)
    ap.add_argument("--app-dir", type=Path, help="the reference: another copy of the app")
    args = ap.parse_args()
    now = card_times(ROOT, args.questions)
    print(summary("this code", now))
    if args.app_dir is not None:
        ref = card_times(args.app_dir, args.questions)
        print(summary("reference", ref))
        print(
            f"ratio (this / reference): first {now[0] / ref[0]:.2f}, "
            f"median {statistics.median(now) / statistics.median(ref):.2f}"
        )


if __name__ == "__main__":
    main()
