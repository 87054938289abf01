"""The worst malformed CSVs in a real browser: each gets a sentence, never a traceback.

One good upload first, then the malformed files one after another on the SGD page (a page
whose arithmetic a 1e308 cell would overflow): every time the top of the page shows a sentence
naming what is wrong and the data still in use, nothing on the page looks like a traceback
or a server path, the dataset in use stays the good upload, and the uploader does not list
the refused file.
"""

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import uploader

pytestmark = pytest.mark.browser

GOOD = b"x1,x2,y\n1,2,1\n2,1,1\n-1,-2,-1\n"
MALFORMED = [
    # (file name, content, a fragment of the sentence on the page)
    ("stray-cr.csv", b"x1,x2,y\n1,2\r,1\n", "stray carriage return"),
    ("long-cell.csv", b"x1,x2,y\n1," + b"9" * 140_000 + b",1\n", "140,004 characters long"),
    ("huge.csv", b"x1,x2,y\n1e308,1,1\n-1,-1,-1\n", "'1e308' is too large"),
    ("garbage.csv", bytes(range(256)) * 8, "not a text file"),
    ("latin1.csv", b"x1,x2,y\n1,2,1\n-1,-2,-1\n# caf\xe9\n", "not a UTF-8 text file"),
    ("quote.csv", b'x1,x2,y\n"1,2,1\n', "unbalanced quote"),
]
TRACEBACK_SIGNS = ("Traceback", ".py", "/work", "site-packages", "Something went wrong")


def upload(page: Page, tmp_path, name: str, content: bytes) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    uploader(page).set_input_files(str(path))


def test_malformed_uploads_get_a_sentence_and_keep_the_data(app_url, page, tmp_path):
    page.goto(app_url + "/sgd")
    expect(page.get_by_role("heading", name="The perceptron as SGD")).to_be_visible(timeout=30_000)
    # the heading comes with the first paint; the sidebar's uploader with the page's run,
    # which on two cores under the parallel tests took more than 15 s
    expect(page.get_by_test_id("stFileUploaderDropzoneInput")).to_have_count(1, timeout=60_000)
    sidebar = page.get_by_test_id("stSidebar")
    upload(page, tmp_path, "good.csv", GOOD)
    in_use = sidebar.get_by_test_id("stAlertContentInfo").filter(has_text="Using your data")
    expect(in_use).to_contain_text("(3 points)", timeout=15_000)
    dataset_text = in_use.inner_text()
    assert "good" in dataset_text
    summary = page.get_by_test_id("stMarkdownContainer").filter(has_text="On good").first
    expect(summary).to_contain_text("update")
    summary_text = summary.inner_text()
    main = page.get_by_test_id("stMain")
    error = main.get_by_test_id("stAlertContentError").filter(has_text="was not used")
    for name, content, fragment in MALFORMED:
        upload(page, tmp_path, name, content)
        expect(error).to_contain_text(name.removesuffix(".csv"), timeout=15_000)
        expect(error).to_have_count(1)  # the one message, about the latest file
        sentence = error.inner_text().replace("\u2060", "")  # word joiners of the escaping
        assert fragment in sentence, (name, sentence)
        reason, kept = [line for line in sentence.split("\n") if line.strip()][-2:]
        assert fragment in reason and len(reason) < 300, (name, reason)  # a sentence, not the file
        assert kept == "The previous data is still in use: good.csv (n = 3).", kept
        expect(sidebar.get_by_test_id("stAlertContentError")).to_have_count(0)
        expect(sidebar.get_by_test_id("stFileUploaderFile")).to_have_count(0)  # not listed
        expect(in_use).to_have_text(dataset_text)  # the dataset in use is kept
        expect(summary).to_have_text(summary_text)
        expect(page.get_by_test_id("stException")).to_have_count(0)
        shown = page.locator("body").inner_text()
        assert [s for s in TRACEBACK_SIGNS if s in shown] == [], name
