"""Every example in a docstring of the package holds (each module is run through doctest)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import twinsolve

MODULES = sorted(info.name for info in pkgutil.walk_packages(twinsolve.__path__, "twinsolve.")
                 if not info.name.endswith("__main__"))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_hold(name):
    module = importlib.import_module(name)
    failed, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert failed == 0, f"{failed} docstring example(s) in {name} fail"


def test_the_examples_are_found():
    attempted = sum(doctest.testmod(importlib.import_module(name)).attempted
                    for name in ("twinsolve.puzzles.chess.board", "twinsolve.puzzles.chess.layers",
                                 "twinsolve.core.result"))
    assert attempted >= 5
