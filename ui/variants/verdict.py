"""Which perceptron to deploy (pure): the names of the three read-outs, the price of a
vote, and a verdict argued from the numbers on the page.

Each verdict is a whole sentence of the catalogue, one per case, so that a translator
never joins fragments; every number is written by ``ui.look.numbers``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from perceptron_core import METHODS, EpochErrors
from ui.look.numbers import count, number, percent
from ui.words import N_, t

TIE = 0.01  # test errors closer than this (1 percentage point) count as a tie
# the read-outs' names, for the catalogue: shown through t()
NAMES = {"last": N_("last w"), "averaged": N_("averaged"), "voted": N_("voted")}

# the verdict for the averaged perceptron: its error the lowest, or within a point of the best
DEPLOY_AVERAGED = {
    True: N_(
        "**Deploy the averaged perceptron**: its mean test error ({averaged}) is the lowest, "
        "and it stores **one** vector: a prediction costs the same as the plain perceptron's, "
        "while the voted one kept up to {vectors} and costs that many dot products per "
        "prediction."
    ),
    False: N_(
        "**Deploy the averaged perceptron**: its mean test error ({averaged}) is within one "
        "percentage point of the best ({best}, {best_error}), and it stores **one** vector: a "
        "prediction costs the same as the plain perceptron's, while the voted one kept up to "
        "{vectors} and costs that many dot products per prediction."
    ),
}
DEPLOY_VOTED = N_(
    "**Deploy the voted perceptron**: here it is clearly the most accurate ({voted} against "
    "{averaged} averaged), worth its price of {dot_products} per prediction."
)
# the verdict for the last w: (its error the lowest, the voted one tied with it)
DEPLOY_LAST = {
    (True, False): N_(
        "**Deploy the last w perceptron**: on these numbers its mean test error ({last}) is "
        "the lowest, more than one percentage point below the averaged one's ({averaged})."
    ),
    (True, True): N_(
        "**Deploy the last w perceptron**: on these numbers its mean test error ({last}) is "
        "the lowest, more than one percentage point below the averaged one's ({averaged}), "
        "and it stores **one** vector, while the voted one kept up to {vectors}."
    ),
    (False, False): N_(
        "**Deploy the last w perceptron**: on these numbers its mean test error ({last}) is "
        "within one percentage point of the best ({best}, {best_error}), more than one "
        "percentage point below the averaged one's ({averaged})."
    ),
    (False, True): N_(
        "**Deploy the last w perceptron**: on these numbers its mean test error ({last}) is "
        "within one percentage point of the best ({best}, {best_error}), more than one "
        "percentage point below the averaged one's ({averaged}), and it stores **one** "
        "vector, while the voted one kept up to {vectors}."
    ),
}


def cost_rows(items: list[tuple[str, int, int]]) -> list[dict[str, Any]]:
    """Per run (name, vectors the voted perceptron keeps K + 1, d'): what one prediction
    costs each read-out, in stored vectors and multiply-adds (as text: "80,925")."""
    return [
        {
            t("run"): name,
            "d'": number(d),
            t("last, averaged: vectors"): "1",
            t("last, averaged: multiply-adds"): number(d),
            t("voted: vectors"): number(vectors),
            t("voted: multiply-adds"): number(vectors * d),
            t("voted ÷ averaged"): number(vectors),
        }
        for name, vectors, d in items
    ]


_pct = percent  # 0.123 -> "12.3%"


def verdict(evidence: dict[str, dict[str, float]], vectors: int, swing: dict[str, float]) -> str:
    """Which read-out to deploy, argued from the numbers on the page.

    Parameters
    ----------
    evidence
        For each measurement (e.g. "2-D, after the last epoch"), the test error of each
        of ``METHODS``.
    vectors
        The most weight vectors the voted perceptron had to keep in those runs.
    swing
        For each method, how much its test error moved over the second half of the epochs
        (max - min, on the 2-D run).
    """
    score = {m: float(np.mean([e[m] for e in evidence.values()])) for m in METHODS}
    best = min(METHODS, key=lambda m: score[m])
    lines = [
        t("Mean test error over the {n} measurements above: {errors}.").format(
            n=len(evidence),
            errors=", ".join(f"{t(NAMES[m])} {_pct(score[m])}" for m in METHODS),
        )
    ]
    # a tie within one percentage point of the best goes to the cheaper prediction: the
    # averaged and the last w take one dot product, the voted one a dot product per vector;
    # of the two cheap ones the averaged, seed 003's remedy for overtraining
    tied = [m for m in METHODS if score[m] <= score[best] + TIE]
    pick = next(m for m in ("averaged", "last", "voted") if m in tied)
    if pick == "averaged":
        message = DEPLOY_AVERAGED[best == pick]
    elif pick == "voted":
        message = DEPLOY_VOTED
    else:
        message = DEPLOY_LAST[best == pick, "voted" in tied]
    lines.append(
        t(message).format(
            best=t(NAMES[best]),
            best_error=_pct(score[best]),
            last=_pct(score["last"]),
            averaged=_pct(score["averaged"]),
            voted=_pct(score["voted"]),
            vectors=count(vectors, "vector"),
            dot_products=count(vectors, "dot product"),
        )
    )
    lines.append(_steadiness(pick, swing))
    return "\n\n".join(lines)


def _steadiness(pick: str, swing: dict[str, float]) -> str:
    """The sentence after the verdict: which of the last w and the averaged one is steadier.

    "It is also steadier" only when ``pick`` is the averaged one and it is; otherwise the
    steadier one is named, so the sentence never praises the read-out it does not mean.
    """
    if swing["last"] > swing["averaged"] + TIE:  # the averaged one is steadier
        if pick == "averaged":
            message = t(
                "It is also steadier: over the second half of the epochs the last w's test "
                "error swung by {last}, the averaged one's by {averaged}, so *when* you stop "
                "training matters much less (UMass CMPSCI 689's overtraining)."
            )
        else:
            message = t(
                "The averaged perceptron is the steadier one, though: over the second half of "
                "the epochs the last w's test error swung by {last}, the averaged one's by "
                "{averaged}, so with it *when* you stop training matters much less (UMass "
                "CMPSCI 689's overtraining)."
            )
    elif swing["averaged"] > swing["last"] + TIE:  # the last w is steadier
        message = t(
            "On this run the last w is the steadier one: over the second half of the epochs "
            "the last w's test error swung by {last}, the averaged one's by {averaged}."
        )
    else:
        message = t(
            "On this run the last w's test error swung by {last} over the second half of the "
            "epochs and the averaged one's by {averaged}: with these settings the last w is "
            "about as stable; add label noise to see the difference."
        )
    return message.format(last=_pct(swing["last"]), averaged=_pct(swing["averaged"]))


def swing(errors: EpochErrors) -> dict[str, float]:
    """max - min of each method's test error over the second half of the epochs."""
    half = len(errors.epochs) // 2
    return {m: float(np.ptp(errors.test[m][half:])) for m in METHODS}
