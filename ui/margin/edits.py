"""The margin lab's edits as a pure reducer: ``reduce(history, event, payload) -> Result``.

The drawing surface sends one event per gesture (a point ``moved``, ``added``,
``flipped`` or ``deleted``); the page's buttons send ``undo``, ``redo`` and
``reset``; the keyboard table sends ``table``. Every event is checked here and
either applied, giving a new :class:`History`, or refused with a sentence a
student understands, leaving the history (and so the dataset) exactly as it was.
No Streamlit here: AppTest cannot fire a component's events, so this is where
they are tested.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ui.look.geometry import Box
from ui.look.numbers import count, number

MAX_POINTS = 500  # a drawing surface, not a data set loader
MAX_UNDO = 50  # edits kept for undo (about 5 kB each at 200 points, per session)
LIMIT = 1e6  # largest coordinate typed in the table
EVENTS = ("moved", "added", "flipped", "deleted", "undo", "redo", "reset", "table")
NOTHING_CHANGED = "nothing was changed"


@dataclass(frozen=True, eq=False)
class Points:
    """A labelled 2-D dataset, read-only: X (n, 2) float64 and y (n,) in {-1.0, +1.0}."""

    X: np.ndarray
    y: np.ndarray

    @staticmethod
    def of(X: Any, y: Any) -> Points:
        Xa = np.array(X, dtype=np.float64).reshape(-1, 2)
        ya = np.array(y, dtype=np.float64).reshape(-1)
        Xa.flags.writeable = False
        ya.flags.writeable = False
        return Points(Xa, ya)

    def __len__(self) -> int:
        return int(self.y.shape[0])

    def same(self, X: np.ndarray, y: np.ndarray) -> bool:
        """Whether (X, y) are exactly these points."""
        return (
            np.shape(X) == self.X.shape
            and np.shape(y) == self.y.shape
            and bool(np.array_equal(X, self.X))
            and bool(np.array_equal(y, self.y))
        )


@dataclass(frozen=True)
class Change:
    """One accepted edit in words: what it did, and what undoing it does."""

    done: str  # "moved point 31 to (1.77, −0.68)"
    undone: str  # "moved point 31 back to (1.2, −0.4)"


@dataclass(frozen=True, eq=False)
class History:
    """The present dataset, with what undo and redo lead back to.

    ``changes[k]`` names the edit that led from ``past[k]`` to the next state, and
    ``redos[k]`` the edit that leads from the state before ``future[k]`` to it, so
    Undo and Redo can say what they undid and redid.
    """

    present: Points
    past: tuple[Points, ...] = ()
    future: tuple[Points, ...] = ()
    version: int = 0  # counts accepted changes: an event names the version it was made on
    changes: tuple[Change, ...] = ()  # one per past state
    redos: tuple[Change, ...] = ()  # one per future state

    @property
    def can_undo(self) -> bool:
        return bool(self.past)

    @property
    def can_redo(self) -> bool:
        return bool(self.future)


@dataclass(frozen=True, eq=False)
class Result:
    """A reducer's answer: the history after the event, and what happened in words."""

    history: History
    error: str | None = None  # why the event was refused (the history is unchanged)
    note: str | None = None  # what was done, for a status line

    @property
    def ok(self) -> bool:
        return self.error is None


def start(X: Any, y: Any) -> History:
    """A fresh history whose present is (X, y)."""
    return History(Points.of(X, y))


class _Refused(ValueError):
    """An event that cannot be applied; its message is shown to the student."""


def _fmt(v: float) -> str:
    return number(v)


def _at(X: np.ndarray, i: int) -> str:
    return f"({_fmt(X[i, 0])}, {_fmt(X[i, 1])})"


def _index(payload: Mapping[str, Any], n: int) -> int:
    i = payload.get("i")
    if isinstance(i, bool) or not isinstance(i, int | float) or not float(i).is_integer():
        raise _Refused(f"The edit named no valid point (got {str(i)[:20]!r}); {NOTHING_CHANGED}.")
    i = int(i)
    if not 0 <= i < n:  # i counts from 0; a student counts points from 1
        which = "only point 1" if n == 1 else f"1 to {n}"
        raise _Refused(
            f"There is no point {i + 1}: the data have {count(n, 'point')} ({which}); "
            f"{NOTHING_CHANGED}."
        )
    return i


def _coordinate(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise _Refused(f"{name} must be a number (got {str(value)[:20]!r}); {NOTHING_CHANGED}.")
    try:
        v = float(value)
    except ValueError:
        raise _Refused(
            f"{name} must be a number (got {str(value)[:20]!r}); {NOTHING_CHANGED}."
        ) from None
    if not math.isfinite(v):
        raise _Refused(f"{name} is {v}, not a finite number; {NOTHING_CHANGED}.")
    if abs(v) > LIMIT:
        raise _Refused(f"{name} = {v:.3g} is too large (at most {LIMIT:.0e}); {NOTHING_CHANGED}.")
    return v


def _where(payload: Mapping[str, Any], box: Box | None) -> tuple[float, float]:
    x = _coordinate(payload.get("x"), "x1")
    y = _coordinate(payload.get("y"), "x2")
    if box is not None:
        slack = 0.02 * max(box.x1 - box.x0, box.y1 - box.y0)
        inside = box.x0 - slack <= x <= box.x1 + slack and box.y0 - slack <= y <= box.y1 + slack
        if not inside:
            raise _Refused(
                f"({_fmt(x)}, {_fmt(y)}) is outside the drawing area "
                f"(x1 from {_fmt(box.x0)} to {_fmt(box.x1)}, x2 from {_fmt(box.y0)} to "
                f"{_fmt(box.y1)}); {NOTHING_CHANGED}."
            )
    return x, y


def _label(value: Any) -> float:
    if isinstance(value, bool):
        value = None
    if isinstance(value, str):
        value = value.strip().replace("−", "-").lstrip("+")
    try:
        v = float(value)
    except (TypeError, ValueError):
        v = math.nan
    if v not in (1.0, -1.0):
        raise _Refused(f"A label must be +1 or −1 (got {str(value)[:20]!r}); {NOTHING_CHANGED}.")
    return v


def _sign(v: float) -> str:
    return "+1" if v > 0 else "−1"


def _table(points: Points, delta: Mapping[str, Any]) -> tuple[Points, Change]:
    """Apply an ``st.data_editor`` delta (edited, added and deleted rows, columns x1, x2, y)."""
    X = points.X.copy()
    y = points.y.copy()
    n = len(points)
    edited = delta.get("edited_rows") or {}
    added = delta.get("added_rows") or []
    deleted = delta.get("deleted_rows") or []
    if not isinstance(edited, Mapping) or not isinstance(added, list | tuple):
        raise _Refused(f"The table sent an edit the lab does not understand; {NOTHING_CHANGED}.")
    if not isinstance(deleted, list | tuple):
        raise _Refused(f"The table sent an edit the lab does not understand; {NOTHING_CHANGED}.")
    # sizes first, before any loop: a forged editor state can hold 60,000 rows
    if len(edited) > n or len(deleted) > n or len(added) > MAX_POINTS:
        raise _Refused(
            f"The table sent more rows than the lab holds ({MAX_POINTS} points at most); "
            f"{NOTHING_CHANGED}."
        )
    for row, cells in edited.items():
        try:
            r = int(row)
        except (TypeError, ValueError):
            r = -1
        if not 0 <= r < n or not isinstance(cells, Mapping):
            raise _Refused(f"The table has no row {str(row)[:10]}; {NOTHING_CHANGED}.")
        for col, value in cells.items():  # the table shows row r as point r + 1
            if col == "x1":
                X[r, 0] = _coordinate(value, f"Point {r + 1}: x1")
            elif col == "x2":
                X[r, 1] = _coordinate(value, f"Point {r + 1}: x2")
            elif col == "y":
                y[r] = _label(value)
            else:
                raise _Refused(f"Column {str(col)[:20]!r} cannot be edited; {NOTHING_CHANGED}.")
    new_X, new_y = [], []
    for k, row in enumerate(added):
        if not isinstance(row, Mapping) or any(row.get(c) is None for c in ("x1", "x2", "y")):
            raise _Refused(f"New row {k + 1} needs x1, x2 and y; {NOTHING_CHANGED}.")
        new_X.append((_coordinate(row["x1"], "New row: x1"), _coordinate(row["x2"], "New row: x2")))
        new_y.append(_label(row["y"]))
    drop = set()
    for row in deleted:
        if isinstance(row, bool) or not isinstance(row, int) or not 0 <= row < n:
            raise _Refused(f"The table has no row {str(row)[:10]} to delete; {NOTHING_CHANGED}.")
        drop.add(row)
    keep = np.array([i for i in range(n) if i not in drop], dtype=np.int64)
    X = np.vstack([X[keep], np.array(new_X, dtype=np.float64).reshape(-1, 2)])
    y = np.concatenate([y[keep], np.array(new_y, dtype=np.float64)])
    parts = []
    if edited:
        parts.append(f"edited {len(edited)} row{'s' * (len(edited) != 1)}")
    if added:
        parts.append(f"added {len(added)}")
    if drop:
        parts.append(f"deleted {len(drop)}")
    what = ", ".join(parts or ["no change"])
    return Points.of(X, y), Change(f"table edit ({what})", f"took back the table edit ({what})")


def _edit(points: Points, event: str, payload: Mapping[str, Any], box: Box | None) -> Points:
    """The points after one drawing-surface or table event (raises _Refused)."""
    n = len(points)
    if event == "moved":
        i = _index(payload, n)
        x, y = _where(payload, box)
        X = points.X.copy()
        X[i] = (x, y)
        return Points.of(X, points.y)
    if event == "added":
        if n >= MAX_POINTS:
            raise _Refused(f"The lab holds at most {MAX_POINTS} points; delete one first.")
        x, y = _where(payload, box)
        label = _label(payload.get("label"))
        return Points.of(np.vstack([points.X, [(x, y)]]), np.append(points.y, label))
    if event == "flipped":
        i = _index(payload, n)
        labels = points.y.copy()
        labels[i] = -labels[i]
        return Points.of(points.X, labels)
    if event == "deleted":
        i = _index(payload, n)
        if n <= 1:
            raise _Refused("Keep at least one point: the lab needs data to work on.")
        return Points.of(np.delete(points.X, i, axis=0), np.delete(points.y, i))
    raise AssertionError(event)  # pragma: no cover - guarded by reduce


def _describe(old: Points, event: str, payload: Mapping[str, Any], new: Points) -> Change:
    """The edit from ``old`` to ``new`` in words, both ways; points count from 1."""
    if event == "added":
        k = len(new) - 1
        where, label = _at(new.X, k), _sign(new.y[k])
        return Change(
            f"added point {k + 1} at {where} with label {label}",
            f"took away point {k + 1} (added at {where})",
        )
    i = int(payload["i"])
    if event == "moved":
        return Change(
            f"moved point {i + 1} to {_at(new.X, i)}",
            f"moved point {i + 1} back to {_at(old.X, i)}",
        )
    if event == "flipped":
        return Change(
            f"flipped point {i + 1} to label {_sign(new.y[i])}",
            f"flipped point {i + 1} back to label {_sign(old.y[i])}",
        )
    gone = f"point {i + 1} at {_at(old.X, i)} with label {_sign(old.y[i])}"
    return Change(f"deleted {gone}", f"put back {gone}")


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + "."


def _push(history: History, points: Points, change: Change) -> History:
    past = (*history.past, history.present)[-MAX_UNDO:]
    changes = (*history.changes, change)[-MAX_UNDO:]
    return History(points, past, (), history.version + 1, changes, ())


def reduce(history: History, event: Any, payload: Any = None, *, box: Box | None = None) -> Result:
    """Apply one event to the history.

    Parameters
    ----------
    history : History
    event : str
        One of ``EVENTS``.
    payload : mapping or Points or None
        ``moved``: ``{"i", "x", "y"}``; ``added``: ``{"x", "y", "label"}``;
        ``flipped`` / ``deleted``: ``{"i"}``; each may carry ``"v"``, the
        version the edit was made on (a stale one is refused, since the index
        may name another point by now). ``table``: an ``st.data_editor`` delta.
        ``reset``: the :class:`Points` to go back to.
    box : Box or None
        The drawing area: points placed outside it are refused.

    Returns
    -------
    Result
        The new history, or the old one with ``error`` saying why.
    """
    try:
        if event not in EVENTS:
            raise _Refused(f"Unknown edit {str(event)[:20]!r}; {NOTHING_CHANGED}.")
        if event == "undo":
            if not history.past:
                raise _Refused("Nothing to undo.")
            change = history.changes[-1]
            back = History(
                history.past[-1],
                history.past[:-1],
                (history.present, *history.future),
                history.version + 1,
                history.changes[:-1],
                (change, *history.redos),
            )
            return Result(back, note=f"Undid: {change.undone}.")
        if event == "redo":
            if not history.future:
                raise _Refused("Nothing to redo.")
            change = history.redos[0]
            again = History(
                history.future[0],
                (*history.past, history.present),
                history.future[1:],
                history.version + 1,
                (*history.changes, change),
                history.redos[1:],
            )
            return Result(again, note=f"Redid: {change.done}.")
        if event == "reset":
            if not isinstance(payload, Points):
                raise _Refused(f"There is no preset to go back to; {NOTHING_CHANGED}.")
            if payload.same(history.present.X, history.present.y):
                return Result(history, note="Already at the preset.")
            change = Change("went back to the preset", "went back to your edits before the reset")
            return Result(
                _push(history, payload, change),
                note="Back to the preset; Undo brings your edits back.",
            )
        if not isinstance(payload, Mapping):
            raise _Refused(f"The edit carried no details; {NOTHING_CHANGED}.")
        v = payload.get("v")
        if v is not None and v != history.version:
            raise _Refused(
                "That edit was made on an older picture of the data (another edit got there "
                f"first); {NOTHING_CHANGED}. Please try again."
            )
        if event == "table":
            points, change = _table(history.present, payload)
            if len(points) == 0:
                raise _Refused("Keep at least one point: the lab needs data to work on.")
            if len(points) > MAX_POINTS:
                raise _Refused(f"The lab holds at most {MAX_POINTS} points; {NOTHING_CHANGED}.")
        else:
            points = _edit(history.present, event, payload, box)
            change = _describe(history.present, event, payload, points)
        if points.same(history.present.X, history.present.y):
            return Result(history, note="No change.")
        return Result(_push(history, points, change), note=_sentence(change.done))
    except _Refused as refused:
        return Result(history, error=str(refused))


def rebase(history: History | None, X: np.ndarray, y: np.ndarray) -> History:
    """The history to use when the shared dataset is (X, y).

    Keeps ``history`` if its present already is (X, y); otherwise (a new dataset
    was chosen or uploaded in the sidebar) starts afresh from (X, y).
    """
    if history is not None and history.present.same(X, y):
        return history
    fresh = start(X, y)
    if history is not None:
        fresh = replace(fresh, version=history.version + 1)  # edits in flight are stale
    return fresh
