"""The margin lab's text says what the page and the lecture actually do: the band lines'
distance in the plane, one meaning of b, and the c that does not reach the lecture."""

from pathlib import Path

import numpy as np
import pytest

from ui.margin import lab

ROOT = Path(__file__).resolve().parents[3]


def words(section: str) -> str:
    return " ".join(lab.explain(section).split())


def test_the_band_lines_can_be_far_more_than_gamma_away_in_the_plane():
    text = words("What you see")
    assert "a little more than γ" not in text
    # the example the text gives, recomputed
    X, y = np.array([[10.0, 0.0], [12.0, 0.0]]), np.array([1.0, -1.0])
    an = lab.analyse(X, y, bias=True, c=0.1, max_epochs=100)
    gamma = an.mm.gamma
    distance = gamma / np.linalg.norm(an.mm.w_star[:2])
    assert gamma == pytest.approx(0.0091, abs=5e-5)
    assert distance == pytest.approx(1.0)
    assert f"γ ≈ {gamma:.2g}" in text
    assert f"the band lines lie {distance:.1f} from the solid line" in text
    assert f"{distance / gamma:.0f} times γ" in text


def test_b_is_a_bias_throughout_never_a_threshold():
    text = words("The bias as a feature c")
    assert "w·x ≥ b" not in text and "(w, −b)" not in text  # b as a threshold
    assert "w·x + b = 0" in text and "w′·z = w·x + b" in text
    assert "b = −θ" in text  # the notes' threshold, under another letter


def test_the_text_does_not_claim_the_lecture_runs_with_this_pages_c():
    text = words("How to use")
    assert "exactly these points" not in text
    assert "the c chosen here does not reach it" in text
    # what the sentence relies on: no lecture code reads the margin lab's c
    lecture = [ROOT / "pages" / "lecture.py", *(ROOT / "ui" / "lecture").glob("*.py")]
    assert not any("mar_c" in p.read_text() for p in lecture)
