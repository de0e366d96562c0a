"""The examples in the engine's docstrings run and give what they show."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import scoring

MODULES = sorted(info.name for info in pkgutil.iter_modules(scoring.__path__, "scoring."))


@pytest.mark.parametrize("name", MODULES)
def test_the_docstring_examples_hold(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_the_trick_modules_have_examples() -> None:
    for name in ("scoring.trump", "scoring.combos", "scoring.tricks", "scoring.replay"):
        assert doctest.testmod(importlib.import_module(name)).attempted >= 5
