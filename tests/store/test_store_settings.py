"""Choosing a store from its setting, the size and expiry settings, the rate limit, and
what the module imports."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import perceptron_store as store_module
from perceptron_store import (
    DEFAULT_PATH,
    MAX_BYTES,
    MAX_COORD,
    MAX_POINTS,
    RateLimit,
    RedisStore,
    SQLiteStore,
    default_ttl,
    max_store_bytes,
    open_store,
)

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("PERCEPTRON_STORE", "PERCEPTRON_STORE_MAX_MB", "PERCEPTRON_STORE_TTL_DAYS"):
        monkeypatch.delenv(name, raising=False)


def test_default_is_sqlite_next_to_app_py_and_git_ignored() -> None:
    for setting in (None, "", "   "):
        store = open_store(setting)
        assert isinstance(store, SQLiteStore) and store.name == "sqlite"
        assert Path(store.path) == DEFAULT_PATH == ROOT / ".perceptron" / "store.sqlite3"
    assert (ROOT / "app.py").is_file()
    ignored = subprocess.run(
        ["git", "check-ignore", "-q", str(DEFAULT_PATH)], cwd=ROOT, check=False
    ).returncode
    assert ignored == 0, ".perceptron/ must be git-ignored"


def test_settings_choose_the_backend(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    redis = open_store("redis://127.0.0.1:6390/2")
    assert isinstance(redis, RedisStore) and redis.name == "redis"
    assert redis.location == "127.0.0.1:6390"
    assert isinstance(open_store("rediss://example.invalid:6380/0"), RedisStore)
    assert isinstance(open_store("unix:///run/redis.sock"), RedisStore)
    absolute = open_store(f"sqlite://{tmp_path}/a.sqlite3")
    assert isinstance(absolute, SQLiteStore) and absolute.path == f"{tmp_path}/a.sqlite3"
    four = open_store(f"sqlite:///{tmp_path}/a.sqlite3")  # sqlite:////tmp/...
    assert isinstance(four, SQLiteStore) and four.path == f"{tmp_path}/a.sqlite3"
    relative = open_store("sqlite://data/a.sqlite3")
    assert isinstance(relative, SQLiteStore) and relative.path == "data/a.sqlite3"
    plain = open_store(str(tmp_path / "b.sqlite3"))
    assert isinstance(plain, SQLiteStore) and plain.path == str(tmp_path / "b.sqlite3")
    monkeypatch.setenv("PERCEPTRON_STORE", "redis://10.0.0.5:6379/0")
    from_env = open_store()
    assert isinstance(from_env, RedisStore) and from_env.location == "10.0.0.5:6379"
    assert isinstance(open_store(str(tmp_path / "c.sqlite3")), SQLiteStore)  # given beats env


@pytest.mark.parametrize(
    ("setting", "match"),
    [
        ("ftp://host/file", "Unknown store"),
        ("postgres://db", "Unknown store"),
        ("sqlite://", "names no file"),
        ("redis://127.0.0.1:notaport/0", "cannot be read"),
    ],
)
def test_unreadable_settings(setting: str, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        open_store(setting)


def test_size_and_expiry_settings(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    assert max_store_bytes() == 256_000_000
    assert default_ttl() == 30 * 86_400
    monkeypatch.setenv("PERCEPTRON_STORE_MAX_MB", "0.5")
    monkeypatch.setenv("PERCEPTRON_STORE_TTL_DAYS", "2")
    assert max_store_bytes() == 500_000
    assert default_ttl() == 2 * 86_400
    store = open_store(str(tmp_path / "s.sqlite3"))
    assert isinstance(store, SQLiteStore) and store.max_bytes == 500_000
    redis = open_store("redis://127.0.0.1:6390/0")
    assert isinstance(redis, RedisStore) and redis.max_bytes == 500_000
    assert open_store(str(tmp_path / "s.sqlite3"), max_bytes=1234).max_bytes == 1234  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="positive"):
        open_store(str(tmp_path / "s.sqlite3"), max_bytes=0)


@pytest.mark.parametrize("bad", ["abc", "0", "-1", "nan", "inf", "1e999"])
def test_bad_size_or_expiry_settings_are_named(monkeypatch: pytest.MonkeyPatch, bad: str) -> None:
    monkeypatch.setenv("PERCEPTRON_STORE_MAX_MB", bad)
    with pytest.raises(ValueError, match="PERCEPTRON_STORE_MAX_MB"):
        open_store(None)
    monkeypatch.delenv("PERCEPTRON_STORE_MAX_MB")
    monkeypatch.setenv("PERCEPTRON_STORE_TTL_DAYS", bad)
    with pytest.raises(ValueError, match="PERCEPTRON_STORE_TTL_DAYS"):
        default_ttl()


def test_the_caps_are_the_csv_loaders() -> None:
    """An uploaded CSV that loads can always be stored (and the margin lab's table too)."""
    from perceptron_core import csvio

    assert MAX_POINTS == csvio.MAX_ROWS == 5_000
    assert MAX_BYTES == csvio.MAX_BYTES == 1_000_000
    assert MAX_COORD == csvio.LIMIT


# --------------------------------------------------------------------------- rate limit


def test_rate_limit_token_bucket() -> None:
    limit = RateLimit(rate_per_s=2.0, burst=3)
    assert [limit.allow(now=100.0) for _ in range(4)] == [True, True, True, False]
    assert limit.allow(now=100.4) is False  # 0.8 of a token
    assert limit.allow(now=100.5) is True  # one token after 0.5 s
    assert limit.allow(now=100.5) is False
    assert [limit.allow(now=1_000.0) for _ in range(4)] == [True, True, True, False]  # capped
    assert limit.allow(now=10.0) is False  # a clock going back gives nothing
    assert limit.allow(now=1_000.4) is False
    assert limit.allow(now=1_000.5) is True


def test_rate_limit_flood_from_one_session() -> None:
    limit = RateLimit(rate_per_s=1.0, burst=5)
    allowed = sum(limit.allow(now=t / 100) for t in range(1_000))  # 1,000 writes in 10 s
    assert allowed == 5 + 9  # the burst, then one a second


def test_rate_limit_on_the_real_clock() -> None:
    limit = RateLimit(rate_per_s=0.001, burst=2)
    assert [limit.allow() for _ in range(3)] == [True, True, False]


@pytest.mark.parametrize(
    ("rate", "burst"), [(0, 1), (-1, 1), (float("nan"), 1), (1, 0), (1, 1.5), (1, True)]
)
def test_rate_limit_refuses_bad_settings(rate: float, burst: int) -> None:
    with pytest.raises(ValueError):
        RateLimit(rate, burst)


# --------------------------------------------------------------------------- imports


def test_no_streamlit_and_no_redis_until_asked() -> None:
    code = (
        "import sys; import perceptron_store as s; "
        "assert 'streamlit' not in sys.modules, 'streamlit'; "
        "assert 'redis' not in sys.modules, 'redis early'; "
        "s.open_store('redis://127.0.0.1:1/0'); assert 'redis' in sys.modules"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert store_module.__all__ and all(hasattr(store_module, n) for n in store_module.__all__)
