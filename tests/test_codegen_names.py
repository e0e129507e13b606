"""Names in emitted code: a symbol is never captured by a generated name, nor named like a reserved word.

A fuzz over layouts whose symbols are named like the index variable, the temporaries,
the keywords and builtins of every target (Python, C, C++, CUDA) and ordinary names:
Python and NumPy code is run and compared with the layout at several bindings; C, CUDA
(with a stub for its qualifiers) and CuTe C++ (when CuTe's headers are found) are compiled
in syntax-only mode by the host compiler.
"""
from __future__ import annotations

import glob
import os
import random
import shutil
import subprocess
from typing import Any

import pytest
import sympy
from hypothesis import given, settings, strategies as st

import cute_sym as cs
from cute_sym.codegen import emit
from cute_sym.codegen.expr import coord_expr, index_expr
from cute_sym.codegen.names import reserved_words, safe_names
from cute_sym.layout import Layout, make_layout
from cute_sym.swizzle import Swizzle, make_composed_layout

NAMES = [
    # the index variable, temporaries and other generated names
    "i", "i_", "t0", "t1", "tmp0", "o_", "out", "offset", "offset_t", "np",
    # Python keywords and builtins
    "lambda", "def", "class", "None", "True", "len", "range", "print", "tuple", "match", "type", "abs",
    # C / C++ keywords, types and macros
    "int", "char", "auto", "register", "long", "struct", "new", "delete", "template", "int32_t", "int64_t",
    "INT32_MAX", "main", "std", "cute", "not", "and",
    # CUDA
    "threadIdx", "blockIdx", "warpSize", "dim3",
    # ordinary names, and names a renaming could land on
    "M", "N", "K", "x", "int_", "lambda_",
]


def _layout(rng: random.Random) -> tuple[Layout, dict[str, int]]:
    names = rng.sample(NAMES, rng.randint(1, 3))
    syms = {n: cs.Dyn(n) for n in names}
    rank = rng.randint(1, 3)
    shape: list[Any] = []
    stride: list[Any] = []
    for _ in range(rank):
        shape.append(syms[rng.choice(names)] if rng.random() < 0.4 else rng.choice([1, 2, 3, 4]))
        r = rng.random()
        stride.append(syms[rng.choice(names)] * rng.choice([1, 2]) if r < 0.5 else rng.choice([0, 1, 2, 5]))
    bind = {n: rng.randint(1, 3) for n in names}
    return make_layout(tuple(shape), tuple(stride)), bind


def _args(src_args: list[str], layout_syms: list[str], bind: dict[str, int], i: int) -> list[int]:
    """The arguments, in emitted order: the index, then the symbols (sorted by their original name)."""
    return [i] + [bind[n] for n in layout_syms]


def _sym_names(L: Layout) -> list[str]:
    return sorted({s.name for x in cs.flatten(L.shape) + cs.flatten(L.stride)
                   if isinstance(x, sympy.Basic) for s in x.free_symbols})


def _check_python(L: Layout, bind: dict[str, int], lang: str) -> None:
    src = emit(L, lang)
    ns: dict[str, Any] = {}
    exec(compile(src, "<emitted>", "exec"), ns)
    f = ns["offset"]
    fixed = cs.subs(L, bind)
    names = _sym_names(L)
    for i in range(int(cs.size(fixed))):
        got = f(*_args([], names, bind, i))
        assert int(got) == int(fixed(i)), (src, bind, i)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**9))
def test_python_and_numpy_code_computes_the_layout_whatever_the_symbols_are_named(seed: int) -> None:
    rng = random.Random(seed)
    L, bind = _layout(rng)
    for b in (bind, {n: 1 for n in bind}, {n: 3 for n in bind}):
        _check_python(L, b, "python")
    pytest.importorskip("numpy")
    _check_python(L, bind, "numpy")


def test_index_symbol_is_never_a_layout_symbol() -> None:
    i = cs.Dyn("i")
    L = make_layout((8, i), (i, 1))
    e = index_expr(L)
    idx = [s for s in e.free_symbols if s.name != "i"]
    assert len(idx) == 1 and idx[0].name == "i_"
    for iv in (1, 2, 5):
        for x in range(8 * iv):
            assert e.xreplace({idx[0]: x, i: iv}) == cs.subs(L, {"i": iv})(x)
    src = emit(L, "python")
    ns: dict[str, Any] = {}
    exec(src, ns)
    assert ns["offset"](3, 5) == 15          # the capture: offset(3) at i = 5 is 15, not 9
    with pytest.raises(cs.LayoutError, match="coordinate name 'i' is also a symbol of the layout"):
        index_expr(L, "i", "j")
    with pytest.raises(cs.LayoutError, match="coordinate name 'i' is also a symbol"):
        coord_expr((i, 4), "i")
    assert {s.name for s in sympy.Tuple(*sympy.flatten(coord_expr((i, 4)))).free_symbols} == {"i", "i_"}


@pytest.mark.parametrize("lang", ["c", "cuda", "python", "numpy", "cute"])
def test_reserved_names_are_renamed_without_collision(lang: str) -> None:
    names = ["int", "int_", "lambda", "i", "t0", "offset", "threadIdx", "M"]
    ren = safe_names(names, lang, {"offset", "i"})
    new = [ren.get(n, n) for n in names]
    assert len(set(new)) == len(new)                     # no two symbols share a name
    for n in new:
        assert n not in reserved_words(lang) and n not in ("offset", "i")
    assert ren == safe_names(list(reversed(names)), lang, {"offset", "i"})     # deterministic


# ---------------------------------------------------------------- compiled targets
def _batch(seed: int, n: int) -> list[tuple[Any, dict[str, int]]]:
    rng = random.Random(seed)
    out: list[tuple[Any, dict[str, int]]] = [_layout(rng) for _ in range(n)]
    o = sympy.Symbol("o", integer=True, positive=True)      # a raw sympy symbol may take the name o
    out.append((make_composed_layout(Swizzle(2, 2, 3), o, make_layout((8, cs.Dyn("t0")), (cs.Dyn("t0"), 1))),
                {"o": 0, "t0": 32}))
    return out


def _cuda_include() -> str | None:
    cands = [os.environ.get("CUDA_HOME", "")] + sorted(glob.glob("/usr/local/cuda*"), reverse=True)
    for c in cands:
        if c and os.path.exists(os.path.join(c, "include", "cuda_runtime.h")):
            return os.path.join(c, "include")
    return None


def _cute_include() -> str | None:
    cands = [os.environ.get("CUTE_SYM_CUTE_INCLUDE", ""), "/work/cutlass47/include"]
    try:
        import cutlass_library  # type: ignore[import-not-found]
        cands.append(os.path.join(os.path.dirname(cutlass_library.__file__), "source", "include"))
    except ImportError:
        pass
    for c in cands:
        if c and os.path.exists(os.path.join(c, "cute", "layout.hpp")):
            return c
    return None


def _syntax_check(src: str, tmp: Any, flags: list[str]) -> None:
    cxx = shutil.which("g++")
    if cxx is None:
        pytest.skip("no g++")
    f = tmp / "t.cpp"
    f.write_text(src)
    r = subprocess.run([cxx, "-fsyntax-only", "-x", "c++", *flags, str(f)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[:3000] + "\n" + src[:3000]


_CUDA_STUB = """#define __device__
#define __forceinline__ inline
struct dim3 { unsigned x, y, z; };
static dim3 threadIdx, blockIdx, blockDim, gridDim;
static const int warpSize = 32;
"""


@pytest.mark.parametrize("lang", ["c", "cuda"])
def test_c_and_cuda_code_compiles_whatever_the_symbols_are_named(lang: str, tmp_path: Any) -> None:
    parts = [_CUDA_STUB] if lang == "cuda" else []
    for k, (L, _) in enumerate(_batch(7, 40)):
        parts.append(emit(L, lang, name=f"f{k}"))
    _syntax_check("\n".join(parts), tmp_path, ["-std=c++17", "-Wall", "-Werror", "-Wno-unused-variable"])
    if lang == "c" and shutil.which("gcc"):       # also as C99
        f = tmp_path / "t.c"
        f.write_text("\n".join(parts))
        r = subprocess.run(["gcc", "-fsyntax-only", "-std=c99", "-Wall", "-Werror", str(f)],
                           capture_output=True, text=True)
        assert r.returncode == 0, r.stderr[:3000]


def test_cute_code_compiles_whatever_the_symbols_are_named(tmp_path: Any) -> None:
    inc = _cute_include()
    cuda = _cuda_include()
    if inc is None or cuda is None:
        pytest.skip("no CuTe headers found (set CUTE_SYM_CUTE_INCLUDE) or no CUDA headers")
    parts = ["#include <cstdint>", "#include <cute/layout.hpp>", "#include <cute/swizzle_layout.hpp>"]
    for k, (L, _) in enumerate(_batch(11, 30)):
        parts.append(emit(L, "cute", name=f"l{k}"))
    _syntax_check("\n".join(parts), tmp_path, ["-std=c++17", "-w", f"-I{inc}", f"-I{cuda}", f"-I{cuda}/cccl"])
