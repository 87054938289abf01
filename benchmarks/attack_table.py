"""The ``table`` attack: the margin lab's keyboard table sent 60,000 added rows.

The lazy expander ``mar_open_table`` is opened through its widget state, then the
``st.data_editor`` ``mar_table_<v>`` is sent the rows (with x1, x2, y; or empty rows,
which fit a smaller frame), then a few ordinary reruns of that session (which, as a
browser does, sends every widget value it set again).
"""

from __future__ import annotations

import random
import time

from streamlit.proto.WidgetStates_pb2 import WidgetState

from benchmarks.attack_phases import (
    CLOSED_BY_SERVER,
    NO_ANSWER,
    AttackerStats,
    Phase,
    compact,
    connected,
    drawn,
    effect,
    timed,
)
from tools.streamlit_client import OK_FINISH, RunError, RunView


async def table_attack(
    port: int,
    phase: Phase,
    stats: AttackerStats,
    *,
    rows: int,
    empty: bool,
    reruns: int,
    run_timeout: float,
) -> None:
    """The margin lab's table editor sent ``rows`` added rows, then ordinary reruns."""
    async with connected(port, "margin") as s:
        await s.open_expander("mar_open_table")
        editors = [k for k in (s.last.keyed if s.last else {}) if k.startswith("mar_table")]
        if not editors:
            raise RunError("the open table expander showed no data editor")
        editor_id, fragment_id = s.element(editors[-1])
        rng = random.Random(rows)
        added = [
            {}
            if empty
            else {"x1": round(rng.uniform(-3, 3), 2), "x2": round(rng.uniform(-3, 3), 2), "y": 1}
            for _ in range(rows)
        ]
        value = compact({"edited_rows": {}, "added_rows": added, "deleted_rows": []})
        stats.notes.append(f"{rows:,} {'empty ' if empty else ''}rows, {len(value) / 1e6:.2f} MB")
        before = drawn(s.scene)
        widget = WidgetState(id=editor_id, string_value=value)
        s.sticky[editor_id] = widget  # a browser sends every widget's value on every rerun
        await phase.begin()

        runs = ["edit"] + ["rerun"] * reruns
        times = []
        for i, what in enumerate(runs):
            if i and time.monotonic() >= phase.hard:
                break
            timeout = min(run_timeout, phase.left())
            edit = s.state([widget], fragment_id) if what == "edit" else s.state()
            view = await timed(stats, s.request(edit, timeout), what)
            if view == CLOSED_BY_SERVER:
                break
            times.append(
                f"{what} {'≥' if view == NO_ANSWER else ''}{stats.times_ms[-1] / 1000:.1f} s"
            )
            if view == NO_ANSWER:
                break
            assert isinstance(view, RunView)
            if view.exceptions or view.status not in OK_FINISH:
                stats.outcomes[f"{what}: error"] += 1
                continue
            points = drawn(view.scene) if view.scene else before
            if what == "edit":
                stats.outcomes[f"edit {effect(points != before, view)}"] += 1
            else:
                stats.outcomes["rerun answered"] += 1
        stats.notes.append("; ".join(times))
