"""The analysed accesses measured on the GPU: each case is a layout, an access and its prediction.

Each case gives, per thread and instruction, the byte address the kernel loads (from the
layout functions themselves: CuTe's partition ``tidfrg_S`` or ``layout(tv(t, v))``), and the
prediction of ``cute_sym.analysis`` summed over the warps of the block.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Union

from cute_sym.analysis import BankConflicts, Cases, Coalescing, bank_conflicts, coalescing
from cute_sym.core.integers import Dyn
from cute_sym.layout import Layout, make_layout
from cute_sym.notation import parse
from cute_sym import Copy_Atom
from cute_sym import TiledCopy, make_tiled_copy, make_tiled_copy_A, make_tiled_copy_B
from cute_sym import make_tiled_mma


@dataclass
class Case:
    name: str
    space: str                 # "shared" or "global"
    instr: str                 # PTX load: "ld.v4", "ld.v2", "ld", "ldmatrix.x4", ...
    bits: int                  # element bits
    vector_bits: int           # bits per thread and instruction (ldmatrix: 128 per row address)
    nthreads: int
    addrs: list[list[int]]     # [instruction][thread] -> byte address
    predicted: dict[str, int]  # wavefronts, conflicts (shared) / sectors, requests (global)
    note: str
    extent_bytes: int


def _one(x: Any, **at: int) -> Any:
    return x.at(**at) if isinstance(x, Cases) else x


def _tc_addrs(tc: TiledCopy, layout: Any, nthr: int) -> list[list[int]]:
    t = tc.tidfrg_S(layout)
    inner = t.layout_b if hasattr(t, "layout_b") else t
    nx, nr = inner[1][1].size(), inner[2].size()
    return [[int(t((th, (0, x), r))) * tc.bits // 8 for th in range(nthr)]
            for r in range(nr) for x in range(nx)]


def _tv_addrs(tv: Layout, layout: Any, bits: int, n: int) -> list[list[int]]:
    nthr, nv = tv[0].size(), tv[1].size()
    return [[int(layout(tv(th, j))) * bits // 8 for th in range(nthr)] for j in range(0, nv, n)]


def _smem(name: str, src: Union[TiledCopy, Layout], layout: Any, note: str, bits: int = 0,
          at: dict[str, int] = {}, instr: str = "", concrete: Any = None) -> Case:
    concrete = layout if concrete is None else concrete
    if isinstance(src, TiledCopy):
        nthr = src.TiledNumThr
        res = [_one(bank_conflicts(src, layout, warp=w), **at) for w in range(nthr // 32)]
        addrs = _tc_addrs(src, concrete, nthr)
        bits = src.bits
        vb = 128 if "LDSM" in src.Traits.name else src.AtomNumVal * bits
        ins = instr or {8: "ld.u8", 16: "ld.u16", 32: "ld", 64: "ld.v2", 128: "ld.v4"}[vb]
    else:
        nthr = src[0].size()
        res = [_one(bank_conflicts(src, layout, bits, warp=w), **at) for w in range(max(nthr // 32, 1))]
        vb = res[0].vector_bits
        addrs = _tv_addrs(src, concrete, bits, vb // bits)
        ins = {8: "ld.u8", 16: "ld.u16", 32: "ld", 64: "ld.v2", 128: "ld.v4"}[vb]
    assert all(isinstance(r, BankConflicts) for r in res)
    wf = sum(r.wavefronts for r in res)
    conf = sum(r.conflicts for r in res)
    ext = max(a for row in addrs for a in row) + vb // 8
    return Case(name, "shared", ins, bits, vb, nthr, addrs, {"wavefronts": wf, "conflicts": conf}, note, ext)


def _gmem(name: str, src: Union[TiledCopy, Layout], layout: Any, note: str, bits: int = 0,
          at: dict[str, int] = {}, concrete: Any = None) -> Case:
    concrete = layout if concrete is None else concrete
    if isinstance(src, TiledCopy):
        nthr = src.TiledNumThr
        res = [_one(coalescing(src, layout, warp=w), **at) for w in range(nthr // 32)]
        addrs = _tc_addrs(src, concrete, nthr)
        bits = src.bits
    else:
        nthr = src[0].size()
        res = [_one(coalescing(src, layout, bits, warp=w), **at) for w in range(max(nthr // 32, 1))]
        addrs = _tv_addrs(src, concrete, bits, res[0].vector_bits // bits)
    assert all(isinstance(r, Coalescing) for r in res)
    vb = res[0].vector_bits
    ins = {8: "ld.u8", 16: "ld.u16", 32: "ld", 64: "ld.v2", 128: "ld.v4"}[vb]
    pred = {"sectors": sum(r.sectors for r in res), "requests": sum(r.requests for r in res),
            "min_sectors": sum(r.min_sectors for r in res)}
    ext = max(a for row in addrs for a in row) + vb // 8
    return Case(name, "global", ins, bits, vb, nthr, addrs, pred, note, ext)


def cases() -> list[Case]:
    mma = make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN", (2, 2, 1), (32, 32, 16))
    ldsm_a = make_tiled_copy_A(Copy_Atom("SM75_U32x4_LDSM_N", "half_t"), mma)
    ldsm_b2 = make_tiled_copy_B(Copy_Atom("SM75_U32x2_LDSM_N", "half_t"), mma)
    sA = "(_128,_32):(_32,_1)"
    K = Dyn("K", min=32)
    out = [
        _smem("ldsm_x4_A_kmajor", ldsm_a, parse(sA), "SM80 GEMM: ldmatrix.x4 of K-major 128x32 half, no swizzle",
              instr="ldmatrix.x4"),
        _smem("ldsm_x4_A_sw233", ldsm_a, parse("Sw<2,3,3> o _0 o " + sA), "same, Sw<2,3,3>", instr="ldmatrix.x4"),
        _smem("ldsm_x4_A_sw333", ldsm_a, parse("Sw<3,3,3> o _0 o " + sA), "same, Sw<3,3,3>", instr="ldmatrix.x4"),
        _smem("ldsm_x4_A_K64", ldsm_a, make_layout((128, 32), (K, 1)), "symbolic K at K=64 (K % 64 == 0)",
              at={"K": 64}, instr="ldmatrix.x4", concrete=make_layout((128, 32), (64, 1))),
        _smem("ldsm_x4_A_K72", ldsm_a, make_layout((128, 32), (K, 1)), "symbolic K at K=72 (K % 16 == 8)",
              at={"K": 72}, instr="ldmatrix.x4", concrete=make_layout((128, 32), (72, 1))),
        _smem("ldsm_x4_A_K48", ldsm_a, make_layout((128, 32), (K, 1)), "symbolic K at K=48 (K % 32 == 16)",
              at={"K": 48}, instr="ldmatrix.x4", concrete=make_layout((128, 32), (48, 1))),
        _smem("ldsm_x2_B_kmajor", ldsm_b2, parse(sA), "ldmatrix.x2 of K-major B, no swizzle", instr="ldmatrix.x2"),
        _smem("lds32_column", parse("(_32,_1):(_1,_0)"), parse("(_32,_32):(_32,_1)"), "32-bit, a column of a row-major 32x32 float tile", bits=32),
        _smem("lds32_column_pad", parse("(_32,_1):(_1,_0)"), parse("(_32,_32):(_33,_1)"), "same, rows padded to 33", bits=32),
        _smem("lds64_rows64B", parse("(_32,_1):(_1,_0)"), parse("(_32,_8):(_8,_1)"), "64-bit, a column of 32x8 doubles", bits=64),
        _smem("lds128_rowmajor", parse("((_8,_4),_8):((_32,_1),_4)"), parse("(_4,_64):(_64,_1)"), "128-bit, 8 threads a 128-byte row", bits=16),
        _smem("lds128_column", parse("(_32,_8):(_1,_32)"), parse("(_32,_64):(_64,_1)"), "128-bit, one 128-byte row a thread", bits=16),
        _smem("lds16_contig", parse("(_32,_1):(_1,_0)"), parse("_64:_1"), "16-bit, consecutive (2 threads a word)", bits=16),
        _smem("lds8_stride128", parse("(_32,_1):(_128,_0)"), parse("_4096:_1"), "8-bit, 128 bytes apart", bits=8),
        _smem("lds16_sw_rows", parse("(_32,_1):(_1,_0)"), parse("Sw<3,0,5> o _0 o (_32,_64):(_64,_1)"), "16-bit column under Sw<3,0,5>", bits=16),
    ]
    g128 = make_tiled_copy(Copy_Atom("UniversalCopy<uint128_t>", "half_t"), parse("(_16,_8):(_8,_1)"), parse("(_1,_8)"))
    N = Dyn("N", min=64, divisible_by=8)
    tv = parse("((_8,_16),_8):((_512,_1),_64)")
    out += [
        _gmem("ldg128_rowmajor_128thr", g128, parse("(_64,_64):(_64,_1)"), "row-major 64x64 half tile, 128 threads, 128-bit"),
        _gmem("ldg16_colmajor", tv, parse("(_64,_64):(_1,_64)"), "same threads, column-major tile (16-bit)", bits=16),
        _gmem("ldg128_N72", tv, make_layout((64, 64), (N, 1)), "symbolic N at N=72 (N % 16 == 8)", bits=16,
              at={"N": 72}, concrete=make_layout((64, 64), (72, 1))),
        _gmem("ldg32_stride2", parse("(_32,_1):(_2,_0)"), parse("_64:_1"), "32-bit, every other float", bits=32),
        _gmem("ldg8_contig", parse("(_32,_1):(_1,_0)"), parse("_32:_1"), "8-bit, consecutive", bits=8),
    ]
    return out

