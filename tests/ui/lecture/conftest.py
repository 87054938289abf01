"""The lecture's tests: for the light pages, a fresh SQLite store each, as the app's store
(links), the rooms seen lately forgotten; for the chart's scene, its cases (``case``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import perceptron_store as store_mod
from tests.ui.lecture.scene_cases import CASES, run_of, whole_scene
from ui.app import links
from ui.classmode import classroom as cr
from ui.compute.model import Run


@pytest.fixture
def s(tmp_path) -> Iterator[store_mod.Store]:
    made = store_mod.open_store(str(tmp_path / "light.sqlite3"))
    links.use_store(made)
    cr.forget_recent()
    yield made
    links.use_store(None)
    made.close()


@pytest.fixture(params=CASES, ids=lambda c: f"{c[0]}-{c[1]}-{'bias' if c[2] else 'origin'}")
def case(request: pytest.FixtureRequest) -> tuple[Run, dict]:
    """A lecture chart's case: its run and its whole scene (``scene_cases``)."""
    return run_of(*request.param), whole_scene(*request.param)
