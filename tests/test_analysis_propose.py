"""The design search and the Hopper/Blackwell analyses.

* The proposals for SM80's GEMM tiles are the layouts of CUTLASS's default configurations
  (``test/unit/gemm/device/default_gemm_configuration.hpp``: ``DefaultGemm_TensorOpSm80_OperandA``),
  and for SM90's the atom ``ss_smem_selector`` picks (``cutlass/gemm/collective/builders/sm90_common.inl``).
* Every candidate's wavefronts are those of the brute-force model (every byte of every
  thread, per warp), for cp.async writes, ldmatrix reads, stmatrix and st.shared stores.
* The TMA check's instructions cover the tile; its symbolic cases agree with the static check;
  the descriptor check names the canonical atom; TMEM lanes partition among a warpgroup's warps.
"""
from __future__ import annotations

import io
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from analysis_bruteforce import gmem_sectors, smem_wavefronts
from cute_sym import Copy_Atom, make_tiled_copy, make_tiled_copy_A, make_tiled_mma
from cute_sym.analysis import (Cases, MmaOperand, TmaCopy, mma_operand_check, propose_smem_layout, propose_tiled_copy,
                               smem_candidates, tma_copy_check, tmem_warp_lanes)
from cute_sym.cli import propose_main
from cute_sym.core.errors import LayoutError
from cute_sym.core.integers import Dyn
from cute_sym.layout import make_layout
from cute_sym.notation import parse
from cute_sym.swizzle import ComposedLayout, tile_to_shape
from cute_sym.tensor.copy_make import make_tiled_copy_C_atom
from cute_sym.views.proposal import proposal_svg

MMA = make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN", (2, 2, 1), (32, 32, 16))
MMA_TF32 = make_tiled_mma("SM80_16x8x8_F32TF32TF32F32_TN", (2, 2, 1), (32, 32, 8))


def _cp(dtype: str, thr: str, val: str) -> Any:
    return make_tiled_copy(Copy_Atom("SM80_CP_ASYNC_CACHEALWAYS<uint128_t>", dtype), parse(thr), parse(val))


# (what, dtype, tile, gmem copy (thr, val), smem copy op, mma, CUTLASS's atom) from DefaultGemm_TensorOpSm80_OperandA
SM80 = [
    ("half K-major, kblock 32", "half_t", (128, 32), ("(_32,_4):(_4,_1)", "(_1,_8)"), "SM75_U32x4_LDSM_N", MMA,
     "Sw<2,3,3> o _0 o (_8,_32):(_32,_1)"),
    ("half K-major, kblock 64", "half_t", (128, 64), ("(_16,_8):(_8,_1)", "(_1,_8)"), "SM75_U32x4_LDSM_N", MMA,
     "Sw<3,3,3> o _0 o (_8,_64):(_64,_1)"),
    ("half M-major", "half_t", (128, 32), ("(_16,_8):(_1,_16)", "(_8,_1)"), "SM75_U16x8_LDSM_T", MMA,
     "Sw<3,3,3> o _0 o (_64,_8):(_1,_64)"),
    ("tf32 K-major, kblock 32", "tfloat32_t", (128, 32), ("(_16,_8):(_8,_1)", "(_1,_4)"), "SM75_U32x4_LDSM_N", MMA_TF32,
     "Sw<3,2,3> o _0 o (_8,_32):(_32,_1)"),
    ("tf32 K-major, kblock 16", "tfloat32_t", (128, 16), ("(_32,_4):(_4,_1)", "(_1,_4)"), "SM75_U32x4_LDSM_N", MMA_TF32,
     "Sw<2,2,3> o _0 o (_8,_16):(_16,_1)"),
]


def _same_function(a: Any, b: Any, n: int) -> bool:
    return all(a(i) == b(i) for i in range(n))


@pytest.mark.parametrize("k", range(len(SM80)))
def test_sm80_proposals_are_cutlass_defaults(k: int) -> None:
    what, dtype, tile, (thr, val), op, mma, atom = SM80[k]
    p = propose_smem_layout(writers=[_cp(dtype, thr, val)], readers=[make_tiled_copy_A(Copy_Atom(op, dtype), mma)],
                            dtype=dtype, tile_shape=tile)
    want = tile_to_shape(parse(atom), tile)
    assert _same_function(p.best.candidate.layout, want, tile[0] * tile[1]), (what, str(p))
    assert p.best.wavefronts == p.best.ideal          # CUTLASS's layout is conflict-free for both accesses
    assert p.best.candidate.name in p.why
    # the ranking is sorted and every legal candidate is there, the illegal ones with a reason
    keys = [s.key() for s in p.ranked]
    assert keys == sorted(keys)
    assert len(p.ranked) + len(p.illegal) == len(smem_candidates(dtype, tile))
    assert all(s.reason for s in p.illegal)


@pytest.mark.parametrize("k", range(len(SM80)))
def test_sm80_gmem_copy_is_cutlass_default(k: int) -> None:
    what, dtype, tile, (thr, val), _, _, _ = SM80[k]
    mn, kk = tile
    gmem = make_layout(tile, (kk, 1)) if "K-major" in what else make_layout(tile, (1, mn))
    best = propose_tiled_copy(gmem, dtype, 128).best
    assert str(best.thr) == str(parse(thr)).replace(" ", "") or best.thr == parse(thr), (what, str(best))
    assert best.sectors == best.least and best.vector_bits == 128


def _selector(major: str, bits: int, mn: int, kk: int) -> str:
    """ss_smem_selector: the widest atom whose extent divides BLK_K0 (K-major) or BLK_MN0 (MN-major)."""
    ext = kk if major == "K" else mn
    for name, width in (("SW128", 128), ("SW64", 64), ("SW32", 32), ("INTER", 16)):
        if ext % (width * 8 // bits) == 0:
            return name
    raise AssertionError("no atom")


SM90 = [(dt, bits, major, mn, kk) for dt, bits in (("half_t", 16), ("float", 32), ("int8_t", 8))
        for major in ("K", "MN") for mn, kk in ((128, 64), (64, 32), (128, 16), (256, 128), (64, 64))]


@pytest.mark.parametrize("k", range(len(SM90)))
def test_sm90_proposals_are_ss_smem_selector(k: int) -> None:
    dtype, bits, major, mn, kk = SM90[k]
    if (kk if major == "K" else mn) * bits % 128 or kk * bits % 256:
        pytest.skip("no atom divides the tile, or K is no whole GMMA K-block of 32 bytes (no SM90 kernel has it)")
    gmem = make_layout((mn, kk), (kk, 1)) if major == "K" else make_layout((mn, kk), (1, mn))
    p = propose_smem_layout(writers=[TmaCopy(gmem)], readers=[MmaOperand("GMMA", major)], dtype=dtype,
                            tile_shape=(mn, kk), majors=(major,))
    want = f"GMMA::Layout_{major}_{_selector(major, bits, mn, kk)}_Atom<{dtype}>"
    assert p.best.candidate.atom == want, str(p)
    # the wider atoms move more per TMA instruction: the reason printed is the TMA count (or the atom's width)
    assert "TMA instructions" in p.why or "only legal" in p.why or "widest swizzle" in p.why


def _copy_addrs(tc: Any, layout: Any, side: str, warp: int) -> list[list[int]]:
    """Byte addresses per thread of one warp, every value, from the partition evaluated directly."""
    part = tc.tidfrg_S(layout) if side == "S" else tc.tidfrg_D(layout)
    inner = part.layout_b if isinstance(part, ComposedLayout) else part
    nv, nx, nr = inner[1][0].size(), inner[1][1].size(), inner[2].size()
    nthr = 8 * 4 if "LDSM" in tc.Traits.name or "STSM" in tc.Traits.name else 32
    return [[int(part((t, (v, x), r))) * tc.bits // 8 for r in range(nr) for x in range(nx) for v in range(nv)]
            for t in range(32 * warp, 32 * warp + nthr)]


def _brute(tc: Any, layout: Any, side: str) -> tuple[int, int]:
    wf = ideal = 0
    mat = "LDSM" in tc.Traits.name or "STSM" in tc.Traits.name
    n = 128 // tc.bits if mat else tc.AtomNumVal
    for w in range(tc.TiledNumThr // 32):
        a, b = smem_wavefronts(_copy_addrs(tc, layout, side, w), tc.bits, n,
                               8 if mat else {8: 32, 16: 32, 32: 32, 64: 16, 128: 8}[n * tc.bits])
        wf, ideal = wf + a, ideal + b
    return wf, ideal


EPILOGUE = [
    ("stmatrix x4", make_tiled_copy_C_atom(Copy_Atom("SM90_U32x4_STSM_N", "half_t"), MMA), (32, 32)),
    ("st.shared 32-bit", make_tiled_copy(Copy_Atom("UniversalCopy<uint32_t>", "half_t"), parse("(_8,_4):(_4,_1)"),
                                         parse("(_1,_2)")), (32, 32)),
    ("stmatrix x4, 64x64", make_tiled_copy_C_atom(Copy_Atom("SM90_U32x4_STSM_N", "half_t"), MMA), (64, 64)),
]


@pytest.mark.parametrize("k", range(3))
def test_every_candidate_matches_brute_force(k: int) -> None:
    what, dtype, tile, (thr, val), op, mma, _ = SM80[k]
    cp = _cp(dtype, thr, val)
    rd = make_tiled_copy_A(Copy_Atom(op, dtype), mma)
    p = propose_smem_layout(writers=[cp], readers=[rd], dtype=dtype, tile_shape=tile)
    for s in p.ranked:
        w1, i1 = _brute(cp, s.candidate.layout, "D")
        w2, i2 = _brute(rd, s.candidate.layout, "S")
        assert (s.wavefronts, s.ideal) == (w1 + w2, i1 + i2), s.candidate.name


@pytest.mark.parametrize("k", range(len(EPILOGUE)))
def test_epilogue_stores_match_brute_force(k: int) -> None:
    what, tc, tile = EPILOGUE[k]
    p = propose_smem_layout(writers=[tc], dtype="half_t", tile_shape=tile, majors=("K",))
    for s in p.ranked:
        assert (s.wavefronts, s.ideal) == _brute(tc, s.candidate.layout, "D"), (what, s.candidate.name)
    assert p.best.wavefronts == p.best.ideal
    plain = next(s for s in p.ranked if "plain" in s.candidate.name)
    assert plain.wavefronts > plain.ideal             # the row-major staging tile conflicts


def test_symbolic_leading_dimension_by_cases() -> None:
    cp = _cp("half_t", "(_32,_4):(_4,_1)", "(_1,_8)")
    rd = make_tiled_copy_A(Copy_Atom("SM75_U32x4_LDSM_N", "half_t"), MMA)
    L = Dyn("L", min=32)
    p = propose_smem_layout(writers=[cp], readers=[rd], dtype="half_t", tile_shape=(128, 32), majors=("K",), leading=L)
    sym = next(s for s in p.ranked if "leading" in s.candidate.name)
    # its wavefronts are its worst case, over every value of L that gives a legal access
    worst = 0
    for v in range(32, 200, 8):
        lay = make_layout((128, 32), (v, 1))
        worst = max(worst, _brute(cp, lay, "D")[0] + _brute(rd, lay, "S")[0])
    assert sym.wavefronts == worst
    assert any(" if L % " in text for _, _, text in sym.accesses)
    assert p.best.candidate.width > 0               # the swizzled atom beats every leading dimension


def test_tma_check_counts_and_cases() -> None:
    for width, per in (("SW128", 64), ("SW64", 32), ("SW32", 16), ("INTER", 8)):
        from cute_sym.tensor.atoms.smem_atoms import smem_layout_atom
        sL = tile_to_shape(smem_layout_atom(f"GMMA::Layout_K_{width}_Atom<half_t>"), (128, 64))
        got = tma_copy_check(parse("(_128,_64):(_64,_1)"), sL, "half_t")
        assert not isinstance(got, Cases) and got.legal
        assert got.instructions * got.bytes == 128 * 64 * 2 and got.box[0] == per
        bad = tma_copy_check(parse("(_128,_64):(_1,_128)"), sL, "half_t")
        assert not isinstance(bad, Cases) and not bad.legal and "Majorness" in bad.reason
        sym = tma_copy_check(make_layout((128, 64), (Dyn("K", min=64), 1)), sL, "half_t")
        assert isinstance(sym, Cases)
        for kv in (64, 72, 80, 65, 70):
            want = tma_copy_check(make_layout((128, 64), (kv, 1)), sL, "half_t")
            assert not isinstance(want, Cases)
            if want.legal:
                assert sym.at(K=kv).key() == want.key()
            else:
                with pytest.raises(LayoutError):
                    sym.at(K=kv)


def test_mma_operand_check_names_the_atom() -> None:
    from cute_sym.tensor.atoms.smem_atoms import smem_layout_atom
    for major, shape in (("K", (64, 64)), ("MN", (128, 32))):
        for width in ("SW128", "SW64", "SW32", "INTER"):
            name = f"GMMA::Layout_{major}_{width}_Atom<half_t>"
            got = mma_operand_check(tile_to_shape(smem_layout_atom(name), shape), major, "half_t")
            assert got.readable and got.atom == name and got.descriptors >= 1
    bad = mma_operand_check(parse("(_64,_64):(_64,_1)"), "K", "half_t")
    assert not bad.readable and bad.atom == "GMMA::Layout_K_SW128_Atom<half_t>"


def test_tmem_lanes_partition_a_warpgroup() -> None:
    lanes = [set(tmem_warp_lanes(w)) for w in range(4)]
    assert set().union(*lanes) == set(range(128)) and sum(len(x) for x in lanes) == 128
    assert all(tmem_warp_lanes(w) == tmem_warp_lanes(w + 4) for w in range(4))
    with pytest.raises(LayoutError):
        tmem_warp_lanes(-1)


def test_tiled_copy_sectors_match_brute_force() -> None:
    gmem = parse("(_64,_32):(_40,_1)")
    for c in propose_tiled_copy(gmem, "half_t", 128).ranked:
        sec = least = 0
        for w in range(4):
            part = c.copy.tidfrg_S(gmem)
            nv, nx, nr = part[1][0].size(), part[1][1].size(), part[2].size()
            a = [[int(part((t, (v, x), r))) * 2 for r in range(nr) for x in range(nx) for v in range(nv)]
                 for t in range(32 * w, 32 * w + 32)]
            s, _, lst = gmem_sectors(a, 16, nv)
            sec, least = sec + s, least + lst
        assert (c.sectors, c.least) == (sec, least), str(c)


def test_cli_and_picture() -> None:
    out = io.StringIO()
    rc = propose_main(["--type", "half_t", "--tile", "128,32", "--copy", "SM80_CP_ASYNC_CACHEALWAYS<uint128_t>",
                       "--thr", "(_32,_4):(_4,_1)", "--val", "(_1,_8)", "--ldsm", "SM75_U32x4_LDSM_N",
                       "--mma", "SM80_16x8x16_F16F16F16F16_TN", "--atoms", "2,2,1", "--mma-tile", "32,32,16"], out)
    assert rc == 0 and "1. K-major SW64 Sw<2,3,3>" in out.getvalue()
    assert propose_main(["--type", "half_t", "--tile", "128,32"], io.StringIO()) == 2     # no access named
    p = propose_smem_layout(writers=[_cp("half_t", "(_32,_4):(_4,_1)", "(_1,_8)")], dtype="half_t", tile_shape=(128, 32))
    root = ET.fromstring(proposal_svg(p))
    assert root.tag.endswith("svg")
    assert len([e for e in root.iter() if e.tag.endswith("rect")]) == len(p.ranked) + len(p.illegal)
    with pytest.raises(LayoutError):
        proposal_svg(object())


def test_bad_requests_raise_layout_errors() -> None:
    with pytest.raises(LayoutError):
        propose_smem_layout(dtype="half_t", tile_shape=(128, 32))
    with pytest.raises(LayoutError):
        smem_candidates("half_t", (100, 32))
    with pytest.raises(LayoutError):
        propose_smem_layout(writers=["cp.async"], dtype="half_t", tile_shape=(128, 32)).best  # nothing legal
    with pytest.raises(LayoutError):
        propose_tiled_copy(parse("(_64,_32):(_2,_128)"), "half_t")     # no unit-stride mode
    with pytest.raises(LayoutError):
        MmaOperand("XMMA", "K")


TMEM_CASES = [("SM100_TMEM_LOAD_32dp32b8x", "float", "((_128,_64),_1,_1):((_65536,_1),_0,_0)", 0),
              ("SM100_TMEM_LOAD_32dp32b1x", "float", "((_128,_32),_1,_1):((_65536,_1),_0,_0)", 0),
              ("SM100_TMEM_LOAD_16dp256b1x", "float", "((_128,_64),_1,_1):((_65536,_1),_0,_0)", 0),
              ("SM100_TMEM_LOAD_32dp32b8x", "float", "((_128,_64),_1,_1):((_65536,_1),_0,_0)", 32),
              ("SM100_TMEM_STORE_32dp32b4x", "float", "((_128,_32),_1,_1):((_65536,_1),_0,_0)", 0)]


@pytest.mark.parametrize("k", range(len(TMEM_CASES)))
def test_tmem_copy_check_against_each_partition(k: int) -> None:
    """tmem_copy_check's lanes and legality against every thread's own partition (check_warp_lanes)."""
    import cute_sym as cs
    from cute_sym.analysis import tmem_copy_check
    op, dtype, text, lane0 = TMEM_CASES[k]
    acc = cs.make_tensor(cs.make_tmem_ptr(dtype, "acc") + lane0 * cs.TMEM_DP(dtype), parse(text))
    tc = cs.make_tmem_copy(op, cs.make_tensor(cs.make_tmem_ptr(dtype, "acc"), parse(text)))
    side = "D" if "STORE" in op else "S"
    got = tmem_copy_check(tc, acc, side)
    bad = 0
    for t in range(0, 128, 5):
        thr = tc.get_slice(t)
        try:
            cs.check_warp_lanes(thr.partition_S(acc) if side == "S" else thr.partition_D(acc), t)
        except LayoutError:
            bad += 1
            continue
        part = thr.partition_S(acc) if side == "S" else thr.partition_D(acc)
        lanes = {cs.tmem_lane(part.engine + part.layout(i)) for i in range(part.layout.size())}
        lo, hi = got.lanes[t // 32]
        assert lo <= min(lanes) and max(lanes) <= hi
    assert got.legal == (bad == 0), str(got)
    # the four warps' instructions move the whole tensor, once
    assert 4 * got.instructions * got.bytes == parse(text).size() * 4
