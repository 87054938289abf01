"""Cached engine calls for the experts and spam pages (``kit.cache``: by value, in a byte budget).

Both runs are small (the experts simulation is capped at 100 analysts and 2000 days,
about 0.1 s and 1.6 MB of weights; the spam run is 12 e-mails), so a few entries each.
"""

from __future__ import annotations

import numpy as np

from perceptron_core import ExpertsRun, Trace, simulate_experts, spam_features, train

from .kit.cache import cached
from .spam import VOCABULARIES

SPAM_MAX_EPOCHS = 50  # the e-mails are separable: training stops after a few passes


@cached(max_mb=8, heavy=True)
def experts_run(n: int, k: int, days: int, behaviour: str, seed: int) -> ExpertsRun:
    """``simulate_experts``, cached."""
    return simulate_experts(n=n, k=k, days=days, behaviour=behaviour, seed=seed)


@cached(max_mb=1)
def spam_run(vocab: str, rule: str) -> tuple[np.ndarray, np.ndarray, Trace]:
    """(X, y, trace): the labelled e-mails as word counts and the perceptron trained on
    them with the BIAS feature, in the given order, every step recorded."""
    X, y = spam_features(VOCABULARIES[vocab])
    trace = train(X, y, bias=True, rule=rule, max_epochs=SPAM_MAX_EPOCHS, record_steps=True)
    return X, y, trace
