"""Random test streams: separable with a margin, and with label noise."""

import numpy as np


def separable_stream(seed, n=60, d=2, margin=0.1, offset=True):
    """Points in [-3, 3]^d labelled by a random hyperplane, with a gap around it."""
    rng = np.random.default_rng(seed)
    u = rng.standard_normal(d)
    u /= np.linalg.norm(u)
    b = rng.uniform(-1, 1) if offset else 0.0
    X = np.empty((0, d))
    while len(X) < n:
        cand = rng.uniform(-3, 3, (4 * n, d))
        s = cand @ u - b
        X = np.vstack([X, cand[np.abs(s) >= margin]])
    X = X[:n]
    y = np.where(X @ u - b > 0, 1.0, -1.0)
    if (y > 0).all() or (y < 0).all():
        y[0] = -y[0]
        X[0] = -X[0] + 2 * b * u  # reflect through the line to keep it separable
    return X, y


def noisy_stream(seed, n=60, d=2, noise=0.1):
    X, y = separable_stream(seed, n=n, d=d)
    flip = np.random.default_rng(seed + 1).random(n) < noise
    return X, np.where(flip, -y, y)
