"""The lecture chart's scenes for its tests: the cases (a dataset, a seed, bias or not)
with their runs and whole scenes, cached, and reads of a scene's numbers and words.
"""

from __future__ import annotations

import re
from functools import cache

import numpy as np

from perceptron_core import make_dataset
from ui.compute.model import Run, RunSettings, record_run
from ui.lecture.figures import (
    lecture_scene,
)

# (dataset, seed, bias): 7 mistakes with a bias, 5 through the origin, and XOR (no w*)
CASES = [("blobs", 0, True), ("separable", 1, False), ("xor", 0, True)]


@cache
def run_of(name: str, seed: int, bias: bool, **settings) -> Run:
    X, y = make_dataset(name, n=40, seed=seed)
    return record_run(X, y, RunSettings(bias=bias, **settings))


@cache
def whole_scene(name: str, seed: int, bias: bool) -> dict:
    """The scene of every step of a run (one window from 0 to T)."""
    run = run_of(name, seed, bias)
    return lecture_scene(run, start=0, stop=run.trace.n_steps, data_name=name)


def steps_of(run: Run) -> list[int]:
    """Every step at which a mistake was just made, the start, the first, n and the end."""
    n, T = run.trace.n_examples, run.trace.n_steps
    made = {int(t) + 1 for t in run.trace.mistake_steps[:60, 0]}
    return sorted({0, 1, n, T, *made})


def view_corners(scene: dict) -> np.ndarray:
    (x0, x1), (y0, y1) = scene["panels"]["data"]["x"], scene["panels"]["data"]["y"]
    return np.array([[x0, y0], [x0, y1], [x1, y0], [x1, y1]])


def area(polygon: list) -> float:
    """The area of a polygon given by its vertices in order (shoelace)."""
    if len(polygon) < 3:
        return 0.0
    p = np.asarray(polygon)
    x, y = p[:, 0], p[:, 1]
    return 0.5 * abs(float(x @ np.roll(y, -1) - y @ np.roll(x, -1)))


def parsed(text: str) -> float:
    """A number as :func:`number` writes it, read back."""
    return float(text.replace(",", "").replace("−", "-"))


def stated(text: str, symbol: str) -> str:
    """The number written after "symbol = " in a status part or a label, as written."""
    match = re.search(rf"(?<![\w‖]){symbol} = (−?\d[\d,]*(?:\.\d+)?(?:e[+−-]?\d+)?)", text)
    assert match, (symbol, text)
    return match.group(1)


def augmented(run: Run, i: int) -> np.ndarray:
    return np.append(run.X[i], 1.0) if run.trace.bias else run.X[i]


# ---------------------------------------------------------------------------- the data panel


def drawn(ks: list, vs: list, k: int, now: float | None) -> list[tuple[float, float]]:
    """The points ``player.js``'s ``series`` draws at a step with k mistakes: the curve's
    points up to k (read in order, stopping at the first later one) and the step's own."""
    keep = []
    for a, b in zip(ks, vs, strict=True):
        if a > k:
            break
        keep.append((a, b))
    if now is not None and (not keep or keep[-1][0] != k):
        keep.append((k, now))
    return keep
