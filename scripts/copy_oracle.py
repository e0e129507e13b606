#!/usr/bin/env python3
"""CuTe's own answers for copy atoms and tiled copies, printed by CuTe compiled here.

Writes ``tests/data/copy_oracle.jsonl``: for a spread of copy atoms (every op of the
copy traits table that the brief names, over several element types) and thread/value
layouts, CuTe's ``Tiler_MN``, ``TiledLayout_TV``, ``get_layoutS_TV``, ``get_layoutD_TV``,
``ThrCopy::partition_S/D`` of static and dynamic tensors (layout and pointer offset) and
``retile_D`` of a thread's fragment. Needs g++ and the CUDA headers (host code only):

    python3 scripts/copy_oracle.py [--include /path/to/cutlass/include] [--cuda /usr/local/cuda]
"""
from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import subprocess
import sys
import tempfile
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)

from cute_sym.core.errors import LayoutError  # noqa: E402
from cute_sym.layout import size  # noqa: E402
from cute_sym.notation import parse  # noqa: E402
from cute_sym.tensor.atoms.copy_atom import Copy_Atom  # noqa: E402
from cute_sym.tensor.copy import make_tiled_copy  # noqa: E402

ONE_THREAD = [f"UniversalCopy<{t}>" for t in ("uint8_t", "uint16_t", "uint32_t", "uint64_t", "uint128_t")] + [
    f"SM80_CP_ASYNC_{k}{z}<{t}>" for k, ts in (("CACHEALWAYS", ("uint32_t", "uint64_t", "uint128_t")),
                                               ("CACHEGLOBAL", ("uint128_t",)))
    for z in ("", "_ZFILL") for t in ts]
WARP = [f"SM75_U32x{n}_LDSM_N" for n in (1, 2, 4)] + [f"SM75_U16x{n}_LDSM_T" for n in (2, 4, 8)] + \
       [f"SM90_U32x{n}_STSM_N" for n in (1, 2, 4)] + [f"SM90_U16x{n}_STSM_T" for n in (2, 4, 8)]
TYPES = ("int8_t", "half_t", "bfloat16_t", "float", "double")

# (thr_layout, val_layout) shapes, with a placeholder V for the atom's values per thread
ONE_THREAD_TILINGS = [("(_32,_4):(_1,_32)", "(V,_1)"), ("(_8,_16):(_16,_1)", "(_1,V)"),
                      ("(_4,_8):(_1,_4)", "(V,_2)"), ("(_16,_8):(_8,_1)", "(_2,V):(V,_1)")]
WARP_TILINGS = [("(_32,_1)", "(_1,V)"), ("(_8,_4):(_4,_1)", "(V,_1)"), ("(_16,_4):(_1,_16)", "(_1,V)"),
                ("(_4,_16):(_16,_1)", "(V,_2)")]


def cpp_layout(text: str) -> str:
    """CuTe notation of a static layout -> a C++ expression."""
    lay = parse(text) if ":" in text else None
    if lay is None:
        return f"make_layout({cpp_tuple(parse(text))})"
    return f"make_layout({cpp_tuple(lay.shape)}, {cpp_tuple(lay.stride)})"


def cpp_tuple(t: Any, dynamic: bool = False) -> str:
    if isinstance(t, tuple):
        return "make_shape(" + ", ".join(cpp_tuple(x, dynamic) for x in t) + ")"
    return str(int(t)) if dynamic else f"Int<{int(t)}>{{}}"


def cases() -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for ops, tilings in ((ONE_THREAD, ONE_THREAD_TILINGS), (WARP, WARP_TILINGS)):
        for op in ops:
            for ty in TYPES:
                try:
                    atom = Copy_Atom(op, ty)
                except LayoutError:
                    continue
                nv = size(atom.ValLayoutRef[1])
                if nv * atom.bits < 8:
                    continue
                for thr, val in tilings:
                    val = val.replace("V", f"_{nv}")
                    try:
                        tc = make_tiled_copy(atom, parse(thr), parse(val))
                    except LayoutError:
                        continue
                    out.append({"op": op, "type": ty, "thr_layout": thr, "val_layout": val,
                                "tiler": [int(x) for x in tc.Tiler_MN], "nthr": tc.TiledNumThr})
    return out


def program(group: list[tuple[int, dict[str, Any]]]) -> str:
    lines = ["#include <cute/tensor.hpp>", "#include <cute/atom/copy_atom.hpp>", "using namespace cute;",
             "template <class T> void p(int id, char const* what, T const& x) {",
             "  printf(\"%d\\t%s\\t\", id, what); print(x); printf(\"\\n\"); }", "int main() {"]
    for i, c in group:
        m, n = c["tiler"]
        tids = sorted({0, 1, c["nthr"] // 2 + 1, c["nthr"] - 1})
        lines.append("{")
        lines.append(f"  auto tc = make_tiled_copy(Copy_Atom<{c['op']}, {c['type']}>{{}}, "
                     f"{cpp_layout(c['thr_layout'])}, {cpp_layout(c['val_layout'])});")
        lines.append(f"  p({i}, \"Tiler_MN\", typename decltype(tc)::Tiler_MN{{}});")
        lines.append(f"  p({i}, \"TiledLayout_TV\", typename decltype(tc)::TiledLayout_TV{{}});")
        lines.append(f"  p({i}, \"get_layoutS_TV\", tc.get_layoutS_TV());")
        lines.append(f"  p({i}, \"get_layoutD_TV\", tc.get_layoutD_TV());")
        # a static row-major tensor of 2x3 tiles, and a dynamic column-major one of 1x2 tiles
        lines.append(f"  auto Ts = make_tensor(make_gmem_ptr(({c['type']}*)nullptr), "
                     f"make_layout(make_shape(Int<{2 * m}>{{}}, Int<{3 * n}>{{}}), LayoutRight{{}}));")
        lines.append(f"  auto Td = make_tensor(make_gmem_ptr(({c['type']}*)nullptr), "
                     f"make_layout(make_shape({m}, {2 * n}), make_stride(Int<1>{{}}, {m})));")
        for tid in tids:
            for t in ("Ts", "Td"):
                for w in ("S", "D"):
                    lines.append(f"  {{ auto part = tc.get_slice({tid}).partition_{w}({t}); "
                                 f"p({i}, \"partition_{w}/{t}/{tid}\", part.layout()); "
                                 f"printf(\"{i}\\toffset_{w}/{t}/{tid}\\t%d\\n\", "
                                 f"int(part.data().get() - {t}.data().get())); }}")
        lines.append(f"  {{ auto frag = make_tensor<{c['type']}>(shape(tc.get_slice(0).partition_D(Ts)));"
                     f" p({i}, \"retile_D\", tc.get_slice(0).retile_D(frag).layout()); }}")
        lines.append("}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def compile_and_run(src: str, include: str, cuda: str, work: str, k: int) -> str:
    cpp = os.path.join(work, f"oracle{k}.cpp")
    exe = os.path.join(work, f"oracle{k}")
    with open(cpp, "w") as fh:
        fh.write(src)
    subprocess.run(["g++", "-std=c++17", "-O0", "-w", f"-I{include}", f"-I{cuda}/include",
                    f"-I{cuda}/include/cccl", cpp, "-o", exe], check=True)
    return subprocess.run([exe], check=True, capture_output=True, text=True).stdout


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--include", default="/work/cutlass/cutlass_library/source/include")
    ap.add_argument("--cuda", default="/usr/local/cuda")
    ap.add_argument("--jobs", type=int, default=8)
    ap.add_argument("--out", default=os.path.join(ROOT, "tests", "data", "copy_oracle.jsonl"))
    o = ap.parse_args()
    cs_ = cases()
    groups = [list(enumerate(cs_))[k::o.jobs] for k in range(o.jobs)]
    with tempfile.TemporaryDirectory() as work, concurrent.futures.ThreadPoolExecutor(o.jobs) as ex:
        outs = list(ex.map(lambda kg: compile_and_run(program(kg[1]), o.include, o.cuda, work, kg[0]),
                           enumerate(groups)))
    answers: dict[int, dict[str, str]] = {}
    for text in outs:
        for line in text.splitlines():
            i, what, val = line.split("\t")
            answers.setdefault(int(i), {})[what] = val
    with open(o.out, "w") as fh:
        for i, c in enumerate(cs_):
            row = {k: c[k] for k in ("op", "type", "thr_layout", "val_layout")}
            row["expect"] = answers[i]
            fh.write(json.dumps(row) + "\n")
    print(f"{len(cs_)} tiled copies, {sum(len(a) for a in answers.values())} answers -> {o.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
