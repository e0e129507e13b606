#!/usr/bin/env python3
"""CuTe 4.7's GMMA/UMMA smem descriptors, compiled here, against cute_sym's (every field).

For each case (an element type, a smem tile: a canonical atom tiled to a shape or a plain
layout; a slice of it: one MMA's K-block at a coordinate, so at an offset into the buffer;
the buffer's byte address; GMMA or UMMA; the major), CuTe's ``make_gmma_desc<Major>`` /
``UMMA::make_umma_desc<Major>`` runs on the host (``cast_smem_ptr_to_uint`` is given a
host definition: the byte offset into a 1 KiB-aligned buffer) and prints the 64-bit word;
a case CuTe refuses (a ``static_assert``) does not compile. cute_sym's ``make_gmma_desc`` /
``make_umma_desc`` must give the same word (start address, leading and stride byte
offsets, base offset, layout type; UMMA's version and LBO mode) or refuse the same cases.

    python3 scripts/desc_oracle.py [--include /work/cutlass47/include] [--cuda /usr/local/cuda-13.0]
                                   [--out tests/data/desc_oracle.jsonl] [--check] [--table]

``--check`` compares cute_sym with the stored answers only (no compiler); ``--table``
prints the Markdown table docs/tma.md shows.
"""
from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import sys
import tempfile
from typing import Any, Optional

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
sys.path.insert(0, HERE)

import cute_sym as cs  # noqa: E402
from cute_sym.tensor.smem_desc import make_gmma_desc, make_umma_desc  # noqa: E402
from cute_sym.tensor.atoms.smem_atoms import SMEM_ATOMS  # noqa: E402
from cute_host import build  # noqa: E402

INCLUDE = os.environ.get("CUTE_INCLUDE", "/work/cutlass47/include")
CUDA = os.environ.get("CUDA_HOME", "/usr/local/cuda-13.0")
OUT = os.path.join(ROOT, "tests", "data", "desc_oracle.jsonl")
TYPES = ("half_t", "tfloat32_t", "float_e4m3_t")
BITS = {"half_t": 16, "tfloat32_t": 32, "float_e4m3_t": 8}

PRELUDE = r"""
#include <cstddef>
#include <cstdio>
#define CUTE_CVTA_GENERIC_TO_SHARED_ACTIVATED 1
alignas(1024) static unsigned char g_smem[1 << 20];
static inline size_t __cvta_generic_to_shared(void const* p) { return (size_t)((unsigned char const*)p - g_smem); }
#include <cute/tensor.hpp>
#include <cute/atom/mma_traits_sm90_gmma.hpp>
#include <cute/atom/mma_traits_sm100.hpp>
using namespace cute;
int main() {
"""


def cases() -> list[dict[str, Any]]:
    """Every atom of both kinds in three types, tiled, two K-blocks each at two buffer addresses;
    plain layouts; and the layouts CuTe refuses."""
    out: list[dict[str, Any]] = []
    for kind in ("GMMA", "UMMA"):
        for base, e in SMEM_ATOMS.items():
            if kind not in e.namespaces:
                continue
            for t in TYPES:
                b = BITS[t]
                kb = 256 // b                         # one MMA's K: 32 bytes
                w = (e.shape[0] if e.major == "MN" else e.shape[1]) // b   # the atom's contiguous extent
                if e.major == "K":
                    shape, tile = (128, max(2 * w, 2 * kb)), (128, kb)
                else:
                    shape, tile = (2 * w, 2 * kb), (2 * w, kb)
                nk = shape[1] // kb
                for j, addr in ((0, 0), (nk - 1, 3072)):
                    out.append({"kind": kind, "major": e.major, "type": t, "atom": f"{kind}::{base}_Atom<{t}>",
                                "shape": list(shape), "order": [1, 2], "tile": list(tile), "coord": [0, j],
                                "base": addr})
    plain = [
        # the canonical INTERLEAVE forms written by hand (accepted)
        ("GMMA", "K", "half_t", "((_8,_8),(_8,_2)):((_8,_64),(_1,_512))", (64, 16), 0),
        ("UMMA", "K", "half_t", "((_8,_16),(_8,_2)):((_8,_64),(_1,_1024))", (128, 16), 2048),
        ("GMMA", "MN", "half_t", "((_8,_8),(_8,_2)):((_1,_64),(_8,_512))", (64, 16), 1024),
        # refused: row-major, column-major without the core-matrix grouping, too few rows
        ("GMMA", "K", "half_t", "(_64,_16):(_16,_1)", (64, 16), 0),
        ("GMMA", "MN", "half_t", "(_64,_16):(_1,_64)", (64, 16), 0),
        ("UMMA", "K", "half_t", "(_4,_16):(_16,_1)", (4, 16), 0),
        ("UMMA", "MN", "float_e4m3_t", "(_128,_32):(_32,_1)", (128, 32), 0),
    ]
    for kind, major, t, lay, tile, addr in plain:
        out.append({"kind": kind, "major": major, "type": t, "layout": lay, "tile": list(tile), "coord": [0, 0],
                    "base": addr})
    refused_atoms = [
        ("GMMA", "MN", "half_t", "GMMA::Layout_K_SW128_Atom<half_t>", (64, 64), (64, 16)),     # major mismatch
        ("GMMA", "K", "tfloat32_t", "GMMA::Layout_MN_SW64_Atom<tfloat32_t>", (32, 16), (32, 8)),
        ("UMMA", "K", "half_t", "UMMA::Layout_MN_SW128_32B_Atom<half_t>", (128, 16), (128, 16)),  # BASE32B is MN only
        ("GMMA", "K", "half_t", "GMMA::Layout_K_SW128_Atom<half_t>", (64, 64), (64, 64)),      # K of 8 chunks
        ("GMMA", "MN", "half_t", "GMMA::Layout_MN_SW128_Atom<half_t>", (64, 32), (64, 32)),    # K 32, not 16
        ("UMMA", "MN", "float_e4m3_t", "UMMA::Layout_K_SW64_Atom<float_e4m3_t>", (64, 64), (64, 32)),
    ]
    for kind, major, t, atom, shape, tile in refused_atoms:
        out.append({"kind": kind, "major": major, "type": t, "atom": atom, "shape": list(shape), "order": [1, 2],
                    "tile": list(tile), "coord": [0, 0], "base": 0})
    return out


def _cpp_tuple(x: Any) -> str:
    if type(x) is tuple:
        return "make_shape(" + ", ".join(_cpp_tuple(e) for e in x) + ")"
    return f"Int<{int(x)}>{{}}"


def cpp_layout(text: str) -> str:
    lay = cs.parse(text)
    return f"make_layout({_cpp_tuple(lay.shape)}, {_cpp_tuple(lay.stride).replace('make_shape', 'make_stride')})"


def cpp_case(i: int, c: dict[str, Any]) -> str:
    t = c["type"]
    if "atom" in c:
        sm, sk = c["shape"]
        sl = (f"tile_to_shape({c['atom']}{{}}, make_shape(Int<{sm}>{{}}, Int<{sk}>{{}}), "
              f"Step<_{c['order'][0]},_{c['order'][1]}>{{}})")
    else:
        sl = cpp_layout(c["layout"])
    tm, tk = c["tile"]
    fn = ("GMMA::make_gmma_desc<GMMA::Major::" if c["kind"] == "GMMA" else "UMMA::make_umma_desc<UMMA::Major::")
    return (f"  {{ using T = {t}; auto sL = {sl};\n"
            f"    auto sT = make_tensor(make_smem_ptr((T*)(g_smem + {c['base']})), sL);\n"
            f"    auto tl = local_tile(sT, make_shape(Int<{tm}>{{}}, Int<{tk}>{{}}), make_coord({c['coord'][0]}, "
            f"{c['coord'][1]}));\n"
            f"    auto d = {fn}{c['major']}>(tl);\n"
            f"    printf(\"{i} %016llx\\n\", (unsigned long long)d.desc_); }}\n")


def cute_sym_answer(c: dict[str, Any]) -> str:
    """cute_sym's word (hex) or ``refused``."""
    t = c["type"]
    if "atom" in c:
        sL: Any = cs.tile_to_shape(cs.smem_layout_atom(c["atom"]), tuple(c["shape"]), tuple(c["order"]))
    else:
        sL = cs.parse(c["layout"])
    sT = cs.make_tensor(cs.make_smem_ptr("S", t), sL)
    tl = cs.local_tile(sT, tuple(c["tile"]), tuple(c["coord"]))
    make = make_gmma_desc if c["kind"] == "GMMA" else make_umma_desc
    try:
        d = make(tl, c["major"], base_address=c["base"])
    except cs.LayoutError:
        return "refused"
    return f"{d.desc:016x}"


def run_cute(cs_: list[dict[str, Any]], include: str, cuda: str, jobs: int) -> list[str]:
    """CuTe's answer for each case: the accepted ones in one program each chunk; a chunk that
    does not compile is split until the refused cases stand alone."""
    answers: dict[int, str] = {}

    def attempt(group: list[tuple[int, dict[str, Any]]], work: str, tag: str) -> None:
        src = PRELUDE + "".join(cpp_case(i, c) for i, c in group) + "}\n"
        exe = build(src, include, cuda, work, tag)
        if exe is None:
            if len(group) == 1:
                answers[group[0][0]] = "refused"
                return
            h = len(group) // 2
            attempt(group[:h], work, tag + "a")
            attempt(group[h:], work, tag + "b")
            return
        import subprocess
        for line in subprocess.run([exe], check=True, capture_output=True, text=True).stdout.split("\n"):
            if line.strip():
                k, v = line.split()
                answers[int(k)] = v

    numbered = list(enumerate(cs_))
    likely_bad = [(i, c) for i, c in numbered if cute_sym_answer(c) == "refused"]
    good = [(i, c) for i, c in numbered if cute_sym_answer(c) != "refused"]
    groups = [good[k:k + 40] for k in range(0, len(good), 40)] + [[x] for x in likely_bad]
    with tempfile.TemporaryDirectory() as work, concurrent.futures.ThreadPoolExecutor(jobs) as ex:
        list(ex.map(lambda kg: attempt(kg[1], work, f"p{kg[0]}"), enumerate(groups)))
    return [answers[i] for i in range(len(cs_))]


def _fields(word: str, kind: str) -> str:
    if word == "refused":
        return "refused"
    v = int(word, 16)
    lt = (v >> 62) & 3 if kind == "GMMA" else (v >> 61) & 7
    return f"start {v & 0x3FFF}, LBO {(v >> 16) & 0x3FFF}, SBO {(v >> 32) & 0x3FFF}, base {(v >> 49) & 7}, type {lt}"


def table(rows: list[dict[str, Any]]) -> str:
    lines = ["| # | kind | major | type | smem tile | slice @ coord | base | CuTe | cute_sym |",
             "|---|---|---|---|---|---|---|---|---|"]
    for i, r in enumerate(rows):
        c = r["case"]
        what = (f"{c['atom'].split('::')[1].split('<')[0]} {tuple(c['shape'])}" if "atom" in c else c["layout"])
        same = "same" if r["cute"] == r["cute_sym"] else f"**{_fields(r['cute_sym'], c['kind'])}**"
        lines.append(f"| {i} | {c['kind']} | {c['major']} | {c['type']} | {what} | {tuple(c['tile'])} @ "
                     f"{tuple(c['coord'])} | {c['base']} | {_fields(r['cute'], c['kind'])} | {same} |")
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--include", default=INCLUDE)
    ap.add_argument("--cuda", default=CUDA)
    ap.add_argument("--out", default=OUT)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--check", action="store_true", help="compare with the stored answers (no compiler)")
    ap.add_argument("--table", action="store_true", help="print the Markdown table of the stored answers")
    o = ap.parse_args()
    if o.check or o.table:
        rows = [json.loads(line) for line in open(o.out)]
        for r in rows:
            r["cute_sym"] = cute_sym_answer(r["case"])
        if o.table:
            print(table(rows))
        bad = [r for r in rows if r["cute"] != r["cute_sym"]]
        print(f"desc oracle: {len(rows) - len(bad)}/{len(rows)} agree "
              f"({sum(r['cute'] == 'refused' for r in rows)} refused by CuTe)", file=sys.stderr)
        return 1 if bad else 0
    cs_ = cases()
    cute = run_cute(cs_, o.include, o.cuda, o.jobs)
    bad = 0
    with open(o.out, "w") as fh:
        for c, a in zip(cs_, cute):
            mine: Optional[str] = cute_sym_answer(c)
            if mine != a:
                bad += 1
                print(f"DIFF {c}: CuTe {_fields(a, c['kind'])}  cute_sym {_fields(mine or '', c['kind'])}")
            fh.write(json.dumps({"case": c, "cute": a}) + "\n")
    print(f"desc oracle: {len(cs_) - bad}/{len(cs_)} agree ({sum(a == 'refused' for a in cute)} refused by CuTe)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
