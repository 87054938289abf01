"""The dataset registry: one signature, declared ranges, seeded and reproducible."""

import inspect

import numpy as np
import pytest

from perceptron_core import DATASETS, NotSeparableError, make_dataset, max_margin, word_counts


@pytest.mark.parametrize("name", sorted(DATASETS))
def test_every_generator_gives_finite_2d_points_with_labels_pm1(name):
    spec = DATASETS[name]
    X, y = make_dataset(name, n=spec.n_default, seed=1)
    assert X.shape == (spec.n_default, 2)
    assert np.isfinite(X).all()
    assert set(np.unique(y)) <= {-1.0, 1.0}
    assert len(np.unique(y)) == 2  # both classes present


@pytest.mark.parametrize("name", sorted(DATASETS))
def test_every_generator_shares_one_signature(name):
    params = list(inspect.signature(DATASETS[name].make).parameters.values())
    assert [p.name for p in params[:2]] == ["n", "rng"]
    keyword_only = {p.name for p in params[2:] if p.kind is p.KEYWORD_ONLY}
    assert keyword_only == {p.name for p in DATASETS[name].params}


@pytest.mark.parametrize("name", sorted(DATASETS))
def test_same_seed_same_data_at_every_corner_of_the_ranges(name):
    spec = DATASETS[name]
    for corner in ("low", "high"):
        params = {p.name: getattr(p, corner) for p in spec.params}
        for n in {spec.n_min, spec.n_max}:
            a = make_dataset(name, n=n, seed=5, **params)
            b = make_dataset(name, n=n, seed=5, **params)
            np.testing.assert_array_equal(a[0], b[0])
            np.testing.assert_array_equal(a[1], b[1])
            assert a[0].shape == (n, 2) and np.isfinite(a[0]).all()


@pytest.mark.parametrize("name", [k for k, d in DATASETS.items() if not d.fixed_size])
def test_other_seed_other_data(name):
    assert not np.array_equal(make_dataset(name, seed=1)[0], make_dataset(name, seed=2)[0])


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("margin", [0.05, 0.3, 0.9])
def test_separable_has_at_least_the_chosen_margin_in_the_plane(seed, margin):
    from sklearn.svm import SVC

    X, y = make_dataset("separable", n=100, seed=seed, margin=margin, radius=2.0, offset=1.0)
    svm = SVC(kernel="linear", C=1e10).fit(X, y)  # hard margin with a free bias
    assert 1.0 / np.linalg.norm(svm.coef_) >= margin * (1 - 1e-4)
    assert np.linalg.norm(X, axis=1).max() <= 2.0 + 1e-12


@pytest.mark.parametrize("name", [k for k, d in DATASETS.items() if d.separable is True])
def test_declared_separable_sets_are_separable(name):
    for seed in range(5):
        max_margin(*make_dataset(name, seed=seed), bias=True)


@pytest.mark.parametrize("name", [k for k, d in DATASETS.items() if d.separable is False])
def test_declared_non_separable_sets_are_not(name):
    for seed in range(5):
        with pytest.raises(NotSeparableError):
            max_margin(*make_dataset(name, seed=seed), bias=True)


def test_xor_with_no_spread_is_the_four_integer_corners():
    X, y = make_dataset("xor", n=4, spread=0.0)
    assert X.tolist() == [[1, 1], [-1, -1], [1, -1], [-1, 1]]
    assert y.tolist() == [-1, -1, 1, 1]


def test_spam_features_are_word_counts_and_need_the_bias():
    assert word_counts("FREE money, free!").tolist() == [2.0, 1.0]
    assert word_counts("freedom of moneyed people").tolist() == [0.0, 0.0]
    X, y = make_dataset("spam")
    assert X[0].tolist() == [2.0, 2.0] and y[0] == 1.0
    max_margin(X, y, bias=True)
    with pytest.raises(NotSeparableError, match="origin"):  # an e-mail with neither word
        max_margin(X, y, bias=False)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"name": "moons"}, "name must be one of"),
        ({"name": "separable", "n": 3}, "n must be between 4 and 500"),
        ({"name": "separable", "n": 10_000}, "n must be between"),
        ({"name": "separable", "n": -5}, "n must be an integer >= 1"),
        ({"name": "four_points", "n": 10}, "n must be between 4 and 4"),
        ({"name": "separable", "margin": 5.0}, "margin must be between 0.05 and 0.9"),
        ({"name": "separable", "margin": float("nan")}, "margin must be between"),
        ({"name": "separable", "margin": "wide"}, "margin must be a number"),
        ({"name": "separable", "colour": 1}, "unknown parameter"),
        ({"name": "xor", "seed": -1}, "seed must be an integer >= 0"),
    ],
)
def test_bad_parameters_name_the_problem(kwargs, message):
    name = kwargs.pop("name")
    with pytest.raises(ValueError, match=message):
        make_dataset(name, **kwargs)


def test_declared_defaults_lie_in_their_ranges():
    for spec in DATASETS.values():
        assert spec.n_min <= spec.n_default <= spec.n_max
        for p in spec.params:
            assert p.low <= p.default <= p.high and p.step > 0
