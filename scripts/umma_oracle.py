#!/usr/bin/env python3
"""CuTe's own answers for the Blackwell-era MMA atoms cute_sym knows, printed by CuTe compiled here.

The families of issue 35: SM100 UMMA (every template, 1-SM and 2x1SM, SS/TS, scaled, sparse,
block-scaled) and SM103 ULTRA (:func:`umma_atom_names`), SM120 (every specialization,
:func:`sm120_atom_names`), SM90 sparse GMMA (:func:`sparse_gmma_names`), and the table rows SM90
DMMA, SM75 16x8x8 F16 and SM100 FFMA2. Writes ``tests/data/umma_oracle.jsonl``, one row a case:

* ``traits``: ``Shape_MNK``, ``ThrID``, ``ALayout``, ``BLayout``, ``CLayout`` of
  ``MMA_Traits<Op>`` (and ``SFVecSize``, ``SFALayout``, ``SFBLayout`` where CuTe declares them);
* ``tiled``: for every 16th UMMA atom, ``make_tiled_mma(Op{}, layout)``'s ``get_layoutA/B/C_TV``
  over three atom layouts, ``partition_shape_A/B`` of a 2x4-MMA tile, the partition of A of
  each peer CTA (``get_slice(0)``, ``get_slice(1)``) and ``partition_fragment_C`` (the TMEM
  layout of the accumulators);
* ``tmem_frg``: ``UMMA::tmem_frg_{1,2}sm<...>::make(shape)``'s layout;
* ``tile_to_mma``: ``UMMA::tile_to_mma_shape`` of plain and swizzled layout atoms.

With ``--extras``, ``tests/data/umma_oracle_extras.jsonl`` instead: the sha256 of CuTe's
``print_latex``/``print_svg`` of small tiled UMMAs (1-SM and 2-SM) and
``UMMA::tmem_sf_frg<...>::make(shape)`` (the scale factors' TMEM layouts).

Every atom of those lists is compiled (``--every N`` keeps every N-th UMMA / sparse GMMA atom;
the default 1 is all of them). Host code only (g++ and the CUDA headers):

    python3 scripts/umma_oracle.py [--every 1] [--include /work/cutlass47/include] [--cuda /usr/local/cuda-13.0]
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)

from cute_sym.tensor.atoms import MMA_Traits  # noqa: E402
from cute_sym.tensor.atoms.umma_names import sm120_atom_names, sparse_gmma_names, umma_atom_names  # noqa: E402
from cute_host import run_chunks  # noqa: E402

TRAITS = ("Shape_MNK", "ThrID", "ALayout", "BLayout", "CLayout")
TABLE_ROWS = ("SM90_16x8x4_F64F64F64F64_TN", "SM90_16x8x8_F64F64F64F64_TN", "SM90_16x8x16_F64F64F64F64_TN",
              "SM90_16x8x4_C64C64C64C64_TN", "SM90_16x8x8_C64C64C64C64_TN", "SM90_16x8x16_C64C64C64C64_TN",
              "SM75_16x8x8_F16F16F16F16_TN", "SM100_2x1x1_F32F32F32F32", "SM100_1x2x1_F32F32F32F32")
ATOM_LAYOUTS = ((1, 1), (2, 1), (1, 2))
TILED_EVERY = 16
TMEM_FRG = (
    ("UMMA::tmem_frg_1sm<float>", "((_128,_256),_1,_1)"),
    ("UMMA::tmem_frg_1sm<float>", "((_128,_64),_2,_2)"),
    ("UMMA::tmem_frg_1sm<float>", "((_64,_128),_2,_1)"),
    ("UMMA::tmem_frg_1sm<float>", "((_64,_64),_2,_2)"),
    ("UMMA::tmem_frg_1sm<float, int32_t, UMMA::TmemAllocMode::NonInterleaved>", "((_64,_128),_2,_1)"),
    ("UMMA::tmem_frg_1sm<half_t>", "((_128,_128),_1,_2)"),
    ("UMMA::tmem_frg_1sm<half_t, half_t, UMMA::TmemAllocMode::NonInterleaved>", "((_64,_32),_2,_4)"),
    ("UMMA::tmem_frg_2sm<float>", "((_64,_256),_1,_1)"),
    ("UMMA::tmem_frg_2sm<float>", "((_128,_128),_2,_1)"),
    ("UMMA::tmem_frg_2sm<half_t>", "((_32,_256),_1,_2)"),
    ("UMMA::tmem_frg_2sm<half_t, half_t, UMMA::TmemAllocMode::Duplicated>", "((_64,_32),_1,_4)"),
    ("UMMA::tmem_frg_2sm<int32_t>", "((_64,_128),_2,_2)"),
)
# (atom layout, swizzle or None, MMA tile shape)
TILE_TO_MMA = (
    ("(_8,_64):(_64,_1)", (3, 4, 3), "((_128,_16),_1,_4)"),
    ("(_8,_64):(_64,_1)", None, "((_256,_16),_2,_4)"),
    ("(_64,_8):(_1,_64)", (3, 4, 3), "((_128,_16),_1,_2)"),
    ("(_32,_8):(_1,_32)", (2, 4, 3), "((_128,_16),_1,_2)"),
    ("(_8,_16):(_16,_1)", (1, 4, 3), "((_64,_16),_1,_4)"),
    ("(_8,_128):(_128,_1)", (3, 4, 3), "((_128,_32),_2,_4)"),
    ("(_16,_8):(_1,_16)", None, "((_192,_16),_1,_2)"),
)


def cpp_layout(text: str) -> str:
    """The C++ of a static layout in CuTe notation: ``make_layout(make_shape(...), make_stride(...))``."""
    from cute_sym.notation import parse
    lay = parse(text)

    def tup(x: Any) -> str:
        if type(x) is tuple:
            return "make_tuple(" + ", ".join(tup(e) for e in x) + ")"
        return f"Int<{int(x)}>{{}}"
    return f"make_layout({tup(lay.shape)}, {tup(lay.stride)})"


def cases(every: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    umma = umma_atom_names()
    for i, name in enumerate(umma):
        if i % every == 0:
            out.append({"kind": "traits", "atom": name, "tiled": i % (every * TILED_EVERY) == 0})
    out += [{"kind": "traits", "atom": n, "tiled": n.startswith("SM120_16x8x32_TN<float_e4m3_t")}
            for n in sm120_atom_names()]
    out += [{"kind": "traits", "atom": n, "tiled": False} for i, n in enumerate(sparse_gmma_names())
            if i % every == 0]
    out += [{"kind": "traits", "atom": n, "tiled": n.startswith("SM90_16x8x8")} for n in TABLE_ROWS]
    out += [{"kind": "tmem_frg", "frg": f, "shape": s} for f, s in TMEM_FRG]
    out += [{"kind": "tile_to_mma", "layout": lay, "swizzle": sw, "shape": s} for lay, sw, s in TILE_TO_MMA]
    return out


def _sf_members(name: str) -> list[str]:
    t = MMA_Traits(name)
    out = ["SFVecSize"] if hasattr(t, "SFVecSize") else []
    return out + (["SFALayout", "SFBLayout"] if hasattr(t, "SFALayout") else [])


def _tiled_lines(i: int, op: str, name: str) -> list[str]:
    t = MMA_Traits(name)
    M, N, K = (int(x) for x in t.Shape_MNK)
    lines = []
    for a, b in ATOM_LAYOUTS:
        lay = f"{a}x{b}"
        lines.append(f"  {{ auto mma = make_tiled_mma({op}{{}}, make_layout(make_shape(Int<{a}>{{}}, Int<{b}>{{}})));")
        for w in "ABC":
            lines.append(f"    p({i}, \"{lay}/get_layout{w}_TV\", mma.get_layout{w}_TV());")
        lines.append("  }")
    lines.append(f"  {{ auto mma = make_tiled_mma({op}{{}});")
    lines.append(f"    p({i}, \"partition_shape_A\", partition_shape_A(mma, make_shape(Int<{2 * M}>{{}}, Int<{4 * K}>{{}})));")
    lines.append(f"    p({i}, \"partition_shape_B\", partition_shape_B(mma, make_shape(Int<{N}>{{}}, Int<{4 * K}>{{}})));")
    lines.append(f"    auto gA = make_tensor(make_gmem_ptr((float*)nullptr), make_layout(make_shape(Int<{M}>{{}}, "
                 f"Int<{K}>{{}}), make_stride(Int<{K}>{{}}, Int<1>{{}})));")
    if not name.startswith(("SM90_", "SM75_", "SM100_2x", "SM100_1x", "SM120")):
        lines.append(f"    auto gC = make_tensor(make_gmem_ptr((float*)nullptr), make_shape(Int<{M}>{{}}, Int<{N}>{{}}));")
        lines.append(f"    p({i}, \"partition_fragment_C\", mma.get_slice(0).partition_fragment_C(gC).layout());")
    for peer in range(int(str(t.ThrID).split(":")[0].strip("_"))):
        lines.append(f"    p({i}, \"slice{peer}/partition_A\", mma.get_slice({peer}).partition_A(gA).layout());")
    lines.append("  }")
    return lines


def program(group: list[tuple[int, dict[str, Any]]]) -> str:
    lines = ["#define CUTE_SM90_EXTENDED_MMA_SHAPES_ENABLED", "#include <cute/tensor.hpp>",
             "#include <cute/atom/mma_atom.hpp>", "#include <cute/atom/mma_traits_sm90_gmma_sparse.hpp>",
             "#include <cute/atom/mma_traits_sm90_gmma_sparse_ext.hpp>", "using namespace cute;",
             "template <class T> void p(int id, char const* what, T const& x) {",
             "  printf(\"%d\\t%s\\t\", id, what); print(x); printf(\"\\n\"); }", "int main() {"]
    for i, c in group:
        lines.append("{")
        if c["kind"] == "traits":
            op = c["atom"]
            lines.append(f"  using Tr = MMA_Traits<{op}>;")
            for w in TRAITS:
                lines.append(f"  p({i}, \"{w}\", typename Tr::{w}{{}});")
            for w in _sf_members(op):
                lines.append(f"  p({i}, \"{w}\", Int<Tr::SFVecSize>{{}});" if w == "SFVecSize"
                             else f"  p({i}, \"{w}\", typename Tr::{w}{{}});")
            if c["tiled"]:
                lines += _tiled_lines(i, op, op)
        elif c["kind"] == "tmem_frg":
            lines.append(f"  p({i}, \"tmem_frg\", {c['frg']}::make({_cpp_shape(c['shape'])}).layout());")
        else:
            atom = cpp_layout(c["layout"])
            if c["swizzle"]:
                b, m, s = c["swizzle"]
                atom = f"composition(Swizzle<{b},{m},{s}>{{}}, {atom})"
            lines.append(f"  p({i}, \"tile_to_mma\", UMMA::tile_to_mma_shape({atom}, {_cpp_shape(c['shape'])}));")
        lines.append("}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _cpp_shape(text: str) -> str:
    from cute_sym.notation import parse
    from cute_sym.core.int_tuple import unwrap

    def tup(x: Any) -> str:
        if type(x) is tuple:
            return "make_shape(" + ", ".join(tup(e) for e in x) + ")"
        return f"Int<{int(x)}>{{}}"
    return tup(unwrap(parse(text)))


PICTURES = ("SM100_MMA_TF32_SS<tfloat32_t, tfloat32_t, float, 64, 8, UMMA::Major::K, UMMA::Major::K>",
            "SM100_MMA_F16BF16_2x1SM_SS<half_t, half_t, float, 128, 16, UMMA::Major::K, UMMA::Major::MN>")
# (sf type, N_SM, is SFA, alloc, shape)
SF_FRG = (("float_ue8m0_t", 1, True, "ScaleFactorDuplicated4by1", "((_128,(_32,_4)),_1,_2)"),
          ("float_ue8m0_t", 1, False, "ScaleFactorDuplicated4by1", "((_256,(_32,_2)),_2,_1)"),
          ("float_ue4m3_t", 2, True, "ScaleFactorDuplicated4by1", "((_128,(_16,_4)),_1,_1)"),
          ("float_ue4m3_t", 2, False, "ScaleFactorDuplicated2by2", "((_128,(_16,_4)),_2,_1)"))


def extras_cases() -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [{"kind": "picture", "atom": a, "layout": lay, "fn": fn}
                                 for a in PICTURES for lay in ((1, 1), (2, 1)) for fn in ("print_latex", "print_svg")]
    return out + [{"kind": "tmem_sf_frg", "sf": sf, "n_sm": n, "is_sfa": a, "alloc": al, "shape": sh}
                  for sf, n, a, al, sh in SF_FRG]


def extras_program(group: list[tuple[int, dict[str, Any]]]) -> str:
    lines = ["#include <cute/tensor.hpp>", "#include <cute/atom/mma_atom.hpp>", "#include <cute/util/print_svg.hpp>",
             "using namespace cute;", "int main() {"]
    for i, c in group:
        if c["kind"] == "picture":
            a, b = c["layout"]
            lines.append(f"  printf(\"@@begin {i}\\n\"); {c['fn']}(make_tiled_mma({c['atom']}{{}}, "
                         f"make_layout(make_shape(Int<{a}>{{}}, Int<{b}>{{}})))); printf(\"\\n@@end {i}\\n\");")
        else:
            frg = (f"UMMA::tmem_sf_frg<{c['sf']}, 16, {c['n_sm']}, {'true' if c['is_sfa'] else 'false'}, "
                   f"UMMA::TmemAllocMode::{c['alloc']}>")
            lines.append(f"  printf(\"@@begin {i}\\n\"); print({frg}::make({_cpp_shape(c['shape'])}).layout()); "
                         f"printf(\"\\n@@end {i}\\n\");")
    lines.append("}")
    return "\n".join(lines) + "\n"


def extras_main(o: Any) -> int:
    import hashlib
    out = os.path.join(ROOT, "tests", "data", "umma_oracle_extras.jsonl")
    cs_ = extras_cases()
    texts: dict[int, str] = {}
    for text in run_chunks(cs_, extras_program, 100, 1, o.include, o.cuda):
        for part in text.split("@@begin ")[1:]:
            head, _, body = part.partition("\n")
            body, _, _ = body.rpartition("\n@@end ")
            texts[int(head)] = body.strip("\n")
    with open(out, "w") as fh:
        for i, c in enumerate(cs_):
            row = ({**c, "sha256": hashlib.sha256(texts[i].encode()).hexdigest()} if c["kind"] == "picture"
                   else {**c, "expect": texts[i]})
            fh.write(json.dumps(row) + "\n")
    print(f"{len(cs_)} extras -> {out}")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--include", default=os.environ.get("CUTE_INCLUDE", "/work/cutlass47/include"))
    ap.add_argument("--cuda", default=os.environ.get("CUDA_HOME", "/usr/local/cuda-13.0"))
    ap.add_argument("--chunk", type=int, default=200, help="cases per compiled program")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--every", type=int, default=1, help="keep every N-th UMMA and sparse GMMA atom")
    ap.add_argument("--out", default=os.path.join(ROOT, "tests", "data", "umma_oracle.jsonl"))
    ap.add_argument("--extras", action="store_true", help="pictures and scale-factor TMEM layouts")
    o = ap.parse_args()
    if o.extras:
        return extras_main(o)
    cs_ = cases(o.every)
    outs = run_chunks(cs_, program, o.chunk, o.jobs, o.include, o.cuda)
    answers: dict[int, dict[str, str]] = {}
    for text in outs:
        for line in text.splitlines():
            i, what, val = line.split("\t")
            answers.setdefault(int(i), {})[what] = val
    with open(o.out, "w") as fh:
        for i, c in enumerate(cs_):
            fh.write(json.dumps({**c, "expect": answers[i]}) + "\n")
    kinds: dict[str, int] = {}
    for c in cs_:
        kinds[c["kind"]] = kinds.get(c["kind"], 0) + 1
    print(f"{len(cs_)} cases {kinds}, {sum(len(a) for a in answers.values())} answers -> {o.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
