"""The sidebar's generator knobs are named for what they are.

The separable generator's band half-width and disc radius are lengths in the plane; the
theorem's γ and R belong to the vectors the perceptron sees ((x, 1) with a bias) and are
computed from the points by the pages. At the defaults the two differ (0.30 and 3.00 in the
sidebar, γ = 0.491 and R = 3.16 on the lecture page), so no knob may carry the symbols γ or
R, and the dataset's caption may not cite the bound (R/γ)² beside them. The URL keys of the
knobs stay as they were: links keep working.
"""

import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from perceptron_core import DATASETS
from ui.app.state import param_key

APP = str(Path(__file__).resolve().parents[3] / "app.py")

GAMMA_OR_R = re.compile(r"γ|\bR\b")  # the theorem's symbols (a word like "radius" is fine)
PARAMS = [(d.key, p) for d in DATASETS.values() for p in d.params]


@pytest.mark.parametrize("key, param", PARAMS, ids=[f"{k}-{p.name}" for k, p in PARAMS])
def test_no_generator_knob_is_labelled_gamma_or_r(key, param):
    assert not GAMMA_OR_R.search(param.label), (key, param.label)
    assert param.label not in ("margin γ", "radius R")


@pytest.mark.parametrize("name", list(DATASETS))
def test_no_dataset_caption_cites_the_bound_beside_its_knobs(name):
    spec = DATASETS[name]
    caption = f"{spec.description} {spec.source}"
    assert "R/γ" not in caption, caption
    if spec.params:  # γ or R next to the knobs would read as theirs
        assert not GAMMA_OR_R.search(caption), caption


def test_the_knobs_keep_their_url_keys():
    names = {d.key: tuple(p.name for p in d.params) for d in DATASETS.values()}
    assert names["separable"] == ("margin", "radius", "offset")
    assert names["noisy"] == ("noise", "margin")
    assert param_key("separable", "margin") == "data_separable_margin"
    assert param_key("separable", "radius") == "data_separable_radius"


@pytest.mark.parametrize("name", list(DATASETS))
def test_the_sidebar_shows_no_slider_named_gamma_or_r(name):
    """The page as drawn: every sidebar slider and caption of each dataset."""
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["data_name"] = name
    at.run().switch_page("pages/lecture.py").run()  # a page on the sidebar's dataset
    assert not at.exception, [e.value for e in at.exception]
    labels = [s.label for s in at.sidebar.slider]
    assert len(labels) == (0 if DATASETS[name].fixed_size else 1 + len(DATASETS[name].params))
    for label in labels:
        assert not GAMMA_OR_R.search(label), (name, label)
    captions = " ".join(c.value for c in at.sidebar.caption)
    assert "R/γ" not in captions, captions


def test_a_link_with_the_old_keys_still_sets_the_knobs():
    at = AppTest.from_file(APP, default_timeout=60)
    query = {"data_name": "separable", "data_separable_margin": "0.5", "data_separable_radius": "4"}
    for key, value in query.items():
        at.query_params[key] = value
    at.run().switch_page("pages/lecture.py").run()
    assert not at.exception, [e.value for e in at.exception]
    knobs = {s.label: s.value for s in at.sidebar.slider}
    assert knobs["empty band half-width"] == 0.5 and knobs["disc radius"] == 4.0
