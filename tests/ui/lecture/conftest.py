"""The lecture's light pages' tests: a fresh SQLite store each, as the app's store (links),
the rooms seen lately forgotten."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import perceptron_store as store_mod
from ui.app import links
from ui.classmode import classroom as cr


@pytest.fixture
def s(tmp_path) -> Iterator[store_mod.Store]:
    made = store_mod.open_store(str(tmp_path / "light.sqlite3"))
    links.use_store(made)
    cr.forget_recent()
    yield made
    links.use_store(None)
    made.close()
