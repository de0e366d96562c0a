"""How far a law of the engine is checked: on a small sample, the same every run, in `make test`;
over thousands of new examples in `make sweep`, which sets SWEEP=1."""

from __future__ import annotations

import os

from hypothesis import settings

SWEEP = os.environ.get("SWEEP") == "1"


def examples(quick: int, sweep: int) -> settings:
    """A property's Hypothesis settings: ``quick`` examples, drawn the same way every run (a
    test that fails, fails again), or ``sweep`` examples in a sweep."""
    if SWEEP:
        return settings(max_examples=sweep, deadline=None)
    return settings(max_examples=quick, deadline=None, derandomize=True)
