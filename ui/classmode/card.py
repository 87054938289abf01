"""A student's question card on Step by step, drawn by the page (``ui/live/card.js``):
its words and numbers, made here from the question, and the two calls of its route
(``ui.live.card``: the card now, an answer given).

A question asked or revealed reaches every follower's page on the live channel; the page
asks this route for its card (a store read answered beside the event loop) and draws it,
and a student's answer is posted to the same route. So a question costs the server no
rerun per student, which at 100 followers took a second of the interpreter for one card.
The words are the server card's own (``ui.classmode.question``): one question model, one
set of sentences; the page lays them out as text, never as markup.

May import: ``streamlit``, ``ui.app``, ``ui.live``, ``ui.look``, ``ui.server`` and
``ui.classmode`` (answers, classroom, live, onscreen, question, seat, turns, votes) and
``ui.words``. The route's calls run outside any session: their words are in English.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import streamlit as st

from perceptron_store import Store
from ui import words
from ui.classmode import answers as an
from ui.classmode import classroom as cr
from ui.classmode import live as channel
from ui.classmode import question as qn
from ui.classmode import turns
from ui.classmode.onscreen import BAR, BAR_CSS
from ui.classmode.seat import Seat, reach
from ui.classmode.votes import revealed_line
from ui.live import card as card_route
from ui.live import route
from ui.look.palette import MINUS, PLUS, W_COLOUR
from ui.server import code as component_code
from ui.server.internals import testid
from ui.words import t

_JS = (Path(__file__).resolve().parents[1] / "live" / "card.js").read_text(encoding="utf-8")
# the column gets room below its end to scroll out from under the pinned bar: the page
# marks the document while its card has a bar open (card.js)
_CSS = (
    BAR_CSS
    + f"""
html.perceptron-bar-open {testid("stMainBlockContainer")} {{ padding-bottom: 14rem !important; }}
.pcard-bar {{ display: flex; flex-direction: column; }}
[class*="st-key-{BAR}"].pcard-still {{ animation: none; }}
.pcard {{ display: flex; flex-direction: column; gap: 0.5rem; font-size: 1rem; }}
.pcard .pcard-caption:empty {{ display: none; }}
.pcard-box {{ border: 1px solid rgba(49, 51, 63, 0.2); border-radius: 0.5rem; padding: 1rem;
  display: flex; flex-direction: column; gap: 0.6rem; }}
.pcard p {{ margin: 0; line-height: 1.5; }}
.pcard .pcard-caption {{ font-size: 0.875rem; opacity: 0.75; }}
.pcard .pcard-said {{ font-size: 0.875rem; color: #8a2a00; }}
.pcard [role="radiogroup"] {{ display: flex; flex-wrap: wrap; gap: 0.5rem; }}
.pcard button {{ font: inherit; font-size: 0.875rem; min-height: 2.25rem; padding: 0.2rem 0.8rem;
  cursor: pointer;
  border: 1px solid rgba(49, 51, 63, 0.35); border-radius: 1.25rem; background: #fff;
  color: inherit; }}
.pcard button[aria-checked="true"] {{ border: 2px solid {W_COLOUR}; font-weight: 600; }}
.pcard button:focus-visible {{ outline: 3px solid {W_COLOUR}; outline-offset: 2px; }}
.pcard details > summary {{ cursor: pointer; padding: 0.3rem 0; }}
.pcard svg {{ width: min(100%, 300px); height: auto; display: block; }}
.pcard svg .plus {{ fill: {PLUS}; }}
.pcard svg .minus {{ stroke: {MINUS}; stroke-width: 4; }}
.pcard svg .w {{ stroke: {W_COLOUR}; stroke-width: 3; }}
.pcard svg .after {{ stroke: #555; stroke-width: 3; stroke-dasharray: 8 6; }}
"""
)
# words.js's tr first: the card says its words in the session's language (data.words)
_card = component_code.component(
    "perceptron.card", js=words.SCRIPT + _JS, css=_CSS, isolate_styles=False
)
# the light page (ui.lecture.light) loads the same card
CARD_JS, CARD_CSS = words.SCRIPT + _JS, _CSS
KEY = "room_pcard"


def figure_of(q: cr.Question) -> dict[str, Any] | None:
    """The card's picture in numbers (the page draws it as the server card's chart): the
    square's half-width, the line before the step (and after it, once revealed), the
    example; None for a bank question (its picture is the lecture's chart)."""
    if q.bank:
        return None
    lines = [
        {"name": name, "at": [xs[0], ys[0], xs[1], ys[1]], "after": "after" in name}
        for name, (xs, ys) in qn.question_lines(q)
    ]
    plus = q.y > 0
    return {
        "span": qn.question_span(q),
        "lines": lines,
        "point": [float(q.x[0]), float(q.x[1])],
        "plus": plus,
        "label": qn.point_label(q),
        "notes": qn.question_notes(q),
    }


def view(
    q: cr.Question | None,
    mine: dict[tuple[int, int], tuple[Any, Any]],
    *,
    version: str,
    ringed: bool,
    said: str = "",
) -> dict[str, Any]:
    """What the page draws of question ``q`` (None: no card) for a seat whose answers are
    ``mine`` (``answers.my_answers``): words and numbers only. ``version`` is the room's
    card as the channel names it (the page asks again while it differs); ``ringed``: the
    page's chart rings the example, so the card draws no picture of its own; ``said``:
    why the seat's last answer was not counted."""
    # "at": when it was made (the server's clock), so a page keeps the newest of a run's
    # card and its route's answers whatever order they arrive in
    out: dict[str, Any] = {"version": version, "q": 0, "said": said, "at": round(time.time(), 3)}
    if q is None:
        return out
    got = {v: mine.get((q.id, v)) for v in (1, 2)}
    again = q.rounds > 1 and not q.revealed
    out |= {
        "q": q.id,
        "vote": q.rounds,
        "revealed": q.revealed,
        "head": (
            t("Question {id} from the lecturer: vote again.")
            if again
            else t("Question {id} from the lecturer.")
        ).format(id=q.id),
        "lead": (
            t("Discuss it with your neighbours, then answer again (your first answer is kept).")
            if again
            else ""
        ),
        "text": "" if q.bank and not q.revealed else qn.question_text(q),
        "figure": None if ringed else figure_of(q),
        "alt": qn.question_text(q),
    }
    if not q.revealed:
        first = got[1]
        bar = (
            t("will point {point}, ringed with “?” on your chart, be a mistake at step t = {t}?")
            if ringed
            else t("will point {point}, drawn in the question card, be a mistake at step t = {t}?")
        )
        now = got[q.rounds]
        out |= {
            "first": (
                ""
                if not again
                else t("Your first vote: {said}.").format(said=qn.said_text(q, *first))
                if first is not None
                else t("You did not answer the first vote.")
            ),
            "barHead": t("Question {id}:").format(id=q.id),
            "bar": q.prompt if q.bank else bar.format(point=q.point + 1, t=q.t + 1),
            "ask": q.prompt if q.bank else t("Will it be a mistake?"),
            "options": [qn.option_text(q, o) for o in q.options],
            "picked": -1 if now is None else _picked(q, now[0]),
            "counted": "" if now is None else qn.counted_text(q.rounds, qn.said_text(q, *now)),
            "turnAsk": "" if q.bank else t(qn.TURN_ASK),
            "turns": [] if q.bank else [t(turns.TURN_WORDS[k]) for k in turns.TURNS],
            "turnPicked": -1
            if now is None or now[1] not in turns.TURNS
            else turns.TURNS.index(now[1]),
        }
        return out
    votes = range(1, q.rounds + 1)
    yours = []
    if any(got[v] is not None for v in votes):
        for v in votes:
            g = got[v]
            graded = t("not answered") if g is None else qn.graded_text(q, *g) + "."
            yours.append([qn.yours_name(q, v), graded])
    out |= {
        "answer": qn.truth_text(q),
        "yours": yours,
        "none": "" if yours else t("You did not answer this one."),
        "line": revealed_line(mine, q),
    }
    return out


def _picked(q: cr.Question, given: Any) -> int:
    if q.bank:
        return int(given) if isinstance(given, int) and given in range(len(q.choices)) else -1
    return q.options.index("mistake" if given else "no mistake")


def card_now(s: Store, code: str, seat: str, *, ringed: bool, want: str = "") -> dict[str, Any]:
    """The card of ``seat`` in room ``code`` (the route's GET). ``want``: the card version
    the channel named; the process's recent copy of the room serves while it is that
    version (a question's 100 pages read the store once), else the store is read now."""
    room = cr.load_room(s, code, fresh=not want)
    if want and _version(room) != want:
        room = cr.load_room(s, code, fresh=True)
    return _card_of_room(s, room, seat, ringed=ringed)


def _version(room: cr.Room | None) -> str:
    return channel.version(channel.parts_shown(room)["card"])


def _card_of_room(
    s: Store, room: cr.Room | None, seat: str, *, ringed: bool, said: str = ""
) -> dict[str, Any]:
    if room is None or room.closed:
        return view(None, {}, version=_version(room), ringed=ringed, said=said)
    mine = an.my_answers(s, room, seat) if cr.valid_seat(seat) else {}
    return view(room.question, mine, version=_version(room), ringed=ringed, said=said)


def answer_now(s: Store, code: str, seat: str, given: card_route.Answer) -> dict[str, Any]:
    """``seat``'s answer ``given`` to room ``code``'s open question, written; then its
    card, saying why when the answer was not counted (the route's POST)."""
    room = cr.load_room(s, code, fresh=True)
    said = ""
    q = None if room is None else room.question
    if room is None or room.closed:
        said = t("This class is no longer open. Your answer was not counted.")
    elif q is None or q.id != given.q:
        said = t("That question is no longer open. Your answer was not counted.")
    elif not 0 <= given.said < len(q.options) or (
        given.turn is not None and (q.bank or not 0 <= given.turn < len(turns.TURNS))
    ):
        said = t("That answer is not one of the choices. Your answer was not counted.")
    else:
        choice: bool | int = given.said if q.bank else qn.ANSWERS[q.options[given.said]]
        turn = None if given.turn is None else turns.TURNS[given.turn]
        try:
            an.answer(s, room, seat, q.id, choice, turn, given.vote)
        except cr.RoomError as refused:
            said = t("{refused} Your answer was not counted.").format(refused=refused)
    return _card_of_room(s, room, seat, ringed=given.ringed, said=said)


def page_card(seat: Seat, room: cr.Room, *, ringed: bool) -> None:
    """The page's card of ``seat`` in ``room`` under Step by step's chart: drawn now, and
    by the page itself when the channel says the room's question changed (``ringed``: the
    chart rings the example)."""
    ticket = channel.ticket(seat)
    if ticket is None or not seat.seat:
        return  # the strip says the class cannot be reached
    mine = reach(an.my_answers, room, seat.seat)
    seat.answers.update(mine)
    base = str(st.get_option("server.baseUrlPath") or "")
    shown = _version(room)
    _card(
        key=KEY,
        data={
            "url": route.under(base, card_route.PATH),
            "ticket": ticket,
            "ringed": ringed,
            "bar": BAR,
            "view": view(room.question, mine, version=shown, ringed=ringed),
            "words": words.script_words(_JS),  # card.js's own sentences (its tr)
        },
    )
