"""The class's store tests: a fresh SQLite store each, the rooms seen lately forgotten."""

import pytest

import perceptron_store as store_mod
from ui.classmode import classroom as cr


@pytest.fixture
def s(tmp_path):
    st_ = store_mod.open_store(str(tmp_path / "s.sqlite3"))
    cr.forget_recent()
    yield st_
    st_.close()
