"""The seat is declared state: a session is in no class, or in one as lecturer, following
or exploring student, and moves only along the table; the store's failure reaches the page
as one sentence."""

import pytest

import perceptron_store as store_mod
from ui.classmode import classroom as cr
from ui.classmode.seat import (
    SEAT,
    STORE_DOWN,
    TRANSITIONS,
    URL,
    Refused,
    Role,
    Seat,
    move,
    reach,
    seat_of,
)


def student(code: str = "ABCD2345") -> Seat:
    return Seat(code=code, role=Role.FOLLOWING, seat="s" * 16, nick="Ana")


def test_a_student_joins_explores_follows_again_and_leaves():
    session: dict = {}
    seat = move(session, "join", student())
    assert seat is seat_of(session) and seat.following and not seat.lecturer
    assert session[URL] == {"room": "ABCD2345"}  # a copied link carries no seat
    move(session, "explore")
    assert seat.role is Role.EXPLORING and not seat.following
    move(session, "follow")
    assert seat.role is Role.FOLLOWING
    assert move(session, "leave") is None
    assert SEAT not in session and session[URL] == {}


def test_a_lecturer_seat_puts_neither_code_nor_secret_in_the_url():
    session: dict = {}
    seat = move(session, "start", Seat(code="ABCD2345", role=Role.LECTURER, secret="k" * 20))
    assert seat is not None and seat.lecturer and session[URL] == {}


@pytest.mark.parametrize(
    ("start", "event"),
    [
        (Role.LECTURER, "explore"),
        (Role.LECTURER, "follow"),
        (Role.EXPLORING, "explore"),
        (None, "follow"),
        (None, "explore"),
        (Role.FOLLOWING, "start"),
    ],
)
def test_a_move_the_table_does_not_list_is_refused_and_changes_nothing(start, event):
    session: dict = {}
    if start is not None:
        move(session, "start" if start is Role.LECTURER else "join", student())
        if start is Role.EXPLORING:
            move(session, "explore")
    before = (seat_of(session) and seat_of(session).role, dict(session.get(URL, {})))
    with pytest.raises(ValueError, match=event):
        move(session, event)
    assert (seat_of(session) and seat_of(session).role, dict(session.get(URL, {}))) == before


def test_every_role_can_leave_and_every_role_is_reached():
    assert all(TRANSITIONS[(role, "leave")] is None for role in Role)
    assert set(Role) <= set(TRANSITIONS.values())


def test_the_store_down_and_a_refusal_of_the_room_come_back_as_the_sentence_to_show():
    def down(store, *args):
        raise store_mod.StoreDown("redis: connection refused")

    def refused(store, *args):
        raise cr.RoomError("This class is no longer open.")

    with pytest.raises(Refused) as caught:
        reach(down)
    assert str(caught.value) == STORE_DOWN and "redis" not in str(caught.value)
    with pytest.raises(Refused, match="no longer open"):
        reach(refused)

    def full(store, *args):  # a real store's refusal: two rooms fill a tiny cap
        store.put_field("room:X:m", "s0", b"m" * 900, ttl=60)
        store.put_field("room:Y:m", "s0", b"m" * 900, ttl=60)

    tiny = store_mod.open_store(":memory:", max_bytes=1_500)
    try:
        with pytest.raises(Refused, match="store is full, so this was not saved"):
            reach(lambda _store: full(tiny))
    finally:
        tiny.close()
