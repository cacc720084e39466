"""The examples in the game's docstrings hold with every warning an error (issue 26: a
Windows path in an example gave a DeprecationWarning for an invalid escape sequence)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import warnings

import pytest

import twinsolve.robots

MODULES = sorted(info.name for info in pkgutil.iter_modules(twinsolve.robots.__path__,
                                                             "twinsolve.robots."))


@pytest.mark.parametrize("name", MODULES)
def test_the_examples_hold_without_a_warning(name):
    module = importlib.import_module(name)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        failed, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert failed == 0, f"{failed} docstring example(s) in {name} fail or warn"
