"""What a page computes does not outlive its run: results live in the byte-budgeted
caches (as pickles), never in a student's session.

A session lives as long as its tab, and 120 s more after the tab closes; before
``ui.server.guard.release`` every page's callbacks and fragments kept its engine results
alive in the session (10 MB a student at the largest settings: 1.5 GB after 240
cold opens of one server).
"""

import gc

import pytest
from apptest_helpers import lecture_step, open_app
from extremes import PAGES

import perceptron_core
from ui.compute.model import Run

RESULTS = (
    *(
        cls
        for cls in vars(perceptron_core).values()
        if isinstance(cls, type)
        and cls.__module__.startswith("perceptron_core")
        and hasattr(cls, "__dataclass_fields__")
        and cls.__dataclass_params__.frozen
        and not cls.__dataclass_params__.eq  # results (arrays inside), not settings
    ),
    Run,
)


def alive(before: frozenset[int] = frozenset()) -> dict[str, int]:
    """Engine results alive now (other than those in ``before``, by id), by class."""
    gc.collect()
    counts: dict[str, int] = {}
    for obj in gc.get_objects():
        if isinstance(obj, RESULTS) and id(obj) not in before:
            counts[type(obj).__name__] = counts.get(type(obj).__name__, 0) + 1
    return counts


def ids_alive() -> frozenset[int]:
    gc.collect()
    return frozenset(id(obj) for obj in gc.get_objects() if isinstance(obj, RESULTS))


def test_the_engine_results_checked_here_include_the_big_ones():
    names = {cls.__name__ for cls in RESULTS}
    assert {"Trace", "Run", "ProofCheck", "ExpertsRun"} <= names, names


@pytest.mark.parametrize("page", PAGES)
def test_no_engine_result_stays_alive_in_the_session_after_a_run(page):
    before = ids_alive()  # what other tests of this process may still hold
    at = open_app(f"pages/{page}.py")
    assert not at.exception
    if page == "lecture":  # a fragment rerun too: its arguments live with the session
        lecture_step(at, 1)
        assert not at.exception
    assert alive(before) == {}, page
