"""The margin lab: points a student draws, their γ, R, bound and mistakes."""
