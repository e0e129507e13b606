#!/usr/bin/env python3
"""cute_sym's emitted CUDA index code against CuTe C++ and a naive formula, on a GPU.

One CUDA program holds, for each layout below, three offset functions:

* ``sym``:   ``cute_sym.emit(layout, "cuda")`` verbatim, swizzled layouts
  included (dynamic symbols are kernel parameters); ``sym32`` is
  ``emit(layout, "cuda", index_type="int32")``, the caller's statement that
  every value fits in 32 bits (as CuTe's ``int`` extents are); it is built
  only where its text differs from the default (where emit proved no 32-bit
  bound by itself: the dynamic layouts here);
* ``cute``:  CuTe C++ building the same layout with its own algebra
  (``zipped_divide(make_layout(make_shape(M, N)), Shape<_128,_64>{})``, ...)
  and calling ``layout(i)``; with ``int`` and, for dynamic layouts, ``int64_t``;
* ``naive``: the per-mode formula ``sum_k ((i / P_k) % S_k) * D_k`` over the
  flattened modes, in ``int``.

The program checks every offset of every layout on the GPU against
``cs.evaluate`` of the layout itself (two bindings of the dynamic symbols: an uneven one and the
64 M-element one used for the gather), then times (1) index arithmetic alone
and (2) a gather ``out[i] = in[layout(i)]`` over 64 M uint32 elements beside
``cudaMemcpy`` device-to-device. With ``cpu`` it checks the same functions
(emit's ``"c"`` text, CuTe and naive on the host) without a GPU.

Commands (DIR is a work directory; the script uses the checkout's cute_sym,
or ``$CUTE_SYM_ROOT``):

    gpu_index_bench.py gen DIR        # DIR/bench.cu
    gpu_index_bench.py expected DIR   # DIR/exp/*.bin: cs.evaluate of every layout and binding
    gpu_index_bench.py build DIR      # nvcc -O3 -arch=sm_90 -std=c++17 (CUTLASS_INCLUDE or --include)
    gpu_index_bench.py cpu DIR        # every offset, on the host, against DIR/exp
    gpu_index_bench.py gpu DIR        # correctness + timings on the GPU; prints the table
    gpu_index_bench.py pack DEST --from DIR   # script, cute_sym, CuTe headers, DIR/bench.cu, run.sh to DEST
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

HERE = Path(__file__).resolve().parent
ROOT = Path(os.environ.get("CUTE_SYM_ROOT", HERE.parents[1]))
sys.path.insert(0, str(ROOT))

import cute_sym as cs  # noqa: E402
from cute_sym import Dyn, make_layout  # noqa: E402
from cute_sym import ComposedLayout, Swizzle  # noqa: E402

DEFAULT_INCLUDE = "/work/cutlass/cutlass_library/source/include"
GATHER_ELEMS = 1 << 26          # 64 M uint32 elements: 256 MB read + 256 MB written

# Facts a kernel author states: extents divisible by the tile.
M = Dyn("M", divisible_by=128)
N = Dyn("N", divisible_by=64)
K = Dyn("K", divisible_by=8)
P = cs.parse


@dataclass
class Case:
    name: str
    what: str
    build: Callable[[], Any]           # the cute_sym Layout or ComposedLayout
    cute: str                          # CuTe C++ expression (T M, T N, T K in scope)
    small: dict[str, int] = field(default_factory=dict)   # uneven binding: correctness only
    big: dict[str, int] = field(default_factory=dict)     # 2^26 elements: correctness, gather, arithmetic


CASES: list[Case] = [
    Case("rowmajor_tile", "static 128x64 row-major tile", lambda: P("(_128,_64):(_64,_1)"),
         "Layout<Shape<_128,_64>,Stride<_64,_1>>{}"),
    Case("colmajor_tile", "static 128x64 column-major tile", lambda: P("(_128,_64):(_1,_128)"),
         "Layout<Shape<_128,_64>,Stride<_1,_128>>{}"),
    Case("rowmajor_MN", "dynamic (M,N) row-major", lambda: make_layout((M, N), (N, 1)),
         "make_layout(make_shape(M, N), LayoutRight{})",
         {"M": 384, "N": 192}, {"M": 8192, "N": 8192}),
    Case("zdiv_MN", "zipped_divide((M,N) col-major, (_128,_64))",
         lambda: cs.zipped_divide(make_layout((M, N)), P("(_128,_64)")),
         "zipped_divide(make_layout(make_shape(M, N)), Shape<_128,_64>{})",
         {"M": 384, "N": 192}, {"M": 8192, "N": 8192}),
    Case("ldiv_MN", "logical_divide((M,N) col-major, (_128,_64))",
         lambda: cs.logical_divide(make_layout((M, N)), P("(_128,_64)")),
         "logical_divide(make_layout(make_shape(M, N)), Shape<_128,_64>{})",
         {"M": 384, "N": 192}, {"M": 8192, "N": 8192}),
    Case("zdiv_MN_right", "zipped_divide((M,N) row-major, (_32,_32))",
         lambda: cs.zipped_divide(make_layout((M, N), (N, 1)), P("(_32,_32)")),
         "zipped_divide(make_layout(make_shape(M, N), LayoutRight{}), Shape<_32,_32>{})",
         {"M": 384, "N": 192}, {"M": 8192, "N": 8192}),
    Case("zdiv_MNK", "zipped_divide((M,N,K) col-major, (_32,_16,_8))",
         lambda: cs.zipped_divide(make_layout((M, N, K)), P("(_32,_16,_8)")),
         "zipped_divide(make_layout(make_shape(M, N, K)), Shape<_32,_16,_8>{})",
         {"M": 384, "N": 192, "K": 24}, {"M": 512, "N": 512, "K": 256}),
    Case("bprod", "blocked_product((_32,_8):(_1,_32), (_4,_8):(_1,_4))",
         lambda: cs.blocked_product(P("(_32,_8):(_1,_32)"), P("(_4,_8):(_1,_4)")),
         "blocked_product(Layout<Shape<_32,_8>,Stride<_1,_32>>{}, Layout<Shape<_4,_8>,Stride<_1,_4>>{})"),
    Case("bprod_MN", "blocked_product((_32,_8):(_1,_32), (M,N))",
         lambda: cs.blocked_product(P("(_32,_8):(_1,_32)"), make_layout((M, N))),
         "blocked_product(Layout<Shape<_32,_8>,Stride<_1,_32>>{}, make_layout(make_shape(M, N)))",
         {"M": 384, "N": 64}, {"M": 512, "N": 512}),
    Case("sm80_A_TV", "SM80_16x8x16 A thread-value layout",
         lambda: P("((_4,_8),(_2,_2,_2)):((_32,_1),(_16,_8,_128))"),
         "typename MMA_Traits<SM80_16x8x16_F16F16F16F16_TN>::ALayout{}"),
    Case("tiled_mma_C_TV", "TiledMMA SM80_16x8x16 x (2,2,1) warps: C thread-value layout",
         lambda: P("((_4,_8,_2,_2),((_2,_2),(_1,_1))):((_64,_1,_16,_256),((_32,_8),(_0,_0)))"),
         "make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}, Layout<Shape<_2,_2,_1>>{}).get_layoutC_TV()"),
    Case("sw333_rowmajor", "Sw<3,3,3> o (_64,_64):(_64,_1) (shared memory)",
         lambda: ComposedLayout(Swizzle(3, 3, 3), 0, P("(_64,_64):(_64,_1)")),
         "composition(Swizzle<3,3,3>{}, Layout<Shape<_64,_64>,Stride<_64,_1>>{})"),
    Case("sw333_colmajor", "Sw<3,3,3> o (_64,_64):(_1,_64) (shared memory)",
         lambda: ComposedLayout(Swizzle(3, 3, 3), 0, P("(_64,_64):(_1,_64)")),
         "composition(Swizzle<3,3,3>{}, Layout<Shape<_64,_64>,Stride<_1,_64>>{})"),
]


# ---------------------------------------------------------------- layout helpers
def inner(L: Any) -> Any:
    """The plain layout of a case (the inner layout of a swizzled one)."""
    if isinstance(L, ComposedLayout):
        if not (L.offset == 0 and isinstance(L.layout_a, Swizzle) and isinstance(L.layout_b, cs.Layout)):
            raise ValueError(f"only Sw o _0 o Layout is supported here, got {L}")
        return L.layout_b
    return L


def leaves(t: Any) -> list[Any]:
    """The leaves of an IntTuple, left to right."""
    return [x for e in t for x in leaves(e)] if isinstance(t, tuple) else [t]


def bindings(c: Case) -> list[dict[str, int]]:
    return [c.small, c.big] if c.big else [{}]


def bound(L: Any, b: dict[str, int]) -> Any:
    return cs.subs(L, b) if b else L


def expected_offsets(L: Any, b: dict[str, int]) -> Any:
    """Every offset by cute_sym: ``cs.evaluate`` of the (plain or swizzled) layout."""
    import numpy as np
    return np.asarray(cs.evaluate(L, b), dtype=np.int64)


def _int(x: Any, b: dict[str, int] | None = None) -> int:
    """The value of a static or dynamic integer under a binding."""
    if type(x) is int:
        return x
    import sympy
    e = sympy.sympify(x)
    return int(e.xreplace({s: sympy.Integer(b[s.name]) for s in e.free_symbols})) if b else int(e)


# ---------------------------------------------------------------- code generation
SIG = re.compile(r"^(?:__device__ __forceinline__ )?(int32_t|int64_t) (\w+)\((.*)\) \{$", re.M)


def _body(src: str) -> str:
    return src[src.index("{"):]


def emitted(c: Case) -> dict[str, Any]:
    """emit's cuda and c text for the case (default type and ``index_type="int32"``),
    its argument list and integer types."""
    L = c.build()
    lay = inner(L)
    info: dict[str, Any] = {}
    cuda = cs.emit(L, "cuda", name=f"sym_{c.name}")
    csrc = cs.emit(L, "c", name=f"hsym_{c.name}")
    cuda32 = cs.emit(L, "cuda", name=f"sym32_{c.name}", index_type="int32")
    csrc32 = cs.emit(L, "c", name=f"hsym32_{c.name}", index_type="int32")
    for a, b in ((cuda, csrc), (cuda32, csrc32)):
        if _body(a) != _body(b):
            raise SystemExit(f"{c.name}: emit's cuda and c bodies differ")
    m = SIG.search(cuda)
    assert m, cuda
    ctype, _, args = m.groups()
    m32 = SIG.search(cuda32)
    assert m32 and m32.group(1) == "int32_t" and m32.group(3) == args.replace(ctype, "int32_t"), cuda32
    params = [a.split()[1] for a in args.split(",") if a.strip()]
    assert params[0] == "i", params
    has32 = ctype != "int32_t"      # else index_type="int32" changes nothing but the comment
    info.update(cuda=cuda, c=csrc, ctype=ctype, params=params[1:], layout=L, has32=has32,
                cuda32=cuda32, c32=csrc32)
    from cute_sym.codegen import count_ops, canonical_op_count
    info["ops"] = count_ops(cuda)
    info["canonical_ops"] = canonical_op_count(lay)
    return info


def naive_expr(lay: Any, vals: str) -> tuple[str, list[Any]]:
    """``sum_k ((i / P_k) % S_k) * D_k`` over the flattened modes; dynamic values read from ``vals[j]``."""
    S = leaves(lay.shape)
    D = leaves(lay.stride)
    dyn: list[Any] = []
    terms = []
    Pk: Any = 1

    def lit(x: Any) -> str:
        if type(x) is int:
            return f"{x}" if x >= 0 else f"({x})"
        dyn.append(x)
        return f"{vals}[{len(dyn) - 1}]"
    for s, d in zip(S, D):
        terms.append(f"((i / {lit(Pk)}) % {lit(s)}) * {lit(d)}")
        Pk = Pk * s
    return " + ".join(terms), dyn


def swz(sw: Swizzle, x: str) -> str:
    return f"({x} ^ (({x} & {sw.yyy_msk}) >> {sw.shift}))"


def gen_case(c: Case, k: int) -> tuple[str, str, dict[str, Any]]:
    """(C++ declarations, the case's runner, metadata)."""
    info = emitted(c)
    L = info["layout"]
    lay = inner(L)
    sw = L.layout_a if isinstance(L, ComposedLayout) else None
    n = c.name
    ct, params = info["ctype"], info["params"]
    has32 = info["has32"]
    out = [f"// ===== {k}: {n}: {c.what}", f"// cute_sym layout: {L}"]
    out.append(info["cuda"].replace("#include <stdint.h>\n", ""))
    if has32:
        out.append(info["cuda32"].replace("#include <stdint.h>\n", ""))
    out.append("namespace host {")
    out.append(info["c"].replace("#include <stdint.h>\n", ""))
    if has32:
        out.append(info["c32"].replace("#include <stdint.h>\n", ""))
    out.append("}  // namespace host")

    def sym_functor(fname: str, qual: str, call: str, t: str) -> str:
        # emit's function as is (its swizzle included): the functor only holds the symbols' values
        mem = "".join(f" {t} {p};" for p in params)
        args = "".join(f", {p}" for p in params)
        return (f"struct {fname} {{ using idx_t = {t};{mem}\n"
                f"  {qual} {t} operator()({t} i) const {{ return {call}(i{args}); }} }};")
    out.append(sym_functor(f"F_sym_{n}", "__device__ __forceinline__", f"sym_{n}", ct))
    out.append(sym_functor(f"H_sym_{n}", "inline", f"host::hsym_{n}", ct))
    if has32:
        out.append(sym_functor(f"F_sym32_{n}", "__device__ __forceinline__", f"sym32_{n}", "int32_t"))
        out.append(sym_functor(f"H_sym32_{n}", "inline", f"host::hsym32_{n}", "int32_t"))
    # CuTe
    out.append(f"template <class T> auto cute_build_{n}(T M, T N, T K) {{ (void)M; (void)N; (void)K;\n"
               f"  return {c.cute}; }}")
    out.append(f"template <class T> struct F_cute_{n} {{ using idx_t = T;\n"
               f"  decltype(cute_build_{n}<T>(T(1), T(1), T(1))) L;\n"
               f"  __host__ __device__ __forceinline__ T operator()(T i) const {{ return T(L(i)); }} }};")
    # naive
    expr, dyn = naive_expr(lay, "v")
    nv = max(1, len(dyn))
    ret = swz(sw, "o") if sw else "o"
    out.append(f"struct F_naive_{n} {{ using idx_t = int; int v[{nv}];\n"
               f"  __host__ __device__ __forceinline__ int operator()(int i) const {{ const int o = {expr}; return {ret}; }} }};")

    # metadata per binding
    binds = bindings(c)
    meta: dict[str, Any] = dict(name=n, what=c.what, ops=info["ops"], canonical_ops=info["canonical_ops"],
                                ctype=ct, binds=[])
    import numpy as np
    for b in binds:
        Lb = bound(L, b)
        size = _int(cs.size(inner(Lb)))     # a swizzle keeps its inner layout's domain
        cos = int(expected_offsets(L, b).max()) + 1     # the input tile's extent in the gather
        meta["binds"].append(dict(bind=b, size=size, cosize=cos, text=str(Lb),
                                  naive=[_int(x, b) for x in dyn] or [0]))
    # vector width of the gather: runs of 4 contiguous, 4-aligned offsets (checked on the gather binding)
    big = meta["binds"][-1]
    off = expected_offsets(L, big["bind"])
    V = 1
    if off.size % 4 == 0 and big["cosize"] % 4 == 0:
        base = off[0::4]
        if np.all(base % 4 == 0) and all(np.array_equal(off[r::4], base + r) for r in range(1, 4)):
            V = 4
    meta["V"] = V
    meta["has32"] = has32

    # runner
    r = [f"static void run_{n}(Ctx& ctx) {{", f"  Row row; row.name = \"{n}\"; row.V = {V}; row.has32 = {str(has32).lower()};"]
    r.append(f"  row.dynamic = {str(bool(c.big)).lower()}; row.ops = {info['ops']}; row.canon = {info['canonical_ops']};")
    for bi, bm in enumerate(meta["binds"]):
        b = bm["bind"]
        Mv, Nv, Kv = b.get("M", 1), b.get("N", 1), b.get("K", 1)
        pv = "".join(f", {b[p] if p in b else 1}" for p in params)   # emitted params are symbol names
        for p in params:
            assert p in b, (n, p, b)
        r.append(f"  {{ // binding {bi}: {b}  size {bm['size']}")
        r.append(f"    const char* text = \"{bm['text']}\";")
        r.append(f"    auto cl32 = cute_build_{n}<int>({Mv}, {Nv}, {Kv});")
        r.append(f"    auto cl64 = cute_build_{n}<int64_t>({Mv}, {Nv}, {Kv});")
        r.append(f"    F_cute_{n}<int> cute{{cl32}}; F_cute_{n}<int64_t> cute64{{cl64}};")
        r.append(f"    F_naive_{n} naive{{{{{', '.join(str(x) for x in bm['naive'])}}}}};")
        r.append(f"    Bind B{{{bi}, {bm['size']}LL, {bm['cosize']}LL, text}};")
        r.append("    if (ctx.gpu) {")
        r.append(f"      F_sym_{n} sym{{{pv[2:]}}};")
        if has32:
            r.append(f"      F_sym32_{n} sym32{{{pv[2:]}}};")
        else:
            r.append(f"      F_sym_{n} sym32{{{pv[2:]}}};")
        r.append("      print_cute(text, cl32);")
        r.append("      gpu_binding(ctx, row, B, sym, sym32, cute, cute64, naive);")
        r.append("    } else {")
        r.append(f"      H_sym_{n} sym{{{pv[2:]}}};")
        if has32:
            r.append(f"      H_sym32_{n} sym32{{{pv[2:]}}};")
        else:
            r.append(f"      H_sym_{n} sym32{{{pv[2:]}}};")
        r.append("      print_cute(text, cl32);")
        r.append("      cpu_binding(ctx, row, B, sym, sym32, cute, cute64, naive);")
        r.append("    }")
        r.append("  }")
    r.append("  ctx.rows.push_back(row);")
    r.append("}")
    return "\n".join(out), "\n".join(r), meta


def generate(d: Path) -> list[dict[str, Any]]:
    d.mkdir(parents=True, exist_ok=True)
    decls, runners, metas = [], [], []
    for k, c in enumerate(CASES):
        a, b, m = gen_case(c, k)
        decls.append(a)
        runners.append(b)
        metas.append(m)
    src = ["// Generated by benchmarks/gpu/gpu_index_bench.py: do not edit.",
           "#include <cute/tensor.hpp>", "#include <cute/atom/mma_atom.hpp>",
           "using namespace cute;", "#include \"harness.cuh\"", ""]
    src += decls
    src += runners
    src.append("static void (*const RUNNERS[])(Ctx&) = {" + ", ".join(f"run_{m['name']}" for m in metas) + "};")
    src.append("int main(int argc, char** argv) { return bench_main(argc, argv, RUNNERS, "
               f"{len(metas)}); }}")
    (d / "bench.cu").write_text("\n".join(src) + "\n")
    shutil.copy(HERE / "harness.cuh", d / "harness.cuh")
    for m in metas:
        i32 = "  + index_type=int32 variant" if m["has32"] else ""
        print(f"{m['name']:16s} {m['ctype']}  ops {m['ops']:2d} (canonical {m['canonical_ops']:2d})  V={m['V']}{i32}")
    return metas


def write_expected(d: Path) -> None:
    import numpy as np
    e = d / "exp"
    e.mkdir(parents=True, exist_ok=True)
    for c in CASES:
        L = c.build()
        for bi, b in enumerate(bindings(c)):
            off = expected_offsets(L, b)
            assert off.max() < 2 ** 31
            off.astype(np.int32).tofile(e / f"{c.name}_{bi}.bin")
            print(f"expected {c.name} binding {bi} {b}: {off.size} offsets", flush=True)


def build(d: Path, include: str, nvcc: str) -> None:
    cmd = [nvcc, "-O3", "-std=c++17", "-arch=sm_90", "--expt-relaxed-constexpr", "-lineinfo",
           "-Xcompiler", "-O2", "-I", include, "-I", str(d), "bench.cu", "-o", "bench"]
    print(" ".join(cmd), flush=True)
    subprocess.run(cmd, cwd=d, check=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("cmd", choices=["gen", "expected", "build", "cpu", "gpu", "pack"])
    ap.add_argument("dir", type=Path)
    ap.add_argument("--include", default=os.environ.get("CUTLASS_INCLUDE", DEFAULT_INCLUDE))
    ap.add_argument("--nvcc", default="nvcc")
    ap.add_argument("--from", dest="src", type=Path, default=Path("."), help="pack: the work directory holding bench.cu")
    a = ap.parse_args()
    d = a.dir.resolve()
    if a.cmd == "gen":
        generate(d)
    elif a.cmd == "expected":
        write_expected(d)
    elif a.cmd == "build":
        build(d, a.include, a.nvcc)
    elif a.cmd in ("cpu", "gpu"):
        subprocess.run([str(d / "bench"), f"--{a.cmd}", str(d / "exp")], check=True)
    elif a.cmd == "pack":
        d.mkdir(parents=True, exist_ok=True)
        for f in ("gpu_index_bench.py", "harness.cuh", "run.sh"):
            shutil.copy(HERE / f, d / f)
        shutil.copy(a.src / "bench.cu", d / "bench.cu")
        if (a.src / "bench").exists():
            shutil.copy(a.src / "bench", d / "bench.prebuilt")
        shutil.copytree(ROOT / "cute_sym", d / "cute_sym", dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns("__pycache__"))
        for h in ("cute", "cutlass"):
            shutil.copytree(Path(a.include) / h, d / "include" / h, dirs_exist_ok=True)
        print(f"packed into {d}")


if __name__ == "__main__":
    main()
