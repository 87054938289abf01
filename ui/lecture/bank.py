"""The question bank: ConcepTests a lecturer asks the class from Step by step.

Each question is a state of the lecture (its URL form: the data, the settings, the step),
words, and two to four choices. The right choice and the reason said at the reveal are
computed by the engine from that state, never typed in. Asking one sets the lecture to its
state (the followers' phones follow), so the projector shows what the question is about.

May import: ``numpy``, ``perceptron_core``, ``ui.compute.model``, ``ui.app.state``,
``ui.lecture.steps``, ``ui.look.numbers``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from perceptron_core import DATASETS, FEATURE_MAPS, epoch_mistakes, make_dataset, train
from ui.app.state import SETTINGS, param_key
from ui.compute.model import Run, record_run
from ui.lecture.steps import run_settings
from ui.look.numbers import number, vector_text

NEXT = "next"  # not a bank entry: "will the next example be a mistake?" at the page's step
NEXT_TITLE = "The next example: a mistake? (at this step)"


@dataclass(frozen=True)
class Made:
    """A bank question as the engine makes it: the words, the choices, the index of the
    right one, why (said at the reveal), and the step the reveal shows (the evidence: the
    mistake, the run's end; None: the question's own step)."""

    prompt: str
    choices: tuple[str, ...]
    right: int
    why: str
    reveal_t: int | None = None


@dataclass(frozen=True)
class Entry:
    """One question: its id (kept in the room and in the summary's CSV), its lesson, a
    title for the lecturer's list, the lecture state it is about (URL form) and the
    engine's making of it from the run at that state."""

    id: str
    lesson: str
    title: str
    state: tuple[tuple[str, str], ...]
    make: Callable[[Run], Made]
    reveal_end: bool = True  # the reveal runs the lecture to its end, unless ``make`` says a step

    @property
    def query(self) -> dict[str, str]:
        return dict(self.state)

    @property
    def label(self) -> str:
        """How the lecturer's list names it: its lesson, then its title."""
        return f"{self.lesson}: {self.title}"

    @property
    def step(self) -> int:
        return int(self.query.get("lec_t", "0"))


def _state(**values: object) -> tuple[tuple[str, str], ...]:
    """A lecture state in URL form, each value checked by its setting's parser (a wrong
    entry fails as the module is imported, not in front of a class)."""
    out = []
    for key, value in values.items():
        text = ("1" if value else "0") if isinstance(value, bool) else str(value)
        SETTINGS[key].parse(text)
        out.append((key, text))
    return tuple(out)


def settings_at(query: Mapping[str, str]) -> dict[str, Any]:
    """The settings a session holds after opening the lecture at ``query``."""
    values: dict[str, Any] = {k: s.default for k, s in SETTINGS.items()}
    values.update({k: SETTINGS[k].parse(v) for k, v in query.items()})
    return values


def run_at(query: Mapping[str, str]) -> Run:
    """The lecture's run at ``query``: the page's own engine call."""
    s = settings_at(query)
    name = s["data_name"]
    params = {p.name: float(s[param_key(name, p.name)]) for p in DATASETS[name].params}
    X, y = make_dataset(name, n=int(s["data_n"]), seed=int(s["data_seed"]), **params)
    settings, _ = run_settings(s, X)
    return record_run(X, y, settings)


def _pick(right: str, others: list[str]) -> tuple[tuple[str, ...], int]:
    """Up to four distinct choices in a fixed order, the right one among them."""
    choices = [right]
    for o in others:
        if o not in choices and len(choices) < 4:
            choices.append(o)
    choices.sort(key=_natural)
    return tuple(choices), choices.index(right)


def _natural(text: str) -> tuple[float, str]:
    """Choices in the order a reader expects: by their first number, then as text."""
    digits = "".join(c if c.isdigit() or c in ".-−" else " " for c in text).split()
    for d in digits:
        try:
            return (float(d.replace("−", "-")), text)
        except ValueError:
            continue
    return (0.0, text)


def _yes_no(prompt: str, yes: bool, why: str, reveal_t: int | None = None) -> Made:
    return Made(prompt, ("yes", "no"), 0 if yes else 1, why, reveal_t)


# ------------------------------------------------------------------------ the update rule

CORNELL: dict[str, object] = {"data_name": "four_points", "data_n": 4, "lec_bias": False}


def _first_is_mistake(run: Run) -> Made:
    m = float(run.trace.steps.margin[0])  # type: ignore[union-attr]
    mistake = bool(run.trace.steps.mistake[0])  # type: ignore[union-attr]
    rule = "y·w·x ≤ 0" if run.trace.rule == "nonpositive" else "y·w·x < 0"
    return _yes_no(
        f"The Cornell CS6780 four points, from w = 0, no bias, the mistake rule {rule}. "
        "Is the first point, x = (1, 2) with y = +1, a mistake?",
        mistake,
        f"y·w·x = {number(m)} at w = 0, and the rule says {rule}: "
        + ("a mistake, so w ← w + y·x." if mistake else "no mistake, so w stays 0."),
        reveal_t=1,
    )


def _w_after_first(run: Run) -> Made:
    t = run.trace
    before, after = t.w_before(0), t.w_before(1)
    right = vector_text(after)
    choices, i = _pick(right, [vector_text(-after), vector_text(before), vector_text(after * 2)])
    return Made(
        "The Cornell CS6780 four points from w = 0, no bias. What is w after step 1?",
        choices,
        i,
        f"Step 1 shows x = (1, 2), y = +1: y·w·x = 0 is a mistake, so w ← w + y·x = {right}.",
        reveal_t=1,
    )


def _mistakes_cornell(run: Run) -> Made:
    M = int(run.trace.n_mistakes)
    choices, i = _pick(str(M), [str(k) for k in (1, 2, 3, 4, 5) if k != M])
    return Made(
        "The Cornell CS6780 four points from w = 0, no bias, in the given order. How many "
        "mistakes does the perceptron make before a pass with none?",
        choices,
        i,
        f"M = {M}; the run ends at w = {vector_text(run.trace.weights[-1])}, which gets all four "
        "right.",
    )


def _strict_rule(run: Run) -> Made:
    M = int(run.trace.n_mistakes)
    return Made(
        "The mistake rule y·w·x < 0 (a point on the line is not a mistake), from w = 0. "
        "What does the perceptron learn?",
        ("nothing: w stays 0", "the same w as with y·w·x ≤ 0", "a w that gets half right"),
        0 if M == 0 else 1,
        f"{M} mistakes: at w = 0 every y·w·x is 0, which this rule never counts, so w "
        "never moves (the handouts count y·w·x ≤ 0 as a mistake for this reason).",
    )


def _next_mistake(run: Run) -> Made:
    steps = run.trace.steps
    assert steps is not None
    t0 = int(_SEPARABLE_STEP)
    later = [t for t in range(t0, run.trace.n_steps) if steps.mistake[t]]
    t = later[0]
    point = int(steps.index[t]) + 1  # points and steps are counted from 1, as on the page
    shown = [int(steps.index[s]) + 1 for s in range(t0, t0 + 6)]
    choices, i = _pick(f"point {point}", [f"point {p}" for p in shown])
    return Made(
        f"Step by step on the separable set, at step t = {t0}. Which point is the next mistake?",
        choices,
        i,
        f"Point {point}, shown at step t = {t + 1}: y·w·x = {number(float(steps.margin[t]))}.",
        reveal_t=t + 1,
    )


_SEPARABLE_STEP = 8


# ------------------------------------------------------------------------------ the proof


def _bound_share(run: Run) -> Made:
    assert run.mm is not None
    M, bound = int(run.trace.n_mistakes), float(run.mm.bound)
    share = M / bound
    bands = ("under a tenth of it", "a tenth to a half of it", "over half of it", "over it")
    right = 0 if share < 0.1 else 1 if share < 0.5 else 2 if share <= 1 else 3
    return Made(
        "The separable set, from w = 0. The theorem says M ≤ (R/γ)². How many mistakes does "
        "the run make, against the bound?",
        bands,
        right,
        f"M = {M} and (R/γ)² = {number(bound)}: M is {share:.0%} of the bound. The bound is "
        "for the worst order of the worst set with this R and γ.",
    )


def _eta_scales(run: Run) -> Made:
    base = train(run.X, run.y, bias=run.trace.bias, max_epochs=50)
    same = int(run.trace.n_mistakes) == int(base.n_mistakes)
    return Made(
        f"From w = 0 with η = 1 the separable set costs M = {base.n_mistakes} mistakes. "
        f"With η = {run.trace.eta:g}, how many?",
        ("the same M", "about 100 times as many", "fewer"),
        0 if same else 1,
        f"M = {run.trace.n_mistakes}: from w = 0, w is η times the η = 1 run's w at every "
        "step, so every sign and every mistake is the same.",
    )


def _scale_no_bias(run: Run) -> Made:
    return _scaled(run, "no bias")


def _scale_bias(run: Run) -> Made:
    return _scaled(run, "with the bias feature 1")


def _scaled(run: Run, how: str) -> Made:
    given = settings_at({**dict(_SCALE_STATE), "lec_bias": "1" if run.trace.bias else "0"})
    X, y = make_dataset("separable", n=int(given["data_n"]), seed=0, offset=0.0)
    M0 = int(train(X, y, bias=run.trace.bias, max_epochs=50).n_mistakes)
    M = int(run.trace.n_mistakes)
    why = (
        "every x is divided by the same R, so every y·w·x is too: the same signs, the same M"
        if not run.trace.bias
        else "the bias feature stays 1 while x shrinks, so the points move against it"
    )
    return Made(
        f"The separable set through the origin, {how}, {M0} mistakes as given. Divide every "
        "x by R (scale x ÷ R). Does M change?",
        ("no: the same M", "yes: a different M"),
        0 if M == M0 else 1,
        f"M = {M} after the scaling, {M0} before: {why}.",
    )


_SCALE_STATE = _state(data_separable_offset=0.0, lec_scale="radius", lec_bias=False)


def _w0_breaks(run: Run) -> Made:
    assert run.trace.eta == 1.0
    w0 = run.trace.w_before(0)
    small = train(run.X, run.y, bias=True, w0=w0, eta=0.1, max_epochs=50)
    differ = int(small.n_mistakes) != int(run.trace.n_mistakes)
    return Made(
        f"Start from w₀ = {vector_text(w0)} instead of 0 (η = 1 here). What no longer holds?",
        (
            "η only scales w: now the mistakes depend on η",
            "the run converges on separable data",
            "the bound (R/γ)² is the data's",
        ),
        0 if differ else 1,
        f"M = {run.trace.n_mistakes} with η = 1 and {small.n_mistakes} with η = 0.1: w is no "
        "longer η times one fixed run, so η matters. The run still converges, and R and γ "
        "are the data's.",
    )


def _tighter(run: Run) -> Made:
    c = run.curves
    assert c is not None
    k = int(c.k[-1])
    lower = float(c.w_dot_wstar[-1] / c.lower[-1])
    upper = float(c.w_norm_sq[-1] / c.upper[-1])
    right = 0 if abs(lower - 1) < abs(upper - 1) else 1
    return Made(
        "The Cornell CS6780 four points, no bias. After the last mistake, which of the "
        "proof's two inequalities is nearer to equality?",
        ("w·w* ≥ kγ (Claim 1)", "‖w‖² ≤ kR² (Claim 2)"),
        right,
        f"At k = {k}: w·w* is {lower:.2f} × kγ and ‖w‖² is {upper:.2f} × kR².",
    )


# ------------------------------------------------------------------------------------ XOR


def _xor_last_epoch(run: Run) -> Made:
    per_epoch = epoch_mistakes(run.trace)
    last = int(per_epoch[-1])
    return Made(
        f"XOR, {run.trace.n_epochs} epochs. How many mistakes in the last epoch?",
        ("none: it has converged", "some: it never stops"),
        0 if last == 0 else 1,
        f"{last} mistakes in epoch {run.trace.n_epochs}: no line separates XOR, so every "
        "pass makes at least one mistake.",
    )


def _xor_mapped(run: Run) -> Made:
    mapped = FEATURE_MAPS["product"].fn(run.X)
    trace = train(mapped, run.y, bias=True, max_epochs=200)
    return Made(
        "XOR again, but the perceptron sees only φ(x) = x₁·x₂ (the XOR page's map "
        '"x1·x2 only"), with the bias. Does it converge?',
        ("yes", "no"),
        0 if trace.converged else 1,
        f"{'It converges' if trace.converged else 'It does not converge'} after "
        f"{trace.n_mistakes} mistakes: x₁·x₂ has one sign on one diagonal and the other sign "
        "on the other, so a threshold on it separates the classes.",
    )


# ------------------------------------------------------------------------------- the margin


def _halved_margin(run: Run) -> Made:
    assert run.mm is not None
    wide = run_at(dict(_state(data_separable_margin=0.6))).mm
    assert wide is not None
    ratio = float(run.mm.bound / wide.bound)
    options = (1.0, 2.0, 4.0)
    right = int(np.argmin([abs(np.log(ratio / o)) for o in options]))
    return Made(
        "The separable set with margin 0.6 has the bound (R/γ)² = "
        f"{number(float(wide.bound))}. Halve the margin to 0.3: the bound becomes",
        ("about the same", "about twice as large", "about four times as large"),
        right,
        f"(R/γ)² = {number(float(run.mm.bound))}, {ratio:.1f} times: γ went from "
        f"{number(float(wide.gamma))} to {number(float(run.mm.gamma))} and R from "
        f"{number(float(wide.radius))} to {number(float(run.mm.radius))} (the bound goes as "
        "R²/γ²).",
    )


BANK: dict[str, Entry] = {
    e.id: e
    for e in (
        Entry(
            "first-mistake",
            "Update rule",
            "Is the first point a mistake? (Cornell)",
            _state(**CORNELL),
            _first_is_mistake,
        ),
        Entry(
            "w-after-step-1",
            "Update rule",
            "w after step 1 (Cornell)",
            _state(**CORNELL),
            _w_after_first,
        ),
        Entry(
            "mistakes-cornell",
            "Update rule",
            "How many mistakes? (Cornell)",
            _state(**CORNELL),
            _mistakes_cornell,
        ),
        Entry(
            "strict-rule",
            "Update rule",
            "The rule y·w·x < 0 from w = 0",
            _state(**CORNELL, lec_rule="negative"),
            _strict_rule,
        ),
        Entry(
            "next-mistake",
            "Update rule",
            "Which point is the next mistake?",
            _state(lec_t=_SEPARABLE_STEP),
            _next_mistake,
        ),
        Entry(
            "bound-share",
            "Proof",
            "M against the bound (R/γ)²",
            _state(lec_t=0),
            _bound_share,
        ),
        Entry(
            "eta-from-zero",
            "Proof",
            "Does η change M from w = 0?",
            _state(lec_eta=0.01),
            _eta_scales,
        ),
        Entry(
            "scale-no-bias",
            "Proof",
            "Scaling x, no bias: does M change?",
            _SCALE_STATE,
            _scale_no_bias,
        ),
        Entry(
            "scale-with-bias",
            "Proof",
            "Scaling x, with bias: does M change?",
            _state(**{**dict(_SCALE_STATE), "lec_bias": True}),
            _scale_bias,
        ),
        Entry(
            "w0-not-zero",
            "Proof",
            "What does w₀ ≠ 0 break?",
            _state(lec_w0="typed", lec_w0_typed="1, -2, 1"),
            _w0_breaks,
        ),
        Entry(
            "tighter-claim",
            "Proof",
            "Which claim is tight? (Cornell)",
            _state(**CORNELL, lec_t=4),
            _tighter,
        ),
        Entry(
            "halved-margin",
            "Margin",
            "Halve the margin: the bound?",
            _state(data_separable_margin=0.3),
            _halved_margin,
        ),
        Entry(
            "xor-epochs",
            "XOR",
            "XOR after many epochs",
            _state(data_name="xor", data_n=4, data_xor_spread=0.0, lec_max_epochs=20),
            _xor_last_epoch,
        ),
        Entry(
            "xor-feature-map",
            "XOR",
            "XOR with the feature x₁·x₂",
            _state(data_name="xor", data_n=4, data_xor_spread=0.0, lec_max_epochs=20),
            _xor_mapped,
            reveal_end=False,  # the map is the XOR page's: this page's run shows nothing of it
        ),
    )
}


@functools.cache
def made(entry_id: str) -> Made:
    """The engine's question for a bank entry (computed once: the state never changes)."""
    entry = BANK[entry_id]
    run = run_at(entry.query)
    m = entry.make(run)
    if m.reveal_t is None and entry.reveal_end:
        m = replace(m, reveal_t=int(run.trace.n_steps))
    return m
