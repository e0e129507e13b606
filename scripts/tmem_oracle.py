#!/usr/bin/env python3
"""CuTe's own answers for the Blackwell (SM100) copies, printed by CuTe 4.7 compiled here, and
cute_sym's compared with them.

* ``traits``: ``ThrID``, ``ValID`` (where CuTe has one), ``SrcLayout``, ``DstLayout``,
  ``RefLayout`` of ``Copy_Traits<Op>`` for every ``SM100_*`` operation of cute_sym's copy
  table: the 150 ``tcgen05.ld/st`` (``SM100_TMEM_LOAD/STORE/LOAD_STAT_*``), the 12
  ``tcgen05.cp`` (``SM100_UTCCP_*``) and the other SM100 copies (``ldmatrix``/``stmatrix``
  of 8-bit data, the 256-bit loads and stores);
* ``tmem_copy``: ``make_tmem_copy(Copy_Atom<Op,T>, tmem)`` over TMEM accumulators
  (``Tiler_MN``, ``TiledLayout_TV``, and for three threads the TMEM side's partition, its
  address, and the register/global side's partition; for the rank-2 tensors also the sha256 of
  ``print_latex`` of the tiled copy);
* ``utccp_copy``: ``make_utccp_copy(Op{}, tmem)`` of the ``tcgen05.cp`` operations over TMEM
  tensors (the same, each CTA's thread);
* ``op_repeater``: ``TMEM::op_repeater<Op1x, bits_n>()`` for every 1x load and store.

Writes ``tests/data/tmem_oracle.jsonl`` (CuTe's answers; ``tests/test_tmem.py`` checks the
tables against it without a compiler) and prints the counts of agreeing and differing
answers. Host code only (g++ and the CUDA headers):

    python3 scripts/tmem_oracle.py [--include /work/cutlass47/include] [--cuda /usr/local/cuda-13.0]

``--include`` defaults to ``$CUTE_INCLUDE``, else /work/cutlass47/include where it exists, else
the ``nvidia-cutlass`` wheel's headers (4.2 there: no ``LOAD_STAT``).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import sys
from typing import Any, Callable

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)

from cute_sym.core.errors import LayoutError  # noqa: E402
from cute_sym.notation import parse  # noqa: E402
from cute_sym.tensor.atoms.copy_atom import Copy_Atom  # noqa: E402
from cute_sym.tensor.atoms.copy_traits import COPY_TRAITS, Copy_Traits  # noqa: E402
from cute_sym.tensor.engine import make_gmem_ptr, make_smem_ptr  # noqa: E402
from cute_sym.tensor.tensor import make_tensor  # noqa: E402
from cute_sym.tensor.atoms.copy_sm100_data import TMEM_SHAPES, tmem_op_repeater  # noqa: E402
from cute_sym.tensor.tmem_copy import make_tmem_copy, make_utccp_copy  # noqa: E402
from cute_sym.views.draw import latex  # noqa: E402
from cute_sym.tensor.tmem_space import make_tmem_ptr  # noqa: E402
from cute_host import default_cuda, default_cute_include, run_chunks  # noqa: E402

WHATS = ("ThrID", "ValID", "SrcLayout", "DstLayout", "RefLayout")
OUT = os.path.join(ROOT, "tests", "data", "tmem_oracle.jsonl")

# TMEM tensors (element type, layout) and the operations tiled over them
TMEM_TENSORS = (
    ("float", "((_128,_64),_1,_1):((_65536,_1),_0,_0)"),
    ("float", "((_128,_256),_1,_1):((_65536,_1),_0,_0)"),
    ("float", "(_128,_32):(_65536,_1)"),
    ("half_t", "(_128,_64):(_131072,_1)"),
)
F32_OPS = ("SM100_TMEM_LOAD_32dp32b1x", "SM100_TMEM_LOAD_32dp32b4x", "SM100_TMEM_LOAD_32dp32b16x",
           "SM100_TMEM_LOAD_STAT_32dp32b32x", "SM100_TMEM_LOAD_16dp256b1x", "SM100_TMEM_LOAD_16dp128b2x",
           "SM100_TMEM_LOAD_16dp64b4x", "SM100_TMEM_LOAD_16dp32b2x", "SM100_TMEM_STORE_32dp32b2x",
           "SM100_TMEM_STORE_16dp128b1x", "SM100_TMEM_STORE_16dp32b4x")
F16_OPS = ("SM100_TMEM_LOAD_32dp32b2x", "SM100_TMEM_LOAD_32dp32b4x_16b", "SM100_TMEM_LOAD_16dp256b1x_16b",
           "SM100_TMEM_STORE_32dp32b8x", "SM100_TMEM_STORE_32dp32b2x_16b")
THREADS = (0, 37, 127)
# tcgen05.cp over TMEM tensors (element type, layout, operations)
UTCCP_TENSORS = (
    ("uint32_t", "(_128,_4):(_65536,_1)", ("SM100_UTCCP_128dp128bit_1cta", "SM100_UTCCP_128dp128bit_2cta",
                                           "SM100_UTCCP_4x32dp128bit_1cta", "SM100_UTCCP_2x64dp128bitlw0213_2cta",
                                           "SM100_UTCCP_2x64dp128bitlw0123_1cta")),
    ("uint32_t", "(_128,_8):(_65536,_1)", ("SM100_UTCCP_128dp256bit_1cta", "SM100_UTCCP_4dp256bit_2cta")),
    ("uint8_t", "(_128,_16):(_262144,_1)", ("SM100_UTCCP_128dp128bit_1cta", "SM100_UTCCP_4x32dp128bit_2cta")),
)
REPEAT_BITS = (32, 64, 96, 256, 768, 1024, 4096, 8192, 12288, 32768)


def sm100_ops() -> list[str]:
    return [n for n in COPY_TRAITS if n.startswith("SM100_")]


def cpp_layout(text: str) -> str:
    lay = parse(text)

    def tup(t: Any) -> str:
        if isinstance(t, tuple):
            return "make_shape(" + ", ".join(tup(x) for x in t) + ")"
        return f"Int<{int(t)}>{{}}"
    return f"make_layout({tup(lay.shape)}, {tup(lay.stride)})"


def copy_cases() -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for dtype, layout in TMEM_TENSORS:
        for op in F32_OPS if dtype == "float" else F16_OPS:
            out.append({"op": op, "dtype": dtype, "layout": layout})
    return out


def utccp_cases() -> list[dict[str, Any]]:
    return [{"op": op, "dtype": t, "layout": lay} for t, lay, ops in UTCCP_TENSORS for op in ops]


def repeater_cases() -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for op in COPY_TRAITS:
        m = re.fullmatch(r"SM100_TMEM_(?:LOAD|STORE)_(\d+)dp(\d+)b1x(?:_16b)?", op)
        if m:
            bits = TMEM_SHAPES[(int(m[1]), int(m[2]))][0]
            out += [{"op": op, "bits": b} for b in REPEAT_BITS if b % bits == 0]
    return out


PRELUDE = ["#include <cute/tensor.hpp>", "#include <cute/atom/copy_traits_sm100.hpp>", "#include <cstdio>",
           "using namespace cute;",
           "template <class T, class = void> struct has_val : false_type {};",
           "template <class T> struct has_val<T, void_t<typename T::ValID>> : true_type {};",
           "template <class T> void p(int id, char const* what, T const& x) {",
           "  printf(\"%d\\t%s\\t\", id, what); print(x); printf(\"\\n\"); }",
           "template <class Tr> void pv(int id) { if constexpr (has_val<Tr>::value) p(id, \"ValID\", typename Tr::ValID{}); }"]


def traits_program(group: list[tuple[int, str]]) -> str:
    lines = PRELUDE + ["int main() {"]
    for i, op in group:
        lines.append(f"{{ using Tr = Copy_Traits<{op}>;")
        for w in WHATS:
            if w == "ValID":
                lines.append(f"  pv<Tr>({i});")
            else:
                lines.append(f"  p({i}, \"{w}\", typename Tr::{w}{{}});")
        lines.append("}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _copy_block(i: int, c: dict[str, Any]) -> list[str]:
    t, op = c["dtype"], c["op"]
    load = "_LOAD_" in op
    lines = [f"{{ auto tm = make_tensor(make_tmem_ptr<{t}>(0), {cpp_layout(c['layout'])});",
             f"  auto gm = make_tensor(make_gmem_ptr(({t}*)nullptr), make_layout(shape(tm)));",
             f"  auto tc = make_tmem_copy(Copy_Atom<{op}, {t}>{{}}, tm);",
             f"  p({i}, \"Tiler_MN\", typename decltype(tc)::Tiler_MN{{}});",
             f"  p({i}, \"TiledLayout_TV\", typename decltype(tc)::TiledLayout_TV{{}});"]
    for tid in THREADS:
        tm, gm = ("S", "D") if load else ("D", "S")
        lines += [f"  {{ auto thr = tc.get_slice({tid}); auto a = thr.partition_{tm}(tm);",
                  f"    p({i}, \"{tid}/tmem\", a.layout()); printf(\"{i}\\t{tid}/addr\\t%u\\n\", raw_pointer_cast(a.data()));",
                  f"    p({i}, \"{tid}/gmem\", thr.partition_{gm}(gm).layout()); }}"]
    return lines + ["}"]


def _latex_block(i: int) -> list[str]:
    return [f"  printf(\"@@begin {i}\\n\"); print_latex(tc); printf(\"\\n@@end {i}\\n\");"]


def _utccp_block(i: int, c: dict[str, Any]) -> list[str]:
    t, op = c["dtype"], c["op"]
    lines = [f"{{ auto tm = make_tensor(make_tmem_ptr<{t}>(0), {cpp_layout(c['layout'])});",
             f"  auto sm = make_tensor(make_smem_ptr(({t}*)nullptr), make_layout(shape(tm)));",
             f"  auto tc = make_utccp_copy({op}{{}}, tm);",
             f"  p({i}, \"Tiler_MN\", typename decltype(tc)::Tiler_MN{{}});",
             f"  p({i}, \"TiledLayout_TV\", typename decltype(tc)::TiledLayout_TV{{}});"]
    for tid in range(2 if op.endswith("2cta") else 1):
        lines += [f"  {{ auto thr = tc.get_slice({tid}); auto a = thr.partition_D(tm);",
                  f"    p({i}, \"{tid}/tmem\", a.layout()); printf(\"{i}\\t{tid}/addr\\t%u\\n\", raw_pointer_cast(a.data()));",
                  f"    p({i}, \"{tid}/smem\", thr.partition_S(sm).layout()); }}"]
    return lines + ["}"]


def utccp_program(group: list[tuple[int, dict[str, Any]]]) -> str:
    lines = PRELUDE + ["int main() {"]
    for i, c in group:
        lines += _utccp_block(i, c)
    return "\n".join(lines + ["}"]) + "\n"


def repeater_program(group: list[tuple[int, dict[str, Any]]]) -> str:
    lines = PRELUDE + ["#include <cxxabi.h>", "#include <typeinfo>", "int main() {"]
    for i, c in group:
        lines.append(f"{{ using R = decltype(TMEM::op_repeater<{c['op']}, {c['bits']}>()); int st;"
                     f" char* n = abi::__cxa_demangle(typeid(R).name(), 0, 0, &st);"
                     f" printf(\"{i}\\top\\t%s\\n\", n); }}")
    return "\n".join(lines + ["}"]) + "\n"


def copy_program(group: list[tuple[int, dict[str, Any]]]) -> str:
    lines = PRELUDE + ["int main() {"]
    for i, c in group:
        block = _copy_block(i, c)
        if parse(c["layout"]).rank() == 2:      # the picture of the tiled copy, as a digest
            block[-1:-1] = ["{ auto tc = make_tmem_copy(Copy_Atom<" + c["op"] + ", " + c["dtype"] + ">{}, make_tensor("
                            "make_tmem_ptr<" + c["dtype"] + ">(0), " + cpp_layout(c["layout"]) + "));"] + \
                _latex_block(i) + ["}"]
        lines += block
    return "\n".join(lines + ["}"]) + "\n"


def _parse(texts: list[str]) -> dict[int, dict[str, str]]:
    out: dict[int, dict[str, str]] = {}
    for text in texts:
        while "@@begin " in text:       # a picture: its digest, leading and trailing blank lines stripped
            head, _, rest = text.partition("@@begin ")
            num, _, rest = rest.partition("\n")
            body, _, text = rest.partition(f"\n@@end {num}\n")
            text = head + text
            out.setdefault(int(num), {})["print_latex"] = hashlib.sha256(body.strip("\n").encode()).hexdigest()
        for line in text.splitlines():
            i, what, val = line.split("\t")
            out.setdefault(int(i), {})[what] = val
    return out


def ours_traits(op: str) -> dict[str, str]:
    t = Copy_Traits(op)
    return {w: str(getattr(t, w)) for w in WHATS if hasattr(t, w)}


def _raw_address(offset: int, dtype: str) -> int:
    """``tmem_ptr<T> + offset``'s address: the word offset rotated right by ``OffsetShift``."""
    shift = {"float": 0, "uint32_t": 0, "half_t": 1, "uint8_t": 2}[dtype]
    return ((offset >> shift) | ((offset & ((1 << shift) - 1)) << (32 - shift))) & 0xFFFFFFFF


def _digest(text: str) -> str:
    return hashlib.sha256(text.strip("\n").encode()).hexdigest()


def ours_utccp(c: dict[str, Any]) -> dict[str, str]:
    t = c["dtype"]
    tm = make_tensor(make_tmem_ptr(t, 0), parse(c["layout"]))
    sm = make_tensor(make_smem_ptr("s", t), parse(c["layout"]).shape)
    tc = make_utccp_copy(c["op"], tm)
    out = {"Tiler_MN": str(tc.Tiler_MN), "TiledLayout_TV": str(tc.TiledLayout_TV)}
    for tid in range(2 if c["op"].endswith("2cta") else 1):
        a = tc.get_slice(tid).partition_D(tm)
        out[f"{tid}/tmem"] = str(a.layout)
        out[f"{tid}/addr"] = str(_raw_address(int(a.engine.offset), t))
        out[f"{tid}/smem"] = str(tc.get_slice(tid).partition_S(sm).layout)
    return out


def ours_copy(c: dict[str, Any]) -> dict[str, str]:
    t = c["dtype"]
    tm = make_tensor(make_tmem_ptr(t, 0), parse(c["layout"]))
    gm = make_tensor(make_gmem_ptr("g", t), parse(c["layout"]).shape)
    tc = make_tmem_copy(Copy_Atom(c["op"], t), tm)
    out = {"Tiler_MN": str(tc.Tiler_MN), "TiledLayout_TV": str(tc.TiledLayout_TV)}
    load = "_LOAD_" in c["op"]
    for tid in THREADS:
        thr = tc.get_slice(tid)
        a = thr.partition_S(tm) if load else thr.partition_D(tm)
        g = thr.partition_D(gm) if load else thr.partition_S(gm)
        out[f"{tid}/tmem"] = str(a.layout)
        out[f"{tid}/addr"] = str(_raw_address(int(a.engine.offset), t))
        out[f"{tid}/gmem"] = str(g.layout)
    if tm.layout.rank() == 2:
        out["print_latex"] = _digest(latex(tc))
    return out


def compare(rows: list[dict[str, Any]], ours: Callable[[dict[str, Any]], dict[str, str]]) -> tuple[int, int, list[str]]:
    same = differ = 0
    notes: list[str] = []
    for row in rows:
        try:
            got = ours(row)
        except LayoutError as e:
            got = {"error": str(e)}
        for what, want in row["expect"].items():
            if got.get(what) == want:
                same += 1
            else:
                differ += 1
                notes.append(f"{row.get('op')} {row.get('layout', '')} {what}: CuTe {want}, cute_sym {got.get(what, got)}")
        extra = set(got) - set(row["expect"]) - {"error"}
        for what in extra:      # a member cute_sym has and CuTe does not (ValID of a non-TMEM op)
            differ += 1
            notes.append(f"{row.get('op')} {what}: CuTe has none, cute_sym {got[what]}")
    return same, differ, notes


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--include", default=default_cute_include())
    ap.add_argument("--cuda", default=default_cuda())
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", default=OUT)
    o = ap.parse_args()
    ops = sm100_ops()
    traits = _parse(run_chunks(ops, traits_program, 60, o.jobs, o.include, o.cuda))
    rows: list[dict[str, Any]] = [{"kind": "traits", "op": op, "expect": traits[i]} for i, op in enumerate(ops)]
    cases = copy_cases()
    copies = _parse(run_chunks(cases, copy_program, 8, o.jobs, o.include, o.cuda))
    rows += [{"kind": "tmem_copy", **c, "expect": copies[i]} for i, c in enumerate(cases)]
    ucases = utccp_cases()
    ucopies = _parse(run_chunks(ucases, utccp_program, 16, o.jobs, o.include, o.cuda))
    rows += [{"kind": "utccp_copy", **c, "expect": ucopies[i]} for i, c in enumerate(ucases)]
    rcases = repeater_cases()
    reps = _parse(run_chunks(rcases, repeater_program, 400, o.jobs, o.include, o.cuda))
    rows += [{"kind": "op_repeater", **c, "expect": {"op": reps[i]["op"].rpartition("::")[2]}}
             for i, c in enumerate(rcases)]
    with open(o.out, "w") as fh:
        for row in rows:
            fh.write(json.dumps(row) + "\n")
    t_same, t_diff, t_notes = compare([r for r in rows if r["kind"] == "traits"], lambda r: ours_traits(r["op"]))
    c_same, c_diff, c_notes = compare([r for r in rows if r["kind"] == "tmem_copy"], ours_copy)
    u_same, u_diff, u_notes = compare([r for r in rows if r["kind"] == "utccp_copy"], ours_utccp)
    r_same, r_diff, r_notes = compare([r for r in rows if r["kind"] == "op_repeater"],
                                      lambda r: {"op": tmem_op_repeater(r["op"], r["bits"])})
    for n in (t_notes + c_notes + u_notes + r_notes)[:40]:
        print(n)
    print(f"traits: {len(ops)} operations, {t_same} answers agree, {t_diff} differ")
    print(f"make_tmem_copy: {len(cases)} tiled copies, {c_same} answers agree, {c_diff} differ")
    print(f"make_utccp_copy: {len(ucases)} tiled copies, {u_same} answers agree, {u_diff} differ")
    print(f"TMEM::op_repeater: {len(rcases)} cases, {r_same} agree, {r_diff} differ")
    print(f"-> {o.out}")
    return 1 if t_diff or c_diff or u_diff or r_diff else 0


if __name__ == "__main__":
    sys.exit(main())
