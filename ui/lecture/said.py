"""Words kept as messages of the catalogue with their values, written where they are shown.

A cache that keeps words for every session keeps them so (:class:`Said`), never as
sentences of one language: :meth:`Said.text` writes them in the language of the run that
shows them, numbers with its decimal sign. Choices are ordered by their values
(:func:`pick`), the same order in every language.

May import: ``numpy``, ``ui.look.numbers``, ``ui.words``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ui.look.numbers import number, spoken, vector_text
from ui.words import t


@dataclass(frozen=True)
class Fixed:
    """A number written with a format of its own (``".2f"``, ``".0%"``), in the reader's
    decimal sign."""

    value: float
    spec: str


@dataclass(frozen=True)
class Said:
    """A message of the catalogue (marked with ``N_``) and its values, written where it is
    shown (:meth:`text`): a value is text as it is (notation), a number (int or float:
    ``number``), a vector (a tuple of floats: ``vector_text``), a :class:`Fixed` or a
    :class:`Said`."""

    message: str
    values: tuple[tuple[str, Any], ...] = ()

    def text(self) -> str:
        """The message in this run's language, its values written as this language does."""
        return t(self.message).format(**{name: written(v) for name, v in self.values})


def said(message: str, **values: Any) -> Said:
    return Said(message, tuple(values.items()))


def vector(w: Any) -> tuple[float, ...]:
    """A vector as a value of a :class:`Said` (a tuple of floats)."""
    return tuple(float(v) for v in np.asarray(w, dtype=float))


def written(value: Any) -> str:
    """A value of a :class:`Said` (or a choice) as this run's language writes it."""
    if isinstance(value, Said):
        return value.text()
    if isinstance(value, Fixed):
        return spoken(format(value.value, value.spec))
    if isinstance(value, tuple):
        return vector_text(np.asarray(value, dtype=float))
    if isinstance(value, int | float) and not isinstance(value, bool):
        return number(value)
    return str(value)


def pick(right: Any, others: list[Any]) -> tuple[tuple[Any, ...], int]:
    """Up to four distinct choices in a fixed order, the right one among them."""
    choices = [right]
    for o in others:
        if o not in choices and len(choices) < 4:
            choices.append(o)
    choices.sort(key=_natural)
    return tuple(choices), choices.index(right)


def _natural(choice: Any) -> tuple[float, str]:
    """Choices in the order a reader expects: by their first number, then as values (the
    same order in every language)."""
    return (_first_number(choice), repr(choice))


def _first_number(value: Any) -> float:
    if isinstance(value, Said):
        return next((_first_number(v) for _, v in value.values), 0.0)
    if isinstance(value, tuple):
        return float(value[0]) if value else 0.0
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    return 0.0
