"""The typed API lets user code pass ``mypy --strict`` (issue 2)."""
from __future__ import annotations

import importlib.util
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


@pytest.mark.skipif(importlib.util.find_spec("mypy") is None, reason="mypy is not installed")
def test_typed_user_example_is_mypy_strict_clean() -> None:
    p = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental",
                        os.path.join("tests", "typed_user_example.py")],
                       cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "Success" in p.stdout


def test_typed_user_example_runs() -> None:
    p = subprocess.run([sys.executable, os.path.join(HERE, "typed_user_example.py")],
                       cwd=ROOT, capture_output=True, text=True, timeout=60,
                       env={**os.environ, "PYTHONPATH": ROOT})
    assert p.returncode == 0, p.stderr
    out = p.stdout.split()
    assert out[0] == "7" and out[1] == "32" and out[2] == "False"
    assert "(_4,(_2,_3)):(_4,(_2,_16))" in p.stdout and "((_2,_2),_3):((_24,_2),_8)" in p.stdout
