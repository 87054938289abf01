"""The lecture's step: one module writes it (``ui.lecture.restart``), and the step restarts
from 0 when the data or a run setting change, wherever they were changed.

The pages' side of it (the sidebar, the proof page, the margin lab, a shared link) is in
tests/app/test_lecture.py, test_proof.py and test_margin.py.
"""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest

from perceptron_core import make_dataset
from ui.app.state import SESSION_KEYS, SETTINGS
from ui.lecture.restart import RUN, STEP, fingerprint, follow, go_to, restart

ROOT = Path(__file__).resolve().parents[3]
X0, Y0 = make_dataset("separable", n=40, seed=0)


def settings_session(**changes) -> dict:
    return {key: s.default for key, s in SETTINGS.items()} | changes


# ---------------------------------------------------------------------------- the module


def test_the_step_is_a_setting_and_its_run_a_declared_session_key():
    assert STEP in SETTINGS and SETTINGS[STEP].default == 0
    assert RUN in SESSION_KEYS


def test_restart_and_go_to_write_the_step():
    ss = settings_session(lec_t=7)
    restart(ss)
    assert ss[STEP] == 0
    go_to(ss, np.int64(12))
    assert ss[STEP] == 12 and type(ss[STEP]) is int


def test_the_first_look_keeps_the_step_of_a_shared_link():
    ss = settings_session(lec_t=12)
    assert follow(ss, X0, Y0) is False
    assert ss[STEP] == 12 and ss[RUN] == fingerprint(ss, X0, Y0)


def test_the_same_run_keeps_its_step():
    ss = settings_session(lec_t=12)
    follow(ss, X0, Y0)
    assert follow(ss, X0.copy(), Y0.copy()) is False  # equal data, not the same arrays
    assert ss[STEP] == 12


@pytest.mark.parametrize(
    "change",
    [
        {"data_name": "xor"},
        {"data_n": 41},
        {"data_seed": 1},  # a new seed is a new run, even of a dataset the seed leaves alone
        {"data_separable_margin": 0.5},
        {"lec_bias": False},
        {"lec_eta": 0.5},
        {"lec_w0": "random"},
        {"lec_w0_typed": "1, 2, 3"},
        {"lec_order": "shuffle"},
        {"lec_rule": "predict_ge"},
        {"lec_scale": "unit"},
        {"lec_scale": "radius"},
        {"lec_max_epochs": 60},
    ],
)
def test_a_changed_setting_restarts_the_run(change):
    assert set(change) <= set(SETTINGS), change
    ss = settings_session(lec_t=12)
    follow(ss, X0, Y0)
    ss.update(change)
    assert follow(ss, X0, Y0) is True and ss[STEP] == 0
    go_to(ss, 5)
    assert follow(ss, X0, Y0) is False and ss[STEP] == 5  # the new run keeps its steps


def test_new_data_restart_the_run():
    ss = settings_session(lec_t=12)
    follow(ss, X0, Y0)
    X = X0.copy()
    X[0, 0] += 0.25  # a point moved in the margin lab, or an upload
    assert follow(ss, X, Y0) is True and ss[STEP] == 0
    go_to(ss, 3)
    y = Y0.copy()
    y[0] = -y[0]  # a label flipped
    assert follow(ss, X, y) is True and ss[STEP] == 0
    go_to(ss, 3)
    assert follow(ss, X[:-1], y[:-1]) is True and ss[STEP] == 0  # a point deleted


def test_the_step_and_what_is_not_the_runs_do_not_count():
    ss = settings_session(lec_t=0)
    before = fingerprint(ss, X0, Y0)
    ss.update(lec_t=99, app_presenter=True, xor_epochs=50, spam_t=3, prf_k=2)
    assert fingerprint(ss, X0, Y0) == before


# ---------------------------------------------------------------------------- who writes it

# Writers of the step outside ui/lecture/: none (the player moved into the lecture package,
# the margin lab leaves the restart to ui.lecture.restart.follow).
KNOWN: set[str] = set()
WRITING_METHODS = {"pop", "setdefault", "update", "__setitem__", "__delitem__", "assign"}


def _names_the_step(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and node.value == STEP


def step_writes(path: Path) -> list[int]:
    """The lines of ``path`` that write the step (or bind another name to its key)."""
    lines: list[int] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store | ast.Del):
            if _names_the_step(node.slice):
                lines.append(node.lineno)
        elif isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            if name in WRITING_METHODS and (
                any(_names_the_step(a) for a in node.args)
                or any(k.arg == STEP for k in node.keywords)
            ):
                lines.append(node.lineno)
        elif isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            if _names_the_step(node.value):  # STEP = "lec_t", then ss[STEP] = 0
                lines.append(node.lineno)
        elif isinstance(node, ast.Dict) and any(  # session |= {"lec_t": 0}
            k is not None and _names_the_step(k) for k in node.keys
        ):
            lines.append(node.lineno)
    return lines


def writers(root: Path) -> dict[str, list[int]]:
    """Every module of ui/ and pages/ outside ui/lecture/ that writes the step, with lines."""
    found: dict[str, list[int]] = {}
    for folder in ("ui", "pages"):
        for path in sorted((root / folder).rglob("*.py")):
            rel = path.relative_to(root).as_posix()
            if rel.startswith("ui/lecture/"):
                continue
            if lines := step_writes(path):
                found[rel] = lines
    return found


def test_only_the_lecture_package_writes_the_step():
    found = writers(ROOT)
    assert set(found) == KNOWN, (
        f"lec_t is written outside ui/lecture/: {found}. Go through ui.lecture.restart "
        "(restart, go_to, follow); a writer that is gone leaves KNOWN."
    )


def test_the_check_reads_the_real_tree():
    assert step_writes(ROOT / "ui" / "lecture" / "restart.py")  # the one writer is seen
    assert not step_writes(ROOT / "pages" / "lecture.py")  # reads only
    assert not step_writes(ROOT / "ui" / "app" / "sidebar.py")


@pytest.mark.parametrize(
    "text",
    [
        'ss["lec_t"] = 0\n',
        'st.session_state["lec_t"] += 1\n',
        'del ss["lec_t"]\n',
        'ss.pop("lec_t", None)\n',
        'ss.setdefault("lec_t", 0)\n',
        "ss.update(lec_t=0)\n",
        'assign(ss, "lec_t", 0)\n',
        'STEP = "lec_t"\nss[STEP] = 0\n',
        'ss |= {"lec_t": 0}\n',
    ],
)
def test_a_write_of_the_step_is_found(tmp_path: Path, text: str):
    for rel in ("ui/lecture/x.py", "pages/lecture.py"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text('t = ss["lec_t"]\n' + text, encoding="utf-8")
    (tmp_path / "ui/app").mkdir(parents=True)
    (tmp_path / "ui/app/reader.py").write_text('t = ss.get("lec_t", 0)\n', encoding="utf-8")
    assert set(writers(tmp_path)) == {"pages/lecture.py"}  # reads and ui/lecture/ pass
