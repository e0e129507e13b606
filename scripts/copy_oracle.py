#!/usr/bin/env python3
"""CuTe's own answers for copy atoms and tiled copies, printed by CuTe compiled here.

Writes ``tests/data/copy_oracle.jsonl``: for a spread of copy atoms (every op of the
copy traits table that the brief names, over several element types) and thread/value
layouts, CuTe's ``Tiler_MN``, ``TiledLayout_TV``, ``get_layoutS_TV``, ``get_layoutD_TV``,
``ThrCopy::partition_S/D`` of static and dynamic tensors (layout and pointer offset) and
``retile_D`` of a thread's fragment; with ``--mma``, the same for ``make_tiled_copy_A/B/C``
over tiled MMAs (``tests/data/copy_oracle_mma.jsonl``); with ``--pictures``, the sha256 of
``print_latex`` of every 3rd tiled copy (``tests/data/copy_pictures.jsonl``, leading and trailing
blank lines stripped, as the views corpus compares pictures). Needs g++ and the CUDA headers
(host code only):

    python3 scripts/copy_oracle.py [--mma | --views | --pictures] [--include /path/to/cutlass/include] [--cuda /usr/local/cuda]
"""
from __future__ import annotations

import argparse
import concurrent.futures
import hashlib
import json
import os
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
from cute_sym.tensor.copy_make import (  # noqa: E402
    make_cotiled_copy, make_tiled_copy, make_tiled_copy_A, make_tiled_copy_B, make_tiled_copy_C,
    make_tiled_copy_C_atom,
)
from cute_sym.tensor.mma import make_tiled_mma  # noqa: E402
from cute_host import compile_and_run, default_include  # noqa: E402

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


# (MMA, atom layout, permutation tile or None, A's element type, C's element type)
MMAS = [("SM80_16x8x16_F16F16F16F16_TN", (2, 2, 1), None, "half_t", "half_t"),
        ("SM80_16x8x16_F32F16F16F32_TN", (2, 2, 1), (32, 32, 16), "half_t", "float"),
        ("SM80_16x8x16_F32BF16BF16F32_TN", (1, 2, 1), (16, 32, 16), "bfloat16_t", "float"),
        ("SM80_16x8x8_F32TF32TF32F32_TN", (2, 1, 1), None, "tfloat32_t", "float"),
        ("SM75_16x8x8_F32F16F16F32_TN", (1, 2, 1), None, "half_t", "float"),
        ("SM80_16x8x32_S32S8S8S32_TN", (2, 2, 1), (32, 32, 32), "int8_t", "int32_t")]
MMA_COPIES = {"A": ["SM75_U32x4_LDSM_N", "SM75_U32x2_LDSM_N", "SM75_U32x1_LDSM_N", "SM75_U16x8_LDSM_T",
                    "SM75_U16x4_LDSM_T", "UniversalCopy<uint32_t>"],
              "B": ["SM75_U32x4_LDSM_N", "SM75_U32x2_LDSM_N", "SM75_U16x8_LDSM_T", "SM75_U16x4_LDSM_T",
                    "SM75_U16x2_LDSM_T", "UniversalCopy<uint32_t>"],
              "C": ["SM90_U32x4_STSM_N", "SM90_U32x2_STSM_N", "SM90_U32x1_STSM_N", "SM90_U16x8_STSM_T",
                    "SM90_U16x4_STSM_T", "UniversalCopy<uint32_t>", "UniversalCopy<uint64_t>"]}
MMA_COPIES["C_atom"] = MMA_COPIES["C"]
# make_cotiled_copy: (op, type, atom (tid,vid) -> address, data layout)
COTILED = [("UniversalCopy<uint128_t>", "half_t", "(_32,_8):(_8,_1)", "(_16,_16):(_16,_1)"),
           ("UniversalCopy<uint128_t>", "half_t", "(_32,_8):(_8,_1)", "(_16,_16):(_1,_16)"),
           ("UniversalCopy<uint64_t>", "float", "(_64,_2):(_2,_1)", "(_8,(_4,_4)):(_4,(_1,_32))"),
           ("UniversalCopy<uint32_t>", "half_t", "((_4,_8),_2):((_2,_32),_1)", "(_16,_16):(_16,_1)"),
           ("UniversalCopy<uint128_t>", "int8_t", "(_16,_16):(_16,_1)", "((_4,_4),_16):((_16,_64),_1)")]


def mma_cases() -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    makers = {"A": make_tiled_copy_A, "B": make_tiled_copy_B, "C": make_tiled_copy_C,
              "C_atom": make_tiled_copy_C_atom}
    for name, lay, perm, ab, c in MMAS:
        mma = make_tiled_mma(name, lay, perm)
        for which, ops in MMA_COPIES.items():
            ty = c if which == "C" else ab
            for op in ops:
                try:
                    tc = makers[which](Copy_Atom(op, ty), mma)
                except LayoutError:
                    continue
                out.append({"mma": name, "atom_layout": list(lay), "permutation": list(perm) if perm else None,
                            "which": which, "op": op, "type": ty, "tiler": [int(size(x)) for x in tc.Tiler_MN],
                            "nthr": tc.TiledNumThr})
    for op, ty, tv, data in COTILED:
        tc = make_cotiled_copy(Copy_Atom(op, ty), parse(tv), parse(data))
        out.append({"which": "cotiled", "op": op, "type": ty, "atom_tv_layout": tv, "data_layout": data,
                    "tiler": [int(size(x)) for x in tc.Tiler_MN], "nthr": tc.TiledNumThr})
    return out


def mma_program(group: list[tuple[int, dict[str, Any]]]) -> str:
    lines = ["#include <cute/tensor.hpp>", "#include <cute/atom/copy_atom.hpp>", "#include <cute/atom/mma_atom.hpp>",
             "using namespace cute;",
             "template <class T> void p(int id, char const* what, T const& x) {",
             "  printf(\"%d\\t%s\\t\", id, what); print(x); printf(\"\\n\"); }", "int main() {"]
    for i, c in group:
        m, n = c["tiler"]
        w = c["which"]
        lines.append("{")
        if w == "cotiled":
            lines.append(f"  auto tc = make_cotiled_copy(Copy_Atom<{c['op']}, {c['type']}>{{}}, "
                         f"{cpp_layout(c['atom_tv_layout'])}, {cpp_layout(c['data_layout'])});")
        else:
            a, b, k = c["atom_layout"]
            perm = ", Tile<" + ",".join(f"_{x}" for x in c["permutation"]) + ">{}" if c["permutation"] else ""
            lines.append(f"  auto mma = make_tiled_mma({c['mma']}{{}}, Layout<Shape<_{a},_{b},_{k}>>{{}}{perm});")
            lines.append(f"  auto tc = make_tiled_copy_{w}(Copy_Atom<{c['op']}, {c['type']}>{{}}, mma);")
        lines.append(f"  p({i}, \"Tiler_MN\", typename decltype(tc)::Tiler_MN{{}});")
        lines.append(f"  p({i}, \"TiledLayout_TV\", typename decltype(tc)::TiledLayout_TV{{}});")
        lines.append(f"  p({i}, \"get_layoutS_TV\", tc.get_layoutS_TV());")
        lines.append(f"  p({i}, \"get_layoutD_TV\", tc.get_layoutD_TV());")
        lines.append(f"  auto Ts = make_tensor(make_smem_ptr(({c['type']}*)nullptr), "
                     f"make_layout(make_shape(Int<{2 * m}>{{}}, Int<{2 * n}>{{}}), LayoutRight{{}}));")
        for tid in sorted({0, 37 % c["nthr"], c["nthr"] - 1}):
            for x in ("S", "D"):
                lines.append(f"  {{ auto part = tc.get_slice({tid}).partition_{x}(Ts); "
                             f"p({i}, \"partition_{x}/Ts/{tid}\", part.layout()); "
                             f"printf(\"{i}\\toffset_{x}/Ts/{tid}\\t%d\\n\", "
                             f"int(part.data().get() - Ts.data().get())); }}")
        if w != "cotiled":
            lines.append(f"  {{ auto frag = mma.get_slice(0).partition_fragment_{w[0]}(Ts); "
                         f"p({i}, \"frag\", frag.layout()); "
                         f"p({i}, \"retile_D\", tc.get_slice(0).retile_D(frag).layout()); }}")
        lines.append("}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def views_cases() -> list[dict[str, Any]]:
    """The views conformance's kinds (tiled_copy, copy_partition) over every atom of :func:`cases`:
    partition_S of local_tile(T, Tiler_MN, (0, 0)) of a static and a dynamic row-major 256x128 tensor."""
    out: list[dict[str, Any]] = []
    for k, c in enumerate(cases()):
        m, n = c["tiler"]
        if m > 256 or n > 128:
            continue
        for t, text in (("s", "(_256,_128):(_128,_1)"), ("d", "(256,128):(128,_1)")):
            tid = (37 * k + (0 if t == "s" else 11)) % c["nthr"]
            out.append({**c, "tensor_layout": text, "thr_idx": tid})
    return out


def views_program(group: list[tuple[int, dict[str, Any]]]) -> str:
    lines = ["#include <cute/tensor.hpp>", "#include <cute/atom/copy_atom.hpp>", "using namespace cute;",
             "template <class T> void p(int id, char const* what, T const& x) {",
             "  printf(\"%d\\t%s\\t\", id, what); print(x); printf(\"\\n\"); }", "int main() {"]
    for i, c in group:
        st = c["tensor_layout"].startswith("(_")
        shape = "make_shape(Int<256>{}, Int<128>{})" if st else "make_shape(256, 128)"
        stride = "make_stride(Int<128>{}, Int<1>{})" if st else "make_stride(128, Int<1>{})"
        lines.append("{")
        lines.append(f"  auto T = make_tensor(make_gmem_ptr(({c['type']}*)nullptr), {shape}, {stride});")
        lines.append(f"  auto tc = make_tiled_copy(Copy_Atom<{c['op']}, {c['type']}>{{}}, "
                     f"{cpp_layout(c['thr_layout'])}, {cpp_layout(c['val_layout'])});")
        lines.append("  auto tile = local_tile(T, typename decltype(tc)::Tiler_MN{}, make_coord(0, 0));")
        lines.append(f"  p({i}, \"partition_S\", tc.get_slice({c['thr_idx']}).partition_S(tile).layout());")
        lines.append(f"  p({i}, \"partition_D\", tc.get_slice({c['thr_idx']}).partition_D(tile).layout());")
        lines.append("}")
    lines.append("}")
    return "\n".join(lines) + "\n"


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


def picture_cases() -> list[dict[str, Any]]:
    return [{k: v for k, v in c.items() if k not in ("tiler", "nthr")} for c in cases()[::3]]


def picture_program(group: list[tuple[int, dict[str, Any]]]) -> str:
    # each picture between two marker lines: its text has newlines of its own
    lines = ["#include <cute/tensor.hpp>", "#include <cute/atom/copy_atom.hpp>", "using namespace cute;", "int main() {"]
    for i, c in group:
        lines.append(f"  printf(\"@@begin {i}\\n\"); print_latex(make_tiled_copy(Copy_Atom<{c['op']}, {c['type']}>{{}}, "
                     f"{cpp_layout(c['thr_layout'])}, {cpp_layout(c['val_layout'])})); printf(\"\\n@@end {i}\\n\");")
    lines.append("}")
    return "\n".join(lines) + "\n"


def picture_digests(text: str) -> dict[int, dict[str, str]]:
    out: dict[int, dict[str, str]] = {}
    for part in text.split("@@begin ")[1:]:
        head, _, body = part.partition("\n")
        body, _, _ = body.rpartition("\n@@end ")
        out[int(head)] = {"sha256": hashlib.sha256(body.strip("\n").encode()).hexdigest()}
    return out




def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--include", default=default_include())
    ap.add_argument("--cuda", default="/usr/local/cuda")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--mma", action="store_true", help="make_tiled_copy_A/B/C over tiled MMAs")
    ap.add_argument("--views", action="store_true", help="the views conformance's calls over every atom")
    ap.add_argument("--pictures", action="store_true", help="digests of print_latex of tiled copies")
    ap.add_argument("--out")
    o = ap.parse_args()
    kind = "mma" if o.mma else "views" if o.views else "pictures" if o.pictures else ""
    name = "copy_pictures" if o.pictures else f"copy_oracle{'_' + kind if kind else ''}"
    out = o.out or os.path.join(ROOT, "tests", "data", f"{name}.jsonl")
    cs_ = {"mma": mma_cases, "views": views_cases, "pictures": picture_cases, "": cases}[kind]()
    make = {"mma": mma_program, "views": views_program, "pictures": picture_program, "": program}[kind]
    groups = [list(enumerate(cs_))[k::o.jobs] for k in range(o.jobs)]
    with tempfile.TemporaryDirectory() as work, concurrent.futures.ThreadPoolExecutor(o.jobs) as ex:
        outs = list(ex.map(lambda kg: compile_and_run(make(kg[1]), o.include, o.cuda, work, f"p{kg[0]}"),
                           enumerate(groups)))
    answers: dict[int, dict[str, str]] = {}
    for text in outs:
        if o.pictures:
            answers.update(picture_digests(text))
            continue
        for line in text.splitlines():
            i, what, val = line.split("\t")
            answers.setdefault(int(i), {})[what] = val
    with open(out, "w") as fh:
        for i, c in enumerate(cs_):
            row = {k: v for k, v in c.items() if k not in ("tiler", "nthr")}
            if o.pictures:
                row.update(answers[i])
            else:
                row["expect"] = answers[i]
            fh.write(json.dumps(row) + "\n")
    print(f"{len(cs_)} tiled copies, {sum(len(a) for a in answers.values())} answers -> {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
