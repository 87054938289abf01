"""The margin lab's edit reducer, and how an edit reaches the shared dataset.

AppTest cannot fire the drawing surface's events, so the event -> dataset path is
tested here: good events change exactly what they say, bad ones are refused with
a message and leave the data as they were.
"""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ui.lecture.restart import follow
from ui.look.geometry import Box
from ui.margin import edits, lab

BOX = Box(-5.0, 5.0, -5.0, 5.0)
X0 = np.array([[1.0, 2.0], [2.0, 1.0], [-1.0, -1.0], [-1.0, 1.0]])  # seed 001's four points
Y0 = np.array([1.0, 1.0, -1.0, -1.0])


def fresh() -> edits.History:
    return edits.start(X0, Y0)


def unchanged(result: edits.Result, history: edits.History) -> bool:
    return result.history is history and result.history.present.same(X0, Y0)


def test_moved_moves_one_point_and_is_undoable():
    h = fresh()
    r = edits.reduce(h, "moved", {"i": 2, "x": 0.5, "y": -0.25, "v": 0}, box=BOX)
    assert r.ok and r.note == "Moved point 3 to (0.5, −0.25)."  # points count from 1
    assert r.history.present.X[2].tolist() == [0.5, -0.25]
    assert np.array_equal(np.delete(r.history.present.X, 2, 0), np.delete(X0, 2, 0))
    assert np.array_equal(r.history.present.y, Y0)
    back = edits.reduce(r.history, "undo").history
    assert back.present.same(X0, Y0) and back.can_redo
    again = edits.reduce(back, "redo").history
    assert again.present.X[2].tolist() == [0.5, -0.25]


@pytest.mark.parametrize(
    ("event", "payload", "did", "undid"),
    [
        (
            "moved",
            {"i": 2, "x": 0.5, "y": -0.25},
            "Moved point 3 to (0.5, −0.25).",
            "Undid: moved point 3 back to (−1, −1).",
        ),
        (
            "added",
            {"x": 3, "y": 3, "label": -1},
            "Added point 5 at (3, 3) with label −1.",
            "Undid: took away point 5 (added at (3, 3)).",
        ),
        (
            "flipped",
            {"i": 0},
            "Flipped point 1 to label −1.",
            "Undid: flipped point 1 back to label +1.",
        ),
        (
            "deleted",
            {"i": 1},
            "Deleted point 2 at (2, 1) with label +1.",
            "Undid: put back point 2 at (2, 1) with label +1.",
        ),
    ],
)
def test_undo_and_redo_say_what_they_undid_and_redid(event, payload, did, undid):
    r = edits.reduce(fresh(), event, payload, box=BOX)
    assert r.note == did
    back = edits.reduce(r.history, "undo")
    assert back.note == undid and back.history.present.same(X0, Y0)
    again = edits.reduce(back.history, "redo")
    assert again.note == "Redid: " + did[0].lower() + did[1:]
    assert again.history.present.same(r.history.present.X, r.history.present.y)


def test_undo_names_the_right_edit_after_several_undos_and_redos():
    h = fresh()
    for i in range(3):  # flip points 1, 2, 3 in turn
        h = edits.reduce(h, "flipped", {"i": i}).history
    said = []
    for event in ("undo", "undo", "redo", "undo", "undo", "undo"):
        r = edits.reduce(h, event)
        h = r.history
        said.append(r.note or r.error)
    assert said == [
        "Undid: flipped point 3 back to label −1.",
        "Undid: flipped point 2 back to label +1.",
        "Redid: flipped point 2 to label −1.",
        "Undid: flipped point 2 back to label +1.",
        "Undid: flipped point 1 back to label +1.",
        "Nothing to undo.",
    ]
    assert h.present.same(X0, Y0) and len(h.changes) == len(h.past) == 0
    assert len(h.redos) == len(h.future) == 3


def test_added_flipped_deleted():
    h = fresh()
    added = edits.reduce(h, "added", {"x": 3, "y": 3, "label": -1}, box=BOX).history
    assert len(added.present) == 5 and added.present.y[-1] == -1.0
    assert added.present.X[-1].tolist() == [3.0, 3.0]
    flipped = edits.reduce(added, "flipped", {"i": 0}).history
    assert flipped.present.y.tolist() == [-1.0, 1.0, -1.0, -1.0, -1.0]
    deleted = edits.reduce(flipped, "deleted", {"i": 1}).history
    assert deleted.present.X.tolist() == [[1, 2], [-1, -1], [-1, 1], [3, 3]]
    assert deleted.present.y.tolist() == [-1.0, -1.0, -1.0, -1.0]
    assert deleted.version == 3 and len(deleted.past) == 3


@pytest.mark.parametrize(
    ("event", "payload", "says"),
    [
        ("moved", {"i": 4, "x": 0, "y": 0}, "There is no point 5: the data have 4 points (1 to 4)"),
        ("moved", {"i": -1, "x": 0, "y": 0}, "There is no point 0"),
        ("flipped", {"i": 99}, "There is no point 100"),
        ("deleted", {"i": "0"}, "no valid point"),
        ("flipped", {"i": True}, "no valid point"),
        ("flipped", {"i": 1.5}, "no valid point"),
        ("moved", {"i": 0, "x": math.nan, "y": 0}, "x1 is nan"),
        ("moved", {"i": 0, "x": 0, "y": math.inf}, "x2 is inf"),
        ("moved", {"i": 0, "x": None, "y": 0}, "x1 must be a number"),
        ("moved", {"i": 0, "x": "abc", "y": 0}, "x1 must be a number"),
        ("moved", {"i": 0, "x": 400.0, "y": 0}, "outside the drawing area"),
        ("added", {"x": 0, "y": -1e5, "label": 1}, "outside the drawing area"),
        ("added", {"x": 0, "y": 0, "label": 0}, "label must be +1 or −1"),
        ("added", {"x": 0, "y": 0}, "label must be +1 or −1"),
        ("moved", {"i": 0, "x": 0, "y": 0, "v": 7}, "older picture"),
        ("moved", None, "no details"),
        ("moved", [1, 2], "no details"),
        ("exploded", {"i": 0}, "Unknown edit"),
        ("undo", None, "Nothing to undo"),
        ("redo", None, "Nothing to redo"),
        ("reset", None, "no preset"),
    ],
)
def test_bad_events_are_refused_and_keep_the_data(event, payload, says):
    h = fresh()
    r = edits.reduce(h, event, payload, box=BOX)
    assert not r.ok and says in r.error
    assert unchanged(r, h)


def test_the_last_point_cannot_be_deleted_and_the_size_is_capped():
    one = edits.start([[0.0, 1.0]], [1.0])
    r = edits.reduce(one, "deleted", {"i": 0})
    assert not r.ok and "at least one point" in r.error and len(r.history.present) == 1
    full = edits.start(np.zeros((edits.MAX_POINTS, 2)), np.ones(edits.MAX_POINTS))
    r = edits.reduce(full, "added", {"x": 0, "y": 0, "label": 1}, box=BOX)
    assert not r.ok and str(edits.MAX_POINTS) in r.error and r.history is full


def test_a_move_to_the_same_place_is_not_an_edit():
    h = fresh()
    r = edits.reduce(h, "moved", {"i": 0, "x": 1.0, "y": 2.0}, box=BOX)
    assert r.ok and r.history is h and not h.can_undo


def test_reset_goes_back_to_the_preset_and_can_be_undone():
    h = edits.reduce(fresh(), "flipped", {"i": 0}).history
    preset = edits.Points.of(X0, Y0)
    back = edits.reduce(h, "reset", preset).history
    assert back.present.same(X0, Y0)
    assert edits.reduce(back, "undo").history.present.y[0] == -1.0


def test_a_new_edit_clears_redo_and_undo_is_capped():
    h = fresh()
    for k in range(edits.MAX_UNDO + 5):
        h = edits.reduce(h, "moved", {"i": 0, "x": k / 100, "y": 0.0}, box=BOX).history
    assert len(h.past) == edits.MAX_UNDO
    h = edits.reduce(h, "undo").history
    assert h.can_redo
    h = edits.reduce(h, "flipped", {"i": 1}).history
    assert not h.can_redo


def test_table_edits_rows_adds_and_deletes():
    h = fresh()
    delta = {
        "edited_rows": {"0": {"x1": 0.5}, 3: {"y": 1}},
        "added_rows": [{"x1": 4.0, "x2": -4.0, "y": -1}],
        "deleted_rows": [1],
    }
    r = edits.reduce(h, "table", delta)
    assert r.ok, r.error
    p = r.history.present
    assert p.X.tolist() == [[0.5, 2.0], [-1, -1], [-1, 1], [4, -4]]
    assert p.y.tolist() == [1.0, -1.0, 1.0, -1.0]
    assert r.note == "Table edit (edited 2 rows, added 1, deleted 1)."
    assert edits.reduce(r.history, "undo").note == (
        "Undid: took back the table edit (edited 2 rows, added 1, deleted 1)."
    )


@pytest.mark.parametrize(
    ("delta", "says"),
    [
        ({"edited_rows": {0: {"x1": None}}}, "Point 1: x1 must be a number"),
        ({"edited_rows": {0: {"y": 2}}}, "label must be +1 or −1"),
        ({"edited_rows": {9: {"x1": 1}}}, "no row 9"),
        ({"edited_rows": {0: {"colour": 1}}}, "cannot be edited"),
        ({"added_rows": [{"x1": 1.0}]}, "needs x1, x2 and y"),
        ({"added_rows": [{"x1": 1.0, "x2": math.nan, "y": 1}]}, "not a finite number"),
        ({"deleted_rows": [0, 1, 2, 3]}, "at least one point"),
        ({"deleted_rows": [7]}, "no row 7"),
        ({"edited_rows": [1, 2]}, "does not understand"),
    ],
)
def test_bad_table_edits_are_refused(delta, says):
    h = fresh()
    r = edits.reduce(h, "table", delta)
    assert not r.ok and says in r.error
    assert unchanged(r, h)


def test_rebase_keeps_the_history_of_the_same_data_and_restarts_on_new_data():
    h = edits.reduce(fresh(), "flipped", {"i": 0}).history
    assert edits.rebase(h, h.present.X, h.present.y) is h
    other = edits.rebase(h, X0[:3], Y0[:3])
    assert len(other.present) == 3 and not other.can_undo
    assert other.version > h.version  # an edit made on the old picture is now stale


coordinates = st.floats(-4.9, 4.9, allow_nan=False)
index = st.integers(-2, 8)
label = st.sampled_from([1, -1, 0])
junk = st.sampled_from([math.nan, math.inf, 1e9, "x"])
events = st.one_of(
    st.builds(lambda i, x, y: ("moved", {"i": i, "x": x, "y": y}), index, coordinates, coordinates),
    st.builds(
        lambda x, y, s: ("added", {"x": x, "y": y, "label": s}), coordinates, coordinates, label
    ),
    st.builds(lambda i: ("flipped", {"i": i}), index),
    st.builds(lambda i: ("deleted", {"i": i}), index),
    st.sampled_from([("undo", None), ("redo", None)]),
    st.builds(lambda x: ("moved", {"i": 0, "x": x, "y": 0.0}), junk),
)


@given(st.lists(events, max_size=30))
def test_any_sequence_of_events_keeps_a_valid_dataset_and_undo_walks_back(seq):
    h = fresh()
    for event, payload in seq:
        r = edits.reduce(h, event, payload, box=BOX)
        if not r.ok:
            assert r.history is h  # a refusal never changes anything
        h = r.history
        p = h.present
        assert p.X.shape == (len(p), 2) and p.y.shape == (len(p),)
        assert 1 <= len(p) <= edits.MAX_POINTS
        assert np.isfinite(p.X).all() and set(np.unique(p.y)) <= {-1.0, 1.0}
        assert (np.abs(p.X) <= 5.0 + 0.2).all()
        assert not p.X.flags.writeable and not p.y.flags.writeable
    while h.can_undo:  # undo all the way back reaches the start
        h = edits.reduce(h, "undo").history
    assert h.present.same(X0, Y0)


# --- the event -> shared dataset path (a dict stands in for st.session_state) -------


def session_with(X=X0, y=Y0, custom: bool = False) -> dict:
    ss: dict = {"lec_t": 7}
    if custom:
        ss[lab.CUSTOM] = (X, y, "upload.csv")
    lab.sync(ss, X, y, "upload.csv" if custom else "generated", custom)
    ss[lab.BOX] = BOX
    follow(ss, X, y)  # the lecture is at step 7 of a run on these points
    return ss


def lecture_step(ss: dict) -> int:
    """The lecture's step once the lecture (or the margin page) looks at the shared data."""
    X, y = (ss[lab.CUSTOM][:2]) if lab.CUSTOM in ss else (X0, Y0)
    follow(ss, X, y)
    return ss["lec_t"]


def test_an_edit_becomes_the_shared_dataset_and_restarts_the_lecture():
    ss = session_with()
    lab.apply_event(ss, "moved", {"i": 0, "x": 0.5, "y": 0.5, "v": 0})
    X, y, name = ss[lab.CUSTOM]
    assert X[0].tolist() == [0.5, 0.5] and np.array_equal(y, Y0)
    assert name == lab.DRAWN and lecture_step(ss) == 0
    assert ss[lab.NOTICE] == (None, "Moved point 1 to (0.5, 0.5).")
    lab.apply_event(ss, "undo", None)  # back at the generated preset: the sidebar's data again
    assert lab.CUSTOM not in ss


def test_a_refused_edit_keeps_the_shared_dataset_and_says_why():
    ss = session_with(custom=True)
    before = ss[lab.CUSTOM]
    tick = ss.get(lab.TICK, 0)
    lab.apply_event(ss, "moved", {"i": 0, "x": 1e3, "y": 0.0, "v": 0})  # far outside the view
    assert ss[lab.CUSTOM] is before and lecture_step(ss) == 7
    assert "outside the drawing area" in ss[lab.NOTICE][0]
    assert ss[lab.TICK] == tick + 1  # the surface redraws, putting the point back


def test_back_at_an_uploaded_preset_its_name_returns():
    ss = session_with(custom=True)
    lab.apply_event(ss, "flipped", {"i": 0, "v": 0})
    assert ss[lab.CUSTOM][2] == lab.DRAWN
    lab.apply_event(ss, "reset", ss[lab.PRESET][0])
    assert ss[lab.CUSTOM][2] == "upload.csv" and np.array_equal(ss[lab.CUSTOM][1], Y0)


def test_a_new_dataset_from_the_sidebar_starts_a_new_history():
    ss = session_with()
    lab.apply_event(ss, "flipped", {"i": 0, "v": 0})
    h = lab.sync(ss, X0[:2], Y0[:2], "generated", False)
    assert len(h.present) == 2 and not h.can_undo
    assert ss[lab.PRESET][0].same(X0[:2], Y0[:2])


def test_one_point_is_written_in_the_singular():
    one = edits.start([[0.0, 1.0]], [1.0])
    r = edits.reduce(one, "flipped", {"i": 3})
    assert not r.ok and "There is no point 4: the data have 1 point (only point 1)" in r.error


def test_an_edit_sent_again_is_applied_once_and_a_new_one_still_is():
    """The surface sends an edit again when no redraw came (a rerun Streamlit dropped). If
    the first did arrive, the second is the same edit, not a stale one: nothing happens, and
    no "older picture" refusal reaches the student."""
    ss = session_with()
    lab.on_surface(ss, "flipped", {"i": 0, "v": 0, "e": 1})
    after = ss[lab.CUSTOM]
    assert after[1][0] == -Y0[0] and ss[lab.NOTICE][0] is None
    lab.on_surface(ss, "flipped", {"i": 0, "v": 0, "e": 1})  # the same edit, sent again
    assert ss[lab.CUSTOM] is after and ss[lab.NOTICE][0] is None
    lab.on_surface(ss, "flipped", {"i": 0, "v": 1, "e": 2})  # the next edit: flipped back
    assert lab.CUSTOM not in ss or ss[lab.CUSTOM][1][0] == Y0[0]
    lab.on_surface(ss, "flipped", {"i": 0, "v": 1, "e": 3})  # stale and new: refused, said
    assert "older picture" in ss[lab.NOTICE][0]
