"""Two students at once: what one does never shows up in the other's session."""

from pathlib import Path

from apptest_helpers import lecture_status, lecture_step, open_app
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]


def lecture() -> AppTest:
    return open_app("pages/lecture.py")


status = lecture_status


def test_one_session_changing_the_dataset_and_stepping_leaves_another_untouched():
    a, b = lecture(), lecture()
    a.selectbox(key="data_name_w").set_value("xor").run()
    lecture_step(a, 3)
    assert "XOR" in status(a) and "t = 3" in status(a)
    b.run()
    assert "Separable" in status(b) and "t = 0" in status(b)
    assert b.session_state["data_name"] == "separable" and b.session_state["lec_t"] == 0
    assert not a.exception and not b.exception


def test_no_per_user_state_lives_in_shared_caches_or_modules():
    # st.cache_resource hands every session the same mutable object: not for user data
    for path in [*ROOT.joinpath("ui").glob("*.py"), *ROOT.joinpath("pages").glob("*.py")]:
        assert "cache_resource" not in path.read_text(encoding="utf-8"), path
