"""The experts page's text against seed 004 and the engine: its quotation sits on the claim the
handout makes with it, and its lemmas and angle are stated as the run bears them out."""

import re
from pathlib import Path

import numpy as np
import pytest

from perceptron_core import simulate_experts
from ui.app.state import SETTINGS
from ui.look.text import lesson_text

SEEDS = Path(__file__).resolve().parents[4] / "shared" / "seeds"
ALWAYS_RIGHT = "since this subset is always right"


def words(section: str) -> str:
    return " ".join(lesson_text("experts")[section].split())


def sentence_with(text: str, phrase: str) -> str:
    return next(s for s in re.split(r"(?<=[.:])\s+(?=[A-Z])", text) if phrase in s)


def default_run():
    keys = ("exp_n", "exp_k", "exp_days", "exp_behaviour", "exp_seed")
    n, k, days, behaviour, seed = (SETTINGS[key].default for key in keys)
    return simulate_experts(n=n, k=k, days=days, behaviour=behaviour, seed=seed)


def test_always_right_is_quoted_for_the_margin_of_u_and_nowhere_else():
    text = lesson_text("experts")
    assert [s for s in text if ALWAYS_RIGHT in " ".join(text[s].split())] == ["derivation"]
    claim = sentence_with(words("derivation"), ALWAYS_RIGHT)
    assert "at least 1/√k on every day" in claim


def test_in_seed_004_always_right_is_the_reason_for_that_margin():
    files = sorted(SEEDS.glob("004_*.txt"))
    if not files:
        pytest.skip(f"the lecture handouts are not beside the project (no {SEEDS})")
    line = next(
        li for li in files[0].read_text(encoding="utf-8").splitlines() if ALWAYS_RIGHT in li
    )
    assert r"y_t (\vec{x}_t \cdot \vec{u}) \geq \frac{1}{\sqrt{k}}" in line


def test_lemma_2_is_an_at_most_and_the_bound_on_the_angle_is_what_shrinks():
    text = words("weights")
    assert "below D√M" not in text and "keeps ‖w‖ at most D√M" in text
    assert "the angle between them shrinks" not in text
    assert "the cosine of the angle between them is at least √M·γ/D" in text
    assert "the angle itself can still widen at a single mistake" in text
    run = default_run()
    made = np.flatnonzero(run.mistakes) + 1  # the days after which w had just changed
    w = run.weights[made]
    M = np.arange(1, len(made) + 1)
    norm = np.linalg.norm(w, axis=1)
    assert norm[0] == pytest.approx(run.radius)  # after one mistake ‖w‖ = D√1: not below it
    assert (norm <= run.radius * np.sqrt(M) + 1e-9).all()
    cos = (w @ run.u) / norm
    assert (cos >= np.sqrt(M) * run.gamma / run.radius - 1e-9).all()  # the bound holds
    assert (np.diff(cos) < 0).any()  # and yet the angle widens at some mistakes


def test_the_committee_climbs_together_not_each_member():
    text = words("weights")
    assert "together they climb (blue)" in text
    run = default_run()
    made = np.flatnonzero(run.mistakes)
    step = run.weights[made + 1] - run.weights[made]  # what each mistake added
    assert (step[:, run.committee].sum(axis=1) >= 1).all()  # the committee: up by ≥ 1 in all
    assert (step[:, run.committee] < 0).any()  # though a member of it can go down


def test_the_adversary_spends_trust_on_the_days_it_fools_the_perceptron():
    text = words("notes")
    assert "right whenever the perceptron errs" not in text
    assert "every outsider it does not need is right" in text
    run = simulate_experts(n=25, k=5, days=500, behaviour="adversarial", seed=0)
    others = np.setdiff1d(np.arange(run.n), run.committee)
    days = np.flatnonzero(run.mistakes)
    right = run.predictions[days][:, others] == run.truth[days][:, None]
    assert right.any(axis=1).all()  # on every day it fools the perceptron some are right
    assert not right.all()  # but not all: the most trusted are made wrong
