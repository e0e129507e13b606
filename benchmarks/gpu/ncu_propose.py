"""The proposals of cute_sym.analysis.propose_smem_layout under Nsight Compute: for each tile,
the proposed layout and the naive one (plain row- or column-major), every access measured.

    PYTHONPATH=. python3 benchmarks/gpu/ncu_propose.py gen DIR      # DIR/ncu_bench.cu, predicted.json, run.sh
    (on the GPU)  bash DIR/run.sh
    python3 benchmarks/gpu/ncu_propose.py table DIR/predicted.json ncu.csv

Each access is one kernel (ncu_analysis.kernel): the byte address of every thread's vector,
instruction by instruction, from the layout functions (``tidfrg_S``/``tidfrg_D`` of the
tiled copy over the layout), one inline-PTX instruction a step. A cp.async writer's shared
side is measured as ``st.shared`` of the same addresses and width (cp.async's own smem
write is a different pipe: its wavefronts follow the same bank rule).
"""
from __future__ import annotations

import json
import os
import sys
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ncu_cases import Case  # noqa: E402
import ncu_analysis  # noqa: E402

from cute_sym import Copy_Atom, make_tiled_copy, make_tiled_copy_A, make_tiled_copy_B, make_tiled_mma  # noqa: E402
from cute_sym.analysis import BankConflicts, bank_conflicts, propose_smem_layout  # noqa: E402
from cute_sym.notation import parse  # noqa: E402
from cute_sym.tensor.copy_make import make_tiled_copy_C_atom  # noqa: E402


def _addrs(tc: Any, layout: Any, side: str) -> list[list[int]]:
    t = tc.tidfrg_S(layout) if side == "S" else tc.tidfrg_D(layout)
    inner = t.layout_b if hasattr(t, "layout_b") else t
    nthr = tc.TiledNumThr
    nx, nr = inner[1][1].size(), inner[2].size()
    return [[int(t((th, (0, x), r))) * tc.bits // 8 for th in range(nthr)] for r in range(nr) for x in range(nx)]


def _access(name: str, tc: Any, layout: Any, side: str, note: str) -> Case:
    op = tc.Traits.name
    res = [bank_conflicts(tc, layout, warp=w, side=side) for w in range(tc.TiledNumThr // 32)]
    assert all(isinstance(r, BankConflicts) for r in res)
    wf, conf = sum(r.wavefronts for r in res), sum(r.conflicts for r in res)
    addrs = _addrs(tc, layout, side)
    vb = res[0].vector_bits
    mat = {"U32x1": "x1", "U32x2": "x2", "U32x4": "x4", "U16x2": "trans.x1", "U16x4": "trans.x2", "U16x8": "trans.x4"}
    if "LDSM" in op or "STSM" in op:
        instr = ("ldmatrix." if "LDSM" in op else "stmatrix.") + mat[op.split("_")[1]]
        vb = 128
    else:
        instr = ({16: "st.u16", 32: "st", 64: "st.v2", 128: "st.v4"} if side == "D" else
                 {16: "ld.u16", 32: "ld", 64: "ld.v2", 128: "ld.v4"})[vb]
    keys = ("st_wavefronts", "st_conflicts") if instr.startswith("st") else ("wavefronts", "conflicts")
    ext = max(a for row in addrs for a in row) + vb // 8
    return Case(name, "shared", instr, tc.bits, vb, tc.TiledNumThr, addrs, dict(zip(keys, (wf, conf))), note, ext)


def tiles() -> list[tuple[str, str, tuple[int, int], list[Any], list[Any], tuple[str, ...]]]:
    """(name, dtype, tile, writers, readers, majors) of each tile."""
    mma = make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN", (2, 2, 1), (32, 32, 16))
    mma_tf = make_tiled_mma("SM80_16x8x8_F32TF32TF32F32_TN", (2, 2, 1), (32, 32, 8))
    mma_i8 = make_tiled_mma("SM80_16x8x32_S32S8S8S32_TN", (2, 2, 1), (32, 32, 32))

    def cp(dtype: str, thr: str, val: str) -> Any:
        return make_tiled_copy(Copy_Atom("SM80_CP_ASYNC_CACHEALWAYS<uint128_t>", dtype), parse(thr), parse(val))
    ldsm_a = make_tiled_copy_A(Copy_Atom("SM75_U32x4_LDSM_N", "half_t"), mma)
    ldsm_b = make_tiled_copy_B(Copy_Atom("SM75_U32x4_LDSM_N", "half_t"), mma)
    ldsm_t = make_tiled_copy_A(Copy_Atom("SM75_U16x8_LDSM_T", "half_t"), mma)
    stsm = make_tiled_copy_C_atom(Copy_Atom("SM90_U32x4_STSM_N", "half_t"), mma)
    st32 = make_tiled_copy(Copy_Atom("UniversalCopy<uint32_t>", "half_t"), parse("(_8,_4):(_4,_1)"), parse("(_1,_2)"))
    rd128 = make_tiled_copy(Copy_Atom("UniversalCopy<uint128_t>", "half_t"), parse("(_32,_4):(_4,_1)"), parse("(_1,_8)"))
    rd128_64 = make_tiled_copy(Copy_Atom("UniversalCopy<uint128_t>", "half_t"), parse("(_16,_8):(_8,_1)"), parse("(_1,_8)"))
    K = ("K",)
    return [
        ("sm80_A_128x32_half", "half_t", (128, 32), [cp("half_t", "(_32,_4):(_4,_1)", "(_1,_8)")], [ldsm_a], K),
        ("sm80_A_128x64_half", "half_t", (128, 64), [cp("half_t", "(_16,_8):(_8,_1)", "(_1,_8)")], [ldsm_a], K),
        ("sm80_B_128x32_half", "half_t", (128, 32), [cp("half_t", "(_32,_4):(_4,_1)", "(_1,_8)")], [ldsm_b], K),
        ("sm80_A_128x32_half_Mmajor", "half_t", (128, 32), [cp("half_t", "(_16,_8):(_1,_16)", "(_8,_1)")], [ldsm_t],
         ("MN",)),
        ("sm80_A_128x32_tf32", "tfloat32_t", (128, 32), [cp("tfloat32_t", "(_16,_8):(_8,_1)", "(_1,_4)")],
         [make_tiled_copy_A(Copy_Atom("SM75_U32x4_LDSM_N", "tfloat32_t"), mma_tf)], K),
        ("sm80_A_128x16_tf32", "tfloat32_t", (128, 16), [cp("tfloat32_t", "(_32,_4):(_4,_1)", "(_1,_4)")],
         [make_tiled_copy_A(Copy_Atom("SM75_U32x4_LDSM_N", "tfloat32_t"), mma_tf)], K),
        ("sm80_A_128x64_int8", "int8_t", (128, 64), [cp("int8_t", "(_32,_4):(_4,_1)", "(_1,_16)")],
         [make_tiled_copy_A(Copy_Atom("SM75_U32x4_LDSM_N", "int8_t"), mma_i8)], K),
        ("sm80_B_64x64_half", "half_t", (64, 64), [cp("half_t", "(_16,_8):(_8,_1)", "(_1,_8)")], [ldsm_b], K),
        ("epi_stsm_32x32_half", "half_t", (32, 32), [stsm], [rd128], K),
        ("epi_st32_32x32_half", "half_t", (32, 32), [st32], [rd128], K),
        ("epi_stsm_64x64_half", "half_t", (64, 64), [stsm], [rd128_64], K),
    ]


def cases() -> tuple[list[Case], list[dict[str, Any]]]:
    out: list[Case] = []
    rows: list[dict[str, Any]] = []
    for name, dtype, tile, writers, readers, majors in tiles():
        p = propose_smem_layout(writers=writers, readers=readers, dtype=dtype, tile_shape=tile, majors=majors)
        best = p.best
        naive = next(s for s in p.ranked + p.illegal if "plain" in s.candidate.name)
        for tag, s in (("proposed", best), ("naive", naive)):
            if not s.legal:
                continue
            lay = s.candidate.layout
            for k, tc in enumerate(writers):
                out.append(_access(f"{name}_{tag}_w{k}", tc, lay, "D", f"{name}: {tag} {s.candidate.name}, write"))
            for k, tc in enumerate(readers):
                out.append(_access(f"{name}_{tag}_r{k}", tc, lay, "S", f"{name}: {tag} {s.candidate.name}, read"))
        rows.append({"tile": name, "proposed": best.candidate.name, "proposed_wf": best.wavefronts,
                     "proposed_ideal": best.ideal, "naive": naive.candidate.name,
                     "naive_wf": naive.wavefronts if naive.legal else None, "why": p.why})
    return out, rows


def gen(d: str) -> None:
    os.makedirs(d, exist_ok=True)
    ncu_analysis.TABLE_SPACE = "__device__"     # 44 tables outgrow the 64 KiB of constant memory
    cs, rows = cases()
    with open(os.path.join(d, "ncu_bench.cu"), "w") as f:
        f.write(ncu_analysis.source(cs))
    with open(os.path.join(d, "predicted.json"), "w") as f:
        json.dump([{"name": c.name, "space": c.space, "instr": c.instr, "threads": c.nthreads,
                    "note": c.note, "predicted": c.predicted} for c in cs], f, indent=1)
    with open(os.path.join(d, "tiles.json"), "w") as f:
        json.dump(rows, f, indent=1)
    with open(os.path.join(d, "run.sh"), "w") as f:
        f.write(ncu_analysis.RUN_SH.replace("(LDSM[.A-Z0-9]*|LDS[.A-Z0-9]*|LDG[.A-Z0-9]*)",
                                            "(LDSM[.A-Z0-9]*|STSM[.A-Z0-9]*|LDS[.A-Z0-9]*|STS[.A-Z0-9]*|LDG[.A-Z0-9]*)"))
    print(f"{len(cs)} kernels for {len(rows)} tiles written to {d}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["gen"] and len(sys.argv) == 3:
        gen(sys.argv[2])
    elif sys.argv[1:2] == ["table"] and len(sys.argv) == 4:
        print(ncu_analysis.table(sys.argv[2], sys.argv[3]))
    else:
        sys.exit(__doc__)
