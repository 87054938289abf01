"""A lesson translated whole (``assets/<page>.<lang>.md``) is the English lesson's match:
every language on offer has every lesson, with the same sections (the ``## `` keys the
pages look up, in order), the same display formulas and the same inline maths."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ui import words
from ui.look.text import sections

ASSETS = Path(__file__).resolve().parents[3] / "assets"
ENGLISH = sorted(p for p in ASSETS.glob("*.md") if p.stem.count(".") == 0)
OTHERS = [code for code in words.LANGUAGES if code != words.ENGLISH]


def keys(path: Path) -> list[str]:
    return re.findall(r"^## (.+)$", path.read_text(encoding="utf-8"), flags=re.M)


def display_maths(path: Path) -> list[str]:
    return re.findall(r"\$\$(.+?)\$\$", path.read_text(encoding="utf-8"), flags=re.S)


@pytest.mark.parametrize("code", OTHERS)
@pytest.mark.parametrize("lesson", ENGLISH, ids=lambda p: p.stem)
def test_each_lesson_is_translated_with_the_same_sections_and_maths(lesson: Path, code: str):
    translated = lesson.with_name(f"{lesson.stem}.{code}.md")
    assert translated.is_file(), f"{translated.name} is missing: the page reads English there"
    assert keys(translated) == keys(lesson)
    assert display_maths(translated) == display_maths(lesson)
    text = translated.read_text(encoding="utf-8")
    assert text.count("$") == lesson.read_text(encoding="utf-8").count("$")
    assert all(body.strip() for body in sections(text).values()), "an empty section"


def test_a_lesson_in_a_language_not_on_offer_is_no_lesson():
    stray = [p.name for p in ASSETS.glob("*.*.md") if p.stem.split(".")[1] not in OTHERS]
    assert stray == []
