"""The class's live channel: what a room's lecturer just did, told to every open page of
the room as it happens, outside Streamlit's reruns.

A room's state is one small JSON object (the lecture's step and run, Play's clock, the
question's and the challenge's versions). :class:`~ui.live.hub.Hub` keeps the newest per
room and wakes every page of the room in this process; across processes it is fed by Redis
pub/sub (:class:`~ui.live.hub.RedisRelay`), and every room with pages here is read again
from the store now and then (:func:`~ui.live.hub.reread`), so a message lost on the way
is made good. :mod:`ui.live.route` serves it on a websocket (``/api/live``): not counted
in a browser's six connections to one server (an event stream is: a student with six
tabs would stall every further request), and the page says on the same connection which
state it shows, so a reconnected page is sent only what it lacks. Each message is the whole
state, not a difference: a page that missed one is right again with the next.
``ui/live/live.js`` is the browser's end: one connection per page, reconnected by itself.

May import: the standard library, ``starlette`` (the route) and ``redis`` (the relay).
Nothing of Streamlit and nothing of the app: the app says how to read a room's state and
the key its seats' tickets are signed with (``ui.classmode.live``).
"""
