"""The question bank: ConcepTests a lecturer asks the class from Step by step.

Each question is a state of the lecture (its URL form: the data, the settings, the step),
words, and two to four choices. The right choice and the reason said at the reveal are
computed by the engine from that state, never typed in. Asking one sets the lecture to its
state (the followers' phones follow), so the projector shows what the question is about.

The engine's making of a question (:func:`asked`) is computed once and keeps its words as
messages of the catalogue with their values (``ui.lecture.said``), never as sentences of
one language: :func:`made` writes them in the language of the run that shows them.

May import: ``numpy``, ``perceptron_core``, ``ui.compute.model``, ``ui.app.state``,
``ui.lecture.said``, ``ui.lecture.steps``, ``ui.words``.
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
from ui.lecture.said import Fixed, Said, pick, said, vector, written
from ui.lecture.steps import run_settings
from ui.words import N_, t

NEXT = "next"  # not a bank entry: "will the next example be a mistake?" at the page's step
NEXT_TITLE = N_("The next example: a mistake? (at this step)")


@dataclass(frozen=True)
class Asked:
    """A bank question as the engine makes it: the words, the choices (each a value of a
    :class:`Said`), the index of the right one, why (said at the reveal), and the step the
    reveal shows (the evidence: the mistake, the run's end; None: the question's own step).
    Its words are messages with their values: :func:`made` writes them."""

    prompt: Said
    choices: tuple[Any, ...]
    right: int
    why: Said
    reveal_t: int | None = None


@dataclass(frozen=True)
class Made:
    """A bank question written in the language of the run that shows it."""

    prompt: str
    choices: tuple[str, ...]
    right: int
    why: str
    reveal_t: int | None = None


@dataclass(frozen=True)
class Entry:
    """One question: its id (kept in the room and in the summary's CSV), its lesson, a
    title for the lecturer's list (both messages of the catalogue), the lecture state it
    is about (URL form) and the engine's making of it from the run at that state."""

    id: str
    lesson: str
    title: str
    state: tuple[tuple[str, str], ...]
    make: Callable[[Run], Asked]
    reveal_end: bool = True  # the reveal runs the lecture to its end, unless ``make`` says a step

    @property
    def query(self) -> dict[str, str]:
        return dict(self.state)

    @property
    def label(self) -> str:
        """How the lecturer's list names it: its lesson, then its title."""
        return t("{lesson}: {title}").format(lesson=t(self.lesson), title=t(self.title))

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


def _yes_no(prompt: Said, yes: bool, why: Said, reveal_t: int | None = None) -> Asked:
    return Asked(prompt, (said(N_("yes")), said(N_("no"))), 0 if yes else 1, why, reveal_t)


# ------------------------------------------------------------------------ the update rule

CORNELL: dict[str, object] = {"data_name": "four_points", "data_n": 4, "lec_bias": False}


def _first_is_mistake(run: Run) -> Asked:
    m = float(run.trace.steps.margin[0])  # type: ignore[union-attr]
    mistake = bool(run.trace.steps.mistake[0])  # type: ignore[union-attr]
    rule = "y·w·x ≤ 0" if run.trace.rule == "nonpositive" else "y·w·x < 0"
    return _yes_no(
        said(
            N_(
                "The Cornell CS6780 four points, from w = 0, no bias, the mistake rule {rule}. "
                "Is the first point, x = (1, 2) with y = +1, a mistake?"
            ),
            rule=rule,
        ),
        mistake,
        said(
            N_("y·w·x = {m} at w = 0, and the rule says {rule}: a mistake, so w ← w + y·x.")
            if mistake
            else N_("y·w·x = {m} at w = 0, and the rule says {rule}: no mistake, so w stays 0."),
            m=m,
            rule=rule,
        ),
        reveal_t=1,
    )


def _w_after_first(run: Run) -> Asked:
    tr = run.trace
    before, after = tr.w_before(0), tr.w_before(1)
    right = vector(after)
    choices, i = pick(right, [vector(-after), vector(before), vector(after * 2)])
    return Asked(
        said(N_("The Cornell CS6780 four points from w = 0, no bias. What is w after step 1?")),
        choices,
        i,
        said(
            N_("Step 1 shows x = (1, 2), y = +1: y·w·x = 0 is a mistake, so w ← w + y·x = {w}."),
            w=right,
        ),
        reveal_t=1,
    )


def _mistakes_cornell(run: Run) -> Asked:
    M = int(run.trace.n_mistakes)
    choices, i = pick(M, [k for k in (1, 2, 3, 4, 5) if k != M])
    return Asked(
        said(
            N_(
                "The Cornell CS6780 four points from w = 0, no bias, in the given order. How "
                "many mistakes does the perceptron make before a pass with none?"
            )
        ),
        choices,
        i,
        said(
            N_("M = {M}; the run ends at w = {w}, which gets all four right."),
            M=M,
            w=vector(run.trace.weights[-1]),
        ),
    )


def _strict_rule(run: Run) -> Asked:
    M = int(run.trace.n_mistakes)
    return Asked(
        said(
            N_(
                "The mistake rule y·w·x < 0 (a point on the line is not a mistake), from w = 0. "
                "What does the perceptron learn?"
            )
        ),
        (
            said(N_("nothing: w stays 0")),
            said(N_("the same w as with y·w·x ≤ 0")),
            said(N_("a w that gets half right")),
        ),
        0 if M == 0 else 1,
        said(
            N_(
                "{M} mistakes: at w = 0 every y·w·x is 0, which this rule never counts, so w "
                "never moves (the handouts count y·w·x ≤ 0 as a mistake for this reason)."
            ),
            M=M,
        ),
    )


def _next_mistake(run: Run) -> Asked:
    steps = run.trace.steps
    assert steps is not None
    t0 = int(_SEPARABLE_STEP)
    later = [s for s in range(t0, run.trace.n_steps) if steps.mistake[s]]
    at = later[0]
    point = int(steps.index[at]) + 1  # points and steps are counted from 1, as on the page
    shown = [int(steps.index[s]) + 1 for s in range(t0, t0 + 6)]
    choices, i = pick(said(N_("point {i}"), i=point), [said(N_("point {i}"), i=p) for p in shown])
    return Asked(
        said(
            N_(
                "Step by step on the separable set, at step t = {t}. Which point is the next "
                "mistake?"
            ),
            t=t0,
        ),
        choices,
        i,
        said(
            N_("Point {i}, shown at step t = {t}: y·w·x = {m}."),
            i=point,
            t=at + 1,
            m=float(steps.margin[at]),
        ),
        reveal_t=at + 1,
    )


_SEPARABLE_STEP = 8


# ------------------------------------------------------------------------------ the proof


def _bound_share(run: Run) -> Asked:
    assert run.mm is not None
    M, bound = int(run.trace.n_mistakes), float(run.mm.bound)
    share = M / bound
    bands = (
        said(N_("under a tenth of it")),
        said(N_("a tenth to a half of it")),
        said(N_("over half of it")),
        said(N_("over it")),
    )
    right = 0 if share < 0.1 else 1 if share < 0.5 else 2 if share <= 1 else 3
    return Asked(
        said(
            N_(
                "The separable set, from w = 0. The theorem says M ≤ (R/γ)². How many mistakes "
                "does the run make, against the bound?"
            )
        ),
        bands,
        right,
        said(
            N_(
                "M = {M} and (R/γ)² = {bound}: M is {share} of the bound. The bound is for the "
                "worst order of the worst set with this R and γ."
            ),
            M=M,
            bound=bound,
            share=Fixed(share, ".0%"),
        ),
    )


def _eta_scales(run: Run) -> Asked:
    base = train(run.X, run.y, bias=run.trace.bias, max_epochs=50)
    same = int(run.trace.n_mistakes) == int(base.n_mistakes)
    return Asked(
        said(
            N_(
                "From w = 0 with η = 1 the separable set costs M = {M} mistakes. With η = {eta}, "
                "how many?"
            ),
            M=int(base.n_mistakes),
            eta=Fixed(float(run.trace.eta), "g"),
        ),
        (said(N_("the same M")), said(N_("about 100 times as many")), said(N_("fewer"))),
        0 if same else 1,
        said(
            N_(
                "M = {M}: from w = 0, w is η times the η = 1 run's w at every step, so every "
                "sign and every mistake is the same."
            ),
            M=int(run.trace.n_mistakes),
        ),
    )


def _scaled(run: Run) -> Asked:
    """Scaling x by 1/R, through the origin with or without the bias (the run's)."""
    given = settings_at({**dict(_SCALE_STATE), "lec_bias": "1" if run.trace.bias else "0"})
    X, y = make_dataset("separable", n=int(given["data_n"]), seed=0, offset=0.0)
    M0 = int(train(X, y, bias=run.trace.bias, max_epochs=50).n_mistakes)
    M = int(run.trace.n_mistakes)
    if run.trace.bias:
        prompt = N_(
            "The separable set through the origin, with the bias feature 1, {M0} mistakes as "
            "given. Divide every x by R (scale x ÷ R). Does M change?"
        )
        why = N_(
            "M = {M} after the scaling, {M0} before: the bias feature stays 1 while x shrinks, "
            "so the points move against it."
        )
    else:
        prompt = N_(
            "The separable set through the origin, no bias, {M0} mistakes as given. Divide "
            "every x by R (scale x ÷ R). Does M change?"
        )
        why = N_(
            "M = {M} after the scaling, {M0} before: every x is divided by the same R, so every "
            "y·w·x is too: the same signs, the same M."
        )
    return Asked(
        said(prompt, M0=M0),
        (said(N_("no: the same M")), said(N_("yes: a different M"))),
        0 if M == M0 else 1,
        said(why, M=M, M0=M0),
    )


_SCALE_STATE = _state(data_separable_offset=0.0, lec_scale="radius", lec_bias=False)


def _w0_breaks(run: Run) -> Asked:
    assert run.trace.eta == 1.0
    w0 = run.trace.w_before(0)
    small = train(run.X, run.y, bias=True, w0=w0, eta=0.1, max_epochs=50)
    differ = int(small.n_mistakes) != int(run.trace.n_mistakes)
    return Asked(
        said(
            N_("Start from w₀ = {w0} instead of 0 (η = 1 here). What no longer holds?"),
            w0=vector(w0),
        ),
        (
            said(N_("η only scales w: now the mistakes depend on η")),
            said(N_("the run converges on separable data")),
            said(N_("the bound (R/γ)² is the data's")),
        ),
        0 if differ else 1,
        said(
            N_(
                "M = {M} with η = 1 and {M_small} with η = 0.1: w is no longer η times one "
                "fixed run, so η matters. The run still converges, and R and γ are the data's."
            ),
            M=int(run.trace.n_mistakes),
            M_small=int(small.n_mistakes),
        ),
    )


def _tighter(run: Run) -> Asked:
    c = run.curves
    assert c is not None
    k = int(c.k[-1])
    lower = float(c.w_dot_wstar[-1] / c.lower[-1])
    upper = float(c.w_norm_sq[-1] / c.upper[-1])
    right = 0 if abs(lower - 1) < abs(upper - 1) else 1
    return Asked(
        said(
            N_(
                "The Cornell CS6780 four points, no bias. After the last mistake, which of the "
                "proof's two inequalities is nearer to equality?"
            )
        ),
        (said(N_("w·w* ≥ kγ (Claim 1)")), said(N_("‖w‖² ≤ kR² (Claim 2)"))),
        right,
        said(
            N_("At k = {k}: w·w* is {lower} × kγ and ‖w‖² is {upper} × kR²."),
            k=k,
            lower=Fixed(lower, ".2f"),
            upper=Fixed(upper, ".2f"),
        ),
    )


# ------------------------------------------------------------------------------------ XOR


def _xor_last_epoch(run: Run) -> Asked:
    per_epoch = epoch_mistakes(run.trace)
    last = int(per_epoch[-1])
    epochs = int(run.trace.n_epochs)
    return Asked(
        said(N_("XOR, {epochs} epochs. How many mistakes in the last epoch?"), epochs=epochs),
        (said(N_("none: it has converged")), said(N_("some: it never stops"))),
        0 if last == 0 else 1,
        said(
            N_(
                "{last} mistakes in epoch {epoch}: no line separates XOR, so every pass makes "
                "at least one mistake."
            ),
            last=last,
            epoch=epochs,
        ),
    )


def _xor_mapped(run: Run) -> Asked:
    mapped = FEATURE_MAPS["product"].fn(run.X)
    trace = train(mapped, run.y, bias=True, max_epochs=200)
    return Asked(
        said(
            N_(
                "XOR again, but the perceptron sees only φ(x) = x₁·x₂ (the XOR page's map "
                '"x1·x2 only"), with the bias. Does it converge?'
            )
        ),
        (said(N_("yes")), said(N_("no"))),
        0 if trace.converged else 1,
        said(
            N_(
                "It converges after {M} mistakes: x₁·x₂ has one sign on one diagonal and the "
                "other sign on the other, so a threshold on it separates the classes."
            )
            if trace.converged
            else N_(
                "It does not converge after {M} mistakes: x₁·x₂ has one sign on one diagonal "
                "and the other sign on the other, so a threshold on it separates the classes."
            ),
            M=int(trace.n_mistakes),
        ),
    )


# ------------------------------------------------------------------------------- the margin


def _halved_margin(run: Run) -> Asked:
    assert run.mm is not None
    wide = run_at(dict(_state(data_separable_margin=0.6))).mm
    assert wide is not None
    ratio = float(run.mm.bound / wide.bound)
    options = (1.0, 2.0, 4.0)
    right = int(np.argmin([abs(np.log(ratio / o)) for o in options]))
    return Asked(
        said(
            N_(
                "The separable set with margin 0.6 has the bound (R/γ)² = {bound}. Halve the "
                "margin to 0.3: the bound becomes"
            ),
            bound=float(wide.bound),
        ),
        (
            said(N_("about the same")),
            said(N_("about twice as large")),
            said(N_("about four times as large")),
        ),
        right,
        said(
            N_(
                "(R/γ)² = {bound}, {ratio} times: γ went from {gamma0} to {gamma} and R from "
                "{radius0} to {radius} (the bound goes as R²/γ²)."
            ),
            bound=float(run.mm.bound),
            ratio=Fixed(ratio, ".1f"),
            gamma0=float(wide.gamma),
            gamma=float(run.mm.gamma),
            radius0=float(wide.radius),
            radius=float(run.mm.radius),
        ),
    )


BANK: dict[str, Entry] = {
    e.id: e
    for e in (
        Entry(
            "first-mistake",
            N_("Update rule"),
            N_("Is the first point a mistake? (Cornell)"),
            _state(**CORNELL),
            _first_is_mistake,
        ),
        Entry(
            "w-after-step-1",
            N_("Update rule"),
            N_("w after step 1 (Cornell)"),
            _state(**CORNELL),
            _w_after_first,
        ),
        Entry(
            "mistakes-cornell",
            N_("Update rule"),
            N_("How many mistakes? (Cornell)"),
            _state(**CORNELL),
            _mistakes_cornell,
        ),
        Entry(
            "strict-rule",
            N_("Update rule"),
            N_("The rule y·w·x < 0 from w = 0"),
            _state(**CORNELL, lec_rule="negative"),
            _strict_rule,
        ),
        Entry(
            "next-mistake",
            N_("Update rule"),
            N_("Which point is the next mistake?"),
            _state(lec_t=_SEPARABLE_STEP),
            _next_mistake,
        ),
        Entry(
            "bound-share",
            N_("Proof"),
            N_("M against the bound (R/γ)²"),
            _state(lec_t=0),
            _bound_share,
        ),
        Entry(
            "eta-from-zero",
            N_("Proof"),
            N_("Does η change M from w = 0?"),
            _state(lec_eta=0.01),
            _eta_scales,
        ),
        Entry(
            "scale-no-bias",
            N_("Proof"),
            N_("Scaling x, no bias: does M change?"),
            _SCALE_STATE,
            _scaled,
        ),
        Entry(
            "scale-with-bias",
            N_("Proof"),
            N_("Scaling x, with bias: does M change?"),
            _state(**{**dict(_SCALE_STATE), "lec_bias": True}),
            _scaled,
        ),
        Entry(
            "w0-not-zero",
            N_("Proof"),
            N_("What does w₀ ≠ 0 break?"),
            _state(lec_w0="typed", lec_w0_typed="1, -2, 1"),
            _w0_breaks,
        ),
        Entry(
            "tighter-claim",
            N_("Proof"),
            N_("Which claim is tight? (Cornell)"),
            _state(**CORNELL, lec_t=4),
            _tighter,
        ),
        Entry(
            "halved-margin",
            N_("Margin"),
            N_("Halve the margin: the bound?"),
            _state(data_separable_margin=0.3),
            _halved_margin,
        ),
        Entry(
            "xor-epochs",
            N_("XOR"),
            N_("XOR after many epochs"),
            _state(data_name="xor", data_n=4, data_xor_spread=0.0, lec_max_epochs=20),
            _xor_last_epoch,
        ),
        Entry(
            "xor-feature-map",
            N_("XOR"),
            N_("XOR with the feature x₁·x₂"),
            _state(data_name="xor", data_n=4, data_xor_spread=0.0, lec_max_epochs=20),
            _xor_mapped,
            reveal_end=False,  # the map is the XOR page's: this page's run shows nothing of it
        ),
    )
}


@functools.cache
def asked(entry_id: str) -> Asked:
    """The engine's question for a bank entry (computed once: the state never changes),
    its words messages with their values, the same for every language."""
    entry = BANK[entry_id]
    run = run_at(entry.query)
    m = entry.make(run)
    if m.reveal_t is None and entry.reveal_end:
        m = replace(m, reveal_t=int(run.trace.n_steps))
    return m


def made(entry_id: str) -> Made:
    """The bank's question ``entry_id`` written in the language of this run."""
    a = asked(entry_id)
    choices = tuple(written(c) for c in a.choices)
    return Made(a.prompt.text(), choices, a.right, a.why.text(), a.reveal_t)
