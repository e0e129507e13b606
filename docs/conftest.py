"""The doctests of docs/dsl.md need NVIDIA's CuTe DSL (the optional extra 'dsl'): skipped, with
the reason, where it is not installed."""
from __future__ import annotations

import importlib.util
from typing import Any

import pytest

NEEDS_DSL = ("dsl.md",)


def pytest_collection_modifyitems(config: Any, items: list[Any]) -> None:
    if importlib.util.find_spec("cutlass") is not None:
        return
    skip = pytest.mark.skip(reason="the CuTe DSL is not installed (pip install '.[dsl]', nvidia-cutlass-dsl)")
    for item in items:
        if any(str(item.fspath).endswith("docs/" + name) for name in NEEDS_DSL):
            item.add_marker(skip)
