"""What the variants page's text says about the digit pairs and the read-outs, recomputed from
the page's own engine calls (``ui.variants.runs``) at the page's defaults and over every pair it
offers, so the text cannot drift from the numbers shown next to it.

The comparisons are coarse on purpose (which pair is hardest, which read-out is worst, a
percentage point, a range twice as wide): they hold with room to spare, not to the last image."""

import numpy as np
import pytest

from perceptron_core import max_margin
from ui.app.state import SETTINGS
from ui.look.text import lesson_text
from ui.variants import figures as var
from ui.variants import runs

SEED = int(SETTINGS["data_seed"].default)
NOISE = float(SETTINGS["var_noise"].default)
EPOCHS = int(SETTINGS["var_epochs"].default)
OTHER_SEEDS = range(5)  # "over seeds 0 to 4"
HARD_FOR = ("w*", "averaged", "voted")  # the read-outs the hard pair is hardest for
COUNT = {5: "five", 6: "six", 7: "seven"}  # "of the six"


def digits_text() -> str:
    return " ".join(lesson_text("variants")["digits"].split())


def name(pair: str) -> str:
    return "{} vs {}".format(*var.PAIRS[pair])


def final_test_errors(seed: int) -> dict[str, dict[str, float]]:
    """Per pair: the test error after the last epoch of each read-out, and of w*."""
    out = {}
    for pair in var.PAIRS:
        dg = runs.digits_run(pair, NOISE, EPOCHS, seed)
        assert dg.star_test is not None  # every pair is separable: there is a w*
        out[pair] = {m: float(dg.errors.test[m][-1]) for m in var.METHODS} | {"w*": dg.star_test}
    return out


@pytest.fixture(scope="module")
def at_defaults() -> dict[str, dict[str, float]]:
    return final_test_errors(SEED)


def test_the_text_says_at_which_settings_it_compares():
    text = digits_text()
    said = f"seed {SEED}, {round(100 * NOISE)} % of the training labels flipped, {EPOCHS} epochs"
    assert said in text


def test_no_pair_is_called_nearly_solved_by_every_method(at_defaults):
    text = digits_text()
    assert "nearly solved" not in text
    # and it would be false: at the defaults the last w gets a large share of a pair wrong
    assert max(e["last"] for e in at_defaults.values()) > 0.25


def test_the_hard_pair_the_text_names_is_the_hardest_for_w_star_averaged_and_voted(at_defaults):
    hardest = {who: max(at_defaults, key=lambda p: at_defaults[p][who]) for who in HARD_FOR}
    assert len(set(hardest.values())) == 1, hardest
    pair = hardest["w*"]
    assert f"**{name(pair)} is the hard pair**" in digits_text()
    others = [p for p in var.PAIRS if p != pair]
    for who in HARD_FOR:  # the hardest by a margin, not by an image
        assert at_defaults[pair][who] > max(at_defaults[p][who] for p in others) + 0.005
    assert f"of the {COUNT[len(var.PAIRS)]} pairs" in digits_text()  # every pair it offers


def test_averaged_and_voted_agree_and_the_last_w_is_worst_on_every_pair(at_defaults):
    text = digits_text()
    assert "the averaged and the voted perceptron end within one percentage point" in text
    assert "the last w ends worst of the three" in text
    for pair, e in at_defaults.items():
        assert abs(e["averaged"] - e["voted"]) <= var.TIE, pair
        assert e["last"] >= max(e["averaged"], e["voted"]), pair
    last = [e["last"] for e in at_defaults.values()]
    assert "from a few per cent on one pair to nearly 50 %" in text
    assert min(last) < 0.10 and 0.40 < max(last) <= 0.5


def test_other_seeds_move_the_last_w_most():
    text = digits_text()
    assert "over seeds 0 to 4, on every pair, its final test error spans more than twice" in text
    errors = [final_test_errors(s) for s in OTHER_SEEDS]
    for pair in var.PAIRS:
        spread = {m: float(np.ptp([e[pair][m] for e in errors])) for m in var.METHODS}
        assert spread["last"] > 2 * max(spread["averaged"], spread["voted"]), (pair, spread)


def test_every_pair_is_separable_as_a_whole_so_every_split_is():
    assert "every split of it is too" in digits_text()
    for pair in var.PAIRS:
        X, y = runs.digit_pair(pair)
        assert max_margin(X, y, bias=True).gamma > 0
