"""Every page on the shared dataset works with uploaded data at the extremes ``load_csv`` allows.

``load_csv`` refuses coordinates beyond 1e6 in size, sets whose coordinates are all below
1e-6, and more than 5,000 rows; everything inside those limits is a valid upload, however
degenerate. Each dataset here goes through ``to_csv`` and ``load_csv`` (what an upload
does) into the session, and each page of the shared dataset must open without an
exception and without the catch-all's "Something went wrong", and say something sensible
about the data: its name in the page's own summary, and a warning where the set is
degenerate for that page.
"""

import re

import numpy as np
import pytest
from apptest_helpers import lecture_status, margin_numbers, markdown, open_app
from streamlit.testing.v1 import AppTest

from perceptron_core import load_csv, to_csv
from perceptron_core.csvio import LIMIT, MAX_ROWS, MIN_SCALE
from ui import shell
from ui.margin import edits


def _uploaded(X, y) -> tuple[np.ndarray, np.ndarray]:
    """The dataset as the sidebar's upload would hold it."""
    return load_csv(to_csv(np.asarray(X, float), np.asarray(y, float)).encode())


_rng = np.random.default_rng(0)
_MANY = _rng.uniform(-LIMIT, LIMIT, size=(MAX_ROWS, 2))
_M = MIN_SCALE
DATASETS = {
    "largest coordinates": (
        [[LIMIT, LIMIT], [LIMIT, -LIMIT], [-LIMIT, LIMIT], [-LIMIT, -LIMIT], [LIMIT, 0]],
        [1, 1, -1, -1, 1],
    ),
    "tiny coordinates": (
        [[_M, _M / 2], [_M / 2, _M], [-_M, -_M / 2], [-_M / 2, -_M]],
        [1, 1, -1, -1],
    ),
    "all one label": ([[2, 1], [1, 3], [-1, -2], [-3, -1], [0.5, 2.5]], [1, 1, 1, 1, 1]),
    "one point": ([[1, 2]], [1]),
    "duplicates": ([[1, 1]] * 4 + [[-1, -1]] * 3, [1] * 4 + [-1] * 3),
    "twins": ([[1, 1], [1, 1], [-2, 0]], [1, -1, -1]),  # one place, both labels
    "five thousand points": (_MANY, np.where(_MANY[:, 0] + 0.3 * _MANY[:, 1] > 0, 1, -1)),
}
NOT_SEPARABLE = {"twins"}
ONE_CLASS = {"all one label", "one point"}
SHARED_PAGES = [p.path for p in shell.PAGES if p.shared_data]
QUERY = {"pages/xor.py": {"xor_data": "shared"}, "pages/variants.py": {"var_data": "shared"}}


def _texts(at: AppTest, kind: str) -> str:
    return " ".join(el.value for el in getattr(at, kind))


def _check_lecture(at: AppTest, name: str, n: int) -> None:
    status = lecture_status(at)
    assert status.startswith(f"{name} · ")
    if name in NOT_SEPARABLE:
        assert "not separable" in status and "same place" in _texts(at, "warning")
    else:
        assert "bound (R/γ)²" in status


def _check_xor(at: AppTest, name: str, n: int) -> None:
    said = _texts(at, "success") + _texts(at, "error")
    assert re.search(rf"{re.escape(name)}: (converged after|\d+ mistakes in)", said), said
    if name in NOT_SEPARABLE:
        assert "z is on both sides at once" in markdown(at)
    else:
        assert "These data are separable" in _texts(at, "success")


def _check_sgd(at: AppTest, name: str, n: int) -> None:
    assert f"On {name}: **" in markdown(at)
    if name in NOT_SEPARABLE:
        assert "No line separates them at all" in _texts(at, "warning")


def _check_variants(at: AppTest, name: str, n: int) -> None:
    warned = "need 2 points of each class" in _texts(at, "warning")
    assert warned == (name in NOT_SEPARABLE | ONE_CLASS)
    assert "training points" in markdown(at)


def _check_proof(at: AppTest, name: str, n: int) -> None:
    assert f"**{name}** · this run: **M = " in markdown(at)
    if name in NOT_SEPARABLE:
        assert "**not separable**" in _texts(at, "error")


def _check_margin(at: AppTest, name: str, n: int) -> None:
    if n > edits.MAX_POINTS:
        assert f"at most {edits.MAX_POINTS} points" in _texts(at, "warning")
        return
    assert "mistakes M" in margin_numbers(at)  # the lab's numbers, in its instrument
    if name in NOT_SEPARABLE:
        assert "same place" in _texts(at, "error")
    if name in ONE_CLASS:
        assert "same label" in _texts(at, "info")


CHECKS = {
    "pages/lecture.py": _check_lecture,
    "pages/xor.py": _check_xor,
    "pages/sgd.py": _check_sgd,
    "pages/variants.py": _check_variants,
    "pages/proof.py": _check_proof,
    "pages/margin.py": _check_margin,
}


def test_every_shared_data_page_is_checked_here():
    assert set(SHARED_PAGES) == set(CHECKS)


def test_the_engine_cap_is_the_margin_lab_cap():
    assert LIMIT == edits.LIMIT


@pytest.mark.parametrize("name", list(DATASETS))
@pytest.mark.parametrize("page", SHARED_PAGES)
def test_every_shared_data_page_handles_every_allowed_extreme(page: str, name: str) -> None:
    X, y = _uploaded(*DATASETS[name])
    at = open_app(page, QUERY.get(page), {"data_custom": (X, y, name)})
    assert not at.exception, [e.value for e in at.exception]
    assert not [e.value for e in at.error if "Something went wrong" in e.value]
    size = "1 point" if len(y) == 1 else f"{len(y):,} points"
    assert f"Using your data: {name} ({size})." in _texts(at, "info")
    CHECKS[page](at, name, len(y))
