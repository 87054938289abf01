"""Engine speed against scikit-learn's Perceptron, measured in the same run.

One epoch over 1,000,000 2-D points (with bias), separable and with 5% label
noise: ``train(X, y, max_epochs=1)`` records every mistake's weights and
position; ``sklearn.linear_model.Perceptron(max_iter=1, shuffle=False,
tol=None, eta0=1)`` does the same updates without recording. Prints the median
of several repeats and the ratio engine / scikit-learn (goal: <= 1.0), the
trace's memory against the mistake count, and the numba kernel's first-call
cost in a fresh process once cached (goal: < 1 s).

Run:  python benchmarks/engine.py [--n 1000000] [--repeats 7]
"""

from __future__ import annotations

import argparse
import functools
import statistics
import subprocess
import sys
import time
import tracemalloc
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from perceptron_core import train


def make_data(n: int, noise: float, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1.0, 1.0, (n, 2))
    y = np.where(X @ np.array([0.6, -0.8]) - 0.1 > 0, 1.0, -1.0)
    flip = rng.random(n) < noise
    return X, np.where(flip, -y, y)


def median_time(fn: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def sklearn_fit(X: np.ndarray, y: np.ndarray) -> Any:  # a fitted Perceptron (no types)
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.linear_model import Perceptron

    clf = Perceptron(max_iter=1, shuffle=False, tol=None, eta0=1.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return clf.fit(X, y)


FIRST_CALL = """
import time
t = time.perf_counter()
import numpy as np
from perceptron_core import train
train(np.array([[1.0, 2.0], [-1.0, -1.0]]), np.array([1.0, -1.0]))
print(time.perf_counter() - t)
"""


def first_call_seconds() -> float:
    root = Path(__file__).resolve().parents[1]
    out = subprocess.run(
        [sys.executable, "-c", FIRST_CALL], cwd=root, capture_output=True, text=True, check=True
    )
    return float(out.stdout.strip())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=1_000_000)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()

    print(f"one epoch over n = {args.n:,} points in 2-D (+ bias), median of {args.repeats}\n")
    header = f"{'case':<14}{'engine ms':>11}{'sklearn ms':>12}{'ratio':>8}{'mistakes':>10}"
    print(header + f"{'trace MB':>10}{'peak MB':>9}  same w")
    print("-" * (len(header) + 27))
    ratios = []
    for name, noise in (("separable", 0.0), ("5% noise", 0.05)):
        X, y = make_data(args.n, noise)
        train(X[:100], y[:100], max_epochs=1)  # load the compiled kernel
        sklearn_fit(X[:100], y[:100])
        t_engine = median_time(functools.partial(train, X, y, max_epochs=1), args.repeats)
        t_sk = median_time(functools.partial(sklearn_fit, X, y), args.repeats)
        tracemalloc.start()
        trace = train(X, y, max_epochs=1)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        clf = sklearn_fit(X, y)
        same = np.allclose(trace.w, np.append(clf.coef_[0], clf.intercept_[0]), rtol=1e-9)
        trace_mb = (trace.weights.nbytes + trace.mistake_steps.nbytes) / 1e6
        ratio = t_engine / t_sk
        ratios.append(ratio)
        print(
            f"{name:<14}{1e3 * t_engine:>11.1f}{1e3 * t_sk:>12.1f}{ratio:>8.2f}"
            f"{trace.n_mistakes:>10,}{trace_mb:>10.2f}{peak / 1e6:>9.1f}  {same}"
        )
    print(
        "\ntrace = weights (mistakes+1, 3) + mistake_steps (mistakes, 2): O(mistakes);"
        " peak (tracemalloc) includes the (n,) int64 order array"
    )
    first = [first_call_seconds() for _ in range(3)]
    print(
        "first call in a fresh process (import + cached kernel), 3 runs: "
        + ", ".join(f"{s:.2f} s" for s in first)
    )
    verdict = "PASS" if max(ratios) <= 1.0 and max(first) < 1.0 else "MISS"
    print(f"\ngoal: ratio <= 1.0 in both cases and first call < 1 s: {verdict}")


if __name__ == "__main__":
    main()
