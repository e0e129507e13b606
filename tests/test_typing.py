"""The typed API: user code passes ``mypy --strict`` with no configuration of its own (no
override for sympy), and the main calls have precise types, never ``Any`` (issue 16).

mypy runs once, from a temporary directory with ``--config-file /dev/null`` (so the
project's pyproject.toml, with its sympy override, is not read), on the typed user
program and on a script of ``reveal_type`` calls; cute_sym is found on PYTHONPATH
the way an installed package is.
"""
from __future__ import annotations

import functools
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# name -> the call whose type is revealed, and the type mypy must show
REVEAL = {
    "parse": ('cs.parse("(_4,_8):(_1,_4)")', "Layout | cute_sym.swizzle.composed.ComposedLayout"),
    "composition": ("cs.composition(L, L)", "cute_sym.layout.layout.Layout"),
    "composition_swizzle": ("cs.composition(cs.Swizzle(2, 0, 3), L)", "Layout | cute_sym.swizzle.composed.ComposedLayout"),
    "logical_divide": ("cs.logical_divide(L, (2, 2))", "cute_sym.layout.layout.Layout"),
    "zipped_divide": ("cs.zipped_divide(L, L)", "cute_sym.layout.layout.Layout"),
    "tiled_divide": ("cs.tiled_divide(L, L)", "cute_sym.layout.layout.Layout"),
    "flat_divide": ("cs.flat_divide(L, L)", "cute_sym.layout.layout.Layout"),
    "logical_product": ("cs.logical_product(L, L)", "cute_sym.layout.layout.Layout"),
    "zipped_product": ("cs.zipped_product(L, L)", "cute_sym.layout.layout.Layout"),
    "tiled_product": ("cs.tiled_product(L, L)", "cute_sym.layout.layout.Layout"),
    "flat_product": ("cs.flat_product(L, L)", "cute_sym.layout.layout.Layout"),
    "blocked_product": ("cs.blocked_product(L, L)", "cute_sym.layout.layout.Layout"),
    "raked_product": ("cs.raked_product(L, L)", "cute_sym.layout.layout.Layout"),
    "coalesce": ("cs.coalesce(L)", "cute_sym.layout.layout.Layout"),
    "complement": ("cs.complement(L, 64)", "cute_sym.layout.layout.Layout"),
    "right_inverse": ("cs.right_inverse(L)", "cute_sym.layout.layout.Layout"),
    "Dyn": ('cs.Dyn("M")', "cute_sym.core.integers.DynInt"),
    "Int": ("cs.Int[4]", "cute_sym.core.integers.StaticInt"),
    "call": ("L(1, 2)", "int | cute_sym.core.integers.DynInt"),
    "slice": ("L(cs._, 1)", "cute_sym.layout.layout.Layout"),
    "size": ("cs.size(L)", "int | cute_sym.core.integers.DynInt"),
    "size_mode": ("cs.size(L, 1)", "int | cute_sym.core.integers.DynInt"),
    "rank": ("cs.rank(L, 1)", "int"),
    "get": ("cs.get(L, 1)", "cute_sym.layout.layout.Layout"),
    "make_layout": ("cs.make_layout((L, L))", "cute_sym.layout.layout.Layout"),
    "shape_div": ("cs.shape_div((4, 8), 2)", "int | cute_sym.core.integers.DynInt | tuple["),
    "index_expr": ("cs.index_expr(L)", "cute_sym.core.integers.DynInt"),
    # issue 33: no Any inside tuples, in analyses' fields, or for tensors and composed layouts
    "Layout.shape": ("L.shape", "int | cute_sym.core.integers.DynInt | tuple["),
    "Layout.stride": ("L.stride", "int | cute_sym.core.integers.DynInt | tuple["),
    "shape": ("cs.shape(L)", "int | cute_sym.core.integers.DynInt | tuple["),
    "idx2crd": ("cs.idx2crd(5, (2, 4))", "int | cute_sym.core.integers.DynInt | tuple["),
    "thr_layout_vmnk": ('cs.make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN").get_thr_layout_vmnk().shape',
                        "int | cute_sym.core.integers.DynInt | tuple["),
    "static_mul": ("cs.Int[4] * cs.Int[8]", "cute_sym.core.integers.StaticInt"),
    "wavefronts": ("B.wavefronts if isinstance(B, cs.BankConflicts) else 0", "int"),
    "tile_to_shape_composed": ("cs.tile_to_shape(C, (16, 16))", "cute_sym.swizzle.composed.ComposedLayout"),
    "size_tensor": ("cs.size(T, 1)", "int | cute_sym.core.integers.DynInt"),
    "copy_atom_names": ("cs.copy_atom_names()", "tuple[str, ...]"),
}


def _reveal_script() -> str:
    lines = ["import cute_sym as cs", "L = cs.make_layout((4, 8))",
             'B = cs.bank_conflicts(cs.make_tiled_copy(cs.Copy_Atom("UniversalCopy<uint64_t>", "float"), L, '
             "cs.make_layout((1, 2))), L)",
             "C = cs.ComposedLayout(cs.Swizzle(2, 0, 3), 0, L)",
             'T = cs.make_tensor(cs.make_gmem_ptr("A", "half_t"), L)']
    lines += [f"reveal_type({call})  # {name}" for name, (call, _) in REVEAL.items()]
    return "\n".join(lines) + "\n"


@functools.lru_cache(maxsize=None)
def _mypy() -> tuple[int, str]:
    """mypy --strict, no project configuration, on the typed user program and the reveal script."""
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copy(os.path.join(HERE, "typed_user_example.py"), os.path.join(tmp, "user.py"))
        with open(os.path.join(tmp, "reveal.py"), "w") as fh:
            fh.write(_reveal_script())
        p = subprocess.run([sys.executable, "-m", "mypy", "--config-file", os.devnull, "--strict",
                            "--no-incremental", "--cache-dir", os.path.join(tmp, ".cache"), "user.py", "reveal.py"],
                           cwd=tmp, capture_output=True, text=True, timeout=600,
                           env={**os.environ, "PYTHONPATH": ROOT})
        return p.returncode, p.stdout + p.stderr


needs_mypy = pytest.mark.skipif(importlib.util.find_spec("mypy") is None, reason="mypy is not installed")


@needs_mypy
def test_typed_user_example_is_mypy_strict_clean_without_overrides() -> None:
    rc, out = _mypy()
    errors = [ln for ln in out.splitlines() if ": error:" in ln]
    assert not errors, out


@needs_mypy
def test_main_calls_reveal_precise_types() -> None:
    _, out = _mypy()
    revealed = {}
    script = _reveal_script().splitlines()
    for ln in out.splitlines():
        m = re.match(r"reveal\.py:(\d+): note: Revealed type is \"(.*)\"$", ln)
        if m:
            name = script[int(m.group(1)) - 1].split("# ")[-1]
            revealed[name] = m.group(2)
    assert set(revealed) == set(REVEAL), out
    for name, (call, want) in REVEAL.items():
        got = revealed[name]
        assert "Any" not in got, (name, got)         # not even inside a tuple
        assert want in got, (name, call, got)


def test_typed_user_example_runs() -> None:
    p = subprocess.run([sys.executable, os.path.join(HERE, "typed_user_example.py")],
                       cwd=ROOT, capture_output=True, text=True, timeout=60,
                       env={**os.environ, "PYTHONPATH": ROOT})
    assert p.returncode == 0, p.stderr
    out = p.stdout.split()
    assert out[0] == "7" and out[1] == "_32" and out[2] == "False"
    assert "(_4,(_2,_3)):(_4,(_2,_16))" in p.stdout and "((_2,_2),_3):((_24,_2),_8)" in p.stdout
