"""The layout holds: who may import whom, and what every page of the page table has.

Read from the source (``ast``), nothing imported but the page table:

- the shared packages of ``ui`` are layered, each importing only those before it in
  ``SHARED`` (the words, the look, the server, computing, the app's state, class mode, the shell);
- a lesson (``ui/<lesson>/``) may use every shared package, never another lesson; no
  shared package imports a lesson (class mode takes hooks from the lecture instead);
- the engine (``perceptron_core``) and the store (``perceptron_store``) import no
  Streamlit and nothing of the app;
- Streamlit's internals (any ``streamlit.*`` module but the public ones in
  ``PUBLIC_STREAMLIT``) are imported by ``ui.server`` alone, of the app's code;
- a page imports only ``ui``, ``perceptron_core`` and libraries;
- the deployment (``deploy/``) imports no benchmark;
- every page of ``ui.shell.PAGES`` has its file ``pages/<page>.py``, a lesson package
  ``ui/<page>/`` (not the home page), a page test ``tests/app/test_<page>.py``, and
  ``assets/<page>.md`` if it reads an asset (an asset read by a page or its lesson is
  named after that page).

The checks are functions of a folder, so the last tests run them on a small tree with
one violation of each kind: they must find it.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest

from ui.shell import PAGES, PageSpec

ROOT = Path(__file__).resolve().parents[2]
ASSET_READERS = {"asset", "lesson_text"}  # ui.look.text's functions that read assets/<page>.md
# the shared packages of ui, in layers: each may import only those before it
SHARED = ("words", "look", "server", "live", "compute", "app", "classmode", "shell")
# the public modules of Streamlit; any other streamlit.* module is an internal
PUBLIC_STREAMLIT = ("streamlit", "streamlit.delta_generator", "streamlit.components.v2")
STORES = ("perceptron_core", "perceptron_store")  # no Streamlit, nothing of the app


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path, root: Path) -> set[str]:
    """Every module ``path`` imports, anywhere in it, by its full dotted name (relative
    imports resolved; ``from a import b`` counts as ``a.b`` when ``b`` is a module)."""
    here = module_name(path, root).split(".")
    package = here if path.name == "__init__.py" else here[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            mod = ".".join([*base, *([node.module] if node.module else [])])
            found.add(mod)
            for alias in node.names:
                sub = root.joinpath(*mod.split("."), alias.name)
                if sub.with_suffix(".py").is_file() or (sub / "__init__.py").is_file():
                    found.add(f"{mod}.{alias.name}")
    return found


def under(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def sources(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.py")) if folder.is_dir() else []


def lessons(root: Path) -> list[str]:
    ui = root / "ui"
    return sorted(
        p.name for p in ui.iterdir() if (p / "__init__.py").is_file() and p.name not in SHARED
    )


def local_packages(root: Path) -> set[str]:
    """The top-level names of this repository's own code (not libraries)."""
    return {
        p.stem
        for p in root.iterdir()
        if (p.suffix == ".py" and p.is_file()) or (p / "__init__.py").is_file()
    } | {p.name for p in root.iterdir() if p.is_dir() and any(p.glob("*.py"))}


def import_violations(root: Path) -> list[str]:
    """Every import that breaks the layering, as 'file: imports name (rule)'."""
    out: list[str] = []

    def check(files: Iterable[Path], bad: Callable[[str], bool], rule: str) -> None:
        for path in files:
            for name in sorted(imports(path, root)):
                if bad(name):
                    out.append(f"{path.relative_to(root)}: imports {name} ({rule})")

    all_lessons = lessons(root)
    for lesson in all_lessons:
        others = [other for other in all_lessons if other != lesson]
        check(
            sources(root / "ui" / lesson),
            lambda n, others=others: any(under(n, f"ui.{o}") for o in others),
            "a lesson imports no other lesson",
        )
    for i, package in enumerate(SHARED):
        later = SHARED[i + 1 :]
        check(
            sources(root / "ui" / package),
            lambda n, later=later: (
                any(under(n, f"ui.{p}") for p in later)
                or any(under(n, f"ui.{lesson}") for lesson in all_lessons)
            ),
            f"ui.{package} imports only the shared packages before it, no lesson",
        )
    own = local_packages(root)
    for package in STORES:
        check(
            sources(root / package),
            lambda n, package=package: (
                under(n, "streamlit") or (n.split(".")[0] in own and not under(n, package))
            ),
            f"{package} imports no Streamlit and nothing of the app",
        )
    app_code = [root / "app.py", *sources(root / "pages"), *sources(root / "ui")]
    check(
        (p for p in app_code if p.is_file() and not p.is_relative_to(root / "ui" / "server")),
        lambda n: under(n, "streamlit") and n not in PUBLIC_STREAMLIT,
        "only ui.server imports Streamlit's internals",
    )
    not_for_pages = local_packages(root) - {"ui", "perceptron_core"}
    check(
        sources(root / "pages"),
        lambda n: n.split(".")[0] in not_for_pages,
        "a page imports only ui, perceptron_core and libraries",
    )
    check(
        sources(root / "deploy"),
        lambda n: under(n, "benchmarks"),
        "the deployment imports no benchmark",
    )
    return out


def page_name(spec: PageSpec) -> str:
    return Path(spec.path).stem


def assets_read(files: Iterable[Path]) -> set[str]:
    """The names ``asset("x")`` / ``lesson_text("x")`` read in these files."""
    names: set[str] = set()
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", getattr(node.func, "attr", None)) in ASSET_READERS
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                names.add(node.args[0].value)
    return names


def page_violations(root: Path, pages: Iterable[PageSpec]) -> list[str]:
    """What a page of the table lacks, as 'page: sentence'."""
    out: list[str] = []
    for spec in pages:
        name = page_name(spec)
        if not (root / spec.path).is_file():
            out.append(f"{name}: no page file {spec.path}")
        if spec.path != f"pages/{name}.py" or spec.url_path not in ("", name):
            out.append(f"{name}: the file {spec.path} is not pages/<url_path>.py")
        if spec.url_path and not (root / "ui" / name / "__init__.py").is_file():
            out.append(f"{name}: no lesson package ui/{name}/")
        if not (root / "tests" / "app" / f"test_{name}.py").is_file():
            out.append(f"{name}: no page test tests/app/test_{name}.py")
        own = [root / spec.path, *(sources(root / "ui" / name) if spec.url_path else [])]
        for asset in sorted(assets_read(p for p in own if p.is_file())):
            if asset != name:
                out.append(f"{name}: reads assets/{asset}.md, not assets/{name}.md")
            if not (root / "assets" / f"{asset}.md").is_file():
                out.append(f"{name}: reads assets/{asset}.md, which does not exist")
    return out


# ---------------------------------------------------------------------------- the tree


def test_the_lessons_are_the_pages_of_the_table() -> None:
    names = {Path(p.path).stem for p in PAGES}  # home's lesson has no URL path of its own
    assert set(lessons(ROOT)) <= names
    assert {p.url_path for p in PAGES if p.url_path} <= set(lessons(ROOT))


def test_no_import_breaks_the_layering() -> None:
    assert import_violations(ROOT) == []


def test_every_page_has_its_file_lesson_test_and_asset() -> None:
    assert page_violations(ROOT, PAGES) == []


def test_every_file_in_pages_is_a_page_of_the_table() -> None:
    files = {p.relative_to(ROOT).as_posix() for p in (ROOT / "pages").glob("*.py")}
    assert files == {spec.path for spec in PAGES}


def test_the_checks_read_the_real_tree() -> None:
    """Guard against a check that passes because it reads nothing."""
    assert {"ui.shell", "perceptron_core"} <= imports(ROOT / "pages" / "lecture.py", ROOT)
    assert set(SHARED) <= {p.name for p in (ROOT / "ui").iterdir() if (p / "__init__.py").exists()}
    assert "streamlit.runtime" in imports(ROOT / "ui" / "server" / "internals.py", ROOT)
    assert "ui.look.text" in imports(ROOT / "pages" / "xor.py", ROOT)
    assert len(sources(ROOT / "ui")) > 30
    assert assets_read([ROOT / "pages" / "home.py"]) == {"home"}
    assert {"ui", "perceptron_core", "pages", "tests", "benchmarks", "app"} <= local_packages(ROOT)


# ---------------------------------------------------------------------------- teeth


def write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


GOOD = {
    "app.py": "from ui import shell\n",
    "perceptron_core/__init__.py": "import numpy\nfrom . import engine\n",
    "perceptron_core/engine.py": "import math\n",
    "perceptron_store/__init__.py": "import sqlite3\nfrom perceptron_store import codec\n",
    "perceptron_store/codec.py": "import json\n",
    "ui/__init__.py": "",
    "ui/look/__init__.py": "",
    "ui/look/text.py": "from . import palette\nimport streamlit as st\n",
    "ui/look/palette.py": "",
    "ui/server/__init__.py": "",
    "ui/server/internals.py": "from streamlit.runtime import Runtime\nfrom ui.look import text\n",
    "ui/app/__init__.py": "",
    "ui/app/state.py": "from ui.server import internals\nimport perceptron_store\n",
    "ui/classmode/__init__.py": "",
    "ui/classmode/seat.py": "from ui.app import state\nfrom ..look import palette\n",
    "ui/shell/__init__.py": "from ui.classmode import seat\nfrom ui.app.state import x\n",
    "ui/a/__init__.py": "",
    "ui/a/figures.py": "from ui.look import text\nfrom .runs import x\nimport perceptron_core\n",
    "ui/a/runs.py": "from ui.classmode import seat\nimport streamlit.components.v2\n",
    "ui/b/__init__.py": "",
    "ui/b/figures.py": "from ..look.text import palette\n",
    "pages/a.py": "import streamlit\nfrom ui.a import figures\nfrom ui.b import figures\n",
    "pages/b.py": "from ui.look.text import lesson_text\nlesson_text('b')\n",
    "pages/home.py": "from ui.look.text import asset\nasset('home')\n",
    "assets/b.md": "",
    "assets/home.md": "",
    "tests/app/test_a.py": "",
    "tests/app/test_b.py": "",
    "tests/app/test_home.py": "",
    "benchmarks/run.py": "",
    "tools/client.py": "",
    "deploy/serve.py": "from tools import client\n",
}
SPECS = [
    PageSpec("pages/home.py", "Home", ":material/home:", "", False),
    PageSpec("pages/a.py", "A", ":material/home:", "a", True, "to a"),
    PageSpec("pages/b.py", "B", ":material/home:", "b", True, "to b"),
]


def test_a_tree_that_follows_the_layout_passes(tmp_path: Path) -> None:
    write(tmp_path, GOOD)
    assert import_violations(tmp_path) == []
    assert page_violations(tmp_path, SPECS) == []


@pytest.mark.parametrize(
    ("rel", "text", "found"),
    [
        ("ui/a/runs.py", "from ui.b.figures import palette\n", "a lesson imports no other"),
        ("ui/a/runs.py", "from ..b import figures\n", "a lesson imports no other"),
        ("ui/a/runs.py", "def f():\n    import ui.b\n", "a lesson imports no other"),
        ("ui/a/runs.py", "from ui import b\n", "a lesson imports no other"),
        ("ui/look/palette.py", "from ui.a import runs\n", "no lesson"),
        ("ui/look/palette.py", "from .. import a\n", "no lesson"),
        ("ui/look/palette.py", "from ui.server import internals\n", "before it"),
        ("ui/server/internals.py", "from ui.app import state\n", "before it"),
        ("ui/app/state.py", "from ..classmode import seat\n", "before it"),
        ("ui/classmode/seat.py", "from ui.a import runs\n", "no lesson"),
        ("ui/classmode/seat.py", "from ui.shell import PAGES\n", "before it"),
        ("perceptron_core/engine.py", "import streamlit as st\n", "no Streamlit"),
        ("perceptron_core/engine.py", "from streamlit.x import y\n", "no Streamlit"),
        ("perceptron_core/engine.py", "from ui.look import text\n", "nothing of the app"),
        ("perceptron_store/codec.py", "import streamlit as st\n", "no Streamlit"),
        ("perceptron_store/codec.py", "from ui.app import state\n", "nothing of the app"),
        ("perceptron_store/codec.py", "import perceptron_core\n", "nothing of the app"),
        ("ui/a/runs.py", "from streamlit.runtime import Runtime\n", "internals"),
        ("ui/classmode/seat.py", "import streamlit.proto.ForwardMsg_pb2\n", "internals"),
        ("pages/b.py", "from streamlit.runtime.scriptrunner import x\n", "internals"),
        ("app.py", "from streamlit.web import cli\n", "internals"),
        ("pages/b.py", "from benchmarks import run\n", "a page imports only"),
        ("pages/b.py", "import app\n", "a page imports only"),
        ("pages/b.py", "from . import a\n", "a page imports only"),
        ("deploy/serve.py", "from benchmarks.run import x\n", "no benchmark"),
    ],
)
def test_an_import_against_the_layering_is_found(
    tmp_path: Path, rel: str, text: str, found: str
) -> None:
    write(tmp_path, GOOD | {rel: text})
    violations = import_violations(tmp_path)
    assert violations, f"{rel}: {text!r} passed"
    assert all(v.startswith(rel + ":") and found in v for v in violations), violations


@pytest.mark.parametrize(
    ("missing", "extra", "found"),
    [
        ("pages/b.py", {}, "b: no page file pages/b.py"),
        ("ui/b/__init__.py", {}, "b: no lesson package ui/b/"),
        ("tests/app/test_b.py", {}, "b: no page test tests/app/test_b.py"),
        ("tests/app/test_home.py", {}, "home: no page test tests/app/test_home.py"),
        ("assets/b.md", {}, "b: reads assets/b.md, which does not exist"),
        ("", {"ui/a/figures.py": "lesson_text('b')\n"}, "a: reads assets/b.md, not assets/a.md"),
        ("", {"pages/a.py": "from x import text\ntext.asset('zz')\n"}, "does not exist"),
    ],
)
def test_a_page_that_lacks_a_piece_is_found(
    tmp_path: Path, missing: str, extra: dict[str, str], found: str
) -> None:
    write(tmp_path, {k: v for k, v in GOOD.items() if k != missing} | extra)
    violations = page_violations(tmp_path, SPECS)
    assert any(found in v for v in violations), violations


def test_a_page_file_not_named_after_its_url_is_found(tmp_path: Path) -> None:
    write(tmp_path, GOOD)
    specs = [*SPECS, PageSpec("pages/a.py", "C", ":material/home:", "c", True, "to c")]
    assert any("is not pages/<url_path>.py" in v for v in page_violations(tmp_path, specs))
