"""One way to write a number for a person (``ui.kit.numbers``): 5,940 not 5.94e+03, never
"−0", and the minus sign U+2212."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ui.kit.numbers import MINUS, number, vector_text


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (5940, "5,940"),
        (5940.4, "5,940"),
        (11400, "11,400"),
        (1_000_000_000, "1,000,000,000"),
        (999.4, "999"),
        (999.6, "1,000"),
        (0.49123, "0.491"),
        (0.00123, "0.00123"),
        (0.5, "0.5"),
        (1.0, "1"),
        (0, "0"),
        (-0.0, "0"),
        (-2.5, "−2.5"),
        (-5940, "−5,940"),
        (-0.0001, "−0.0001"),  # 3 significant digits keep it: it is not 0
        (1.2e-7, "1.2e−7"),  # below 1e−4: a power of ten, no padded zero
        (float("nan"), "nan"),
        (float("inf"), "∞"),
        (float("-inf"), "−∞"),
    ],
)
def test_number_writes_what_a_student_reads(value, text):
    assert number(value) == text


def test_digits_and_the_minus_sign():
    assert number(0.49123, 2) == "0.49" and number(-0.49123, 4) == "−0.4912"
    assert MINUS == "\u2212" and number(-1) == "\u22121"
    assert number(-1e-12, 3) != "0"  # small is not zero
    for v in (-0.0, -1e-300 * 1e-300, -0.0004 * 0):  # what is zero is "0", never "−0"
        assert number(v) == "0"


def test_vector_text():
    assert vector_text([0.5, -1, 1]) == "(0.5, −1, 1)"
    assert vector_text([5940.0, -0.0]) == "(5,940, 0)"


def read(text: str) -> float:
    return float(text.replace(",", "").replace(MINUS, "-"))


@given(
    st.floats(min_value=1e-3, max_value=1e9, allow_nan=False, allow_infinity=False),
    st.booleans(),
)
def test_number_is_within_half_a_percent(size, negative):
    v = -size if negative else size
    text = number(v)
    assert "-" not in text and "e" not in text  # U+2212 only; no power of ten in this range
    assert text.startswith(MINUS) == negative
    assert math.isclose(read(text), v, rel_tol=0.005), (v, text)


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_number_never_writes_minus_zero(v):
    text = number(v)
    assert "-" not in text
    if text.startswith(MINUS):
        assert read(text) < 0, (v, text)
