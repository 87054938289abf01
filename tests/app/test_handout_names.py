"""A student knows a handout by its course ("Cornell CS6780"), never by the number of its
file in the project ("seed 001"): no text the app shows names one so.

The texts are every string of the pages, the lessons and the engine that is not a
docstring (comments and docstrings are the code's own, for its readers, and may cite the
files), every lesson text of ``assets/`` and every string of the browser's scripts.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FILE_NUMBER = re.compile(r"\b[Ss]eeds?\s+\d{3}\b")
NAMES = ("Princeton COS 495", "Cornell CS6780", "EURECOM MALIS", "UMass CMPSCI 689")


def shown_strings(path: Path) -> list[tuple[int, str]]:
    """(line, text) of every string constant of a Python file that is not a docstring."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docs.add(id(first.value))
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs
    ]


def test_no_text_the_app_shows_names_a_handout_by_its_file_number() -> None:
    found = []
    for folder in ("ui", "pages", "perceptron_core"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            found += [
                f"{path.relative_to(ROOT)}:{n}: {text[:80]!r}"
                for n, text in shown_strings(path)
                if FILE_NUMBER.search(text)
            ]
    for path in [ROOT / "app.py", *sorted((ROOT / "assets").glob("*.md"))]:
        if path.suffix == ".py":
            found += [f"app.py:{n}" for n, text in shown_strings(path) if FILE_NUMBER.search(text)]
        else:
            text = path.read_text(encoding="utf-8")
            found += [
                f"{path.relative_to(ROOT)}: {m.group()!r}" for m in FILE_NUMBER.finditer(text)
            ]
    for path in sorted((ROOT / "ui").rglob("*.js")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("//")[0]
            if FILE_NUMBER.search(code) and not code.lstrip().startswith("*"):
                found.append(f"{path.relative_to(ROOT)}:{n}")
    assert not found, "\n".join(found)


def test_the_glossary_names_every_handout_by_its_course() -> None:
    glossary = (ROOT / "assets" / "glossary.md").read_text(encoding="utf-8")
    for name in (*NAMES, "the handwritten notes"):
        assert name in glossary, name
