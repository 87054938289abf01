"""Beyond linear: XOR, runs that never stop, feature maps and the remedies."""
