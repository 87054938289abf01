"""The lecture: one run of the perceptron, step by step, beside the convergence proof."""
