"""How long each page takes with every setting at its extremes, against its defaults.

Every page is opened through ``AppTest`` with every cache emptied first
(``ui.server.cache.clear_all``: nothing is cached from before) at its default settings
with a fresh seed, and then with each extreme case of ``tests/app/extremes.py``
(every number at its largest or smallest accepted value, 500 XOR points). Each
cell is the CPU seconds of this process for the open (what the server would
spend; wall time on a shared machine also counts the others' work), with the
ratio to the defaults. Goals: no input pins a CPU for more than a few seconds, and
no page costs one session more than about 0.5 s.

Run:  python benchmarks/extremes.py [page ...]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT)]

from tests.app.apptest_helpers import open_app  # noqa: E402
from tests.app.extremes import CASES, PAGES  # noqa: E402
from ui.server.cache import clear_all  # noqa: E402

GOAL = 0.5  # CPU seconds one session may cost


def seconds(page: str, query: dict[str, str]) -> float:
    """CPU seconds of one cold open of ``page`` with these URL parameters (no exception
    allowed); the app is opened on its home page first, as a student's browser does."""
    clear_all()
    start = time.process_time()
    at = open_app(None if page == "home" else f"pages/{page}.py", query)
    elapsed = time.process_time() - start
    if at.exception:
        sys.exit(f"{page} {query}: {at.exception[0].value}")
    return elapsed


def main(pages: list[str]) -> None:
    seconds("home", {})  # imports and the compiled kernel, once
    names = list(CASES)
    print(f"{'page':<10}{'defaults':>10}" + "".join(f"{n:>28}" for n in names))
    worst = 0.0
    over = []
    for page in pages or PAGES:
        base = seconds(page, {"data_seed": "7"})
        cells = []
        for name in names:
            query = dict(CASES[name])
            t = seconds(page, query)
            worst = max(worst, t)
            cells.append(f"{t:8.2f} s ({t / base:5.1f}x)")
            if t > GOAL:
                over.append(f"{page} ({name}): {t:.2f} s")
        if base > GOAL:
            over.append(f"{page} (defaults): {base:.2f} s")
        print(f"{page:<10}{base:>8.2f} s" + "".join(f"{c:>28}" for c in cells), flush=True)
    print(f"slowest page at an extreme: {worst:.2f} s CPU (goal: a few seconds at most)")
    print(f"over {GOAL} s CPU: " + ("; ".join(over) if over else "none"))


if __name__ == "__main__":
    main(sys.argv[1:])
