"""Browser tests (a package, so their module names do not clash with tests/app)."""
