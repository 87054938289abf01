"""One way to write a number for a person: 5,940 not 5.94e+03, 0.00123 not 1.23e-03,
0 not −0.00, and the minus sign "−" (U+2212), which screen readers say as "minus".

Python writes text with :func:`number` (and :func:`signed` for a change, :func:`percent`
for a share, :func:`tex` inside LaTeX, :func:`vector_text` for a vector); a Plotly chart
writes its hover texts with the d3 format :data:`D3` and its axes with :data:`AXIS`, which
never go exponential either.
"""

from __future__ import annotations

import math
from typing import Any

from ui import words

MINUS = "\u2212"
# d3 format of a number in a Plotly hover or text template ("%{y:" + D3 + "}"): 3
# significant digits in plain decimals with thousands separators, trailing zeros trimmed
# (5,940; 0.00123; 12,300), never "5.94e+3"; d3 drops the sign of what rounds to 0
D3 = ",.3~r"
# Plotly axis (and colour bar) settings for ticks a student reads: 20,000 and 0.0001,
# not 2×10⁴, 20k or 1e−4
AXIS: dict[str, Any] = {"exponentformat": "none", "separatethousands": True}


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
        "5,940", "0.496", "0.00123", "1.2e−7" (below 1e−4), "0", "−2.5", "∞", "nan".
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
    return spoken(text.replace("-", MINUS))


def spoken(text: str) -> str:
    """A number written in English ("5,940.5") as this run's language writes it: a decimal
    comma in French, German and Spanish ("0,491"), their grouping ("5 940", "5.940")."""
    decimal, group = words.symbols(words.language())
    if decimal == ".":
        return text
    return text.translate({ord("."): decimal, ord(","): group})


def signed(value: float, digits: int = 3) -> str:
    """A change, with its sign: "+3", "−0.5"; "0" (no sign) for what rounds to zero.

    For ``st.metric``'s delta pass ``delta_arrow`` too: Streamlit reads a delta as negative
    only if it starts with "-", never with "−".
    """
    text = number(value, digits)
    return text if text.startswith(MINUS) or text in ("0", "nan") else "+" + text


def percent(fraction: float, decimals: int = 1) -> str:
    """A share as a percentage with ``decimals`` decimals: 0.1234 → "12.3%", never "−0.0%"."""
    v = 100 * float(fraction)
    if not math.isfinite(v):
        return number(v) + "%"
    text = f"{v:,.{decimals}f}"
    if float(text.replace(",", "")) == 0.0:
        text = text.lstrip("-")
    return spoken(text.replace("-", MINUS)) + "%"


def tex(value: float, digits: int = 3) -> str:
    """:func:`number` inside LaTeX: "-" (KaTeX draws it as a minus sign), "5{,}940" (a
    thousands comma without the space LaTeX puts after a comma), "10^{-7}"; "∞" as \\infty."""
    text = number(value, digits).replace(MINUS, "-").replace(",", "{,}").replace("\u202f", r"\,")
    text = text.replace("∞", r"\infty")
    if "e" in text:  # 1.2e-7 -> 1.2 \cdot 10^{-7}
        mantissa, exponent = text.split("e")
        text = rf"{mantissa} \cdot 10^{{{exponent}}}"
    return text


# the nouns :func:`count` counts, with their plurals, for the catalogue
NOUNS: dict[str, tuple[str, str]] = {
    "day": words.Nn_("{n} day", "{n} days"),
    "dot product": words.Nn_("{n} dot product", "{n} dot products"),
    "epoch": words.Nn_("{n} epoch", "{n} epochs"),
    "label": words.Nn_("{n} label", "{n} labels"),
    "mistake": words.Nn_("{n} mistake", "{n} mistakes"),
    "multiply-add": words.Nn_("{n} multiply-add", "{n} multiply-adds"),
    "pass": words.Nn_("{n} pass", "{n} passes"),
    "point": words.Nn_("{n} point", "{n} points"),
    "random order": words.Nn_("{n} random order", "{n} random orders"),
    "random pick": words.Nn_("{n} random pick", "{n} random picks"),
    "run": words.Nn_("{n} run", "{n} runs"),
    "step": words.Nn_("{n} step", "{n} steps"),
    "student": words.Nn_("{n} student", "{n} students"),
    "test image": words.Nn_("{n} test image", "{n} test images"),
    "training image": words.Nn_("{n} training image", "{n} training images"),
    "training point": words.Nn_("{n} training point", "{n} training points"),
    "update": words.Nn_("{n} update", "{n} updates"),
    "vector": words.Nn_("{n} vector", "{n} vectors"),
    "weight vector": words.Nn_("{n} weight vector", "{n} weight vectors"),
}


def count(k: int, noun: str) -> str:
    """k and its noun (a key of :data:`NOUNS`) in this run's language, singular for exactly
    one in English: "1 point", "500 points", "3 passes"."""
    singular, plural = NOUNS[noun]
    return words.tn(singular, plural, int(k)).format(n=number(k))


def vector_text(v: object, digits: int = 3) -> str:
    """A vector as text: (0.5, −1, 1); with a decimal comma its parts are split by
    semicolons, (0,5; −1; 1)."""
    between = "; " if words.symbols(words.language())[0] == "," else ", "
    return "(" + between.join(number(x, digits) for x in v) + ")"  # type: ignore[attr-defined]
