"""The spam lesson's cached run (``ui.server.cache``): 12 e-mails, a few entries."""

from __future__ import annotations

import numpy as np

from perceptron_core import Trace, spam_features, train
from ui.server.cache import cached
from ui.spam.figures import VOCABULARIES

SPAM_MAX_EPOCHS = 50  # the e-mails are separable: training stops after a few passes


@cached(max_mb=1)
def spam_run(vocab: str, rule: str) -> tuple[np.ndarray, np.ndarray, Trace]:
    """(X, y, trace): the labelled e-mails as word counts and the perceptron trained on
    them with the BIAS feature, in the given order, every step recorded."""
    X, y = spam_features(VOCABULARIES[vocab])
    trace = train(X, y, bias=True, rule=rule, max_epochs=SPAM_MAX_EPOCHS, record_steps=True)
    return X, y, trace
