"""CPU per rerun of the lecture page with the mistake log open, at the largest run.

The largest lecture run the caps allow: 500 XOR points, 400 epochs (200,000 steps,
about 185,000 mistakes), at its last step with the "Mistake log" expander open.
The first open computes the run (cached after; imports are done and caches emptied
before it); every later rerun rebuilds the log and sends it to the browser, which
is what this measures (CPU seconds of the process, median of a few reruns). Then
the CSV of the whole log, which the page builds only when the button is clicked.

Run:  python benchmarks/mistake_log.py
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT)]

from perceptron_core import make_dataset  # noqa: E402
from tests.app.apptest_helpers import open_app  # noqa: E402
from ui.compute.model import RunSettings, record_run  # noqa: E402
from ui.lecture import steps as lecture  # noqa: E402
from ui.server.cache import clear_all  # noqa: E402

QUERY = {"data_name": "xor", "data_n": "500", "lec_max_epochs": "400", "lec_t": "200000"}


def main(reruns: int = 3) -> None:
    open_app()  # imports and the compiled kernel, once
    clear_all()
    start = time.process_time()
    at = open_app("pages/lecture.py", QUERY, {"lec_log": True})
    first = time.process_time() - start
    if at.exception:
        sys.exit(str(at.exception[0].value))
    rows = len(at.dataframe[0].value) if at.dataframe else 0
    times = []
    for _ in range(reruns):
        start = time.process_time()
        at.run()
        times.append(time.process_time() - start)
    print(f"cold open (run + chart + log): {first:.2f} s CPU; table rows sent: {rows:,}")
    print(f"rerun with the log open: median {statistics.median(times):.2f} s CPU {times}")
    if hasattr(lecture, "mistake_log_csv"):  # the CSV, built on a click
        X, y = make_dataset("xor", n=500, seed=0)
        run = record_run(X, y, RunSettings(max_epochs=400))
        k = run.trace.n_mistakes
        start = time.process_time()
        csv = lecture.mistake_log_csv(run, k)
        took = time.process_time() - start
        print(f"CSV of all {k:,} mistakes ({len(csv) / 1e6:.1f} MB): {took:.2f} s CPU")


if __name__ == "__main__":
    main()
