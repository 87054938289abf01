"""The home page: its worked examples from the handouts, each one click from Step by step."""
