"""The margin lab's text says what the page and the lecture actually do: the band lines'
distance in the plane, one meaning of b, and the c that does not reach the lecture."""

from pathlib import Path

import numpy as np
import pytest

from perceptron_core import make_dataset
from ui.look.numbers import number
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


def test_gamma_is_the_plane_distance_only_without_bias():
    text = words("What you see")
    assert "is the distance of the closest points; the dashed" not in text  # not with bias
    assert "Without bias, γ is their distance to the solid line, the band's half-width" in text
    assert "With bias, γ is measured on the vectors (x, c) the perceptron sees" in text
    assert "so it is at most the band's half-width in the plane" in text
    assert "smaller whenever the solid line misses the origin" in text


@pytest.mark.parametrize("c", [0.5, 1.0, 3.0])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_band_half_width_is_gamma_over_the_planes_share_of_w_star(seed, c):
    X, y = make_dataset("separable", n=30, seed=seed)
    on = lab.analyse(X, y, bias=True, c=c, max_epochs=100)
    w, gamma = on.mm.w_star, on.mm.gamma
    half = lab.band_half_width(on)
    # the support vectors lie on the dashed lines: their distance in the plane is the band's
    line = lab.in_plane(w, True, c)
    distance = on.y * (on.X @ line[:2] + line[2]) / np.linalg.norm(line[:2])
    assert distance.min() == pytest.approx(half)
    assert half * np.linalg.norm(w[:2]) == pytest.approx(gamma)  # γ = half-width·‖(w₁*, w₂*)‖
    assert gamma < half  # this line misses the origin (w₃* ≠ 0): strictly smaller
    assert f"Here γ = {number(gamma)} is measured on the vectors (x, {number(c)})" in (
        lab.band_sentence(on)
    )
    off = lab.analyse(X, y, bias=False, c=c, max_epochs=100)
    if off.mm is not None:  # through the origin: γ is the half-width itself
        assert lab.band_half_width(off) == pytest.approx(off.mm.gamma)


def test_no_band_no_sentence():
    X, y = np.array([[1.0, 0.0], [-1.0, 0.0]]), np.array([1.0, 1.0])  # one class: no line
    assert lab.band_sentence(lab.analyse(X, y, bias=True, c=1.0, max_epochs=10)) == ""
    X, y = np.array([[1.0, 0.0], [2.0, 0.0]]), np.array([1.0, -1.0])  # no line through 0
    assert lab.band_sentence(lab.analyse(X, y, bias=False, c=1.0, max_epochs=10)) == ""
