#!/usr/bin/env python3
"""CuTe's own answers for ``make_tmem_warp_partitioner`` (``cute/atom/copy_traits_sm100.hpp``) and
its ``TV_Tiler`` (``cute/atom/partitioner.hpp``), printed by CuTe 4.7 compiled here, and cute_sym's
compared with them.

For each TMEM tensor of three kinds,

* ``mma``: ``make_tiled_mma(Op{}).get_slice(0).partition_fragment_C(gC)`` of an UMMA atom (1-SM and
  2-SM, M = 64/128/256, float, half_t and int32_t accumulators) over a gmem ``gC``;
* ``frg``: ``UMMA::tmem_frg_{1,2}sm<...>::make(shape)`` (interleaved, non-interleaved, duplicated);
* ``plain``: ``make_tensor(make_tmem_ptr<T>(0), layout)`` of a few (M,N,...) layouts,

CuTe prints the tensor's layout, ``Tiler_MN`` and ``TiledLayout_TV`` of
``make_tmem_warp_partitioner(t)``, and for each warp ``w`` in 0..3 the layout and raw address of
``get_slice(w).partition(t)`` and the layout and offset of ``get_slice(w).partition(g)`` of a gmem
tensor ``g`` of ``t``'s shape (compact, column-major). A case CuTe refuses (a compile error:
``static_assert``) is recorded as ``{"refused": <its first error line>}``.

Writes ``tests/data/tmem_warp_oracle.jsonl`` (``tests/test_tmem_warp.py`` checks cute_sym against it
without a compiler) and prints the counts of agreeing and differing answers. Host code only:

    python3 scripts/tmem_warp_oracle.py [--include /work/cutlass47/include] [--cuda /usr/local/cuda-13.0]

``--include`` defaults to ``$CUTE_INCLUDE``, else /work/cutlass47/include where it exists, else the
``nvidia-cutlass`` wheel's headers; ``--cuda`` to ``$CUDA_HOME``, else /usr/local/cuda-13.0.
"""
from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import tempfile
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)

from cute_sym.core.errors import LayoutError  # noqa: E402
from cute_sym.layout import make_layout  # noqa: E402
from cute_sym.notation import parse  # noqa: E402
from cute_sym.tensor.atoms.copy_types import sizeof_bits  # noqa: E402
from cute_sym.tensor.engine import make_gmem_ptr  # noqa: E402
from cute_sym.tensor.mma import make_tiled_mma  # noqa: E402
from cute_sym.tensor.tensor import Tensor, make_tensor  # noqa: E402
from cute_sym.tensor.tmem_space import make_tmem_ptr  # noqa: E402
from cute_sym.tensor.tmem_warp import make_tmem_warp_partitioner  # noqa: E402
from cute_sym.tensor.umma import tmem_frg_layout  # noqa: E402
from cute_host import default_cuda, default_cute_include, try_build  # noqa: E402

OUT = os.path.join(ROOT, "tests", "data", "tmem_warp_oracle.jsonl")
WARPS = range(4)


def _mma(op: str, ctype: str, m: int, n: int, g: tuple[int, int], two: bool = False) -> dict[str, Any]:
    name = (f"SM100_MMA_{op}_{'2x1SM_' if two else ''}SS<{_ab(op)}, {ctype}, {m}, {n}, "
            "UMMA::Major::K, UMMA::Major::K>")
    return {"kind": "mma", "atom": name, "dtype": ctype, "shape": list(g)}


def _ab(op: str) -> str:
    return {"F16BF16": "half_t, half_t", "TF32": "tfloat32_t, tfloat32_t", "S8": "int8_t, int8_t",
            "F8F6F4": "float_e4m3_t, float_e2m1_t"}[op]


MMA_CASES = [
    _mma("F16BF16", "float", 64, 64, (64, 64)),
    _mma("F16BF16", "float", 64, 128, (128, 256)),
    _mma("F16BF16", "float", 64, 256, (64, 256)),
    _mma("F16BF16", "float", 128, 64, (128, 64)),
    _mma("F16BF16", "float", 128, 128, (256, 256)),
    _mma("F16BF16", "float", 128, 256, (128, 256)),
    _mma("F16BF16", "half_t", 64, 128, (64, 128)),
    _mma("F16BF16", "half_t", 128, 128, (128, 128)),
    _mma("F16BF16", "half_t", 128, 256, (128, 512)),
    _mma("F16BF16", "float", 128, 64, (128, 64), two=True),
    _mma("F16BF16", "float", 128, 256, (128, 256), two=True),
    _mma("F16BF16", "float", 256, 128, (256, 128), two=True),
    _mma("F16BF16", "float", 256, 256, (512, 256), two=True),
    _mma("F16BF16", "half_t", 256, 128, (256, 128), two=True),
    _mma("F16BF16", "half_t", 128, 64, (128, 128), two=True),
    _mma("TF32", "float", 128, 128, (128, 128)),
    _mma("TF32", "float", 256, 256, (256, 256), two=True),
    _mma("S8", "int32_t", 128, 64, (128, 64)),
    _mma("S8", "int32_t", 64, 128, (64, 128)),
    _mma("S8", "int32_t", 256, 128, (256, 128), two=True),
    _mma("F8F6F4", "float", 128, 144, (128, 144)),
]
FRG_CASES = [{"kind": "frg", "frg": f, "dtype": re.search(r"<([\w]+)", f)[1], "shape": s} for f, s in (  # type: ignore[index]
    ("UMMA::tmem_frg_1sm<float>", "((_128,_256),_1,_1)"),
    ("UMMA::tmem_frg_1sm<float>", "((_128,_64),_2,_2)"),
    ("UMMA::tmem_frg_1sm<float>", "((_64,_128),_2,_1)"),
    ("UMMA::tmem_frg_1sm<float>", "((_64,_64),_2,_2)"),
    ("UMMA::tmem_frg_1sm<float, int32_t, UMMA::TmemAllocMode::NonInterleaved>", "((_64,_128),_2,_1)"),
    ("UMMA::tmem_frg_1sm<half_t>", "((_128,_128),_1,_2)"),
    ("UMMA::tmem_frg_1sm<half_t>", "((_64,_128),_1,_1)"),
    ("UMMA::tmem_frg_1sm<half_t, half_t, UMMA::TmemAllocMode::NonInterleaved>", "((_64,_32),_2,_4)"),
    ("UMMA::tmem_frg_1sm<bfloat16_t>", "((_128,_64),_1,_1)"),
    ("UMMA::tmem_frg_2sm<float>", "((_64,_256),_1,_1)"),
    ("UMMA::tmem_frg_2sm<float>", "((_128,_128),_2,_1)"),
    ("UMMA::tmem_frg_2sm<half_t>", "((_32,_256),_1,_2)"),
    ("UMMA::tmem_frg_2sm<half_t, half_t, UMMA::TmemAllocMode::Duplicated>", "((_64,_32),_1,_4)"),
    ("UMMA::tmem_frg_2sm<bfloat16_t>", "((_128,_128),_1,_1)"),
    ("UMMA::tmem_frg_2sm<int32_t>", "((_64,_128),_2,_2)"),
)]
PLAIN_CASES = [{"kind": "plain", "dtype": t, "layout": lay} for t, lay in (
    ("float", "(_128,_256):(_65536,_1)"),
    ("float", "(_128,_32):(_65536,_1)"),
    ("float", "(_64,_64):(_65536,_1)"),
    ("float", "(_32,_128):(_65536,_1)"),
    ("float", "(_256,_32):(_65536,_1)"),
    ("float", "(_128,_64):(_65536,_2)"),
    ("float", "(_64,_128):(_1,_65536)"),
    ("float", "((_32,_4),_64):((_65536,_2097152),_1)"),
    ("float", "((_4,_32),_16):((_2097152,_65536),_1)"),
    ("float", "(_4,_32,_16):(_2097152,_65536,_1)"),
    ("float", "(_128,_16,_2):(_65536,_1,_16)"),
    ("float", "_128:_65536"),
    ("float", "(_128,_3):(_65536,_1)"),
    ("float", "(_128,_8):(_65536,_0)"),
    ("uint32_t", "(_128,_4):(_65536,_1)"),
    ("half_t", "(_128,_64):(_131072,_1)"),
    ("bfloat16_t", "(_128,_128):(_131072,_1)"),
    ("bfloat16_t", "(_128,_64):(_131072,_2)"),
    ("uint8_t", "(_128,_64):(_262144,_1)"),
    ("int32_t", "(_96,_32):(_65536,_1)"),
    ("float", "(_2,_2,_32,_2,_3):(_65536,_131072,_262144,_3,_1)"),
    ("float", "(_2,_4,(_8,_8)):(_4194304,_1,(_65536,_524288))"),
    ("half_t", "((_4,_32),_8):((_4194304,_131072),_2)"),
)]


def cases() -> list[dict[str, Any]]:
    return MMA_CASES + FRG_CASES + PLAIN_CASES


def _cpp(x: Any) -> str:
    if type(x) is tuple:
        return "make_shape(" + ", ".join(_cpp(e) for e in x) + ")"
    return f"Int<{int(x)}>{{}}"


def cpp_layout(text: str) -> str:
    lay = parse(text)
    return f"make_layout({_cpp(lay.shape)}, {_cpp(lay.stride)})"


PRELUDE = ["#include <cute/tensor.hpp>", "#include <cute/atom/copy_traits_sm100.hpp>", "#include <cute/atom/mma_atom.hpp>",
           "#include <cstdio>", "using namespace cute;",
           "template <class T> void p(int id, char const* what, T const& x) {",
           "  printf(\"%d\\t%s\\t\", id, what); print(x); printf(\"\\n\"); }"]


def _tmem_expr(c: dict[str, Any]) -> list[str]:
    t = c["dtype"]
    if c["kind"] == "mma":
        m, n = c["shape"]
        return [f"  auto mma = make_tiled_mma({c['atom']}{{}});",
                f"  auto gC = make_tensor(make_gmem_ptr(({t}*)nullptr), make_shape(Int<{m}>{{}}, Int<{n}>{{}}));",
                "  auto tm = mma.get_slice(0).partition_fragment_C(gC);"]
    if c["kind"] == "frg":
        from cute_sym.core.int_tuple import unwrap
        return [f"  auto tm = {c['frg']}::make({_cpp(unwrap(parse(c['shape'])))});"]
    return [f"  auto tm = make_tensor(make_tmem_ptr<{t}>(0), {cpp_layout(c['layout'])});"]


def block(i: int, c: dict[str, Any]) -> list[str]:
    t = c["dtype"]
    lines = ["{"] + _tmem_expr(c) + [
        f"  p({i}, \"tmem\", tm.layout());",
        "  auto wp = make_tmem_warp_partitioner(tm);",
        f"  p({i}, \"Tiler_MN\", typename decltype(wp)::Tiler_MN{{}});",
        f"  p({i}, \"TiledLayout_TV\", typename decltype(wp)::TiledLayout_TV{{}});",
        f"  static {t} g{i}[1];",
        f"  auto gm = make_tensor(make_gmem_ptr(g{i}), make_layout(shape(tm)));"]
    for w in WARPS:
        lines += [f"  {{ auto s = wp.get_slice({w}); auto a = s.partition(tm); auto b = s.partition(gm);",
                  f"    p({i}, \"{w}/tmem\", a.layout()); printf(\"{i}\\t{w}/addr\\t%u\\n\", raw_pointer_cast(a.data()));",
                  f"    p({i}, \"{w}/gmem\", b.layout()); printf(\"{i}\\t{w}/goff\\t%ld\\n\", "
                  f"(long)(raw_pointer_cast(b.data()) - g{i})); }}"]
    return lines + ["}"]


def program(group: list[tuple[int, dict[str, Any]]]) -> str:
    lines = PRELUDE + ["int main() {"]
    for i, c in group:
        lines += block(i, c)
    return "\n".join(lines + ["}"]) + "\n"


def _first_error(stderr: str) -> str:
    for line in stderr.splitlines():
        m = re.search(r"static assertion failed(?::| with)? *(.*)", line)
        if m:
            return m[1].strip() or "static assertion failed"
    for line in stderr.splitlines():
        if "error:" in line:
            return line.split("error:", 1)[1].strip()
    return "does not compile"


def run_cases(cs: list[dict[str, Any]], include: str, cuda: str, chunk: int, jobs: int) -> dict[int, dict[str, str]]:
    """Compile and run ``chunk`` cases a program; a program that does not compile is tried again case by
    case, and a case that does not compile alone is recorded as refused."""
    numbered = list(enumerate(cs))
    groups = [numbered[k:k + chunk] for k in range(0, len(numbered), chunk)]
    out: dict[int, dict[str, str]] = {}

    def one(work: str, tag: str, group: list[tuple[int, dict[str, Any]]]) -> None:
        exe, err = try_build(program(group), include, cuda, work, tag)
        if exe is None:
            if len(group) == 1:
                out[group[0][0]] = {"refused": _first_error(err)}
                return
            for i, c in group:
                one(work, f"{tag}_{i}", [(i, c)])
            return
        text = subprocess.run([exe], check=True, capture_output=True, text=True).stdout
        for line in text.splitlines():
            k, what, val = line.split("\t")
            out.setdefault(int(k), {})[what] = val

    with tempfile.TemporaryDirectory() as work, concurrent.futures.ThreadPoolExecutor(jobs) as ex:
        list(ex.map(lambda kg: one(work, f"p{kg[0]}", kg[1]), enumerate(groups)))
    return out


# ---- cute_sym's answers

def raw_address(offset: int, dtype: str) -> int:
    """``tmem_ptr<T> + offset``'s 32-bit address: the word offset rotated right by ``OffsetShift``."""
    shift = (32 // sizeof_bits(dtype)).bit_length() - 1
    return ((offset >> shift) | ((offset & ((1 << shift) - 1)) << (32 - shift))) & 0xFFFFFFFF


def tmem_tensor(c: dict[str, Any]) -> Tensor:
    t = c["dtype"]
    if c["kind"] == "mma":
        gc = make_tensor(make_gmem_ptr("gC", t), tuple(c["shape"]))
        tm = make_tiled_mma(c["atom"]).get_slice(0).partition_fragment_C(gc)
        assert isinstance(tm, Tensor)
        return tm
    if c["kind"] == "frg":
        return make_tensor(make_tmem_ptr(t, 0), tmem_frg_layout(c["frg"], parse(c["shape"])))
    return make_tensor(make_tmem_ptr(t, 0), parse(c["layout"]))


def ours(c: dict[str, Any]) -> dict[str, str]:
    """cute_sym's answers for the case ``c``, printed as CuTe prints them (a refusal: ``refused``)."""
    tm = tmem_tensor(c)
    out = {"tmem": str(tm.layout)}
    try:
        wp = make_tmem_warp_partitioner(tm)
    except LayoutError as e:
        return {"tmem": str(tm.layout), "refused": str(e)}
    out.update({"Tiler_MN": str(wp.Tiler_MN), "TiledLayout_TV": str(wp.TiledLayout_TV)})
    gm = make_tensor(make_gmem_ptr("g", c["dtype"]), make_layout(tm.layout.shape))
    for w in WARPS:
        s = wp.get_slice(w)
        a, b = s.partition(tm), s.partition(gm)
        out[f"{w}/tmem"] = str(a.layout)
        out[f"{w}/addr"] = str(raw_address(int(a.engine.offset), c["dtype"]))
        out[f"{w}/gmem"] = str(b.layout)
        out[f"{w}/goff"] = str(b.engine.offset)
    return out


def compare(rows: list[dict[str, Any]]) -> tuple[int, int, list[str]]:
    """(answers that agree, answers that differ, notes): a refusal agrees with a refusal."""
    same = differ = 0
    notes: list[str] = []
    for row in rows:
        got, want = ours(row), row["expect"]
        if "refused" in want or "refused" in got:
            ok = ("refused" in want) == ("refused" in got)
            same, differ = same + ok, differ + (not ok)
            if not ok:
                notes.append(f"{row}: CuTe {want.get('refused', 'accepts')}, cute_sym {got.get('refused', 'accepts')}")
            continue
        for what, val in want.items():
            if got.get(what) == val:
                same += 1
            else:
                differ += 1
                notes.append(f"{row.get('atom', row.get('frg', row.get('layout')))} {what}: CuTe {val}, "
                             f"cute_sym {got.get(what)}")
    return same, differ, notes


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--include", default=default_cute_include())
    ap.add_argument("--cuda", default=default_cuda())
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--chunk", type=int, default=10)
    ap.add_argument("--out", default=OUT)
    o = ap.parse_args()
    cs = cases()
    got = run_cases(cs, o.include, o.cuda, o.chunk, o.jobs)
    rows = [{**c, "expect": got[i]} for i, c in enumerate(cs)]
    with open(o.out, "w") as fh:
        for row in rows:
            fh.write(json.dumps(row) + "\n")
    same, differ, notes = compare(rows)
    for n in notes[:40]:
        print(n)
    refused = sum("refused" in r["expect"] for r in rows)
    print(f"make_tmem_warp_partitioner: {len(rows)} TMEM tensors ({refused} refused by CuTe), "
          f"{same} answers agree, {differ} differ")
    print(f"-> {o.out}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
