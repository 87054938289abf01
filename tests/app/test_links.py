"""Links that carry the data, through AppTest: an upload or an edit puts
``data=<id>`` in the URL, and a new session opened with that URL shows the same points.

A new ``AppTest`` is a new session, as a reload, a new tab, a friend's browser or a
websocket reconnecting to another server would be; the store is a real SQLite file.
"""

import time

import numpy as np
import pytest
from apptest_helpers import open_app

import perceptron_store as store
from perceptron_core import make_dataset
from ui.app import links
from ui.margin import lab

X0, Y0 = make_dataset("separable", n=40, seed=0)  # the default dataset


@pytest.fixture
def fresh_store(tmp_path):
    s = store.open_store(f"sqlite:///{tmp_path / 'links.sqlite3'}")
    links.use_store(s)
    yield s
    links.use_store(None)


def shared(at) -> tuple[np.ndarray, np.ndarray, str] | None:
    return at.session_state["data_custom"] if "data_custom" in at.session_state else None  # noqa: SIM401


def notices(at) -> str:
    return " ".join(w.value for w in at.warning)


def link_of(at) -> str:
    data_id = at.query_params.get("data")
    assert data_id, f"no data= in the URL {dict(at.query_params)}"
    return data_id[0] if isinstance(data_id, list) else data_id


def test_drawn_points_are_in_the_link_and_a_new_session_opens_them(fresh_store):
    at = open_app("pages/margin.py")
    assert "data" not in at.query_params  # generated data: the settings say it all
    lab.apply_event(at.session_state, "moved", {"i": 0, "x": 0.25, "y": -0.5, "v": 0})
    at.run()
    X, y, _ = shared(at)
    data_id = link_of(at)
    assert data_id == store.dataset_id(X, y) and store.valid_id(data_id)
    other = open_app("pages/margin.py", {"data": data_id})  # reload, new tab, other server
    assert not other.exception
    X2, y2, name = shared(other)
    assert np.array_equal(X2, X) and np.array_equal(y2, y) and name == links.FROM_LINK
    assert X2[0].tolist() == [0.25, -0.5]
    assert link_of(other) == data_id  # the link stays in the URL
    assert any("data from a link (40 points)" in i.value for i in other.sidebar.info)
    other.switch_page("pages/lecture.py").run()  # the lecture steps through them
    assert not other.exception and np.array_equal(shared(other)[0], X)


def test_an_upload_is_in_the_link_and_back_to_generated_drops_it(fresh_store):
    X = np.array([[1.0, 2.0], [2.0, 1.0], [-1.0, -1.0], [-1.0, 1.0]])
    y = np.array([1.0, 1.0, -1.0, -1.0])
    at = open_app("pages/lecture.py", session={"data_custom": (X, y, "four.csv")})
    data_id = link_of(at)
    assert store.load_dataset(fresh_store, data_id)[0].tolist() == X.tolist()
    at.button(key="data_back").click().run()
    assert "data" not in at.query_params and shared(at) is None


def test_undo_history_stays_in_the_session_and_the_link_follows_the_present(fresh_store):
    at = open_app("pages/margin.py")
    lab.apply_event(at.session_state, "flipped", {"i": 3, "v": 0})
    at.run()
    flipped = link_of(at)
    at.button(key="mar_undo").click().run()
    assert "data" not in at.query_params  # back at the generated data
    at.button(key="mar_redo").click().run()
    assert link_of(at) == flipped  # the same points, the same id
    again = open_app("pages/margin.py", {"data": flipped})
    assert not again.button(key="mar_undo").value and again.button(key="mar_undo").disabled


@pytest.mark.parametrize(
    ("raw", "says"),
    [
        ("abcdefghijkl", "No data are stored under the link's id abcdefghijkl"),  # well formed
        ("<script>alert(1)</script>", "is not an id this app makes"),
        ("A" * 5000, "is not an id this app makes"),
        ("abc", "is not an id this app makes"),
        ("ABCDEFGHIJKL", "is not an id this app makes"),  # the alphabet is lower case
    ],
)
def test_an_unknown_or_malformed_id_says_so_and_shows_the_default_dataset(fresh_store, raw, says):
    at = open_app(query={"data": raw})  # the notices show on arrival
    assert not at.exception
    assert says in notices(at)
    assert "<script>" not in notices(at)  # shown as text (escaped), never as markup
    assert shared(at) is None and "data" not in at.query_params


def test_an_expired_link_says_so(fresh_store):
    X, y = X0[:5], Y0[:5]
    data_id = store.save_dataset(fresh_store, X, y, ttl=0.05)
    time.sleep(0.2)
    at = open_app(query={"data": data_id})
    assert "may have expired" in notices(at) and shared(at) is None


def test_a_store_that_cannot_be_reached_keeps_the_data_in_the_session_and_says_so_once(
    tmp_path,
):
    blocker = tmp_path / "blocker"
    blocker.write_text("a file where the store's folder should be")  # even root cannot
    down = store.open_store(f"sqlite:///{blocker / 'store.sqlite3'}")
    links.use_store(down)
    try:
        at = open_app("pages/margin.py")
        said = []  # every toast of every run
        for k in range(3):
            lab.apply_event(at.session_state, "moved", {"i": 0, "x": 0.1 * k, "y": 0, "v": k})
            at.run()
            assert not at.exception
            said += [t.value for t in at.toast]
        assert shared(at)[0][0].tolist() == [0.2, 0.0]  # the edits are kept in the session
        assert "data" not in at.query_params
        # back up: the next edit is kept and the link carries it
        links.use_store(store.open_store(f"sqlite:///{tmp_path / 'up.sqlite3'}"))
        lab.apply_event(at.session_state, "moved", {"i": 0, "x": 0.5, "y": 0, "v": 3})
        at.run()
        assert link_of(at) == store.dataset_id(*shared(at)[:2])
        said += [t.value for t in at.toast]
        assert sum("Links do not keep your data right now" in t for t in said) == 1, said
        assert any("Links keep your data again" in t for t in said), said
    finally:
        links.use_store(None)


def test_a_store_full_of_recent_datasets_keeps_the_room_refuses_new_data_and_says_so(tmp_path):
    """Someone filled the store with new datasets: a student's drawn points are not stored
    (they stay in the tab and the toast says why, once), no dataset opened this week is
    evicted for them, and a class's room is untouched."""
    value = b"v" * 20_000
    one = store.entry_size("dataset:" + "a" * 22, value)
    full = store.open_store(f"sqlite:///{tmp_path / 'full.sqlite3'}", max_bytes=4 * one)
    full.put("room:ABCDEF", b"the room", ttl=3600)
    earlier = ["dataset:" + c * 22 for c in "abc"]  # datasets may fill 3 of the 4
    for key in earlier:
        full.put(key, value, ttl=3600)
    links.use_store(full)
    try:
        at = open_app("pages/margin.py")
        said = []
        for k in range(3):
            lab.apply_event(at.session_state, "moved", {"i": 0, "x": 0.1 * k, "y": 0, "v": k})
            at.run()
            assert not at.exception
            said += [t.value for t in at.toast]
        assert shared(at)[0][0].tolist() == [0.2, 0.0]  # kept in the tab
        assert "data" not in at.query_params
        assert sum("full of datasets opened in the last week" in t for t in said) == 1, said
        assert all(full.get(key) == value for key in earlier)
        assert full.get("room:ABCDEF") == b"the room"
    finally:
        links.use_store(None)
        full.close()


def test_a_flood_of_edits_is_written_at_most_at_the_rate_limit_and_says_so(fresh_store):
    at = open_app("pages/margin.py")
    said, ids = [], set()
    for k in range(60):  # 60 edits back to back, far faster than a hand drags
        lab.apply_event(at.session_state, "moved", {"i": 0, "x": k / 100, "y": 0, "v": k})
        at.run()
        said += [t.value for t in at.toast]
        ids.add(at.query_params.get("data"))
    written = sum(store.load_dataset(fresh_store, i) is not None for i in ids if isinstance(i, str))
    assert written < 60  # the limit held: not every edit was written
    assert written >= links.BURST  # but the first burst was, at once
    assert sum("Many edits at once" in t for t in said) == 1, said


def test_redis_stopped_and_started_again_under_a_running_class(tmp_path):
    """The Redis backend for real: a class's data survive a Redis restart; while it is
    down the session keeps its data and is told once."""
    from store.conftest import RedisServer  # tests/store's real redis-server

    redis = RedisServer(tmp_path)
    redis.start()
    links.use_store(store.open_store(redis.url))
    try:
        at = open_app("pages/margin.py")
        lab.apply_event(at.session_state, "moved", {"i": 0, "x": 0.5, "y": 0.5, "v": 0})
        at.run()
        first = link_of(at)
        redis.stop()  # Redis is gone: the page goes on, the data stay in the session
        said = []
        lab.apply_event(at.session_state, "moved", {"i": 0, "x": 0.6, "y": 0.5, "v": 1})
        at.run()
        assert not at.exception and shared(at)[0][0].tolist() == [0.6, 0.5]
        said += [t.value for t in at.toast]
        redis.start()  # back on the same port, empty (no persistence)
        lab.apply_event(at.session_state, "moved", {"i": 0, "x": 0.7, "y": 0.5, "v": 2})
        at.run()
        said += [t.value for t in at.toast]
        assert any("Links do not keep your data right now" in t for t in said), said
        assert any("Links keep your data again" in t for t in said), said
        later = open_app("pages/margin.py", {"data": link_of(at)})  # another session
        assert shared(later)[0][0].tolist() == [0.7, 0.5] and link_of(later) != first
    finally:
        redis.stop()
        links.use_store(None)


def test_a_paused_redis_costs_one_timeout_not_one_per_run(tmp_path, monkeypatch):
    """A Redis that hangs (SIGSTOP) times out once; the next runs skip the store for
    ``links.BACK_OFF_S`` instead of each waiting on it, and the data stay in the session.
    Judged by the calls that reached the paused Redis, not by the runs' times (a busy
    machine makes any run slow); the back-off is made long enough to outlast them."""
    from store.conftest import RedisServer

    class Counted:
        """The Redis store, counting the calls made to it."""

        def __init__(self, inner: store.Store) -> None:
            self.inner, self.calls = inner, 0

        def __getattr__(self, name: str) -> object:
            self.calls += 1
            return getattr(self.inner, name)

    redis = RedisServer(tmp_path)
    redis.start()
    counted = Counted(store.open_store(redis.url))
    links.use_store(counted)  # type: ignore[arg-type]
    monkeypatch.setattr(links, "BACK_OFF_S", 120.0)
    try:
        at = open_app("pages/margin.py")
        redis.pause()
        calls, took = [], []
        for k in range(3):
            before = counted.calls
            lab.apply_event(at.session_state, "moved", {"i": 0, "x": k / 10, "y": 0, "v": k})
            t0 = time.monotonic()
            at.run()
            took.append(time.monotonic() - t0)
            calls.append(counted.calls - before)
            assert not at.exception
        assert calls[0] >= 1 and took[0] > links.SLOW_S, (calls, took)  # waited for the timeout
        assert calls[1:] == [0, 0], (calls, took)  # the next runs did not ask the paused Redis
        assert shared(at)[0][0].tolist() == [0.2, 0.0]
    finally:
        redis.stop()
        links.use_store(None)
        links._DOWN_UNTIL[0] = 0.0


def test_a_store_setting_it_cannot_read_leaves_the_pages_working(monkeypatch):
    monkeypatch.setenv("PERCEPTRON_STORE", "ftp://nowhere")
    links.use_store(None)
    try:
        at = open_app("pages/margin.py")
        lab.apply_event(at.session_state, "flipped", {"i": 0, "v": 0})
        at.run()
        assert not at.exception and shared(at) is not None
        assert any("Links do not keep your data" in t.value for t in at.toast)
    finally:
        links.use_store(None)
