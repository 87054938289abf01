"""The lecturer's question at the lecture's step t: the next example, and the
truth the reveal shows (from the recorded run, never from a student's browser)."""

from __future__ import annotations

import numpy as np

from ui import words
from ui.classmode.classroom import Question
from ui.classmode.turns import turn_of
from ui.compute.model import Run
from ui.lecture import bank


def at_step(run: Run, t: int) -> Question | str:
    """'Will the example shown at step t+1 be a mistake?' for the run at step ``t`` (steps
    shown so far), or the sentence saying why there is no next example."""
    trace = run.trace
    steps = trace.steps
    if steps is None or not 0 <= t < trace.n_steps:
        return words.t("The run has ended: there is no next example to ask about. Step back first.")
    i = int(steps.index[t])
    x = np.asarray(run.X[i], dtype=float)
    z = np.append(x, 1.0) if trace.bias else x  # the bias feature 1, last (the engine's)
    w = trace.w_before(t)
    y = int(run.y[i])
    mistake = bool(steps.mistake[t])
    return Question(
        id=0,  # numbered by the room
        t=int(t),
        point=i,
        x=tuple(float(v) for v in x),
        z=tuple(float(v) for v in z),
        y=y,
        w=tuple(float(v) for v in w),
        rule=trace.rule,
        eta=float(trace.eta),
        mistake=mistake,
        turn=turn_of(w, z, y, trace.eta, mistake),
    )


def from_bank(entry_id: object) -> Question | str:
    """The bank's question ``entry_id`` (``ui.lecture.bank``) as the room keeps it, or the
    sentence saying why there is none (an id the bank does not have: a forged or old one)."""
    if not isinstance(entry_id, str) or entry_id not in bank.BANK:
        return words.t("That question is not in the bank: pick one from the list.")
    entry, made = bank.BANK[entry_id], bank.made(entry_id)
    settings = bank.settings_at(entry.query)
    return Question(
        id=0,  # numbered by the room
        t=entry.step,
        point=-1,
        x=(),
        z=(),
        y=1,
        w=(),
        rule=str(settings["lec_rule"]),
        eta=float(settings["lec_eta"]),
        mistake=False,
        turn="none",
        bank=entry.id,
        prompt=made.prompt,
        choices=made.choices,
        right=made.right,
        why=made.why,
        reveal_t=-1 if made.reveal_t is None else made.reveal_t,
    )
