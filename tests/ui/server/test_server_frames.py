"""``ui.server.frames``: the door reads a browser's frame before Streamlit parses it.

The frames are real ``BackMsg`` bytes, as the browser sends them (a rerun with its widgets'
states); the door's own use of the check is in ``test_server_door.py`` and, over a real
server, in ``tests/load/test_room.py`` and ``tests/load/test_hostile_events.py``."""

import json

import pytest
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState

from ui.server import frames


def frame(*widgets: WidgetState) -> bytes:
    msg = BackMsg()
    msg.rerun_script.widget_states.widgets.extend(widgets)
    return msg.SerializeToString()


def no_kinds(_widget_id: str) -> str | None:
    return None


def kept(data: bytes, kind_of=no_kinds) -> tuple[list[str], list[str]]:
    """The ids of the widgets the screened frame still carries, and what was said."""
    out, said = frames.screened(data, kind_of)
    msg = BackMsg()
    msg.ParseFromString(out)
    return [w.id for w in msg.rerun_script.widget_states.widgets], said


GESTURE = json.dumps([{"event": "moved", "value": {"i": 3, "x": 0.5, "y": -1.25, "v": 7}}])


def test_a_gesture_and_every_ordinary_value_pass_unchanged():
    for data in (
        frame(WidgetState(id="canvas", json_trigger_value=GESTURE)),
        frame(WidgetState(id="note", string_value="x" * 100_000)),
        frame(WidgetState(id="b", trigger_value=True)),
        BackMsg(app_heartbeat=True).SerializeToString(),
        b"\xff\xfe not a message",  # Streamlit closes the stream itself
    ):
        assert frames.screened(data, no_kinds) == (data, [])


def test_a_timed_rerun_goes_on_without_the_values_the_page_last_drew():
    """A ``run_every`` fragment's rerun changes no widget: its values (possibly older than
    the server's) are taken out, and nothing is said of it; a person's rerun keeps them."""
    msg = BackMsg()
    msg.rerun_script.is_auto_rerun = True
    msg.rerun_script.fragment_id = "strip"
    msg.rerun_script.widget_states.widgets.extend(
        [WidgetState(id="data_name_w", string_value="separable"), WidgetState(id="n", int_value=4)]
    )
    out, said = frames.screened(msg.SerializeToString(), no_kinds)
    after = BackMsg()
    after.ParseFromString(out)
    assert said == []
    assert list(after.rerun_script.widget_states.widgets) == []
    assert after.rerun_script.fragment_id == "strip" and after.rerun_script.is_auto_rerun
    msg.rerun_script.is_auto_rerun = False
    assert kept(msg.SerializeToString()) == (["data_name_w", "n"], [])


def test_a_message_listing_more_events_than_a_gesture_sends_loses_that_event():
    events = [{"event": "moved", "value": {"i": 3}}]
    for n in (1, frames.MAX_EVENTS):
        assert kept(frame(WidgetState(id="c", json_trigger_value=json.dumps(events * n)))) == (
            ["c"],
            [],
        )
    for n in (frames.MAX_EVENTS + 1, 300):
        ids, said = kept(frame(WidgetState(id="c", json_trigger_value=json.dumps(events * n))))
        assert ids == [] and f"listing {n:,} events" in said[0]


def test_an_event_longer_than_a_gesture_is_taken_out_before_it_is_parsed():
    flood = json.dumps({"event": "moved", "value": ["x" * 100] * 2_000})
    assert len(GESTURE) < frames.MAX_TRIGGER_CHARS < len(flood)
    ids, said = kept(frame(WidgetState(id="c", json_trigger_value=flood)))
    assert ids == [] and "characters" in said[0]


def test_an_event_with_a_number_too_long_for_python_s_parser_is_taken_out():
    """A 5,000-digit integer is 5 kB, under the size bound, but ``json.loads`` raises on
    it (Python's 4,300-digit limit) inside Streamlit, where no page code can catch it."""
    huge = json.dumps([{"event": "at", "value": {"t": 1}}]).replace("1}", "9" * 5000 + "}")
    assert len(huge) < frames.MAX_TRIGGER_CHARS
    with pytest.raises(ValueError):
        json.loads(huge)
    ids, said = kept(frame(WidgetState(id="p", json_trigger_value=huge)))
    assert ids == [] and "40 or more digits" in said[0]
    fine = json.dumps([{"event": "at", "value": {"t": 12, "x": 1.2345678901234567e300}}])
    assert kept(frame(WidgetState(id="p", json_trigger_value=fine))) == (["p"], [])


@pytest.mark.parametrize(
    ("sent", "kind", "taken"),
    [
        (WidgetState(id="pills", int_value=1), "string_array_value", True),
        (WidgetState(id="pills", bool_value=True), "string_array_value", True),
        (WidgetState(id="pills", json_trigger_value="{}"), "string_array_value", True),
        (WidgetState(id="n", int_value=3), "double_value", False),  # a number for a number
        (WidgetState(id="n", double_value=3.5), "int_value", False),
        (WidgetState(id="unknown", int_value=1), None, False),  # not drawn: Streamlit's
    ],
)
def test_a_value_of_another_kind_than_its_widget_s_is_taken_out(sent, kind, taken):
    ids, said = kept(frame(sent), {sent.id: kind}.get)
    assert (ids == []) is taken and bool(said) is taken, said


def test_the_rest_of_the_message_goes_on():
    """One forged value out; the others, and the message, reach Streamlit: the rerun runs
    and the forger's page is answered."""
    ok = WidgetState(id="pills", string_array_value={"data": ["a"]})
    bad = WidgetState(id="n", string_value="x")
    also = WidgetState(id="slider", double_array_value={"data": [0.5]})
    kinds = {"pills": "string_array_value", "n": "int_value", "slider": "double_array_value"}
    ids, said = kept(frame(ok, bad, also), kinds.get)
    assert ids == ["pills", "slider"] and len(said) == 1


def test_an_address_longer_than_any_page_s_is_taken_out_and_the_rest_goes_on():
    """A run's query string of half a megabyte (a script's: no page is served at such an
    address) reaches Streamlit empty, with the widgets' values; one as long as a real
    lecture link passes unchanged."""
    link = "data_name=four_points&lec_t=5&" + "&".join(f"p{k}=1" for k in range(400))
    assert len(link) < frames.MAX_QUERY_CHARS
    msg = BackMsg()
    msg.rerun_script.query_string = link
    msg.rerun_script.page_script_hash = "lecture"
    msg.rerun_script.widget_states.widgets.append(WidgetState(id="b", trigger_value=True))
    data = msg.SerializeToString()
    assert frames.screened(data, no_kinds) == (data, [])
    msg.rerun_script.query_string = "p=" + "x" * 500_000
    out, said = frames.screened(msg.SerializeToString(), no_kinds)
    after = BackMsg()
    after.ParseFromString(out)
    assert after.rerun_script.query_string == ""
    assert after.rerun_script.page_script_hash == "lecture"
    assert [w.id for w in after.rerun_script.widget_states.widgets] == ["b"]
    assert said == ["a query string of 500,002 characters"]
