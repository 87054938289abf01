"""A class's two votes on a question on both backends (SQLite, a real redis-server): two
app processes' stores answering at once, each seat counted once in each vote, the first
vote kept; closing the class keeps the votes as long as the room."""

from __future__ import annotations

import threading
import time

from ui.classmode import answers as an
from ui.classmode import classroom as cr


def question() -> cr.Question:
    return cr.Question(
        id=0,
        t=3,
        point=1,
        x=(1.0, 2.0),
        z=(1.0, 2.0, 1.0),
        y=1,
        w=(0.5, -1.0, 0.0),
        rule="nonpositive",
        eta=1.0,
        mistake=True,
        turn="cw",
    )


def test_two_votes_from_two_servers_count_each_seat_once_in_each(make_store) -> None:
    one, two = make_store(), make_store()  # two app servers of one class
    cr.forget_recent()
    room, secret = cr.create_room(one)
    seats = [cr.join(one, room, f"s{i}") for i in range(60)]
    room = cr.lecturer_update(one, room.code, secret, lambda r: cr.ask(r, question()))

    def answer_all(store, part, vote, said):
        for seat in part:
            an.answer(store, room_now, seat, 1, said, None, vote)
            an.answer(store, room_now, seat, 1, said, "cw", vote)  # and once again

    def in_threads(vote, said):
        threads = [
            threading.Thread(target=answer_all, args=(store, seats[i::6], vote, said))
            for i, store in enumerate([one, two] * 3)
        ]
        for th in threads:
            th.start()
        for th in threads:
            th.join()

    room_now = room
    in_threads(1, False)
    room_now = cr.lecturer_update(two, room.code, secret, cr.vote_again)
    in_threads(2, True)
    first, second = an.tallies(one, room_now, room_now.question)
    assert (first.answered, first.no_mistake, first.turns["cw"]) == (60, 60, 60)
    assert (second.answered, second.mistake, second.right_mistake, second.right_turn) == (
        60,
        60,
        60,
        60,
    )
    assert an.tallies(two, room_now, room_now.question) == [first, second]  # the other server


def test_closing_keeps_both_votes_as_long_as_the_room(make_store) -> None:
    s = make_store()
    cr.forget_recent()
    room, secret = cr.create_room(s, ttl=4.0)
    seat = cr.join(s, room, "Ana")
    room = cr.lecturer_update(s, room.code, secret, lambda r: cr.ask(r, question()))
    an.answer(s, room, seat, 1, True, None)
    room = cr.lecturer_update(s, room.code, secret, cr.vote_again)
    an.answer(s, room, seat, 1, True, "cw", 2)
    time.sleep(2.4)  # the votes have 1.6 s left; the closed room will have 4 s
    room = cr.lecturer_update(s, room.code, secret, cr.close_room)
    cr.keep_results(s, room)
    time.sleep(2.4)  # past the votes' own expiry, within the room's
    assert cr.load_room(s, room.code, fresh=True) is not None
    assert [t.answered for t in an.tallies(s, room, room.asked[0])] == [1, 1]
