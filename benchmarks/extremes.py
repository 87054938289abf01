"""How long each page takes with every setting at its extremes, against its defaults.

Every page is opened through ``AppTest`` (a fresh process cache, so nothing is
cached from before) at its default settings and then with each extreme case of
``tests/app/extremes.py`` (every number at its largest or smallest accepted value,
500 XOR points). Goal (issue 8): no input pins a CPU for more than a few seconds;
the ratio says how much heavier the extreme is than the page a student first sees.

Run:  python benchmarks/extremes.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "app")]

from apptest_helpers import open_app  # noqa: E402
from extremes import CASES, PAGES  # noqa: E402


def seconds(page: str, query: dict[str, str]) -> float:
    """One cold open of ``page`` with these URL parameters (no exception allowed)."""
    start = time.perf_counter()
    at = open_app(None if page == "home" else f"pages/{page}.py", query)
    elapsed = time.perf_counter() - start
    if at.exception:
        sys.exit(f"{page} {query}: {at.exception[0].value}")
    return elapsed


def main() -> None:
    seconds("home", {})  # imports and the compiled kernel, once
    names = list(CASES)
    print(f"{'page':<10}{'defaults':>10}" + "".join(f"{n:>28}" for n in names))
    worst = 0.0
    for page in PAGES:
        base = seconds(page, {"data_seed": "7"})
        cells = []
        for name in names:
            query = dict(CASES[name])
            t = seconds(page, query)
            worst = max(worst, t)
            cells.append(f"{t:8.2f} s ({t / base:5.1f}x)")
        print(f"{page:<10}{base:>8.2f} s" + "".join(f"{c:>28}" for c in cells), flush=True)
    print(f"slowest page at an extreme: {worst:.2f} s (goal: a few seconds at most)")


if __name__ == "__main__":
    main()
