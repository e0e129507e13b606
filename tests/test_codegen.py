"""Emitted code (C, CUDA, Python, NumPy, CuTe) against the layouts it comes from."""
from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from typing import Any

import pytest
import sympy
from hypothesis import given, strategies as st

import cute_sym as cs
from cute_sym.codegen import canonical_op_count, count_ops, emit, lower
from cute_sym.core.errors import LayoutError
from cute_sym.codegen.evaluate import evaluate
from cute_sym.codegen.expr import index_expr
from cute_sym.core.int_tuple import iter_leaves
from cute_sym import Dyn
from cute_sym.swizzle import make_composed_layout
from cute_sym.layout import Layout, make_layout

M = cs.Dyn("M")
N = cs.Dyn("N")
K = cs.Dyn("K")
M16 = cs.Dyn("M", divisible_by=16)
N8 = cs.Dyn("N", divisible_by=8)
SYMS = {"M": M, "N": N, "K": K}


def P(text: str, **syms: Any) -> Layout:
    return cs.parse(text, {**SYMS, **syms})


# (layout, binding of its symbols)
STATIC: list[Layout] = [
    P("(_128,_32):(_32,_1)"),
    P("(_128,_32):(_1,_128)"),
    P("((_4,_8),(_2,_2)):((_32,_1),(_16,_8))"),                  # SM80 16x8x8 C TV layout
    P("((_4,_8),(_2,_2,_2)):((_32,_1),(_16,_8,_128))"),          # SM80 16x8x16 A TV layout
    P("((_4,_8),(_2,_2)):((_16,_1),(_8,_64))"),                  # SM80 16x8x16 B TV layout
    P("(_32,_4):(_1,_32)"),
    P("((_8,_4),(_2,_4)):((_1,_32),(_8,_128))"),
    cs.zipped_divide(P("(_64,_64):(_64,_1)"), P("(_16,_8)")),
    cs.zipped_divide(P("(_128,_64):(_1,_128)"), P("(_32,_16)")),
    cs.logical_divide(P("_24:_2"), P("_4:_2")),
    cs.logical_product(P("(_2,_2):(_1,_2)"), P("(_3,_4):(_4,_1)")),
    cs.blocked_product(P("(_2,_4):(_4,_1)"), P("(_3,_2):(_1,_3)")),
    cs.raked_product(P("(_2,_4):(_4,_1)"), P("(_3,_2):(_1,_3)")),
    cs.composition(P("(_16,_8):(_8,_1)"), P("(_4,_8):(_1,_4)")),
    cs.composition(P("(_12,_8):(_8,_1)"), P("(_6,_2):(_2,_1)")),
    P("(_3,_5,_7):(_35,_7,_1)"),
    P("(_6,_10):(_1,_12)"),
    P("(_4,_8,_2):(_1,_0,_4)"),
    make_layout((4, 8), (-1, 4)),
    make_layout((5, 6), (-6, 1)),
    P("((_2,_3),(_4,_5)):((_60,_1),(_3,_12))"),
]
DYNAMIC: list[tuple[Layout, dict[str, int]]] = [
    (P("(_4,M):(_1,_4)"), {"M": 5}),
    (P("(_4,M):(M,_1)"), {"M": 7}),
    (P("(M,N):(_1,M)"), {"M": 6, "N": 5}),
    (P("(M,N):(N,_1)"), {"M": 6, "N": 5}),
    (P("(_4,M,N):(_1,_4,4*M)"), {"M": 3, "N": 5}),      # compact: one M, coalesced to i
    (P("(_4,M,N):(_1,_4,4*Q)"), {"M": 3, "N": 5, "Q": 4}),      # a padded pitch: i // (4*M)
    (P("((_16,_8),(M,N)):((_1,K),(_16,8*K))"), {"M": 2, "N": 3, "K": 20}),
    (P("(M,N,K):(N*K,K,_1)"), {"M": 3, "N": 4, "K": 5}),
    (cs.zipped_divide(make_layout((M16, N8)), P("(_16,_8)")), {"M": 32, "N": 24}),
    (cs.zipped_divide(make_layout((M16, N8), (N8, 1)), P("(_16,_8)")), {"M": 32, "N": 16}),
    (P("((_4,_8),(_2,M)):((_32,_1),(_16,_64))"), {"M": 3}),
    (P("(_8,M):(_1,_0)"), {"M": 4}),
]


def _all() -> list[tuple[Layout, dict[str, int]]]:
    return [(L, {}) for L in STATIC] + DYNAMIC


def _bound(L: Layout, bind: dict[str, int]) -> Layout:
    return cs.subs(L, bind, ignore_unknown=True) if bind else L


def _reference(L: Layout, bind: dict[str, int]) -> list[int]:
    B = _bound(L, bind)
    return [int(B(i)) for i in range(int(cs.size(B)))]


def _args(L: Layout, bind: dict[str, int]) -> list[int]:
    names = sorted({s.name for s in sympy.Tuple(*cs.flatten(L.shape), *cs.flatten(L.stride)).free_symbols})
    return [bind[n] for n in names]


IDS = [str(L) for L, _ in _all()]


# ---------------------------------------------------------------- C
@pytest.fixture(scope="module")
def c_results() -> dict[int, list[int]]:
    cc = shutil.which("gcc") or shutil.which("cc")
    if cc is None:
        pytest.skip("no C compiler")
    cases = _all()
    parts = ["#include <stdio.h>"]
    calls = []
    for k, (L, bind) in enumerate(cases):
        parts.append(emit(L, "c", name=f"f{k}"))
        size = len(_reference(L, bind))
        args = "".join(f", {v}" for v in _args(L, bind))
        calls.append(f'    printf("#{k}\\n");\n    for (int64_t i = 0; i < {size}; i++) '
                     f'printf("%lld\\n", (long long)f{k}(i{args}));')
    parts.append("int main(void) {\n" + "\n".join(calls) + "\n    return 0;\n}\n")
    with tempfile.TemporaryDirectory() as d:
        src, exe = os.path.join(d, "t.c"), os.path.join(d, "t")
        with open(src, "w") as f:
            f.write("\n".join(parts))
        subprocess.run([cc, "-std=c99", "-O1", "-Wall", "-Wextra", "-Werror", "-pedantic", src, "-o", exe],
                       check=True, capture_output=True, text=True)
        out = subprocess.run([exe], check=True, capture_output=True, text=True).stdout
    res: dict[int, list[int]] = {}
    cur = -1
    for line in out.split():
        if line.startswith("#"):
            cur = int(line[1:])
            res[cur] = []
        else:
            res[cur].append(int(line))
    return res


@pytest.mark.parametrize("k", range(len(_all())), ids=IDS)
def test_c_matches_layout(c_results: dict[int, list[int]], k: int) -> None:
    L, bind = _all()[k]
    assert c_results[k] == _reference(L, bind)


def test_cuda_compiles_if_nvcc() -> None:
    nvcc = shutil.which("nvcc")
    src = emit(STATIC[2], "cuda")
    assert src.count("__device__ __forceinline__") == 1
    if nvcc is None:
        pytest.skip("no nvcc")
    with tempfile.TemporaryDirectory() as d:
        f = os.path.join(d, "t.cu")
        with open(f, "w") as fh:
            fh.write(src + "\n__global__ void k(int *o) { o[threadIdx.x] = offset(threadIdx.x); }\n")
        r = subprocess.run([nvcc, "-c", f, "-o", os.path.join(d, "t.o")], capture_output=True, text=True)
        if r.returncode != 0 and ("cannot find" in r.stderr or "not found" in r.stderr):
            pytest.skip("nvcc cannot compile here: " + r.stderr[:200])
        assert r.returncode == 0, r.stderr


# ---------------------------------------------------------------- operation counts
@pytest.mark.parametrize("k", range(len(_all())), ids=IDS)
def test_op_count_at_most_canonical(k: int) -> None:
    L, _ = _all()[k]
    ops = count_ops(emit(L, "c"))
    assert ops <= canonical_op_count(L, atoms=False)
    if L.is_static():
        assert ops <= canonical_op_count(L)


def test_op_count_fewer_where_bounds_allow() -> None:
    fewer = [L for L in STATIC if count_ops(emit(L, "c")) < canonical_op_count(L)]
    assert STATIC[2] in fewer and STATIC[3] in fewer      # the MMA TV layouts
    assert len(fewer) >= len(STATIC) // 3


def test_op_count_dynamic_strides_atoms() -> None:
    # a single symbol stride or extent is one operand: no more than the canonical count
    for L, _ in DYNAMIC:
        C = cs.coalesce(L)
        atomic = all(isinstance(x, int) or getattr(x, "is_Symbol", False)
                     for x in list(iter_leaves(C.stride)) + list(iter_leaves(C.shape)))
        if atomic:
            assert count_ops(emit(L, "c")) <= canonical_op_count(L), str(L)


def test_count_ops_and_lowering_agree() -> None:
    for L, _ in _all():
        src = emit(L, "c")
        roots, _dag = lower(index_expr(L))
        from cute_sym.codegen.emit import _Printer
        assert count_ops(src) == _Printer(roots, "c", "t").ops, src


# ---------------------------------------------------------------- Python and NumPy
@pytest.mark.parametrize("k", range(len(_all())), ids=IDS)
def test_python_and_numpy_match(k: int) -> None:
    np = pytest.importorskip("numpy")
    L, bind = _all()[k]
    ref = _reference(L, bind)
    args = _args(L, bind)
    ns: dict[str, Any] = {}
    exec(emit(L, "python"), ns)
    assert [ns["offset"](i, *args) for i in range(len(ref))] == ref
    ns = {}
    exec(emit(L, "numpy", name="g"), ns)
    got = ns["g"](np.arange(len(ref)), *args)
    assert got.dtype == np.int64 and got.tolist() == ref
    assert evaluate(L, bind).tolist() == ref


def test_int_width() -> None:
    assert "int32_t offset(int32_t i)" in emit(P("(_128,_32):(_32,_1)"), "c")
    big = emit(P("(_65536,_65536):(_65536,_1)"), "c")
    assert "int64_t offset(int64_t i)" in big and "64-bit" in big
    assert "int64_t offset(int64_t i, int64_t M)" in emit(P("(_4,M):(M,_1)"), "c")


def test_large_static_layout_c(tmp_path: Any) -> None:
    cc = shutil.which("gcc") or shutil.which("cc")
    if cc is None:
        pytest.skip("no C compiler")
    L = P("((_256,_256),(_256,_256)):((_1,_65536),(_256,_16777216))")
    idx = list(range(0, 2 ** 32, 999_983)) + [2 ** 32 - 1]
    src = tmp_path / "big.c"
    body = ", ".join(f"{i}LL" for i in idx)
    src.write_text(emit(L, "c") + "\n#include <stdio.h>\nstatic const long long ix[] = {" + body + "};\n"
                   "int main(void) { for (unsigned k = 0; k < sizeof ix / sizeof ix[0]; k++) "
                   "printf(\"%lld\\n\", (long long)offset(ix[k])); return 0; }\n")
    subprocess.run([cc, "-std=c99", "-Wall", "-Werror", str(src), "-o", str(tmp_path / "big")], check=True)
    out = subprocess.run([str(tmp_path / "big")], check=True, capture_output=True, text=True).stdout.split()
    assert [int(x) for x in out] == [L(i) for i in idx]


def test_dynamic_divisor_flagged() -> None:
    src = emit(P("(M,N):(N,_1)"), "c")
    assert "run-time division by M" in src
    assert "run-time division" not in emit(STATIC[0], "c")


def test_emit_expressions_and_coords() -> None:
    L = STATIC[2]
    e = index_expr(L, "t", "v")
    ns: dict[str, Any] = {}
    exec(emit(e, "python"), ns)
    assert all(ns["offset"](t, v) == L((t, v)) for t in range(32) for v in range(4))
    ce = cs_coord = __import__("cute_sym.codegen.expr", fromlist=["coord_expr"]).coord_expr((4, (2, 3)))
    assert cs_coord is ce
    ns = {}
    exec(emit(ce, "python", name="crd"), ns)
    assert all(ns["crd"](i) == cs.idx2crd(i, (4, (2, 3))) for i in range(24))
    c_src = emit(ce, "c", name="crd")
    assert "void crd(int32_t i, int32_t *out)" in c_src


def test_emit_errors() -> None:
    with pytest.raises(LayoutError):
        emit(STATIC[0], "fortran")
    with pytest.raises(LayoutError):
        emit(STATIC[0], "c", name="not an ident")
    with pytest.raises(LayoutError):
        emit(index_expr(STATIC[0]), "cute")
    with pytest.raises(LayoutError):
        emit(sympy.sin(sympy.Symbol("x")), "c")


# ---------------------------------------------------------------- CuTe
def test_cute_text() -> None:
    src = emit(STATIC[2], "cute", name="tv")
    assert "using tv_t = cute::Layout<cute::Shape<cute::Shape<cute::Int<4>, cute::Int<8>>," in src
    assert "cute::make_shape(cute::make_shape(cute::Int<4>{}, cute::Int<8>{})" in src
    dyn = emit(P("(_4,M,N):(_1,_4,4*M)"), "cute")
    assert "inline auto offset(int64_t M, int64_t N)" in dyn and "4*M" in dyn


def _cute_include() -> str | None:
    try:
        import cutlass_library  # type: ignore[import-not-found]
    except ImportError:
        return None
    inc = os.path.join(os.path.dirname(cutlass_library.__file__), "source", "include")
    return inc if os.path.exists(os.path.join(inc, "cute", "layout.hpp")) else None


def test_cute_compiles_and_matches(tmp_path: Any) -> None:
    inc, cxx = _cute_include(), shutil.which("nvcc") or shutil.which("g++")
    if inc is None or cxx is None:
        pytest.skip("no CuTe headers or no C++ compiler")
    cases = [(STATIC[2], {}), (STATIC[7], {}), (P("(_4,M,N):(_1,_4,4*M)"), {"M": 3, "N": 5}),
             (P("(_4,M,N):(_1,_4,4*Q)"), {"M": 3, "N": 5, "Q": 4})]
    parts = ["#include <cstdio>", "#include <cstdint>", "#include <cute/layout.hpp>"]
    calls = []
    for k, (L, bind) in enumerate(cases):
        parts.append(emit(L, "cute", name=f"l{k}"))
        args = ", ".join(str(v) for v in _args(L, bind))
        n = len(_reference(L, bind))
        calls.append(f'  {{ auto L = l{k}({args}); for (int i = 0; i < {n}; ++i) std::printf("%d\\n", int(L(i))); }}')
    parts.append("int main() {\n" + "\n".join(calls) + "\n}\n")
    src = tmp_path / ("t.cu" if cxx.endswith("nvcc") else "t.cpp")
    src.write_text("\n".join(parts))
    r = subprocess.run([cxx, "-std=c++17", "-I", inc, str(src), "-o", str(tmp_path / "t")],
                       capture_output=True, text=True)
    if r.returncode != 0:
        if "cuda" in r.stderr.lower() and "No such file" in r.stderr:
            pytest.skip("CuTe needs CUDA headers here")
        raise AssertionError(r.stderr[:3000])
    out = [int(x) for x in subprocess.run([str(tmp_path / "t")], check=True, capture_output=True,
                                          text=True).stdout.split()]
    ref: list[int] = []
    for L, bind in cases:
        ref += _reference(L, bind)
    assert out == ref


# ---------------------------------------------------------------- properties
shapes = st.lists(st.integers(1, 6), min_size=1, max_size=4)


@st.composite
def static_layouts(draw: Any) -> Layout:
    s = draw(shapes)
    d = draw(st.lists(st.one_of(st.integers(-9, 40), st.sampled_from([0, 1, 2, 4, 8, 16, 64])),
                      min_size=len(s), max_size=len(s)))
    if draw(st.booleans()) and len(s) >= 2:
        return make_layout((tuple(s[:2]), *s[2:]), (tuple(d[:2]), *d[2:]))
    return make_layout(tuple(s), tuple(d))


@given(static_layouts())
def test_emitted_python_matches_random_layouts(L: Layout) -> None:
    ns: dict[str, Any] = {}
    exec(emit(L, "python"), ns)
    n = int(cs.size(L))
    assert [ns["offset"](i) for i in range(n)] == [L(i) for i in range(n)]
    assert count_ops(emit(L, "c")) <= canonical_op_count(L)


@given(st.lists(st.integers(1, 5), min_size=2, max_size=4), st.data())
def test_emitted_python_matches_random_dynamic_layouts(ext: list[int], data: Any) -> None:
    names = ["A", "B", "C", "D"][: len(ext)]
    syms = [cs.Dyn(n) for n in names]
    which = data.draw(st.lists(st.booleans(), min_size=len(ext), max_size=len(ext)))
    shape = tuple(sy if w else e for sy, w, e in zip(syms, which, ext))
    stride = cs.flatten(make_layout(shape).stride) if data.draw(st.booleans()) else \
        cs.flatten(make_layout(shape, cs.LayoutRight).stride)
    L = make_layout(shape, tuple(stride))
    bind = {n: e for n, w, e in zip(names, which, ext) if w}
    ns: dict[str, Any] = {}
    exec(emit(L, "python"), ns)
    B = _bound(L, bind)
    args = [bind[n] for n in sorted(bind)]
    n = int(cs.size(B))
    assert [ns["offset"](i, *args) for i in range(n)] == [int(B(i)) for i in range(n)]
    assert count_ops(emit(L, "c")) <= canonical_op_count(L, atoms=False)


# ---------------------------------------------------------------- swizzled layouts and index types
SWIZZLED = [
    "Sw<3,3,3> o _0 o (_64,_64):(_64,_1)", "Sw<3,3,3> o _0 o (_64,_64):(_1,_64)", "Sw<2,3,3> o _0 o (_32,_32):(_32,_1)",
    "Sw<1,0,-2> o _0 o (_4,_8):(_8,_1)", "Sw<2,4,3> o _3 o (_8,_32):(_32,_1)", "Sw<3,4,3> o _0 o ((_8,_2),_64):((_64,_512),_1)",
]


@pytest.mark.parametrize("text", SWIZZLED)
def test_emit_swizzled_equals_the_function(text: str) -> None:
    L = cs.parse(text)
    ns: dict[str, Any] = {}
    exec(cs.emit(L, "python"), ns)
    table = cs.evaluate(L).tolist()
    assert table == [L(i) for i in range(int(L.size()))]       # evaluate is the layout's function
    assert [ns["offset"](i) for i in range(len(table))] == table
    np_ns: dict[str, Any] = {}
    exec(cs.emit(L, "numpy"), np_ns)
    import numpy as np
    assert np_ns["offset"](np.arange(len(table))).tolist() == table


def test_emit_composed_refuses_what_it_cannot_write() -> None:
    with pytest.raises(cs.LayoutError, match="swizzle over a plain layout"):
        cs.emit(make_composed_layout(cs.parse("(_4,_4):(_4,_1)"), 0, cs.parse("_16:_1")), "c")


def test_index_type_int32_is_stated_and_refused_when_proved_too_big() -> None:
    M = Dyn("M")
    text = cs.emit(make_layout((4, M), (M, 1)), "c", index_type="int32")
    assert "int32_t offset(int32_t i, int32_t M)" in text and "caller guarantees" in text
    with pytest.raises(cs.LayoutError, match="proved to reach 2\\^31"):
        cs.emit(cs.parse("(_65536,_65536):(_65536,_1)"), "c", index_type="int32")
    with pytest.raises(cs.LayoutError, match="index_type"):
        cs.emit(cs.parse("_4:_1"), "c", index_type="int16")
    assert "int64_t offset(int64_t i)" in cs.emit(cs.parse("_4:_1"), "c", index_type="int64")


def test_emit_tensor_is_its_elements_offsets() -> None:
    # a thread's partition of a tile of a symbolic matrix: element i of the tensor is at the
    # pointer's base plus the function's value, at every value of the symbols and the thread
    mma = cs.make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", (2, 2, 1))
    M = Dyn("M", divisible_by=32)
    g = cs.make_tensor(cs.make_gmem_ptr("float32"), make_layout((M, Dyn("N")), (1, M)))
    tile = cs.local_tile(g, (32, 32), (Dyn("bx", sign="nonnegative"), Dyn("by", sign="nonnegative")))
    part = mma.get_slice(Dyn("tid", max=127, sign="nonnegative")).partition_C(tile)
    sw = cs.local_tile(cs.make_tensor(cs.make_smem_ptr("half_t"), cs.parse("Sw<3,3,3> o _0 o (_8,_64):(_64,_1)")),
                       (4, 8), (1, Dyn("k")))
    for t, points in ((part, [{"M": m, "bx": bx, "by": by, "tid": tid} for m in (32, 96) for bx in (0, 2)
                               for by in (0, 1) for tid in (0, 5, 37, 127)]),
                      (sw, [{"k": k} for k in range(1, 8)])):
        src = emit(t, "python")
        ns: dict[str, Any] = {}
        exec(src, ns)  # noqa: S102 - our own generated code
        for values in points:
            at = cs.subs(t, values, ignore_unknown=True)
            for i in range(int(cs.size(t))):
                assert ns["offset"](i, **values) == int(at(i).offset), (values, i, src)
    with pytest.raises(LayoutError, match="not a pointer"):
        emit(cs.make_identity_tensor((4, 4)), "c")
    with pytest.raises(LayoutError, match="is a tensor"):
        emit(part, "cute")


def test_evaluate_takes_integer_values_only() -> None:
    # a float or a text is refused, not rounded (int(2.5) would give the table of M == 2)
    import numpy as np
    M = Dyn("M")
    L = make_layout((M, 2))
    for v in (3, np.int32(3), sympy.Integer(3)):
        assert evaluate(L, {"M": v}).tolist() == [0, 1, 2, 3, 4, 5]
    assert evaluate(L, {M: 3}).tolist() == [0, 1, 2, 3, 4, 5]          # by the symbol too
    for bad in (2.5, "3", True, None):
        with pytest.raises(LayoutError, match="must be an integer"):
            evaluate(L, {"M": bad})
    with pytest.raises(LayoutError, match="no value bound for M"):
        evaluate(L)
    with pytest.raises(LayoutError, match="not an integer under the binding"):
        evaluate(make_layout((M, 2), (1, M / 2)), {"M": 3})
