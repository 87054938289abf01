"""perceptron_core: the online perceptron, its max-margin yardstick and its datasets.

A small, pure numpy engine (no Streamlit, no plotting) behind Perceptron Lab::

    from perceptron_core import train, max_margin, load_csv, NotSeparableError

    trace = train(X, y, bias=True)       # the bias is the constant feature 1, appended last
    mm = max_margin(X, y, bias=True)     # w*, gamma, R and the bound (R / gamma) ** 2
    trace.n_mistakes <= mm.bound         # the perceptron convergence theorem
"""

from .csvio import CSVError, load_csv, to_csv
from .datasets import DATASETS, Dataset, Param, make_dataset, word_counts
from .diagnostics import ProofCurves, proof_curves
from .features import FEATURE_MAPS, FeatureMap
from .margin import MaxMargin, NotSeparableError, max_margin
from .perceptron import RULES, Rule, Steps, Trace, augment, decision, mistakes, predict, train
from .variants import Pocket, averaged_weights, pocket, survival_counts, voted_predict

__all__ = [
    "DATASETS",
    "FEATURE_MAPS",
    "RULES",
    "CSVError",
    "Dataset",
    "FeatureMap",
    "MaxMargin",
    "NotSeparableError",
    "Param",
    "Pocket",
    "ProofCurves",
    "Rule",
    "Steps",
    "Trace",
    "augment",
    "averaged_weights",
    "decision",
    "load_csv",
    "make_dataset",
    "max_margin",
    "mistakes",
    "pocket",
    "predict",
    "proof_curves",
    "survival_counts",
    "to_csv",
    "train",
    "voted_predict",
    "word_counts",
]
