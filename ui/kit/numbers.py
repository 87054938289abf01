"""One way to write a number for a person: 5,940 not 5.94e+03, 0.00123 not 1.23e-03,
0 not −0.00, and the minus sign "−" (U+2212), which screen readers say as "minus"."""

from __future__ import annotations

import math

MINUS = "\u2212"


def number(value: float, digits: int = 3) -> str:
    """``value`` to ``digits`` significant digits, for text a student reads.

    Parameters
    ----------
    value : float
    digits : int
        Significant digits of a value under 1,000 in size; from 1,000 up the
        whole number is written with thousands separators (5,940; 11,400).

    Returns
    -------
    str
        "5,940", "0.496", "0.00123", "1.2e−07" (below 1e−4), "0", "−2.5", "∞", "nan".
    """
    v = float(value)
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "∞" if v > 0 else MINUS + "∞"
    text = f"{round(v):,}" if abs(v) >= 999.5 else f"{v:.{digits}g}"
    if "e" in text:  # below 1e-4 in size: a power of ten, without the padded zero
        mantissa, exponent = text.split("e")
        text = f"{mantissa}e{int(exponent)}"
    if float(text.replace(",", "").replace(MINUS, "-")) == 0.0:
        return "0"  # never "-0" or "-0.00"
    return text.replace("-", MINUS)


def vector_text(v: object, digits: int = 3) -> str:
    """A vector as text: (0.5, −1, 1)."""
    return "(" + ", ".join(number(x, digits) for x in v) + ")"  # type: ignore[attr-defined]
