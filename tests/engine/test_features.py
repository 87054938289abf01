"""Feature maps: the kernel identity, and which maps make XOR and circles separable."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from perceptron_core import FEATURE_MAPS, NotSeparableError, make_dataset, max_margin, train
from perceptron_core.features import quadratic

coords = st.floats(-100, 100, allow_nan=False)


@given(st.tuples(coords, coords), st.tuples(coords, coords))
def test_quadratic_map_is_the_squared_dot_product_kernel(x, z):
    px, pz = quadratic(np.array([x])), quadratic(np.array([z]))
    lhs = float(px[0] @ pz[0])
    rhs = float(np.dot(x, z)) ** 2
    assert lhs == pytest.approx(rhs, rel=1e-9, abs=1e-6)


@pytest.mark.parametrize(
    ("dataset", "params", "separable_maps"),
    [
        ("xor", {"spread": 0.1}, {"product", "quadratic"}),
        ("circles", {"noise": 0.05}, {"quadratic"}),
    ],
)
def test_which_maps_make_the_data_separable(dataset, params, separable_maps):
    X, y = make_dataset(dataset, n=80, seed=0, **params)
    for key, fmap in FEATURE_MAPS.items():
        Z = fmap.fn(X)
        assert Z.shape == (80, len(fmap.names))
        if key in separable_maps:
            max_margin(Z, y, bias=True)
            assert train(Z, y, bias=True, max_epochs=10_000).converged
        else:
            with pytest.raises(NotSeparableError):
                max_margin(Z, y, bias=True)


def test_maps_refuse_points_that_are_not_2d():
    with pytest.raises(ValueError, match=r"shape \(n, 2\)"):
        quadratic(np.zeros((3, 3)))
