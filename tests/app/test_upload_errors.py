"""A refused upload is said in place.

The message is in the main area, at the top of the page the upload happened on, names the
data still in use, and goes once it no longer applies: another dataset, a good upload,
back to generated data, Dismiss, another page. The uploader the refused file went into is
replaced by a fresh one, so the file is not listed as if it were in use.
"""

import numpy as np
import pytest
from apptest_helpers import lecture_status, open_app
from streamlit.testing.v1 import AppTest

from perceptron_core import DATASETS
from ui.app.sidebar import CUSTOM, UPLOAD_ERROR
from ui.app.state import widget_key
from ui.look.text import safe

BAD = b"x1,x2,y\n1,2,1\n-1,-2,-1\n2,2,1\n-2,-1,-1\n1,abc,1\n"  # row 6 (the header is row 1)
GOOD = b"x1,x2,y\n1,2,1\n2,1,1\n-1,-2,-1\n"
REASON = "Row 6, column x2: 'abc' is not a number."
GENERATED = "Separable, chosen margin (n = 40, seed 0)"  # the default dataset


def upload(at: AppTest, name: str, content: bytes) -> AppTest:
    """What the browser does when a file is dropped on the sidebar's uploader."""
    (uploader,) = at.sidebar.file_uploader
    uploader.upload(name, content, "text/csv")
    return at.run()


def plain(text: str) -> str:
    """Markdown as read: the escaping's backslashes and word joiners gone."""
    return text.replace("\\", "").replace("\u2060", "")


def main_errors(at: AppTest) -> list[str]:
    assert not at.exception, [e.value for e in at.exception]
    return [plain(e.value) for e in at.main.error]


def refused(at: AppTest) -> str:
    """The one refusal in the main area (and none in the sidebar)."""
    assert not at.sidebar.error, [e.value for e in at.sidebar.error]
    errors = [e for e in main_errors(at) if "was not used" in e]
    assert len(errors) == 1, main_errors(at)
    return errors[0]


def no_refusal(at: AppTest) -> None:
    assert not [e for e in main_errors(at) if "was not used" in e]
    assert not at.sidebar.error
    assert UPLOAD_ERROR not in at.session_state


@pytest.fixture
def lecture() -> AppTest:
    return open_app("pages/lecture.py")


def test_the_message_is_at_the_top_of_the_page_and_names_the_data_kept(lecture):
    at = upload(lecture, "bad.csv", BAD)
    assert refused(at) == (
        f"bad.csv was not used. {REASON}\n\nThe previous data is still in use: {GENERATED}."
    )
    assert lecture_status(at).startswith(GENERATED + " · ")  # the page runs on it still
    assert CUSTOM not in at.session_state
    # above the page's own title (the tree in the order the browser draws it)
    order = [el.type for el in at.main if el.type in ("error", "title")]
    assert order[:2] == ["error", "title"]
    assert at.button(key="data_refusal_dismiss").label == "Dismiss"


def test_the_refused_file_is_not_left_in_the_uploader(lecture):
    (before,) = lecture.sidebar.file_uploader
    at = upload(lecture, "bad.csv", BAD)
    (after,) = at.sidebar.file_uploader
    assert after.key != before.key  # a new uploader, empty in the browser
    assert at.session_state[after.key] is None
    at = upload(at, "bad.csv", BAD)  # the same file again: refused again, new uploader again
    (again,) = at.sidebar.file_uploader
    assert again.key not in (before.key, after.key)
    assert at.session_state[again.key] is None
    assert len(at.main.error) == 1  # one message, not one per attempt


def test_the_message_stays_while_it_applies(lecture):
    at = upload(lecture, "bad.csv", BAD)
    message = refused(at)
    at.toggle(key=widget_key("lec_bias")).set_value(False).run()  # a change on the page
    assert refused(at) == message
    assert refused(at.run()) == message


def test_another_page_drops_it(lecture):
    at = upload(lecture, "bad.csv", BAD)
    refused(at)
    at.switch_page("pages/xor.py").run()
    no_refusal(at)
    at.switch_page("pages/lecture.py").run()  # and it does not come back
    no_refusal(at)


def test_another_dataset_drops_it(lecture):
    at = upload(lecture, "bad.csv", BAD)
    refused(at)
    at.sidebar.selectbox(key=widget_key("data_name")).set_value("xor").run()
    no_refusal(at)
    assert lecture_status(at).startswith(DATASETS["xor"].title)


@pytest.mark.parametrize("change", ["regenerate", "seed", "size"])
def test_a_new_draw_of_the_data_drops_it(lecture, change):
    at = upload(lecture, "bad.csv", BAD)
    refused(at)
    if change == "regenerate":
        at.button(key="data_regenerate").click().run()
    elif change == "seed":
        at.sidebar.number_input(key=widget_key("data_seed")).set_value(7).run()
    else:
        at.sidebar.slider(key=widget_key("data_n")).set_value(30).run()
    no_refusal(at)


def test_a_good_upload_drops_it_and_is_used(lecture):
    at = upload(lecture, "bad.csv", BAD)
    refused(at)
    at = upload(at, "good.csv", GOOD)
    no_refusal(at)
    assert at.session_state[CUSTOM][2] == "good.csv"
    assert lecture_status(at).startswith("good.csv · ")


def test_a_refusal_keeps_an_uploaded_set_and_back_to_generated_drops_it(lecture):
    at = upload(lecture, "good.csv", GOOD)
    at = upload(at, "bad.csv", BAD)
    assert refused(at).endswith("The previous data is still in use: good.csv (n = 3).")
    assert lecture_status(at).startswith("good.csv · ")
    at.button(key="data_back").click().run()
    no_refusal(at)
    assert lecture_status(at).startswith(GENERATED)


def test_dismiss_drops_it_and_keeps_the_data(lecture):
    at = upload(lecture, "good.csv", GOOD)
    at = upload(at, "bad.csv", BAD)
    refused(at)
    at.button(key="data_refusal_dismiss").click().run()
    no_refusal(at)
    assert at.session_state[CUSTOM][2] == "good.csv"


def test_data_changed_elsewhere_drops_it(lecture):
    """The data in use changed without the sidebar (here: the session, as the margin lab's
    edits change it): the message about the data before no longer applies."""
    at = upload(lecture, "bad.csv", BAD)
    refused(at)
    at.session_state[CUSTOM] = (np.array([[1.0, 1.0], [-1.0, -1.0]]), np.array([1, -1]), "drawn")
    no_refusal(at.run())


def test_a_hostile_file_name_is_shown_as_typed():
    at = open_app("pages/sgd.py")
    name = "[x](javascript:alert(1))<b>:red[boo]</b>.csv"
    at = upload(at, name, b"x1,x2,y\n1,2,3\n")
    (error,) = at.main.error
    assert error.value.startswith(f"{safe(name)} was not used.")  # escaped
    assert name not in error.value
    assert name in plain(error.value)


def test_an_error_on_a_page_with_its_own_data_is_said_there_too():
    """The spam page uses data of its own; the sidebar's upload is still refused in view."""
    at = open_app("pages/spam.py")
    at.session_state["data_elsewhere"] = True  # the dataset's controls unfolded
    at.run()
    at = upload(at, "bad.csv", BAD)
    assert refused(at).startswith("bad.csv was not used.")


def test_a_forged_upload_naming_a_file_the_server_does_not_hold_is_refused_in_words():
    """A widget value naming a file id this session never uploaded reaches the page as
    Streamlit's DeletedFile (no name, no bytes): the refusal is the app's sentence, not a
    traceback, and the data in use stay."""

    def page() -> None:
        import streamlit as st
        from streamlit.runtime.uploaded_file_manager import DeletedFile

        from ui.app import sidebar, state

        state.init(st.session_state, {})  # the settings every page starts from
        st.session_state["forged_upload"] = DeletedFile("a-file-id-never-uploaded")
        sidebar._upload("forged_upload")  # the uploader's on_change ...
        sidebar.take_upload(st.session_state)  # ... and the run that reads the file
        refusal = st.session_state[sidebar.UPLOAD_ERROR]
        st.write(f"{refusal.file} | {refusal.reason}")
        st.write(str(sidebar.CUSTOM in st.session_state))

    at = AppTest.from_function(page).run()
    assert not at.exception, [e.value for e in at.exception]
    shown = [m.value for m in at.markdown]
    assert shown[0] == "the file | The file is no longer on the server; please upload it again."
    assert shown[1] == "False"


def test_a_semicolon_separated_upload_is_read_and_a_decimal_comma_is_named(lecture):
    """A spreadsheet whose decimal mark is the comma saves CSV with semicolons: its points
    are used, not refused as "Missing column(s) x1, x2, y"."""
    at = upload(lecture, "excel.csv", b"x1;x2;y\n1;2;1\n2;1;1\n-1;-2;-1\n")
    no_refusal(at)
    assert at.session_state[CUSTOM][0].tolist() == [[1, 2], [2, 1], [-1, -2]]
    assert lecture_status(at).startswith("excel.csv · ")
    at = upload(at, "decimals.csv", b"x1;x2;y\n1,5;2;1\n2;1;1\n")
    assert "Row 2, column x1: '1,5' has a decimal comma; write it with a point (1.5)" in refused(at)
