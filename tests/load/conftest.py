"""Simulated students and attacks against a server of their own: each file's server and
sessions stay on one pytest-xdist worker (the test command distributes by file). They
assert answers and liveness (an answer within 10 to 15 s), not speed; the speed goals are
``benchmarks/``'s, measured alone."""
