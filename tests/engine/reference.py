"""Reference loops written straight from the handouts, in plain Python floats."""

TIES = {  # rule -> (is w.x == 0 a mistake on +1?, on -1?)
    "nonpositive": (True, True),
    "predict_gt": (True, False),
    "predict_ge": (False, True),
    "negative": (False, False),
}


def perceptron(X, y, *, bias=True, epochs=1000, w0=None, eta=1.0, orders=None, rule="nonpositive"):
    """Seed 001's algorithm, looping until a pass makes no mistake (seed 002).

    Returns (list of w after each mistake, starting with w0; list of (t, i); converged).
    """
    xs = [[float(v) for v in x] + ([1.0] if bias else []) for x in X]
    w = [0.0] * len(xs[0]) if w0 is None else [float(v) for v in w0]
    ws, where, t = [list(w)], [], 0
    for e in range(epochs):
        made = 0
        for i in orders[e] if orders is not None else range(len(xs)):
            a = sum(wj * xj for wj, xj in zip(w, xs[i], strict=True))
            if y[i] * a < 0 or (a == 0 and TIES[rule][0 if y[i] > 0 else 1]):
                w = [wj + eta * y[i] * xj for wj, xj in zip(w, xs[i], strict=True)]
                ws.append(list(w))
                where.append((t, i))
                made += 1
            t += 1
        if made == 0:
            return ws, where, True
    return ws, where, False


def averaged_and_voted(X, y, *, bias=True, epochs=10, stop=True):
    """Seed 003's voted and averaged perceptron training, literally: ``for iter = 1..T``,
    and with ``stop`` also ending after a pass that makes no mistake.

    Returns (list of (w, c) pairs of the voted perceptron, the averaged sum w_bar).
    """
    xs = [[float(v) for v in x] + ([1.0] if bias else []) for x in X]
    d = len(xs[0])
    w, c, w_bar = [0.0] * d, 0, [0.0] * d
    pairs = []
    for _ in range(epochs):
        made = 0
        for xi, yi in zip(xs, y, strict=True):
            a = sum(wj * xj for wj, xj in zip(w, xi, strict=True))
            if yi * a > 0:
                c += 1
            else:
                pairs.append((list(w), c))
                w_bar = [b + c * wj for b, wj in zip(w_bar, w, strict=True)]
                w = [wj + yi * xj for wj, xj in zip(w, xi, strict=True)]
                c = 1
                made += 1
        if stop and made == 0:
            break
    pairs.append((list(w), c))
    w_bar = [b + c * wj for b, wj in zip(w_bar, w, strict=True)]
    return pairs, w_bar
