"""Plane geometry for drawing a classifier w in a view box: its line and half-planes."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Box:
    """The visible rectangle [x0, x1] x [y0, y1], in data units."""

    x0: float
    x1: float
    y0: float
    y1: float

    def corners(self) -> list[tuple[float, float]]:
        return [(self.x0, self.y0), (self.x1, self.y0), (self.x1, self.y1), (self.x0, self.y1)]


def view_box(X: np.ndarray, pad: float = 0.15, min_half: float = 1.5) -> Box:
    """A square box around the data and the origin, padded by ``pad`` of its size."""
    lo = np.minimum(X.min(axis=0), 0.0)
    hi = np.maximum(X.max(axis=0), 0.0)
    centre = (lo + hi) / 2
    half = max(float((hi - lo).max()) / 2 * (1 + 2 * pad), min_half)
    return Box(centre[0] - half, centre[0] + half, centre[1] - half, centre[1] + half)


def line_coefficients(w: np.ndarray, bias: bool) -> tuple[float, float, float]:
    """(a, b, c) with the decision boundary a x1 + b x2 + c = 0."""
    return float(w[0]), float(w[1]), float(w[2]) if bias else 0.0


def clip(
    poly: list[tuple[float, float]], a: float, b: float, d: float
) -> list[tuple[float, float]]:
    """The part of a convex polygon where ``a x1 + b x2 + d >= 0`` (Sutherland-Hodgman)."""
    out: list[tuple[float, float]] = []
    for p, q in zip(poly, poly[1:] + poly[:1], strict=True):
        fp, fq = a * p[0] + b * p[1] + d, a * q[0] + b * q[1] + d
        if fp >= 0:
            out.append(p)
        if (fp >= 0) != (fq >= 0):
            s = fp / (fp - fq)
            out.append((p[0] + s * (q[0] - p[0]), p[1] + s * (q[1] - p[1])))
    return out


def halfplane(w: np.ndarray, bias: bool, box: Box, sign: float = 1.0) -> list[tuple[float, float]]:
    """The part of ``box`` where ``sign * (w . x + b) >= 0``, as a polygon (maybe empty)."""
    a, b, c = line_coefficients(w, bias)
    return clip(box.corners(), sign * a, sign * b, sign * c)


def boundary_segment(
    w: np.ndarray, bias: bool, box: Box, level: float = 0.0
) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """Where the line ``w . x + b = level`` crosses ``box``; None if it misses or w = 0."""
    a, b, c = line_coefficients(w, bias)
    if a == 0.0 and b == 0.0:
        return None
    pts: list[tuple[float, float]] = []
    if b != 0.0:
        for x in (box.x0, box.x1):
            yv = (level - c - a * x) / b
            if box.y0 <= yv <= box.y1:
                pts.append((x, yv))
    if a != 0.0:
        for yv in (box.y0, box.y1):
            x = (level - c - b * yv) / a
            if box.x0 <= x <= box.x1:
                pts.append((x, yv))
    pts = sorted(set(pts))
    if len(pts) < 2:
        return None
    return pts[0], pts[-1]
