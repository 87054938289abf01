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
from ui.look.numbers import count, number, vector_text
from ui.words import t, tn

MAX_POINTS = 500  # a drawing surface, not a data set loader
MAX_UNDO = 50  # edits kept for undo (about 5 kB each at 200 points, per session)
LIMIT = 1e6  # largest coordinate typed in the table
EVENTS = ("moved", "added", "flipped", "deleted", "undo", "redo", "reset", "table")


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
    return vector_text(X[i])  # (0.5, −1); (0,5; −1) with a decimal comma


def _index(payload: Mapping[str, Any], n: int) -> int:
    i = payload.get("i")
    if isinstance(i, bool) or not isinstance(i, int | float) or not float(i).is_integer():
        raise _Refused(
            t("The edit named no valid point (got {got}); nothing was changed.").format(
                got=repr(str(i)[:20])
            )
        )
    i = int(i)
    if not 0 <= i < n:  # i counts from 0; a student counts points from 1
        if n == 1:
            said = t(
                "There is no point {i}: the data have {points} (only point 1); nothing was changed."
            )
        else:
            said = t(
                "There is no point {i}: the data have {points} (1 to {n}); nothing was changed."
            )
        raise _Refused(said.format(i=i + 1, points=count(n, "point"), n=n))
    return i


def _coordinate(value: Any, name: str) -> float:
    """``value`` as a coordinate; ``name`` (translated) names it in a refusal."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise _Refused(_not_a_number(name, value))
    try:
        v = float(value)
    except ValueError:
        raise _Refused(_not_a_number(name, value)) from None
    if not math.isfinite(v):
        raise _Refused(
            t("{name} is {value}, not a finite number; nothing was changed.").format(
                name=name, value=v
            )
        )
    if abs(v) > LIMIT:
        raise _Refused(
            t("{name} = {value} is too large (at most {most}); nothing was changed.").format(
                name=name, value=f"{v:.3g}", most=f"{LIMIT:.0e}"
            )
        )
    return v


def _not_a_number(name: str, value: Any) -> str:
    return t("{name} must be a number (got {got}); nothing was changed.").format(
        name=name, got=repr(str(value)[:20])
    )


def _where(payload: Mapping[str, Any], box: Box | None) -> tuple[float, float]:
    x = _coordinate(payload.get("x"), "x1")
    y = _coordinate(payload.get("y"), "x2")
    if box is not None:
        slack = 0.02 * max(box.x1 - box.x0, box.y1 - box.y0)
        inside = box.x0 - slack <= x <= box.x1 + slack and box.y0 - slack <= y <= box.y1 + slack
        if not inside:
            raise _Refused(
                t(
                    "({x}, {y}) is outside the drawing area (x1 from {x0} to {x1}, x2 from "
                    "{y0} to {y1}); nothing was changed."
                ).format(
                    x=_fmt(x),
                    y=_fmt(y),
                    x0=_fmt(box.x0),
                    x1=_fmt(box.x1),
                    y0=_fmt(box.y0),
                    y1=_fmt(box.y1),
                )
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
        raise _Refused(
            t("A label must be +1 or −1 (got {got}); nothing was changed.").format(
                got=repr(str(value)[:20])
            )
        )
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
    understood = isinstance(edited, Mapping) and isinstance(added, list | tuple)
    if not understood or not isinstance(deleted, list | tuple):
        raise _Refused(
            t("The table sent an edit the lab does not understand; nothing was changed.")
        )
    # sizes first, before any loop: a forged editor state can hold 60,000 rows
    if len(edited) > n or len(deleted) > n or len(added) > MAX_POINTS:
        raise _Refused(
            t(
                "The table sent more rows than the lab holds ({most} points at most); "
                "nothing was changed."
            ).format(most=MAX_POINTS)
        )
    for row, cells in edited.items():
        try:
            r = int(row)
        except (TypeError, ValueError):
            r = -1
        if not 0 <= r < n or not isinstance(cells, Mapping):
            raise _Refused(
                t("The table has no row {row}; nothing was changed.").format(row=str(row)[:10])
            )
        for col, value in cells.items():  # the table shows row r as point r + 1
            if col == "x1":
                X[r, 0] = _coordinate(value, t("Point {i}: x1").format(i=r + 1))
            elif col == "x2":
                X[r, 1] = _coordinate(value, t("Point {i}: x2").format(i=r + 1))
            elif col == "y":
                y[r] = _label(value)
            else:
                raise _Refused(
                    t("Column {column} cannot be edited; nothing was changed.").format(
                        column=repr(str(col)[:20])
                    )
                )
    new_X, new_y = [], []
    for k, row in enumerate(added):
        if not isinstance(row, Mapping) or any(row.get(c) is None for c in ("x1", "x2", "y")):
            raise _Refused(
                t("New row {k} needs x1, x2 and y; nothing was changed.").format(k=k + 1)
            )
        new_X.append(
            (_coordinate(row["x1"], t("New row: x1")), _coordinate(row["x2"], t("New row: x2")))
        )
        new_y.append(_label(row["y"]))
    drop = set()
    for row in deleted:
        if isinstance(row, bool) or not isinstance(row, int) or not 0 <= row < n:
            raise _Refused(
                t("The table has no row {row} to delete; nothing was changed.").format(
                    row=str(row)[:10]
                )
            )
        drop.add(row)
    keep = np.array([i for i in range(n) if i not in drop], dtype=np.int64)
    X = np.vstack([X[keep], np.array(new_X, dtype=np.float64).reshape(-1, 2)])
    y = np.concatenate([y[keep], np.array(new_y, dtype=np.float64)])
    parts = []  # a list of counts, in parentheses after a whole clause
    if edited:
        k = len(edited)
        parts.append(tn("edited {n} row", "edited {n} rows", k).format(n=k))
    if added:
        parts.append(t("added {n}").format(n=len(added)))
    if drop:
        parts.append(t("deleted {n}").format(n=len(drop)))
    what = ", ".join(parts or [t("no change")])
    return Points.of(X, y), Change(
        t("table edit ({what})").format(what=what),
        t("took back the table edit ({what})").format(what=what),
    )


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
            raise _Refused(
                t("The lab holds at most {most} points; delete one first.").format(most=MAX_POINTS)
            )
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
            raise _Refused(t("Keep at least one point: the lab needs data to work on."))
        return Points.of(np.delete(points.X, i, axis=0), np.delete(points.y, i))
    raise AssertionError(event)  # pragma: no cover - guarded by reduce


def _describe(old: Points, event: str, payload: Mapping[str, Any], new: Points) -> Change:
    """The edit from ``old`` to ``new`` in words, both ways; points count from 1."""
    if event == "added":
        k = len(new) - 1
        where, label = _at(new.X, k), _sign(new.y[k])
        return Change(
            t("added point {i} at {at} with label {label}").format(i=k + 1, at=where, label=label),
            t("took away point {i} (added at {at})").format(i=k + 1, at=where),
        )
    i = int(payload["i"])
    if event == "moved":
        return Change(
            t("moved point {i} to {at}").format(i=i + 1, at=_at(new.X, i)),
            t("moved point {i} back to {at}").format(i=i + 1, at=_at(old.X, i)),
        )
    if event == "flipped":
        return Change(
            t("flipped point {i} to label {label}").format(i=i + 1, label=_sign(new.y[i])),
            t("flipped point {i} back to label {label}").format(i=i + 1, label=_sign(old.y[i])),
        )
    gone = {"i": i + 1, "at": _at(old.X, i), "label": _sign(old.y[i])}
    return Change(
        t("deleted point {i} at {at} with label {label}").format(**gone),
        t("put back point {i} at {at} with label {label}").format(**gone),
    )


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
            raise _Refused(
                t("Unknown edit {event}; nothing was changed.").format(event=repr(str(event)[:20]))
            )
        if event == "undo":
            if not history.past:
                raise _Refused(t("Nothing to undo."))
            change = history.changes[-1]
            back = History(
                history.past[-1],
                history.past[:-1],
                (history.present, *history.future),
                history.version + 1,
                history.changes[:-1],
                (change, *history.redos),
            )
            return Result(back, note=t("Undid: {change}.").format(change=change.undone))
        if event == "redo":
            if not history.future:
                raise _Refused(t("Nothing to redo."))
            change = history.redos[0]
            again = History(
                history.future[0],
                (*history.past, history.present),
                history.future[1:],
                history.version + 1,
                (*history.changes, change),
                history.redos[1:],
            )
            return Result(again, note=t("Redid: {change}.").format(change=change.done))
        if event == "reset":
            if not isinstance(payload, Points):
                raise _Refused(t("There is no preset to go back to; nothing was changed."))
            if payload.same(history.present.X, history.present.y):
                return Result(history, note=t("Already at the preset."))
            change = Change(
                t("went back to the preset"), t("went back to your edits before the reset")
            )
            return Result(
                _push(history, payload, change),
                note=t("Back to the preset; Undo brings your edits back."),
            )
        if not isinstance(payload, Mapping):
            raise _Refused(t("The edit carried no details; nothing was changed."))
        v = payload.get("v")
        if v is not None and v != history.version:
            raise _Refused(
                t(
                    "That edit was made on an older picture of the data (another edit got "
                    "there first); nothing was changed. Please try again."
                )
            )
        if event == "table":
            points, change = _table(history.present, payload)
            if len(points) == 0:
                raise _Refused(t("Keep at least one point: the lab needs data to work on."))
            if len(points) > MAX_POINTS:
                raise _Refused(
                    t("The lab holds at most {most} points; nothing was changed.").format(
                        most=MAX_POINTS
                    )
                )
        else:
            points = _edit(history.present, event, payload, box)
            change = _describe(history.present, event, payload, points)
        if points.same(history.present.X, history.present.y):
            return Result(history, note=t("No change."))
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
