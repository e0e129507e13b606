"""Doctests that need NVIDIA's CuTe DSL (the optional extra 'dsl': docs/dsl.md and the examples
of cute_sym/dsl/) are skipped, with the reason, where it is not installed."""
from __future__ import annotations

import importlib.util
import os
from typing import Any

import pytest

# (tests/conftest.py is a plugin, not a module of doctests: collecting it as one would import a
# second module named "conftest" beside this one)
collect_ignore = [os.path.join("tests", "conftest.py")]

NEEDS_DSL = (os.path.join("docs", "dsl.md"), os.path.join("cute_sym", "dsl") + os.sep)


def pytest_collection_modifyitems(config: Any, items: list[Any]) -> None:
    if importlib.util.find_spec("cutlass") is not None:
        return
    skip = pytest.mark.skip(reason="the CuTe DSL is not installed (pip install '.[dsl]', nvidia-cutlass-dsl)")
    for item in items:
        path = str(item.fspath)
        if any(path.endswith(n) or n.endswith(os.sep) and n in path for n in NEEDS_DSL):
            item.add_marker(skip)
