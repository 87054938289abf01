"""Rooms in the store (ui.classmode.classroom): codes, the lecturer's secret, one answer per seat,
tallies, the challenge's judge and ranking, the summary. A real SQLite store in a temp dir."""

from __future__ import annotations

import csv
import io
import json
import string
import threading
import time
import types
from dataclasses import replace

import pytest
from classroom_helpers import answer_blob, question
from hypothesis import given
from hypothesis import strategies as hs

from ui.classmode import answers as an
from ui.classmode import classroom as cr
from ui.classmode import entries as en
from ui.classmode import presence, turns
from ui.classmode.summary import summary

# ----------------------------------------------------------------------------- codes


def test_codes_are_long_random_and_without_look_alikes() -> None:
    codes = {cr.new_code() for _ in range(2000)}
    assert len(codes) == 2000  # 31^8 codes: no repeat in 2,000 draws
    assert all(len(c) == cr.CODE_LENGTH for c in codes)
    used = set("".join(codes))
    assert not used & set("01ILO")
    assert len(cr.CODE_ALPHABET) ** cr.CODE_LENGTH > 8e11


@pytest.mark.parametrize(
    ("typed", "code"),
    [
        ("abcd-efgh", "ABCDEFGH"),
        (" ABCD EFGH ", "ABCDEFGH"),
        ("abcd2345", "ABCD2345"),
        ("ABCD-EFG", None),  # too short
        ("ABCD-EFGHJ", None),  # too long
        ("ABCD-EFG0", None),  # 0 is not in the alphabet (nor O, 1, I, L)
        ("ABCD-EFGI", None),
        ("<script>", None),
        ("A" * 10_000, None),  # refused before any work on it
        (None, None),
        (12345678, None),
    ],
)
def test_a_typed_code_is_normalized_or_refused(typed, code) -> None:
    assert cr.normal_code(typed) == code


@pytest.mark.parametrize(
    ("typed", "says"),
    [
        ("0O1I-LLLL", "never uses 0, 1, I, L or O"),  # 8 characters, all look-alikes
        ("ABCD-EFGO", "this one has O."),
        ("abcd-efg1", "this one has 1."),
        ("ABCD-EF", "8 letters and digits, like ABCD-2345; this one has 6"),
        ("ABCD-EF?H", "only the letters and the digits 2 to 9"),
        (None, "8 letters and digits"),
        ("", "Type the class code"),
        ("<img src=x onerror=alert(1)>", "never uses 0, 1, I, L or O"),
    ],
)
def test_a_code_that_is_refused_says_why(typed, says) -> None:
    assert cr.normal_code(typed) is None
    said = cr.code_problem(typed)
    assert says in said
    assert "?" not in said and "<" not in said  # nothing of what was typed but look-alikes


def test_no_look_alike_is_in_the_code_alphabet_so_none_can_be_mapped_to_a_code_letter() -> None:
    # the code leaves out both characters of each look-alike pair (0/O, 1/I/L): a typed O
    # could be read as 0 only if 0 were a code character; it is not, so the page says so
    assert not set(cr.LOOK_ALIKES) & set(cr.CODE_ALPHABET)


def test_the_projector_shows_the_code_in_two_groups() -> None:
    assert cr.shown_code("ABCDEFGH") == "ABCD-EFGH"


@pytest.mark.parametrize(
    ("typed", "nick"),
    [
        ("  Ana   Lopez ", "Ana Lopez"),
        ("x" * 50, "x" * cr.MAX_NICK),
        ("a\nb\tc\x00d", "abcd"),
        (None, ""),
        ("<b>Ana</b>", "<b>Ana</b>"),  # kept as typed; every page shows it escaped
    ],
)
def test_nicknames_are_printable_and_short(typed, nick) -> None:
    assert cr.clean_nick(typed) == nick


# ----------------------------------------------------------------------------- the secret


def test_only_the_secret_changes_the_room(s) -> None:
    room, secret = cr.create_room(s)
    assert secret not in room.to_json().decode()  # only its hash is stored
    before = s.get(cr.room_key(room.code))
    for forged in (None, "", "x", secret[:-1], secret + "x", room.secret_hash, 7):
        with pytest.raises(cr.NotLecturer):
            cr.lecturer_update(s, room.code, forged, cr.close_room)
    assert s.get(cr.room_key(room.code)) == before
    closed = cr.lecturer_update(s, room.code, secret, cr.close_room)
    assert closed.closed
    assert cr.load_room(s, room.code, fresh=True).closed


def test_a_room_expires_on_its_own(s) -> None:
    room, secret = cr.create_room(s, ttl=0.5)
    assert cr.load_room(s, room.code, fresh=True) is not None
    time.sleep(0.7)
    assert cr.load_room(s, room.code, fresh=True) is None
    with pytest.raises(cr.RoomError, match="no longer open"):
        cr.lecturer_update(s, room.code, secret, cr.close_room)


def test_a_forged_room_document_is_no_room(s) -> None:
    s.put(cr.room_key("ABCDEFGH"), b'{"code": "ABCDEFGH"}', ttl=60)
    assert cr.load_room(s, "ABCDEFGH", fresh=True) is None
    room, _ = cr.create_room(s)
    s.put(cr.room_key("ZZZZZZZZ"), room.to_json(), ttl=60)  # another room's document
    assert cr.load_room(s, "ZZZZZZZZ", fresh=True) is None


def test_a_process_reads_a_room_at_most_every_recent_s(s) -> None:
    room, _secret = cr.create_room(s)
    reads = []
    get = s.get

    def counting(key):
        reads.append(key)
        return get(key)

    s.get = counting  # type: ignore[method-assign]
    cr.forget_recent()
    for _ in range(50):
        cr.load_room(s, room.code)
    assert len(reads) == 1
    time.sleep(cr.RECENT_S + 0.05)
    cr.load_room(s, room.code)
    assert len(reads) == 2


# ----------------------------------------------------------------------------- students


def test_joining_a_full_class_is_refused(s) -> None:
    room, _ = cr.create_room(s)
    seats = {cr.join(s, room, f"s{i}") for i in range(cr.MAX_MEMBERS)}
    assert len(seats) == cr.MAX_MEMBERS == cr.members(s, room)
    with pytest.raises(cr.RoomError, match="full"):
        cr.join(s, room, "one more")
    # a student already in it takes their seat again
    again = next(iter(seats))
    assert cr.join(s, room, "back", again) == again
    assert cr.members(s, room) == cr.MAX_MEMBERS


def _clock(monkeypatch, at: float) -> None:
    """classroom's and presence's wall clock reads ``at`` (its other clocks run as they do)."""
    fake = types.SimpleNamespace(time=lambda: at, monotonic=time.monotonic, sleep=time.sleep)
    monkeypatch.setattr(cr, "time", fake)
    monkeypatch.setattr(presence, "time", fake)


def test_seats_whose_pages_closed_are_not_counted_and_a_full_class_gives_them_back(
    s, monkeypatch
) -> None:
    """A script takes every seat with tabs it then closes (no Leave): after SEEN_S the
    class counts none of them, and a real student is never told the class is full for
    them; a seat whose page still runs (its strip says so) is counted and kept."""
    room, _ = cr.create_room(s)
    t0 = time.time()
    _clock(monkeypatch, t0)
    kept = cr.join(s, room, "Ana")
    bots = [cr.join(s, room, f"bot{i}") for i in range(cr.MAX_MEMBERS - 1)]
    assert cr.members(s, room) == cr.MAX_MEMBERS
    with pytest.raises(cr.RoomError, match="full"):  # every seat's page was just seen
        cr.join(s, room, "too early")
    _clock(monkeypatch, t0 + cr.SEEN_S / 2)
    presence.still_here(s, room, kept, "Ana")  # Ana's page is open: her strip said so
    _clock(monkeypatch, t0 + cr.SEEN_S + 1)
    assert cr.members(s, room) == 1  # the bots' tabs closed a minute ago: not counted
    newcomers = [cr.join(s, room, f"real {k}") for k in range(3)]
    assert cr.members(s, room) == 4
    assert cr.seat_nick(s, room, kept) == "Ana" and cr.seat_nick(s, room, bots[0]) is None
    # a seat given back is not taken again by its page's strip: its page asks to join
    presence.still_here(s, room, bots[1], "bot1")
    assert cr.seat_nick(s, room, bots[1]) is None
    assert all(cr.seat_nick(s, room, n) == f"real {k}" for k, n in enumerate(newcomers))


def test_leave_gives_the_seat_back_so_join_leave_join_never_fills_the_room(s) -> None:
    room, _ = cr.create_room(s)
    for i in range(cr.MAX_MEMBERS + 100):  # a script joining and leaving, over and over
        seat = cr.join(s, room, f"bot{i}")
        cr.leave(s, room.code, seat)
    assert cr.members(s, room) == 0
    real = cr.join(s, room, "Ana")  # a real student still gets a seat
    assert cr.seat_nick(s, room, real) == "Ana" and cr.members(s, room) == 1


def test_only_seats_held_when_the_question_was_asked_can_answer_it(s, monkeypatch) -> None:
    """One vote per seat per round: a seat made up, or taken after the question opened
    (beyond the servers' clock slack), is refused; a seat taken before answers, also after
    a reload that takes the same seat again."""
    clock = [1_000_000.0]
    monkeypatch.setattr(cr.time, "time", lambda: clock[0])
    room, secret = cr.create_room(s)
    early = cr.join(s, room, "early")
    clock[0] += 60
    room = cr.lecturer_update(s, room.code, secret, lambda r: cr.ask(r, question()))
    clock[0] += cr.CLOCK_SLACK_S + 1
    late = cr.join(s, room, "late")
    with pytest.raises(cr.RoomError, match="joined after this question was asked"):
        an.answer(s, room, late, 1, True, None)
    with pytest.raises(cr.RoomError, match="Join the class first"):
        an.answer(s, room, cr.new_seat(), 1, True, None)  # well formed, never taken
    assert cr.join(s, room, "early, reloaded", early) == early  # keeps its first join
    an.answer(s, room, early, 1, True, None)
    assert an.tally(an.answers_of(s, room, 1), room.question).answered == 1
    clock[0] += 60  # the next question: the late seat answers it
    room = cr.lecturer_update(s, room.code, secret, lambda r: cr.ask(r, question()))
    an.answer(s, room, late, 2, False, None)
    assert an.tally(an.answers_of(s, room, 2), room.question).answered == 1


def test_one_answer_per_seat_the_last_one_counts(s) -> None:
    room, secret = cr.create_room(s)
    room = cr.lecturer_update(s, room.code, secret, lambda r: cr.ask(r, question()))
    a, b = cr.join(s, room, "a"), cr.join(s, room, "b")
    an.answer(s, room, a, 1, True, None)
    an.answer(s, room, a, 1, False, "cw")  # changed their mind
    an.answer(s, room, b, 1, True, "ccw")
    t = an.tally(an.answers_of(s, room, 1), room.question)
    assert (t.answered, t.mistake, t.no_mistake) == (2, 1, 1)
    assert t.turns == {"ccw": 1, "cw": 1, "none": 0}
    assert t.right_mistake == 1  # the truth is "mistake": b was right
    assert t.right_turn == 1  # the line turned counter-clockwise: b said so, a did not


@pytest.mark.parametrize(
    ("qid", "mistake", "turn"),
    [
        (2, True, None),  # not the open question
        ("1", True, None),
        (1, "yes", None),  # not a choice
        (1, 1, None),
        (1, True, "left"),
        (1, True, "x" * 10_000),
    ],
)
def test_an_answer_that_is_not_a_choice_is_refused(s, qid, mistake, turn) -> None:
    room, secret = cr.create_room(s)
    room = cr.lecturer_update(s, room.code, secret, lambda r: cr.ask(r, question()))
    seat = cr.join(s, room, "a")
    with pytest.raises(cr.RoomError):
        an.answer(s, room, seat, qid, mistake, turn)
    assert an.answers_of(s, room, 1) == {}


def test_no_answers_after_the_reveal_or_from_outside_the_class(s) -> None:
    room, secret = cr.create_room(s)
    room = cr.lecturer_update(s, room.code, secret, lambda r: cr.ask(r, question()))
    with pytest.raises(cr.RoomError, match="Join"):
        an.answer(s, room, "not a seat", 1, True, None)
    room = cr.lecturer_update(s, room.code, secret, cr.reveal)
    with pytest.raises(cr.RoomError, match="revealed"):
        an.answer(s, room, cr.join(s, room, "late"), 1, True, None)


def test_answers_from_many_threads_are_each_counted_once(s) -> None:
    room, secret = cr.create_room(s)
    room = cr.lecturer_update(s, room.code, secret, lambda r: cr.ask(r, question()))
    seats = [cr.join(s, room, f"s{i}") for i in range(120)]

    def answer_all(part):
        for seat in part:
            an.answer(s, room, seat, 1, True, None)
            an.answer(s, room, seat, 1, False, "none")  # and once again

    threads = [threading.Thread(target=answer_all, args=(seats[i::8],)) for i in range(8)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    t = an.tally(an.answers_of(s, room, 1))
    assert (t.answered, t.no_mistake, t.turns["none"]) == (120, 120, 120)


def test_a_tally_skips_what_is_not_an_answer() -> None:
    answers = {
        "a": answer_blob(True),
        "b": answer_blob(False, "cw"),
        "c": b"not json",
        "d": json.dumps({"mistake": "yes"}).encode(),
        "e": json.dumps([1, 2]).encode(),
        "f": answer_blob(True, "sideways"),  # counted, its turn is not
    }
    t = an.tally(answers)
    assert (t.answered, t.mistake, t.no_mistake) == (3, 2, 1)
    assert t.turns == {"ccw": 0, "cw": 1, "none": 0}
    assert t.share(t.mistake) == pytest.approx(2 / 3)
    assert an.Tally().share(0) == 0.0


@given(hs.lists(hs.tuples(hs.sampled_from("abcdef"), hs.booleans()), max_size=40))
def test_a_tally_counts_the_last_answer_of_each_seat(events) -> None:
    answers: dict[str, bytes] = {}
    for seat, said in events:
        answers[seat] = answer_blob(said)
    last = dict(events)
    t = an.tally(answers)
    assert t.answered == len(last)
    assert t.mistake == sum(last.values())


# ----------------------------------------------------------------------------- questions


@pytest.mark.parametrize(
    ("w", "z", "y", "mistake", "turn"),
    [
        ((1.0, 0.0, 0.0), (0.0, 1.0, 1.0), 1, True, "ccw"),  # (1,0) -> (1,1): turns left
        ((1.0, 0.0, 0.0), (0.0, 1.0, 1.0), -1, True, "cw"),
        ((1.0, 0.0, 0.0), (2.0, 0.0, 1.0), 1, True, "none"),  # longer, same direction
        ((0.0, 0.0, 0.0), (1.0, 1.0, 1.0), 1, True, "none"),  # no line before: it appears
        ((1.0, 0.0, 0.0), (0.0, 1.0, 1.0), 1, False, "none"),  # no mistake: no change
    ],
)
def test_which_way_the_line_turns(w, z, y, mistake, turn) -> None:
    assert turns.turn_of(w, z, y, 1.0, mistake) == turn


def test_questions_are_numbered_and_revealed_once(s) -> None:
    room, _secret = cr.create_room(s)
    with pytest.raises(cr.RoomError, match="no open question"):
        cr.reveal(room)
    room = cr.ask(room, question())
    room = cr.ask(cr.reveal(room), question(t=4))
    assert [q.id for q in room.asked] == [1, 2]
    assert room.asked[0].revealed and not room.asked[1].revealed
    assert room.question is not None and room.question.id == 2
    assert cr.Room.from_json(room.to_json()) == room


# ----------------------------------------------------------------------------- the challenge


def sub(seat: str, M: int, bound: float, at: float, nick: str = "") -> en.Submission:
    return en.Submission(seat, nick, "a" * 12, 5, M, bound, 0.2, 1.0, at)


def test_the_ranking_is_most_mistakes_then_earliest() -> None:
    subs = [sub("a", 3, 10, 1.0), sub("b", 7, 50, 3.0), sub("c", 7, 49, 2.0), sub("d", 1, 4, 0)]
    ranked = en.ranking(x.to_json() for x in subs)
    assert [x.seat for x in ranked] == ["c", "b", "a", "d"]


def test_the_ranking_drops_forged_entries() -> None:
    good = sub("a", 3, 10, 1.0)
    forged = [
        b"{}",
        b"nonsense",
        replace(good, data="../../etc").to_json(),
        json.dumps({**json.loads(good.to_json()), "bound": "inf"}).encode(),
        json.dumps({**json.loads(good.to_json()), "M": "many"}).encode(),
    ]
    assert [x.seat for x in en.ranking([good.to_json(), *forged])] == ["a"]


def test_the_judge_says_why_a_set_does_not_count() -> None:
    c = cr.Challenge(id=1, max_points=10, min_gamma=0.1)
    ok = {"n": 6, "gamma": 0.2, "converged": True, "reason": None}
    assert en.judge(c, **ok) is None
    assert "at most 10 points" in en.judge(c, **{**ok, "n": 11})
    assert "not linearly separable" in en.judge(c, **{**ok, "gamma": None, "reason": "XOR"})
    assert "below" in en.judge(c, **{**ok, "gamma": 0.05})
    assert "closed" in en.judge(replace(c, open=False), **ok)


def test_challenges_take_only_bounded_rules_from_the_lecturer() -> None:
    room = cr.Room(code="ABCDEFGH", secret_hash="x", created=0.0)
    for bad in (
        {"max_points": 0, "min_gamma": 0.1},
        {"max_points": 10**9, "min_gamma": 0.1},
        {"max_points": True, "min_gamma": 0.1},
        {"max_points": 10, "min_gamma": float("nan")},
        {"max_points": 10, "min_gamma": 5.0},
    ):
        with pytest.raises(cr.RoomError):
            cr.open_challenge(room, **bad)
    room = cr.open_challenge(room, max_points=10, min_gamma=0.1)
    assert room.challenge == cr.Challenge(id=1)
    room = cr.open_challenge(cr.close_challenge(room), max_points=5, min_gamma=0.2)
    assert [c.id for c in room.challenges] == [1, 2] and not room.challenges[0].open


def test_a_submission_needs_the_open_challenge_and_replaces_the_seats_last(s) -> None:
    room, secret = cr.create_room(s)
    seat = cr.join(s, room, "a")
    with pytest.raises(cr.RoomError, match="no longer open"):
        en.submit(s, room, sub(seat, 3, 10, 1.0), 1)
    room = cr.lecturer_update(
        s, room.code, secret, lambda r: cr.open_challenge(r, max_points=10, min_gamma=0.1)
    )
    en.submit(s, room, sub(seat, 3, 10, 1.0), 1)
    en.submit(s, room, sub(seat, 5, 12, 2.0), 1)
    assert [(x.seat, x.M) for x in en.submissions(s, room, 1)] == [(seat, 5)]
    room = cr.lecturer_update(s, room.code, secret, cr.close_challenge)
    with pytest.raises(cr.RoomError):
        en.submit(s, room, sub(seat, 9, 12, 3.0), 1)


# ----------------------------------------------------------------------------- the summary


def test_the_summary_has_the_answers_and_results_and_no_names(s) -> None:
    room, secret = cr.create_room(s)
    up = lambda change: cr.lecturer_update(s, room.code, secret, change)  # noqa: E731
    room = up(lambda r: cr.ask(r, question()))
    seats = [cr.join(s, room, nick) for nick in ("Ana", "Bo", "Cy")]
    for seat, said in zip(seats, (True, True, False), strict=True):
        an.answer(s, room, seat, 1, said, None)
    room = up(cr.reveal)
    room = up(lambda r: cr.open_challenge(r, max_points=10, min_gamma=0.1))
    en.submit(s, room, sub(seats[0], 4, 9.5, 1.0, nick="Ana"), 1)
    en.submit(s, room, sub(seats[1], 6, 20.0, 2.0, nick="Bo"), 1)
    text = summary(s, room)
    rows = list(csv.DictReader(io.StringIO(text)))
    q = rows[0]
    assert (q["kind"], q["vote"], q["answered"], q["said mistake"]) == ("question", "1", "3", "2")
    assert (q["right on mistake"], q["right on turn"]) == ("2", "0")  # no one said a turn
    assert q["answer"] == "mistake" and q["step t"] == "4"
    ranks = [(r["rank"], r["mistakes M"]) for r in rows if r["kind"] == "challenge"]
    assert ranks == [("1", "6"), ("2", "4")]
    for private in ("Ana", "Bo", "Cy", *seats, secret):
        assert private not in text
    assert set(text) <= set(string.printable) | set("γ²")


# ----------------------------------------------------------------------------- play


def test_the_lecturers_play_is_kept_in_the_room_and_each_change_of_it_is_a_change(s) -> None:
    room, secret = cr.create_room(s)
    query = {"lec_t": "5"}
    cr.lecturer_update(s, room.code, secret, lambda r: cr.publish(r, query))
    before = cr.load_room(s, room.code, fresh=True)
    assert before is not None and before.playing is None
    play = (5.0, 8.0, 1_000.5)
    cr.lecturer_update(s, room.code, secret, lambda r: cr.publish(r, query, play))
    now = cr.load_room(s, room.code, fresh=True)
    assert now is not None and now.playing == play  # the same lecture, playing: a change
    assert now.lecture_n == before.lecture_n + 1
    assert cr.publish(now, query, play) is now  # nothing new: no write
    stopped = cr.publish(now, {"lec_t": "21"})
    assert stopped.playing is None and stopped.lecture_n == now.lecture_n + 1


@pytest.mark.parametrize("play", [[1, 2], ["a", 8, 0], [5, 0, 1], [-1, 8, 1], [5, float("nan"), 1]])
def test_a_room_document_with_a_forged_play_is_no_room(s, play) -> None:
    room, _ = cr.create_room(s)
    doc = json.loads(room.to_json())
    doc["playing"] = play
    s.put(cr.room_key(room.code), json.dumps(doc).encode(), ttl=60)
    assert cr.load_room(s, room.code, fresh=True) is None


# ----------------------------------------------------------------------------- recent copy


class _SlowFirstGet:
    """A store whose next ``get`` reads the document, then waits for ``release`` before it
    returns: a thread that read the room before a change and finishes after others."""

    def __init__(self, inner) -> None:
        self.inner, self.release, self.read, self.slow = (
            inner,
            threading.Event(),
            threading.Event(),
            True,
        )

    def get(self, key):
        blob = self.inner.get(key)
        if self.slow:
            self.slow = False
            self.read.set()
            self.release.wait(5)
        return blob

    def __getattr__(self, name):
        return getattr(self.inner, name)


def test_a_slow_read_of_before_a_change_never_replaces_the_recent_copy_of_after_it(s) -> None:
    room, secret = cr.create_room(s)
    slow = _SlowFirstGet(s)
    got: list[cr.Room | None] = []
    reader = threading.Thread(target=lambda: got.append(cr.load_room(slow, room.code, fresh=True)))
    reader.start()
    assert slow.read.wait(5)  # it has read the room without a question
    cr.lecturer_update(s, room.code, secret, lambda r: cr.ask(r, question()))
    after = cr.load_room(slow, room.code, fresh=True)  # another thread: the watch, after it
    assert after is not None and after.question is not None
    slow.release.set()
    reader.join(5)
    assert got and got[0] is not None and got[0].question is None  # the slow one's own read
    # every page that reads the process's recent copy now has the question: a student's
    # run told of the change draws its card
    recent = cr.load_room(slow, room.code)
    assert recent is not None and recent.question is not None
