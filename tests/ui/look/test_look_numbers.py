"""One way to write a number for a person (``ui.look.numbers``): 5,940 not 5.94e+03, never
"−0", and the minus sign U+2212."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ui.look.numbers import MINUS, number, percent, signed, tex, vector_text


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


finite = st.floats(allow_nan=False, allow_infinity=False)


@given(finite, st.integers(min_value=1, max_value=6))
def test_number_round_trips_to_its_digits_and_never_goes_exponential_upwards(v, digits):
    text = number(v, digits)
    assert "e+" not in text and "-" not in text, (v, text)
    if text == "0":
        assert v == 0  # only zero is written "0": a small value keeps its digits
        return
    back = read(text)
    if abs(v) >= 999.5:  # the whole number, with thousands separators
        assert "e" not in text and abs(back - v) <= 0.5 * (1 + 1e-15 * abs(v)), (v, text)
    else:
        assert math.isclose(back, v, rel_tol=0.5 * 10 ** (1 - digits) + 1e-15), (v, text)


@pytest.mark.parametrize(
    ("value", "text"),
    [(3, "+3"), (-0.5, "−0.5"), (0.0, "0"), (-0.0, "0"), (5940.2, "+5,940"), (2e-15, "+2e−15")],
)
def test_signed_writes_a_change_with_its_sign(value, text):
    assert signed(value) == text


@given(finite)
def test_signed_is_number_with_a_sign(v):
    text = signed(v)
    assert text == "0" if v == 0 else text[0] in "+" + MINUS, (v, text)
    assert text.removeprefix("+") == number(v)


@pytest.mark.parametrize(
    ("fraction", "decimals", "text"),
    [
        (0.1234, 1, "12.3%"),
        (0.0, 1, "0.0%"),
        (-0.0001, 1, "0.0%"),  # never "−0.0%"
        (-0.25, 0, "−25%"),
        (12.345, 1, "1,234.5%"),
        (1.0, 1, "100.0%"),
    ],
)
def test_percent(fraction, decimals, text):
    assert percent(fraction, decimals) == text


@given(finite, st.integers(min_value=0, max_value=3))
def test_percent_is_never_minus_zero_nor_exponential(v, decimals):
    text = percent(v, decimals)
    assert "e" not in text and "-" not in text and text.endswith("%"), (v, text)
    if text.startswith(MINUS):  # a minus only on what does not round to 0
        assert v < 0 and text.strip(MINUS + "0.%") != "", (v, text)


@pytest.mark.parametrize(
    ("value", "text"),
    [(5940, "5{,}940"), (-2.5, "-2.5"), (0.0, "0"), (1.2e-7, r"1.2 \cdot 10^{-7}")],
)
def test_tex_writes_numbers_for_latex(value, text):
    assert tex(value) == text


@given(finite)
def test_tex_has_no_unicode_minus_and_no_bare_comma(v):
    text = tex(v)
    assert MINUS not in text and "e" not in text
    assert "," not in text.replace("{,}", "")
