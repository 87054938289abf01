"""Pure helpers of the Beyond linear page: the remedies' error curves and the text sections."""

import numpy as np

from perceptron_core import make_dataset, mistakes, train
from ui.look.text import sections
from ui.xor.runs import error_per_epoch


def test_pocket_is_never_worse_than_the_plain_perceptron_and_only_improves():
    X, y = make_dataset("noisy", n=80, seed=3, noise=0.15)
    trace = train(X, y, max_epochs=25)
    errors = error_per_epoch(trace, X, y)
    assert len(errors["plain"]) == trace.n_epochs
    assert np.all(errors["pocket"] <= errors["plain"] + 1e-12)
    assert np.all(np.diff(errors["pocket"]) <= 1e-12)
    # the plain curve is the error of the weights at the end of each epoch
    w_end = trace.w_before(trace.n_examples * 3)
    assert errors["plain"][2] == mistakes(w_end, X, y).mean()


def test_averaged_error_matches_the_mean_of_the_weights_over_the_steps():
    X, y = make_dataset("noisy", n=40, seed=1, noise=0.2)
    trace = train(X, y, max_epochs=4)
    n = trace.n_examples
    steps = 2 * n
    w_avg = np.mean([trace.w_before(t + 1) for t in range(steps)], axis=0)
    # w in force after step t: the mean over the first two epochs' steps. The page sums
    # w_avg another way (last bits differ); the errors agree exactly because no point lies
    # within 1e-3 (relative) of the line
    assert error_per_epoch(trace, X, y)["averaged"][1] == mistakes(w_avg, X, y).mean()


def test_sections_cut_markdown_at_its_headings():
    parts = sections("## a\nfirst\n\n## b two\nsecond\nline\n")
    assert parts == {"a": "first", "b two": "second\nline"}
