"""Voted and averaged perceptrons, and what the starting point changes."""
