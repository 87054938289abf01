"""The question bank: every question's answer recomputed here from the engine (by its own
calls, not the bank's), and a bank question asked, answered, revealed and summarised in a
class, as a lecturer and two students would see it; and a student who reloads still sees
which answer counted (for either kind of question)."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import numpy as np
import pytest
from apptest_helpers import answer_card, lecture_scene, open_app
from room_helpers import card_of, fresh_store, lecturer, room_of, student, texts  # noqa: F401

from perceptron_core import FEATURE_MAPS, epoch_mistakes, make_dataset, max_margin, train
from ui.classmode import answers as an
from ui.classmode import arrive, summary
from ui.classmode import classroom as cr
from ui.lecture import bank
from ui.lecture.question import from_bank

CORNELL = make_dataset("four_points")
SEPARABLE = make_dataset("separable", n=40, seed=0)


def right(entry_id: str) -> str:
    m = bank.made(entry_id)
    return m.choices[m.right]


def test_the_bank_has_a_dozen_questions_across_the_lessons() -> None:
    assert len(bank.BANK) >= 12
    assert {e.lesson for e in bank.BANK.values()} >= {
        "Update rule",
        "Proof",
        "XOR",
    }
    for entry_id in bank.BANK:
        m = bank.made(entry_id)
        assert 2 <= len(m.choices) <= cr.MAX_CHOICES and len(set(m.choices)) == len(m.choices)
        assert 0 <= m.right < len(m.choices) and m.prompt.endswith(("?", "becomes")) and m.why
        run = bank.run_at(bank.BANK[entry_id].query)
        assert m.reveal_t is None or 0 <= m.reveal_t <= run.trace.n_steps


def test_the_cornell_points_answers() -> None:
    X, y = CORNELL
    run = train(X, y, bias=False, record_steps=True)
    assert right("first-mistake") == ("yes" if run.steps.mistake[0] else "no")
    assert right("w-after-step-1") == f"({X[0][0] * y[0]:g}, {X[0][1] * y[0]:g})"  # w = 0 + y·x
    assert right("mistakes-cornell") == str(run.n_mistakes)
    strict = train(X, y, bias=False, rule="negative")
    assert (right("strict-rule") == "nothing: w stays 0") == (strict.n_mistakes == 0)
    mm = max_margin(X, y, bias=False)
    w = run.weights[-1]
    k = run.n_mistakes
    claim1 = float(w @ mm.w_star) / (k * mm.gamma)
    claim2 = float(w @ w) / (k * mm.radius**2)
    assert right("tighter-claim").startswith(
        "w·w*" if abs(claim1 - 1) < abs(claim2 - 1) else "‖w‖²"
    )


def test_the_separable_sets_answers() -> None:
    X, y = SEPARABLE
    run = train(X, y, bias=True, max_epochs=50, record_steps=True)
    t = next(s for s in range(8, run.n_steps) if run.steps.mistake[s])
    assert right("next-mistake") == f"point {run.steps.index[t] + 1}"
    share = run.n_mistakes / max_margin(X, y, bias=True).bound
    assert right("bound-share") == (
        "under a tenth of it"
        if share < 0.1
        else "a tenth to a half of it"
        if share < 0.5
        else "over half of it"
    )
    small_eta = train(X, y, bias=True, max_epochs=50, eta=0.01)
    assert (right("eta-from-zero") == "the same M") == (small_eta.n_mistakes == run.n_mistakes)
    w0 = np.array([1.0, -2.0, 1.0])
    a, b = (train(X, y, bias=True, max_epochs=50, w0=w0, eta=eta) for eta in (1.0, 0.1))
    assert right("w0-not-zero").startswith("η only scales w") == (a.n_mistakes != b.n_mistakes)


@pytest.mark.parametrize("bias", [False, True])
def test_scaling_x_answers(bias: bool) -> None:
    X, y = make_dataset("separable", n=40, seed=0, offset=0.0)
    R = float(np.max(np.linalg.norm(np.hstack([X, np.ones((len(X), 1))]) if bias else X, axis=1)))
    given = train(X, y, bias=bias, max_epochs=50).n_mistakes
    scaled = train(X / R, y, bias=bias, max_epochs=50).n_mistakes
    said = right("scale-with-bias" if bias else "scale-no-bias")
    assert said == ("no: the same M" if given == scaled else "yes: a different M")
    if not bias:
        assert said == "no: the same M"  # one factor for every x: the same signs


def test_the_margin_and_xor_answers() -> None:
    wide = max_margin(*make_dataset("separable", n=40, seed=0, margin=0.6), bias=True).bound
    narrow = max_margin(*make_dataset("separable", n=40, seed=0, margin=0.3), bias=True).bound
    ratio = narrow / wide
    nearest = min((1, 2, 4), key=lambda o: abs(np.log(ratio / o)))
    assert (
        right("halved-margin")
        == {
            1: "about the same",
            2: "about twice as large",
            4: "about four times as large",
        }[nearest]
    )
    X, y = make_dataset("xor", n=4, seed=0, spread=0.0)
    last = epoch_mistakes(train(X, y, bias=True, max_epochs=20))[-1]
    assert right("xor-epochs") == (
        "none: it has converged" if last == 0 else "some: it never stops"
    )
    mapped = train(FEATURE_MAPS["product"].fn(X), y, bias=True, max_epochs=200)
    assert right("xor-feature-map") == ("yes" if mapped.converged else "no")


def test_a_forged_or_stale_bank_id_makes_no_question() -> None:
    for forged in ("", "no-such-question", None, 3, "next-mistake " * 50):
        said = from_bank(forged)
        assert isinstance(said, str) and "not in the bank" in said


def test_a_bank_question_in_class_from_the_pick_to_the_summary(fresh_store) -> None:  # noqa: F811
    lec, seat = lecturer()
    lec.switch_page("pages/lecture.py").run()
    a = student(seat.code, page="pages/lecture.py")
    b = student(seat.code, "Bo", page="pages/lecture.py")
    lec.selectbox(key="room_bank_pick").select("mistakes-cornell").run()
    lec.button(key="room_ask").click().run()
    lec.run()
    q = room_of(seat.code).question
    assert q is not None and q.bank == "mistakes-cornell" and q.choices == bank.made(q.bank).choices
    # the lecture took the question's state: the Cornell points, no bias
    assert (
        lec.session_state["data_name"] == "four_points" and lec.session_state["lec_bias"] is False
    )
    assert lecture_scene(lec)["asked"] is None  # no one example is ringed
    for x in (a, b):
        x.run()
        x.run()
        assert x.session_state["data_name"] == "four_points"  # the followers took it too
        assert q.prompt in card_of(x, q.id)
    good, bad = q.choices[q.right], next(c for c in q.choices if c != q.choices[q.right])
    answer_card(a, good)
    answer_card(b, bad)
    assert f"Counted: you said {good}." in card_of(a, q.id)
    lec.toggle(key="room_live_pick").set_value(True).run()
    assert sorted(p.proto.text for p in lec.get("progress")) == sorted(
        f"{c}: {int(c in (good, bad))} ({50 if c in (good, bad) else 0}%)" for c in q.choices
    )
    lec.button(key="room_reveal").click().run()
    lec.run()
    # the reveal shows the evidence: the run's end, where the perceptron stopped after M
    assert lec.session_state["lec_t"] == q.reveal_t == lecture_scene(lec)["T"]
    assert f"{good} ✓ right: 1 (50%)" in [p.proto.text for p in lec.get("progress")]
    for x in (a, b):
        x.run()
        x.run()
    assert f"{good} ✓ right" in card_of(a, q.id) and bank.made(q.bank).why in card_of(a, q.id)
    assert f"{bad} ✗ (the answer: {good})" in card_of(b, q.id)
    rows = list(csv.DictReader(io.StringIO(summary.summary(fresh_store, room_of(seat.code)))))
    row = next(r for r in rows if r["kind"] == "question")
    assert (row["bank question"], row["question"], row["answer"]) == (
        "mistakes-cornell",
        q.prompt,
        good,
    )
    assert (row["answered"], row["right on choice"]) == ("2", "1")


def test_a_forged_answer_to_a_bank_question_is_refused(fresh_store) -> None:  # noqa: F811
    lec, seat = lecturer()
    lec.switch_page("pages/lecture.py").run()
    a = student(seat.code, page="pages/lecture.py")
    lec.selectbox(key="room_bank_pick").select("xor-epochs").run()
    lec.button(key="room_ask").click().run()
    room = room_of(seat.code)
    q = room.question
    mine = a.session_state["room_seat"].seat
    for forged, turn in ((2, None), (-1, None), (True, None), ("yes", None), (0, "cw")):
        with pytest.raises(cr.RoomError, match="not one of the choices"):
            an.answer(fresh_store, room, mine, q.id, forged, turn)
    an.answer(fresh_store, room, mine, q.id, 1, None)
    assert an.tally(an.answers_of(fresh_store, room, q.id), q).picked(q) == (0, 1)


def test_the_page_opens_with_the_next_example_picked() -> None:
    lec, _ = lecturer()
    lec.switch_page("pages/lecture.py").run()
    assert lec.selectbox(key="room_bank_pick").value == bank.NEXT
    at = open_app("pages/lecture.py")
    assert not [s for s in at.selectbox if s.key == "room_bank_pick"]  # no class: no list


def test_a_bank_question_is_voted_on_twice_and_the_recap_shows_the_shift(fresh_store) -> None:  # noqa: F811
    lec, seat = lecturer()
    lec.switch_page("pages/lecture.py").run()
    a = student(seat.code, page="pages/lecture.py")
    lec.selectbox(key="room_bank_pick").select("scale-with-bias").run()
    lec.button(key="room_ask").click().run()
    q = room_of(seat.code).question
    good, bad = q.choices[q.right], q.choices[1 - q.right]
    a.run()
    answer_card(a, bad)
    lec.button(key="room_again").click().run()
    a.run()
    assert f"Your first vote: {bad}." in card_of(a, q.id)
    answer_card(a, good)
    lec.button(key="room_reveal").click().run()
    rows = [
        r
        for r in csv.DictReader(io.StringIO(summary.summary(fresh_store, room_of(seat.code))))
        if r["kind"] == "question"
    ]
    assert [(r["vote"], r["right on choice"]) for r in rows] == [("1", "0"), ("2", "1")]
    assert "right: 0 of 1 (0%) → 1 of 1 (100%)" in texts(lec)


def test_the_docs_list_every_bank_question() -> None:
    docs = (Path(__file__).parents[2] / "docs" / "class-mode.md").read_text(encoding="utf-8")
    missing = [e.id for e in bank.BANK.values() if f"| `{e.id}` | {e.title} |" not in docs]
    assert missing == []


def test_a_reload_still_says_which_answer_counted(fresh_store) -> None:  # noqa: F811
    # a student answers both votes, then reloads: the new session's seat (from the cookie)
    # knows both answers, and the card says the second one counted
    lec, seat = lecturer()
    lec.switch_page("pages/lecture.py").run()
    a = student(seat.code, page="pages/lecture.py")
    lec.selectbox(key="room_bank_pick").select("eta-from-zero").run()
    lec.button(key="room_ask").click().run()
    q = room_of(seat.code).question
    a.run()
    answer_card(a, q.choices[1])
    lec.button(key="room_again").click().run()
    a.run()
    answer_card(a, q.choices[0])
    held = a.session_state["room_seat"].seat
    session: dict = {}
    arrive.arrive(
        session, dict(a.query_params.items()), lambda: {arrive.SEAT_COOKIE: f"{seat.code}.{held}"}
    )
    assert session["room_seat"].answers == {(q.id, 1): (1, None), (q.id, 2): (0, None)}


def test_a_reload_keeps_the_answer_to_the_next_examples_question_too(fresh_store) -> None:  # noqa: F811
    lec, seat = lecturer()
    lec.switch_page("pages/lecture.py").run()
    a = student(seat.code, page="pages/lecture.py")
    lec.button(key="room_ask").click().run()  # the list's first entry: the next example
    q = room_of(seat.code).question
    a.run()
    answer_card(a, "no mistake")
    answer_card(a, None, "clockwise")
    held = a.session_state["room_seat"].seat
    session: dict = {}
    arrive.arrive(
        session, dict(a.query_params.items()), lambda: {arrive.SEAT_COOKIE: f"{seat.code}.{held}"}
    )
    assert session["room_seat"].answers == {(q.id, 1): (False, "cw")}
