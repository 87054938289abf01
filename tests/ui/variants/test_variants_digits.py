"""The variants page's digits, read from the file scikit-learn ships, are load_digits' own."""

import subprocess
import sys
from pathlib import Path

import numpy as np

from ui.variants.figures import bundled_digits


def test_the_bundled_digits_are_load_digits_scaled_to_0_1():
    from sklearn.datasets import load_digits

    X, target = bundled_digits()
    d = load_digits()
    np.testing.assert_array_equal(X, np.asarray(d.data, dtype=np.float64) / 16.0)
    np.testing.assert_array_equal(target, d.target)
    assert X.shape == (1797, 64) and target.dtype == np.int64


def test_reading_them_does_not_import_scikit_learn():
    code = "import sys; from ui.variants.figures import bundled_digits; bundled_digits(); "
    code += "print('sklearn' in sys.modules)"
    root = Path(__file__).resolve().parents[3]
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=root
    )
    assert out.stdout.strip() == "False"
