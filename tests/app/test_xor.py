"""The Beyond linear page through AppTest: XOR never stops, the witness, the feature map."""

import pytest
from apptest_helpers import open_app
from streamlit.testing.v1 import AppTest


def beyond(query: dict[str, str] | None = None) -> AppTest:
    at = open_app("pages/xor.py", query)
    assert not at.exception
    return at


def markdown(at: AppTest) -> str:
    return " ".join(m.value for m in at.markdown)


def test_xor_corners_never_converge_and_the_cycle_is_named():
    at = beyond({"xor_epochs": "20"})
    error = " ".join(e.value for e in at.error)
    assert "XOR corners" in error and "in 20 epochs" in error
    cycle = next(i.value for i in at.info if "A cycle" in i.value)
    assert "repeat exactly every" in cycle and "steps (" in cycle


def test_the_witness_is_the_centre_of_the_xor_square():
    at = beyond()
    latex = " ".join(x.value for x in at.latex)
    assert r"z = (0,\ 0)" in latex
    assert "no bound" in markdown(at)


@pytest.mark.parametrize(
    ("fmap", "verdict"),
    [("identity", "does not converge"), ("product", "converges"), ("quadratic", "converges")],
)
def test_which_feature_maps_make_xor_separable(fmap, verdict):
    at = beyond({"xor_map": fmap})
    assert f"the perceptron **{verdict}**" in markdown(at)


def test_the_kernel_perceptron_agrees_with_the_explicit_map():
    text = markdown(beyond())
    assert "the same steps" in text and "NOT" not in text
    assert "same prediction on 2000 of 2000" in text


def test_a_separable_dataset_has_no_witness_and_converges():
    at = beyond({"xor_data": "shared", "data_name": "separable"})
    assert any("separable" in s.value for s in at.success)
    assert not at.info  # no cycle


def test_a_tampered_feature_map_falls_back_with_a_notice():
    at = open_app(query={"xor_map": "cubic"})
    assert not at.exception
    assert any("xor_map" in w.value for w in at.warning)
