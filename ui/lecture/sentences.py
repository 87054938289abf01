"""The lecture chart's sentences for a screen reader whose wording depends on the step
(``figures``' ``say``): each variant a whole message of the catalogue, translated here,
its values filled by the caller.

May import: ``ui.words``.
"""

from __future__ import annotations

from ui.words import t, tn


def line_said(drawn: bool, unsure: int) -> str:
    """The sentence on the line and the points it gets right (placeholders w, right, n,
    unsure, rule), translated: ``unsure`` points lie on it, which the rule lets be."""
    if not unsure:
        return (
            t("The line w·x = 0 for w = {w} gets {right} of {n} points right.")
            if drawn
            else t("w = {w} draws no line; it gets {right} of {n} points right.")
        )
    if drawn:
        return tn(
            "The line w·x = 0 for w = {w} gets {right} of {n} points right; {unsure} has "
            "w·x = 0, which the rule “{rule}” does not count as a mistake.",
            "The line w·x = 0 for w = {w} gets {right} of {n} points right; {unsure} have "
            "w·x = 0, which the rule “{rule}” does not count as a mistake.",
            unsure,
        )
    return tn(
        "w = {w} draws no line; it gets {right} of {n} points right; {unsure} has w·x = 0, "
        "which the rule “{rule}” does not count as a mistake.",
        "w = {w} draws no line; it gets {right} of {n} points right; {unsure} have w·x = 0, "
        "which the rule “{rule}” does not count as a mistake.",
        unsure,
    )


def shown_said(mistake: bool, tie: bool) -> str:
    """The sentence on the example just shown (placeholders i, label, rule), translated:
    on a tie (w·x = 0) the rule, not the point, made the verdict."""
    if tie:
        return (
            t(
                "The example just shown, point {i} (y = {label}), has w·x = 0: a mistake by "
                "the rule “{rule}”, so w was updated."
            )
            if mistake
            else t(
                "The example just shown, point {i} (y = {label}), has w·x = 0: no mistake by "
                "the rule “{rule}”, so w was kept."
            )
        )
    return (
        t("The example just shown, point {i} (y = {label}), was a mistake, so w was updated.")
        if mistake
        else t("The example just shown, point {i} (y = {label}), was right, so w was kept.")
    )
