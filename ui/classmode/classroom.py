"""A class in the room: rooms in the store, without Streamlit.

A room lives in the app's store (:mod:`perceptron_store`: SQLite on one server, Redis across
servers), so every app server of a class sees the same room:

    room:<code>                the room's document (JSON): written by the lecturer only
    room:<code>:members        map seat id -> {"nick", "joined", "seen"} (at most MAX_MEMBERS)
    room:<code>:answers:<q>    map seat id -> {"mistake", "turn"} or, for a bank question,
                               {"choice"}                           (one answer per seat)
    room:<code>:answers:<q>:2  the same, of the second vote on question q (if there was one)
    room:<code>:subs:<c>       map seat id -> a submission         (one per seat)

Every student writes only a field of a map under their own seat id (an atomic write in
the store), so answers from many servers at once are each counted once, and a new answer
replaces the old. The document is written only by a session that holds the room's
secret: :func:`lecturer_update` checks it (SHA-256 in the document, compared in constant
time) before any change, so a student's forged event changes nothing.

The code is 8 characters of an alphabet without look-alikes (no 0/O, 1/I/L): 31⁸ ≈ 8.5·10¹¹
codes, and the app slows down join attempts (:data:`JOIN_RATE`), so a code is not found by
guessing. A room expires ``ttl`` (12 h) after the lecturer's last change.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import math
import secrets
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, replace
from typing import Any

import perceptron_store as store_mod
from perceptron_store import Store
from ui.classmode.codes import (  # re-exported: callers read them as cr.<name>
    CODE_ALPHABET as CODE_ALPHABET,
)
from ui.classmode.codes import CODE_LENGTH as CODE_LENGTH
from ui.classmode.codes import LOOK_ALIKES as LOOK_ALIKES
from ui.classmode.codes import MAX_NICK as MAX_NICK
from ui.classmode.codes import SEAT_ALPHABET as SEAT_ALPHABET
from ui.classmode.codes import SEAT_LENGTH as SEAT_LENGTH
from ui.classmode.codes import clean_nick as clean_nick
from ui.classmode.codes import code_problem as code_problem
from ui.classmode.codes import new_code as new_code
from ui.classmode.codes import new_seat as new_seat
from ui.classmode.codes import normal_code as normal_code
from ui.classmode.codes import shown_code as shown_code
from ui.classmode.codes import valid_seat as valid_seat
from ui.classmode.turns import (
    TURN_TRUTH,
    line_change,
)
from ui.classmode.turns import change_words as turns_change_words
from ui.look.numbers import number
from ui.words import N_, t, tn

ROOM_TTL_S = 12 * 3600.0  # a room expires this long after the lecturer's last change
MAX_MEMBERS = 500
# a seat whose page was not seen this long (a closed tab: an open one's strip runs every 30 s
# and says it is there) is not counted as in the class, and a full class gives it to a newcomer
SEEN_S = 60.0
# app servers stamp a seat's join and a question's opening with their own clocks: this much
# apart still counts as before (NTP keeps servers far closer)
CLOCK_SLACK_S = 2.0
MAX_ASKED = 200  # questions kept for the summary
MAX_CHALLENGES = 20
# Peer instruction: a question is voted on once, or twice with a discussion between (the
# first vote's answers are kept; each vote has its own map, one answer per seat in each)
MAX_ROUNDS = 2
MAX_CHOICES = 4  # a bank question's choices (ui.lecture.bank)
MAX_CHOICE_TEXT = 120
# the challenge's bounds (the lecturer's form and the document's check)
CHALLENGE_POINTS = (3, 50)
CHALLENGE_GAMMA = (0.01, 1.0)
# the most passes the perceptron runs on a submission (and on any separable set in the margin
# lab): ui.app.state.MAX_EPOCHS, within its MAX_STEPS steps; a set that needs more is refused
CHALLENGE_EPOCHS = 10_000
RECENT_S = 0.25  # a room's document is read from the store at most this often per process


class RoomError(ValueError):
    """A room action refused; the message is a sentence for the page."""


class NotLecturer(RoomError):
    """The session does not hold the room's secret."""


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


# ----------------------------------------------------------------------------- the document


@dataclass(frozen=True)
class Question:
    """'Will the next example be a mistake?' at the lecture's step t.

    ``t`` counts the steps already shown (the example asked about is the (t+1)-th shown,
    point ``point`` counted from 0); ``z`` is what the perceptron sees (x, or (x, 1) with
    bias, after the lecture's scaling of x); ``w`` is w before the step.
    ``mistake`` and ``turn`` are the answer, shown once ``revealed``. ``opened`` is when
    the room asked it (wall-clock seconds): only seats taken before then may answer.
    ``rounds`` is how many votes were opened: 1, or 2 after "Vote again"
    (answers go to the latest vote; the earlier one is closed and kept).

    A question of the bank (``ui.lecture.bank``) has its entry's id in ``bank``, its words
    in ``prompt``, its ``choices``, the index of the engine's answer in ``right`` and the
    reason in ``why``; ``t`` is the lecture's step it is about, ``reveal_t`` the step the
    reveal shows (-1: ``t``), and ``point`` is -1 (no example is asked about, none ringed).
    """

    id: int
    t: int
    point: int
    x: tuple[float, ...]
    z: tuple[float, ...]
    y: int
    w: tuple[float, ...]
    rule: str
    eta: float
    mistake: bool
    turn: str
    revealed: bool = False
    opened: float = 0.0
    rounds: int = 1
    bank: str = ""
    prompt: str = ""
    choices: tuple[str, ...] = ()
    right: int = -1
    why: str = ""
    reveal_t: int = -1

    @property
    def options(self) -> tuple[str, ...]:
        """What a student may answer (the first part, for the next example's question)."""
        return self.choices if self.bank else ("mistake", "no mistake")

    @property
    def answer_index(self) -> int:
        """The right one of :attr:`options`."""
        return self.right if self.bank else (0 if self.mistake else 1)

    @property
    def margin(self) -> float:
        """y·w·z, the number the rule looks at."""
        return self.y * sum(a * b for a, b in zip(self.w, self.z, strict=True))


@dataclass(frozen=True)
class Challenge:
    """'Make the perceptron make as many mistakes as you can': at most ``max_points``
    points, a margin γ of at least ``min_gamma`` (with the bias feature c = 1), in the
    given order from w = 0 with η = 1 (the margin lab's and the lecture's defaults)."""

    id: int
    max_points: int = 10
    min_gamma: float = 0.1
    open: bool = True


@dataclass(frozen=True)
class Room:
    code: str
    secret_hash: str
    created: float
    ttl: float = ROOM_TTL_S
    closed: bool = False
    lecture_n: int = 0  # changes of the lecturer's lecture published so far
    lecture: tuple[tuple[str, str], ...] = ()  # the lecturer's lecture settings (URL form)
    # the lecturer's player playing: (from step, steps a second, when the lecturer's server
    # heard it: wall-clock seconds); None when it stands still at the lecture's step
    playing: tuple[float, float, float] | None = None
    question: Question | None = None
    asked: tuple[Question, ...] = ()  # every question asked, the current one included
    challenge: Challenge | None = None  # the challenge on show (open or closed)
    challenges: tuple[Challenge, ...] = ()  # every challenge opened, the current one included
    # the lecturer's remote's last press for the projector's player: (its number, the
    # player's act: step, back, next, play, or at, step t)
    remote: tuple[int, str, int] | None = None

    @property
    def open_challenge(self) -> Challenge | None:
        """The challenge students may answer now: on show, open, in a room not closed."""
        c = self.challenge
        return c if c is not None and c.open and not self.closed else None

    def to_json(self) -> bytes:
        return json.dumps(asdict(self), separators=(",", ":")).encode()

    @staticmethod
    def from_json(blob: bytes) -> Room:
        """Raises ValueError for anything that is not a room document."""
        try:
            d = json.loads(blob)
            question = _question(d.get("question"))
            return Room(
                code=str(d["code"]),
                secret_hash=str(d["secret_hash"]),
                created=float(d["created"]),
                ttl=float(d["ttl"]),
                closed=bool(d["closed"]),
                lecture_n=int(d["lecture_n"]),
                lecture=tuple((str(k), str(v)) for k, v in d["lecture"]),
                playing=_playing(d.get("playing")),
                question=question,
                asked=tuple(q for q in map(_question, d["asked"]) if q is not None),
                challenge=None if d.get("challenge") is None else Challenge(**d["challenge"]),
                challenges=tuple(Challenge(**c) for c in d["challenges"]),
                remote=_remote(d.get("remote")),
            )
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ValueError("not a room document") from exc

    @property
    def lecture_query(self) -> dict[str, str]:
        return dict(self.lecture)


def change_words(q: Question) -> str:
    """What happened to the line at the question's step, in words (``turns``)."""
    bias = len(q.z) > len(q.x)
    change = line_change(q.w, q.z, q.y, q.eta, mistake=q.mistake, turn=q.turn, bias=bias)
    return turns_change_words(change, q.turn)


def _playing(d: Any) -> tuple[float, float, float] | None:
    """A document's play: three finite numbers, a step and a rate that are not negative."""
    if d is None:
        return None
    t, rate, at = (float(v) for v in d)
    if not all(map(math.isfinite, (t, rate, at))) or t < 0 or rate <= 0:
        raise ValueError("not a play")
    return (t, rate, at)


REMOTE_ACTS = ("step", "back", "next", "play", "at")  # the projector player's (player.js act)


def _remote(d: Any) -> tuple[int, str, int] | None:
    """A document's remote press: its number, one of :data:`REMOTE_ACTS`, a step."""
    if d is None:
        return None
    n, act, t = d
    if act not in REMOTE_ACTS:
        raise ValueError("not a remote press")
    return (int(n), str(act), int(t))


CLOSED = N_("This class is closed.")


def _refusal(message: str) -> RoomError:
    """A refusal of ``message`` (marked with N_) in this run's language."""
    return RoomError(t(message))


def press(room: Room, act: str, t: int = 0) -> Room:
    """The lecturer's remote pressed ``act`` (:data:`REMOTE_ACTS`; ``t``: the step of "at")
    for the projector's player, which does it as if pressed there."""
    if room.closed:  # the parameter t is the step: the refusal is made by _refusal
        raise _refusal(CLOSED)
    if act not in REMOTE_ACTS:
        raise _refusal(N_("That is not a button of the remote."))
    n = room.remote[0] + 1 if room.remote is not None else 1
    return replace(room, remote=(n, act, int(t)))


def _question(d: Any) -> Question | None:
    if d is None:
        return None
    d = dict(d)
    for key in ("x", "z", "w"):
        d[key] = tuple(float(v) for v in d[key])
    if d.get("turn") not in TURN_TRUTH:
        raise ValueError("not a turn")
    d["choices"] = tuple(str(c)[:MAX_CHOICE_TEXT] for c in d.get("choices", ()))[:MAX_CHOICES]
    q = Question(**d)
    if q.bank and not 0 <= q.right < len(q.choices):
        raise ValueError("not a choice")
    return q


def room_key(code: str) -> str:
    return f"room:{code}"


def members_key(code: str) -> str:
    return f"room:{code}:members"


def answers_key(code: str, qid: int, vote: int = 1) -> str:
    """The map of the answers to question ``qid``'s vote ``vote`` (1: the first; its key is
    the one a single vote always had)."""
    return f"room:{code}:answers:{qid}" if vote == 1 else f"room:{code}:answers:{qid}:{vote}"


def subs_key(code: str, cid: int) -> str:
    return f"room:{code}:subs:{cid}"


_LOCK = threading.Lock()
_RECENT: dict[tuple[int, str], tuple[float, Room | None]] = {}  # (store, code) -> (read at, room)
_RECENT_MAX = 256


def load_room(s: Store, code: str, *, fresh: bool = False) -> Room | None:
    """The room ``code`` (None if unknown, expired or unreadable). Raises StoreDown.

    A process reads a room's document from the store at most every RECENT_S seconds,
    however many of its students ask (``fresh=True``: now)."""
    now = time.monotonic()
    slot = (id(s), code)
    with _LOCK:
        hit = _RECENT.get(slot)
    if hit is not None and not fresh and now - hit[0] < RECENT_S:
        return hit[1]
    blob = s.get(room_key(code))
    room: Room | None = None
    if blob is not None:
        try:
            room = Room.from_json(blob)
        except ValueError:
            room = None
        if room is not None and room.code != code:
            room = None
    _remember(s, code, room, now)
    return room


def _remember(s: Store, code: str, room: Room | None, now: float | None = None) -> None:
    """Keep ``room`` as the process's recent copy, read from the store at ``now`` (None:
    written just now). A read that started before the copy kept is older than it and is not
    kept: threads finish their reads in any order, and a slow read of before a change, kept
    after a quick read of after it, would have a page draw the room as it was after its own
    run had been told of the change (a student's question card missing until the next
    change)."""
    at = time.monotonic() if now is None else now
    slot = (id(s), code)
    with _LOCK:
        if len(_RECENT) >= _RECENT_MAX:
            _RECENT.clear()
        kept = _RECENT.get(slot)
        if kept is None or kept[0] <= at:
            _RECENT[slot] = (at, room)


def forget_recent() -> None:
    """Drop the process's recent reads (tests)."""
    with _LOCK:
        _RECENT.clear()


def create_room(s: Store, *, ttl: float = ROOM_TTL_S) -> tuple[Room, str]:
    """A new room and its secret (the lecturer's session keeps it; only its hash is
    stored)."""
    for _ in range(8):  # a code in use is drawn again (31⁸ codes: practically never)
        code = new_code()
        if s.get(room_key(code)) is None:
            break
    else:  # pragma: no cover - eight collisions in a row
        raise RoomError(t("No free class code was found; try again."))
    secret = secrets.token_urlsafe(32)
    room = Room(code=code, secret_hash=_hash(secret), created=time.time(), ttl=float(ttl))
    s.put(room_key(code), room.to_json(), ttl=room.ttl)
    _remember(s, code, room)
    return room, secret


def holds_secret(room: Room, secret: object) -> bool:
    return isinstance(secret, str) and hmac.compare_digest(_hash(secret), room.secret_hash)


def lecturer_update(s: Store, code: str, secret: object, change: Callable[[Room], Room]) -> Room:
    """Apply ``change`` to the room, if ``secret`` is its lecturer's. Raises NotLecturer
    (and changes nothing) otherwise, RoomError if the room is gone, StoreDown."""
    room = load_room(s, code, fresh=True)
    if room is None:
        raise RoomError(t("This class is no longer open: it was closed or it expired."))
    if not holds_secret(room, secret):
        raise NotLecturer(t("Only the lecturer of this class can do that."))
    new = change(room)
    if new is not room:
        s.put(room_key(code), new.to_json(), ttl=new.ttl)
        _remember(s, code, new)
    return new


# ----------------------------------------------------------------------------- the lecturer


def publish(
    room: Room, query: Mapping[str, str], playing: tuple[float, float, float] | None = None
) -> Room:
    """The lecturer's lecture settings (URL form) as the followers' next state, and whether
    the lecturer's player plays (``Room.playing``: from which step, how fast, since when;
    the step in ``query`` is where it stands when it does not)."""
    pairs = tuple(sorted((str(k), str(v)) for k, v in query.items()))
    if pairs == room.lecture and playing == room.playing:
        return room
    return replace(room, lecture=pairs, playing=playing, lecture_n=room.lecture_n + 1)


def ask(room: Room, question: Question) -> Room:
    if room.closed:
        raise RoomError(t("This class is closed."))
    qid = (room.asked[-1].id + 1) if room.asked else 1
    q = replace(question, id=qid, revealed=False, opened=time.time())
    return replace(room, question=q, asked=(*room.asked, q)[-MAX_ASKED:])


def vote_again(room: Room) -> Room:
    """ "Vote again": the open question's first vote closes (its answers are
    kept) and a second opens, to the same seats. Nothing of the first vote is shown."""
    q = room.question
    if room.closed or q is None or q.revealed:
        raise RoomError(t("There is no open question to vote on again."))
    if q.rounds >= MAX_ROUNDS:
        raise RoomError(t("The class has already voted again on this question: reveal it."))
    again = replace(q, rounds=q.rounds + 1)
    return replace(
        room,
        question=again,
        asked=tuple(again if a.id == q.id else a for a in room.asked),
    )


def reveal(room: Room) -> Room:
    q = room.question
    if q is None or q.revealed:
        raise RoomError(t("There is no open question to reveal."))
    shown = replace(q, revealed=True)
    return replace(
        room,
        question=shown,
        asked=tuple(shown if a.id == q.id else a for a in room.asked),
    )


def open_challenge(room: Room, *, max_points: int, min_gamma: float) -> Room:
    if room.closed:
        raise RoomError(t("This class is closed."))
    lo, hi = CHALLENGE_POINTS
    if (
        isinstance(max_points, bool)
        or not isinstance(max_points, int)
        or not lo <= max_points <= hi
    ):
        raise RoomError(
            t("The number of points must be a whole number from {lo} to {hi}.").format(
                lo=number(lo), hi=number(hi)
            )
        )
    g_lo, g_hi = CHALLENGE_GAMMA
    if not (isinstance(min_gamma, int | float) and math.isfinite(min_gamma)) or not (
        g_lo <= min_gamma <= g_hi
    ):
        raise RoomError(t("The margin γ must be from {lo} to {hi}.").format(lo=g_lo, hi=g_hi))
    cid = (room.challenges[-1].id + 1) if room.challenges else 1
    c = Challenge(id=cid, max_points=int(max_points), min_gamma=float(min_gamma))
    return replace(room, challenge=c, challenges=(*room.challenges, c)[-MAX_CHALLENGES:])


def close_challenge(room: Room) -> Room:
    c = room.challenge
    if c is None or not c.open:
        raise RoomError(t("There is no open challenge."))
    shut = replace(c, open=False)
    return replace(
        room, challenge=shut, challenges=tuple(shut if x.id == c.id else x for x in room.challenges)
    )


def close_room(room: Room) -> Room:
    if room.closed:
        return room
    return replace(room, closed=True)


def keep_results(s: Store, room: Room) -> None:
    """Keep the answers and submissions as long as the room's document (the recap reads
    them until the room expires): each map expires ``ttl`` after its own last write, which
    may be hours before the class was closed."""
    for q in room.asked:
        for vote in range(1, q.rounds + 1):
            s.touch(answers_key(room.code, q.id, vote), ttl=room.ttl)
    for c in room.challenges:
        s.touch(subs_key(room.code, c.id), ttl=room.ttl)


# ----------------------------------------------------------------------------- the students


def joined_at(blob: bytes | None) -> float | None:
    """When a seat was taken, from its member entry (None: no such seat)."""
    if blob is None:
        return None
    try:
        return float(json.loads(blob).get("joined", 0.0))
    except (ValueError, TypeError, AttributeError):
        return 0.0


def seen_at(blob: bytes) -> float:
    """When a seat's page was last seen, from its member entry (its join if never since;
    0 for an entry that is not one)."""
    try:
        entry = json.loads(blob)
        return float(entry.get("seen", entry.get("joined", 0.0)))
    except (ValueError, TypeError, AttributeError):
        return 0.0


def join(s: Store, room: Room, nick: str, seat: str | None = None, *, net: str = "") -> str:
    """Take a seat in the room (or keep ``seat``, already in it, with the time it was
    first taken); returns the seat id. A full room first gives back the seats whose pages
    were not seen for ``SEEN_S`` (closed tabs). Raises RoomError when the room is closed or
    full, StoreDown."""
    if room.closed:
        raise RoomError(t("This class is closed."))
    taken = seat if isinstance(seat, str) and valid_seat(seat) else new_seat()
    since = joined_at(s.field(members_key(room.code), taken)) if taken == seat else None
    now = time.time()
    joined = now if since is None else since
    # net: a keyed hash of the joining address, never the address (ui.server.clients)
    entry = {"nick": clean_nick(nick), "joined": joined, "seen": now, "net": str(net)[:16]}
    body = json.dumps(entry).encode()
    key = members_key(room.code)
    for _ in range(2):
        try:
            s.put_field(key, taken, body, ttl=room.ttl, max_fields=MAX_MEMBERS)
            return taken
        except store_mod.MapFull:
            gone = [k for k, b in s.fields(key).items() if seen_at(b) < now - SEEN_S]
            for k in gone:
                s.delete_field(key, k)
            if not gone:
                break
    raise RoomError(
        tn(
            "This class is full: it holds at most {n} student.",
            "This class is full: it holds at most {n} students.",
            MAX_MEMBERS,
        ).format(n=number(MAX_MEMBERS))
    )


def seat_nick(s: Store, room: Room, seat: str) -> str | None:
    """The nickname of a seat in the room, or None if the seat is not in it."""
    if not valid_seat(seat):
        return None
    blob = s.field(members_key(room.code), seat)
    if blob is None:
        return None
    try:
        return clean_nick(json.loads(blob).get("nick", ""))
    except (ValueError, AttributeError):
        return ""


def members(s: Store, room: Room, *, now: float | None = None) -> int:
    """The students in the room: seats whose page was seen in the last ``SEEN_S``."""
    since = (time.time() if now is None else now) - SEEN_S
    return sum(seen_at(b) >= since for b in s.fields(members_key(room.code)).values())


def leave(s: Store, code: str, seat: str) -> None:
    """Give the seat back: the room has room for another student (its answers stay)."""
    if valid_seat(seat):
        s.delete_field(members_key(code), seat)
