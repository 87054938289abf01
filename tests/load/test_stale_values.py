"""A setting outlives an old value that comes back from the browser with a part's rerun.

Streamlit's browser sends every widget's value with each rerun it asks for, a timed
fragment's (the class strip's poll, the board's) and the live channel's too, as the page
last drew them. A value that changed a moment before (a follower's lecture taken from the
lecturer, a bank question's data, the seed a person just typed) may not be drawn yet: the
rerun then brings the old one back. It must not undo the change: a person's own change
reruns the widget's fragment or the whole page, never another part.
"""

from streamlit.proto.WidgetStates_pb2 import WidgetState

from tools.streamlit_client import Client, stream_url

from .test_load import port, run  # noqa: F401  (port is a fixture)


def test_a_parts_rerun_with_a_settings_old_value_does_not_undo_it(port):  # noqa: F811
    async def scenario() -> list[str]:
        async with Client(stream_url(port), "data_seed=3", page="lecture") as page:
            await page.open()
            seed, _ = page.element("data_seed_w")  # the sidebar's seed, outside every part
            _, instrument = page.element("lec_player")  # the lecture's part (a fragment)
            urls = [page.query_string]
            for widgets, part in (
                ([WidgetState(id=seed, int_value=5)], ""),  # typed: the whole page reruns
                ([WidgetState(id=seed, int_value=3)], instrument),  # the part, with the old 3
                ([], ""),  # a whole page's run: what the page now shows
            ):
                page.check(await page.rerun(widgets, part))
                urls.append(page.query_string)
            return urls

    urls = run(scenario())
    assert urls == ["data_seed=3", "data_seed=5", "data_seed=5", "data_seed=5"], urls
