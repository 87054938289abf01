"""Hostile URLs through AppTest: any query string opens the app with defaults and notices.

Hypothesis draws query strings from every settings key (plus unknown ones) with
values of the wrong type, huge or negative numbers, NaN, unknown names and
HTML/script text. The app must never show an exception, must say which
parameter it refused, must end up with valid settings, and must show the
hostile text only as text.
"""

from apptest_helpers import lecture_status, open_app
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ui.app.state import SETTINGS

HOSTILE = [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "[click](javascript:alert(1))",
    "**bold** `tick`",
    "nan",
    "inf",
    "-1",
    "1e308",
    "99999999999999999999",
    "",
    " ",
    "0x10",
    "1,2,3,4",
    "true",
    "separable",
    "0",
    "1",
]
values = st.one_of(st.sampled_from(HOSTILE), st.text(max_size=30))
keys = st.one_of(st.sampled_from(sorted(SETTINGS)), st.text(min_size=1, max_size=12))


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(st.dictionaries(keys, values, min_size=1, max_size=4))
def test_any_query_string_opens_the_app_with_valid_settings_and_notices(query):
    at = open_app(query=query)
    assert not at.exception
    notices = " ".join(w.value for w in at.warning)
    for key, value in query.items():
        setting = SETTINGS.get(key)
        if setting is None:
            assert "unknown URL parameter" in notices
            continue
        try:
            setting.parse(value)
        except (ValueError, TypeError, OverflowError):
            assert key in notices  # refused, and said so
        # whatever happened, the setting holds a value its own parser accepts
        held = at.session_state[key]
        assert held == setting.parse(
            ("1" if held else "0")
            if isinstance(held, bool)
            else f"{held:g}"
            if isinstance(held, float)
            else str(held)
        )
    # hostile text is quoted as code, never interpreted as markdown or HTML
    for w in at.warning:
        assert "<script>" not in w.value or "`<script>" in w.value


def test_the_lecture_page_survives_every_setting_at_its_extremes():
    extremes = {
        "data_n": "500",
        "lec_max_epochs": "500",
        "lec_eta": "1000",
        "lec_t": "200000",
        "data_name": "xor",
    }
    at = open_app("pages/lecture.py", extremes)
    assert not at.exception
    status = lecture_status(at)
    assert "not separable" in status and "stopped after 400 epochs" in status  # 200,000 steps
    assert any("running 400 epochs" in i.value for i in at.info)
