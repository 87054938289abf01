"""The home page's worked examples, and the settings that open each on Step by step.

A worked example is a handout's run: a registry dataset and the lecture's run settings
(``lec_*``) that differ from their defaults. Opening it sets the shared dataset and every
lecture run setting (the others back to their defaults), so the lecture page shows exactly
that run; the lecture's step is not written here (``ui.lecture.restart`` is its one writer;
the page restarts the run).

No Streamlit: the functions take the session mapping.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import numpy as np

from perceptron_core import DATASETS, RULES, make_dataset
from ui.app.state import SETTINGS, Session, assign, param_key, session_key
from ui.compute.model import Run, RunSettings, record_run
from ui.look.style import page_style
from ui.server.internals import testid
from ui.words import N_, t

CUSTOM = session_key("data_custom")  # an uploaded or drawn dataset would hide the example's


@dataclass(frozen=True)
class WorkedExample:
    """One worked example of the handouts, as the home page shows it and the lecture runs it."""

    key: str  # the home page's button is ``home_open_<key>``
    title: str  # "Worked example: <title>"
    source: str  # which handout
    text: str  # one markdown sentence: the points and how the run goes (not the rule)
    data_name: str  # a key of perceptron_core.DATASETS, at its default size, seed 0
    lecture: Mapping[str, Any] = field(default_factory=dict)  # lec_* settings not at default

    def __post_init__(self) -> None:
        if self.data_name not in DATASETS:
            raise ValueError(f"{self.key}: unknown dataset {self.data_name!r}")
        for key, value in self.lecture.items():
            if not key.startswith("lec_") or key not in SETTINGS or key == "lec_t":
                raise ValueError(f"{self.key}: {key!r} is not a lecture run setting")
            if type(value) is not type(SETTINGS[key].default):
                raise ValueError(f"{self.key}: {key} = {value!r} is not a setting's value")
        object.__setattr__(self, "lecture", MappingProxyType(dict(self.lecture)))

    @property
    def button_key(self) -> str:
        return f"home_open_{self.key}"

    @property
    def rule(self) -> str:
        """The example's mistake rule (a key of perceptron_core.RULES)."""
        return str(self.lecture.get("lec_rule", SETTINGS["lec_rule"].default))


EXAMPLES: tuple[WorkedExample, ...] = (
    WorkedExample(
        key="four_points",
        title=N_("the 4 points of Cornell CS6780"),
        source="Cornell CS6780",
        text=N_(
            "Points (1, 2)+, (2, 1)+, (−1, −1)−, (−1, 1)−, no bias, from **w = 0**, "
            "in the given order; on a mistake **w ← w + y·x**."
        ),
        data_name="four_points",
        # seed 001's (online) perceptron: unbiased h_w, w_0 = 0, FOR i = 1 TO n,
        # IF y_i (w_k · x_i) <= 0: w_{k+1} = w_k + y_i x_i
        lecture={
            "lec_bias": False,
            "lec_w0": "zero",
            "lec_order": "given",
            "lec_rule": "nonpositive",
            "lec_eta": 1.0,
            "lec_scale": "given",
        },
    ),
)


def card_text(example: WorkedExample) -> str:
    """The example's card sentence in this run's language: its points, its rule (the
    engine's words, which scripts/catalogue.py puts in the catalogue), its source."""
    rule = t(RULES[example.rule].text)
    return t("{text} Rule: {rule}. *Source: {source}.*").format(
        text=t(example.text), rule=rule, source=example.source
    )


def settings(example: WorkedExample) -> dict[str, Any]:
    """Every setting the lecture's run reads, as the example needs it: the dataset (its
    default size, seed 0, its parameters at their defaults) and every ``lec_*`` setting but
    the step, at the example's value or its default."""
    spec = DATASETS[example.data_name]
    out: dict[str, Any] = {
        "data_name": spec.key,
        "data_n": spec.n_default,
        "data_seed": SETTINGS["data_seed"].default,
    }
    for p in spec.params:
        key = param_key(spec.key, p.name)
        out[key] = SETTINGS[key].default
    for key, setting in SETTINGS.items():
        if key.startswith("lec_") and key != "lec_t":
            out[key] = example.lecture.get(key, setting.default)
    return out


def open_on_lecture(session: Session, example: WorkedExample) -> None:
    """Make the example the lecture's run: its settings (widgets kept in step), and the
    generated dataset instead of an uploaded or drawn one. The caller restarts the step."""
    for key, value in settings(example).items():
        assign(session, key, value)
    session.pop(CUSTOM, None)


def run_settings(example: WorkedExample) -> RunSettings:
    """How the lecture runs the example (w0 = 0 and the given order: no w0, no seed)."""
    s = settings(example)
    if s["lec_w0"] != "zero" or s["lec_order"] != "given":
        raise ValueError("a worked example starts from w = 0, in the given order")
    return RunSettings(
        bias=s["lec_bias"],
        eta=s["lec_eta"],
        rule=s["lec_rule"],
        scale=s["lec_scale"],
        max_epochs=s["lec_max_epochs"],
    )


def data(example: WorkedExample) -> tuple[np.ndarray, np.ndarray]:
    """The example's points (X, y), as the sidebar generates them."""
    s = settings(example)
    params = {
        p.name: s[param_key(example.data_name, p.name)] for p in DATASETS[s["data_name"]].params
    }
    return make_dataset(s["data_name"], n=s["data_n"], seed=s["data_seed"], **params)


def worked(example: WorkedExample) -> Run:
    """The example's run, recorded as the lecture page records it."""
    X, y = data(example)
    return record_run(X, y, run_settings(example))


LINKS = "home_links"  # the container of the links to the other pages
# a link's sentence wraps on a narrow screen (Streamlit cuts a page link to one line)
wrap_links = page_style(
    LINKS, f".st-key-{LINKS} {testid('stPageLink-NavLink')} * {{ white-space: normal; }}"
)
