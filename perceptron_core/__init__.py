"""perceptron_core: the online perceptron, its max-margin yardstick and its datasets.

A small, pure numpy engine (no Streamlit, no plotting) behind Perceptron Lab::

    from perceptron_core import train, max_margin, load_csv, NotSeparableError

    trace = train(X, y, bias=True)       # the bias is the constant feature 1, appended last
    mm = max_margin(X, y, bias=True)     # w*, gamma, R and the bound (R / gamma) ** 2
    trace.n_mistakes <= mm.bound         # the perceptron convergence theorem
"""

from .csvio import CSVError, load_csv, to_csv
from .cycles import Cycle, epoch_mistakes, find_cycle
from .datasets import (
    DATASETS,
    DIGIT_PAIRS,
    SPAM_VOCABULARIES,
    Dataset,
    Param,
    make_dataset,
    spam_features,
    word_counts,
)
from .diagnostics import ProofCurves, proof_curves
from .experts import EXPERT_BEHAVIOURS, ExpertsRun, simulate_experts
from .features import FEATURE_MAPS, FeatureMap
from .generalization import (
    METHODS,
    EpochErrors,
    ManyRuns,
    epoch_errors,
    flip_labels,
    holdout_split,
    many_runs,
)
from .kernel import KernelTrace, kernel_decision, kernel_train, poly2_kernel
from .margin import MaxMargin, NotSeparableError, max_margin
from .perceptron import RULES, Rule, Steps, Trace, augment, decision, mistakes, predict, train
from .proof import (
    TIE_BREAKS,
    AdversarialTrace,
    Inequality,
    ProofCheck,
    adversarial_order,
    proof_check,
    start_bound,
    worst_case_set,
)
from .separability import Witness, nonseparability_witness
from .sgd import (
    LOSSES,
    BatchTrace,
    Loss,
    loss_step,
    margin_loss,
    minibatch_train,
    perceptron_criterion,
)
from .variants import (
    Pocket,
    averaged_weights,
    pocket,
    survival_counts,
    voted_predict,
    voted_score,
)

__all__ = [
    "DATASETS",
    "DIGIT_PAIRS",
    "EXPERT_BEHAVIOURS",
    "FEATURE_MAPS",
    "LOSSES",
    "METHODS",
    "RULES",
    "SPAM_VOCABULARIES",
    "TIE_BREAKS",
    "AdversarialTrace",
    "BatchTrace",
    "CSVError",
    "Cycle",
    "Dataset",
    "EpochErrors",
    "ExpertsRun",
    "FeatureMap",
    "Inequality",
    "KernelTrace",
    "Loss",
    "ManyRuns",
    "MaxMargin",
    "NotSeparableError",
    "Param",
    "Pocket",
    "ProofCheck",
    "ProofCurves",
    "Rule",
    "Steps",
    "Trace",
    "Witness",
    "adversarial_order",
    "augment",
    "averaged_weights",
    "decision",
    "epoch_errors",
    "epoch_mistakes",
    "find_cycle",
    "flip_labels",
    "holdout_split",
    "kernel_decision",
    "kernel_train",
    "load_csv",
    "loss_step",
    "make_dataset",
    "many_runs",
    "margin_loss",
    "max_margin",
    "minibatch_train",
    "mistakes",
    "nonseparability_witness",
    "perceptron_criterion",
    "pocket",
    "poly2_kernel",
    "predict",
    "proof_check",
    "proof_curves",
    "simulate_experts",
    "spam_features",
    "start_bound",
    "survival_counts",
    "to_csv",
    "train",
    "voted_predict",
    "voted_score",
    "word_counts",
    "worst_case_set",
]
