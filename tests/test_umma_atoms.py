"""Blackwell-era MMA atoms (SM100 UMMA, SM103, SM120, SM90 sparse GMMA, DMMA, FFMA2): every atom's
(thread, value) layouts are what its MMA must be, names are forgiving, CuTe's constraints are
checked, and the tables agree with CuTe's own answers (tests/data/umma_oracle.jsonl, written by
scripts/umma_oracle.py from CuTe 4.7's headers)."""
from __future__ import annotations

import json
import os
from functools import lru_cache
from typing import Any

import pytest

import cute_sym as cs
from cute_sym.core.errors import LayoutError
from cute_sym.core.int_tuple import leaves
from cute_sym.layout import Layout, size
from cute_sym.notation import parse
from cute_sym.tensor.atoms import MMA_Traits
from cute_sym.tensor.atoms.umma_names import sm120_atom_names, sparse_gmma_names, umma_atom_names
from cute_sym.tensor.mma import make_tiled_mma
from cute_sym.tensor.umma import tile_to_mma_shape, tmem_frg_layout, tmem_sf_frg_layout

DATA = os.path.join(os.path.dirname(__file__), "data", "umma_oracle.jsonl")


@lru_cache(maxsize=None)
def images(layout: Layout) -> tuple[int, ...]:
    out = [0]
    for s, d in zip(leaves(layout.shape), leaves(layout.stride)):
        out = [o + d * i for i in range(s) for o in out]
    return tuple(out)


def bijective_onto(layout: Layout, extent: int) -> bool:
    """``layout`` maps [0, size) one-to-one onto [0, extent): its modes (extent > 1), sorted by
    stride, are a mixed-radix number system (each stride the product of the extents below) --
    exact for non-negative strides, and O(modes); small layouts are also checked point by point."""
    modes = sorted((d, s) for s, d in zip(leaves(layout.shape), leaves(layout.stride)) if s != 1)
    step = 1
    for d, s in modes:
        if d != step:
            return False
        step *= s
    if step != extent:
        return False
    if extent <= 4096:
        assert sorted(images(layout)) == list(range(extent)), layout
    return True


def covers(layout: Layout, extent: int) -> bool:
    return set(images(layout)) == set(range(extent))


# ---------------------------------------------------------------- the atoms are MMAs
def test_every_umma_atom_is_an_mma() -> None:
    names = umma_atom_names()
    assert len(names) > 2500
    for name in names:
        t = MMA_Traits(name)
        M, N, K = t.Shape_MNK
        peers = size(t.ThrID)
        assert peers == (2 if "2x1SM" in name else 1), name
        assert bijective_onto(t.ThrID, peers) or peers == 1, name
        for lay, extent in ((t.ALayout, M * K), (t.BLayout, N * K), (t.CLayout, M * N)):
            assert size(lay[0]) == peers, name
            assert bijective_onto(lay, extent), (name, lay)          # each peer its own half
        assert t.FrgTypeC.startswith(f"UMMA::tmem_frg_{peers}sm<"), name
        assert ("_TS" in name) == t.FrgTypeA.startswith("UMMA::tmem_frg"), name
        if peers == 2:   # peer p holds rows [p*M/2, (p+1)*M/2) of A and C, columns [p*N/2, ...) of B
            assert bijective_onto(t.ALayout[1][0], M // 2) and t.ALayout((1, 0)) == M // 2, name
            assert bijective_onto(t.BLayout[1][0], N // 2) and t.BLayout((1, 0)) == N // 2, name
            assert bijective_onto(t.CLayout[1][0], M // 2) and t.CLayout((1, 0)) == M // 2, name


def test_every_sm120_atom_is_an_mma() -> None:
    for name in sm120_atom_names():
        t = MMA_Traits(name)
        M, N, K = t.Shape_MNK
        assert (M, N) == (16, 8) and size(t.ThrID) == 32, name
        assert bijective_onto(t.ALayout, M * K) and bijective_onto(t.BLayout, N * K), name
        assert bijective_onto(t.CLayout, M * N), name
        if "_VS<" in name:
            assert t.SFVecSize == int(name.rstrip(">").rpartition(",")[2])
            assert covers(t.SFALayout, M * K) and covers(t.SFBLayout, N * K), name   # scales broadcast
            assert size(t.SFALayout) == 32 * K and size(t.SFBLayout) == 32 * K
        else:
            assert not hasattr(t, "SFVecSize"), name


def test_every_sparse_gmma_atom_is_an_mma() -> None:
    names = sparse_gmma_names()
    assert len(names) == 1056                  # CuTe's 320 + 736 sparse GMMA traits
    for name in names:
        t = MMA_Traits(name)
        M, N, K = t.Shape_MNK
        assert M == 64 and size(t.ThrID) == 128 and t.ValTypeA.startswith("sparse_elem<2,"), name
        if "_SS" in name:                      # a descriptor: every thread sees the whole tile
            assert set(images(t.ALayout[0])) == {0} and bijective_onto(t.ALayout[1], M * K), name
        else:
            assert bijective_onto(t.ALayout, M * K), name
        assert bijective_onto(t.BLayout[1], N * K) and bijective_onto(t.CLayout, M * N), name


@pytest.mark.parametrize("name", ["SM90_16x8x4_F64F64F64F64_TN", "SM90_16x8x16_C64C64C64C64_TN",
                                  "SM75_16x8x8_F16F16F16F16_TN", "SM100_2x1x1_F32F32F32F32",
                                  "SM100_1x2x1_F32F32F32F32"])
def test_table_rows_are_mmas(name: str) -> None:
    t = MMA_Traits(name)
    M, N, K = t.Shape_MNK
    thr = size(t.ThrID)
    for lay, extent in ((t.ALayout, M * K), (t.BLayout, N * K), (t.CLayout, M * N)):
        assert size(lay[0]) == thr and bijective_onto(lay, extent), (name, lay)


# ---------------------------------------------------------------- names
@pytest.mark.parametrize("spelling", [
    "SM100_MMA_F16BF16_SS<half_t, half_t, float, 128, 256, UMMA::Major::K, UMMA::Major::MN>",
    "cute::SM100_MMA_F16BF16_SS< cutlass::half_t,half_t , float,128,256,Major::K,Major::MN >",
    "SM100_MMA_F16BF16_SS<half_t, half_t, float, 128, 256, UMMA::Major::K, UMMA::Major::MN, "
    "UMMA::ScaleIn::One, UMMA::ScaleIn::One>",
])
def test_forgiving_spelling(spelling: str) -> None:
    t = MMA_Traits(spelling)
    assert t.name == "SM100_MMA_F16BF16_SS<half_t, half_t, float, 128, 256, UMMA::Major::K, UMMA::Major::MN>"


def test_namespaces_may_be_left_out() -> None:
    a = MMA_Traits("SM103_MXF4_ULTRA_SS_VS<float_e2m1_t, float_e2m1_t, float, float_ue8m0_t, 128, 64, 32, "
                   "UMMA::Major::K, UMMA::Major::K>")
    assert a.name.startswith("SM103::SM103_MXF4_ULTRA_SS_VS<") and a.SFVecSize == 32
    b = MMA_Traits("SM120_16x8x32_TN_VS<float_e4m3_t, float_e4m3_t, float, float_ue8m0_t, 32>")
    assert b.name.startswith("SM120::BLOCKSCALED::SM120_16x8x32_TN_VS<")
    c = MMA_Traits("GMMA_64x8x64_S32S8S8_SS_TN")
    assert c.name == "SM90::GMMA::SPARSE::GMMA_64x8x64_S32S8S8_SS_TN<>"
    assert MMA_Traits(a.name) == a and MMA_Traits(b.name) == b and MMA_Traits(c.name) == c


def test_scaled_complex_is_cutes_specialization() -> None:
    t = MMA_Traits("SM100_MMA_F16BF16_SS_SCALED<complex<half_t>, complex<half_t>, float, 128, 64, "
                   "UMMA::Major::K, UMMA::Major::K, 1>")
    assert tuple(t.Shape_MNK) == (128, 64, 8)        # K of 256 bits of complex<half_t>
    with pytest.raises(LayoutError, match="16bit"):
        MMA_Traits("SM100_MMA_F16BF16_SS_SCALED<complex<float>, complex<float>, float, 128, 64, "
                   "UMMA::Major::K, UMMA::Major::K, 1>")


@pytest.mark.parametrize("name, why", [
    ("SM100_MMA_F16BF16_SS<half_t, half_t, float, 256, 64, UMMA::Major::K, UMMA::Major::K>", "M-mode size"),
    ("SM100_MMA_F16BF16_2x1SM_SS<half_t, half_t, float, 64, 64, UMMA::Major::K, UMMA::Major::K>", "2 CTA"),
    ("SM100_MMA_F16BF16_SS<half_t, half_t, float, 128, 12, UMMA::Major::K, UMMA::Major::K>", "N-mode size"),
    ("SM100_MMA_F16BF16_2x1SM_TS<half_t, half_t, float, 256, 48, UMMA::Major::K, UMMA::Major::K>", "multiple of 32"),
    ("SM100_MMA_F16BF16_TS<half_t, half_t, float, 128, 8, UMMA::Major::K, UMMA::Major::K>", "M is 128"),
    ("SM100_MMA_F16BF16_TS<half_t, half_t, float, 128, 64, UMMA::Major::MN, UMMA::Major::K>", "TMEM can't be"),
    ("SM100_MMA_F16BF16_SS<float, float, float, 128, 64, UMMA::Major::K, UMMA::Major::K>", "16bit types"),
    ("SM100_MMA_TF32_SS<half_t, half_t, float, 128, 64, UMMA::Major::K, UMMA::Major::K>", "32bit types"),
    ("SM100_MMA_S8_SS<int8_t, int8_t, float, 128, 64, UMMA::Major::K, UMMA::Major::K>", "int32_t"),
    ("SM100_MMA_F8F6F4_SS<half_t, float_e4m3_t, float, 128, 64, UMMA::Major::K, UMMA::Major::K>", "leq 8bit"),
    ("SM100_MMA_F8F6F4_SS<float_e4m3_t, float_e4m3_t, float, 128, 24, UMMA::Major::K, UMMA::Major::MN>",
     "b_major is MN"),
    ("SM100_MMA_MXF4_SS<float_e2m1_t, float_e2m1_t, float, float_ue4m3_t, 128, 64, 32, UMMA::Major::K, "
     "UMMA::Major::K>", "float_ue8m0_t"),
    ("SM100_MMA_MXF4_SS<float_e2m1_t, float_e2m1_t, float, float_ue8m0_t, 128, 64, 64, UMMA::Major::K, "
     "UMMA::Major::K>", "Vector size"),
    ("SM103::SM103_MXF4_ULTRA_SS_VS<float_e2m1_t, float_e2m1_t, float, float_ue8m0_t, 128, 64, 32, "
     "UMMA::Major::MN, UMMA::Major::K>", "transpose"),
    ("SM100_MMA_F16BF16_SS<half_t, half_t, float, 128, 64, UMMA::Major::K>", "b_major is missing"),
    ("SM100_MMA_F16BF16_SS<half_t, half_t, float, 128, 64, UMMA::Major::K, UMMA::Major::T>", "Major::MN"),
    ("SM100_MMA_F16BF16_SS<half_t, half_t, float, 128, 64, K, K, One, One, One>", "too many"),
    ("SM100_MMA_F16BF16_SS<quad_t, half_t, float, 128, 64, UMMA::Major::K, UMMA::Major::K>", "unknown element"),
    ("SM120_16x8x32_TN<float_e4m3_t, half_t, float>", "No MMA matches"),
    ("SM120::BLOCKSCALED::SM120_16x8x64_TN_VS<float_e2m1_t, float_e2m1_t, float, float_ue8m0_t, 64>",
     "vector size has to be 16 or 32"),
    ("SM90::GMMA::SPARSE::GMMA_64x8x32_F16F16F16_RS<GMMA::Major::MN, GMMA::Major::K>", "K major"),
])
def test_constraints_name_the_violation(name: str, why: str) -> None:
    with pytest.raises(LayoutError, match=why.replace("(", r"\(")):
        MMA_Traits(name)


@pytest.mark.parametrize("wrong, close", [
    ("SM100_MMA_F16BF16_SSS<half_t, half_t, float, 128, 64, UMMA::Major::K, UMMA::Major::K>",
     "SM100_MMA_F16BF16_SS<...>"),
    ("SM100_MMA_BF16_2x1SM_SS<half_t, half_t, float, 128, 64, UMMA::Major::K, UMMA::Major::K>",
     "SM100_MMA_F16BF16_2x1SM_SS<...>"),
    ("SM120_16x8x32_TN_V<float_e4m3_t, float_e4m3_t, float, float_ue8m0_t, 32>",
     "SM120::BLOCKSCALED::SM120_16x8x32_TN_VS<...>"),
    ("SM90_16x8x8_F64F64F64F64_NT", "SM90_16x8x8_F64F64F64F64_TN"),
])
def test_wrong_names_get_close_names(wrong: str, close: str) -> None:
    with pytest.raises(LayoutError, match="close names: .*" + close.replace("(", r"\(").replace("<", ".")):
        MMA_Traits(wrong)


# ---------------------------------------------------------------- tiled UMMA, 2-SM slices
TWO_SM = "SM100_MMA_F16BF16_2x1SM_SS<half_t, half_t, float, 256, 128, UMMA::Major::K, UMMA::Major::K>"
ONE_SM = "SM100_MMA_F16BF16_SS<half_t, half_t, float, 128, 128, UMMA::Major::K, UMMA::Major::K>"


def _rows_of_slice(mma: Any, peer: int, M: int, K: int) -> set[int]:
    A = parse(f"({M},{K}):(1,{M})")                       # column-major: offset % M is the row
    thr = mma.get_slice(peer)
    part = thr.partition_A(A)
    return {(thr.offset_A(A) + part(i)) % M for i in range(size(part))}


def test_two_sm_peers_own_disjoint_halves() -> None:
    mma = make_tiled_mma(TWO_SM)
    assert mma.thr_size() == 2
    r0, r1 = _rows_of_slice(mma, 0, 256, 16), _rows_of_slice(mma, 1, 256, 16)
    assert r0 == set(range(128)) and r1 == set(range(128, 256))      # sliced as a 1-SM atom, both get all


def test_a_two_sm_atom_is_not_a_one_sm_atom() -> None:
    """The check above fails for a 1-SM atom: its one thread holds the whole tile."""
    one = make_tiled_mma(ONE_SM)
    assert one.thr_size() == 1 and _rows_of_slice(one, 0, 128, 16) == set(range(128))
    two = make_tiled_mma(TWO_SM)
    with pytest.raises(AssertionError):
        assert _rows_of_slice(two, 0, 256, 16) == set(range(256))


@pytest.mark.parametrize("layout", [(1, 1), (2, 1), (1, 2), (2, 2)])
def test_tiled_umma_tv_layouts_cover_the_tile(layout: tuple[int, int]) -> None:
    for name in (TWO_SM, ONE_SM):
        mma = make_tiled_mma(name, layout)
        M, N, K = (int(x) for x in mma.tile_shape())
        tv = mma.get_layoutC_TV()
        assert size(tv[0]) == mma.thr_size() and bijective_onto(tv, M * N)
        for tv_ab, extent in ((mma.get_layoutA_TV(), M * K), (mma.get_layoutB_TV(), N * K)):
            assert covers(tv_ab, extent)          # each peer its part; other atoms of the layout share it


def test_partition_shapes_and_tile_to_mma_shape() -> None:
    mma = make_tiled_mma(TWO_SM)
    a, b = cs.partition_shape_A(mma, (256, 64)), cs.partition_shape_B(mma, (128, 64))
    assert str(a) == "((_128,_16),_1,_4)" and str(b) == "((_64,_16),_1,_4)"
    atom = cs.composition(cs.Swizzle(3, 4, 3), parse("(_8,_64):(_64,_1)"))
    s = tile_to_mma_shape(atom, a)
    assert str(cs.shape(s)) == "((_128,_16),_1,_4)" and size(s) == 128 * 64
    plain = tile_to_mma_shape(parse("(_8,_64):(_64,_1)"), a)
    assert bijective_onto(plain, 128 * 64)
    with pytest.raises(LayoutError):
        tile_to_mma_shape(parse("(_8,_64):(_64,_1)"), ((128, 16), 1))


@pytest.mark.parametrize("frg, shape", [
    ("UMMA::tmem_frg_1sm<float>", ((128, 256), 1, 1)), ("UMMA::tmem_frg_1sm<float>", ((64, 64), 2, 2)),
    ("UMMA::tmem_frg_2sm<float>", ((64, 128), 1, 2)), ("UMMA::tmem_frg_2sm<half_t>", ((32, 128), 2, 1)),
])
def test_tmem_fragment_is_one_cell_a_value(frg: str, shape: Any) -> None:
    lay = tmem_frg_layout(frg, shape)
    assert cs.shape(lay) == cs.shape(cs.make_layout(shape)) or size(lay) == size(cs.make_layout(shape))
    addrs = images(lay)
    assert len(set(addrs)) == len(addrs)                 # no two accumulators share a TMEM cell
    bits = 32 if "float" in frg else 16
    lanes = {a // (65536 << (32 // bits - 1)) for a in addrs}
    assert lanes <= set(range(128))


def test_tmem_half_subpartitions_interleave_unless_told_not_to() -> None:
    """M_MMA = 64 uses lanes 0-15, 32-47, 64-79, 96-111: the next MMA along M takes the other
    half-subpartitions (lane 16, same columns), or with NonInterleaved the next columns."""
    lay = tmem_frg_layout("UMMA::tmem_frg_1sm<float>", ((64, 128), 2, 1))
    lanes0 = {a // 65536 for a in images(lay[0])}
    assert lanes0 == {l for q in range(4) for l in range(32 * q, 32 * q + 16)}
    assert lay(((0, 0), 1, 0)) == 16 * 65536
    non = tmem_frg_layout("UMMA::tmem_frg_1sm<float, int32_t, UMMA::TmemAllocMode::NonInterleaved>",
                          ((64, 128), 2, 1))
    assert non(((0, 0), 1, 0)) == 128 and {a // 65536 for a in images(non)} == lanes0


@pytest.mark.parametrize("atom", ["(_8,_16):(_16,_1)", "(_16,_8):(_1,_16)", "(_4,_32):(_32,_1)"])
@pytest.mark.parametrize("mma_shape", [((16, 16), 1, 2), ((32, 16), 2, 1), ((64, 32), 2, 2)])
def test_tile_to_mma_shape_is_the_tiled_atom_by_mma(atom: str, mma_shape: Any) -> None:
    (mm, mk), im, ik = mma_shape
    lay = parse(atom)
    am, ak = (size(lay[0]), size(lay[1]))
    if (mm * im) % am or (mk * ik) % ak:            # CuTe's static_assert: the atom must divide the tile
        with pytest.raises(LayoutError, match="does not divide"):
            tile_to_mma_shape(lay, mma_shape)
        return
    got = tile_to_mma_shape(lay, mma_shape)
    whole = cs.tile_to_shape(lay, (mm * im, mk * ik))
    for i in range(im):
        for j in range(ik):
            for m in range(mm):
                for k in range(mk):
                    assert got(((m, k), i, j)) == whole(m + i * mm, k + j * mk)


def test_tmem_fragment_refuses_what_cute_refuses() -> None:
    with pytest.raises(LayoutError, match="M-mode size"):
        tmem_frg_layout("UMMA::tmem_frg_1sm<float>", ((32, 64), 1, 1))
    with pytest.raises(LayoutError, match="more TMEM"):
        tmem_frg_layout("UMMA::tmem_frg_1sm<float>", ((128, 256), 1, 4))


# ---------------------------------------------------------------- CuTe's answers
def oracle() -> list[dict[str, Any]]:
    with open(DATA) as fh:
        return [json.loads(line) for line in fh]


def _answer(case: dict[str, Any], what: str) -> str:
    if case["kind"] == "tmem_frg":
        return str(tmem_frg_layout(case["frg"], cs.parse(case["shape"])))
    if case["kind"] == "tile_to_mma":
        atom = parse(case["layout"])
        if case["swizzle"]:
            atom = cs.composition(cs.Swizzle(*case["swizzle"]), atom)
        return str(tile_to_mma_shape(atom, cs.parse(case["shape"])))
    name = case["atom"]
    t = MMA_Traits(name)
    if what == "SFVecSize":          # the oracle prints the constant as Int<SFVecSize>
        return f"_{t.SFVecSize}"
    if what in ("Shape_MNK", "ThrID", "ALayout", "BLayout", "CLayout", "SFALayout", "SFBLayout"):
        return str(getattr(t, what))
    M, N, K = (int(x) for x in t.Shape_MNK)
    if what.startswith("partition_shape_"):
        ext = (2 * M, 4 * K) if what.endswith("A") else (N, 4 * K)
        return str(getattr(cs, what)(make_tiled_mma(name), ext))
    if what == "partition_fragment_C":
        return str(make_tiled_mma(name).get_slice(0).partition_fragment_C(cs.make_layout((M, N))))
    if what.startswith("slice"):
        peer = int(what[5])
        return str(make_tiled_mma(name).get_slice(peer).partition_A(parse(f"(_{M},_{K}):(_{K},_1)")))
    lay, fn = what.split("/")
    a, b = (int(x) for x in lay.split("x"))
    return str(getattr(make_tiled_mma(name, (a, b)), fn)())


def test_oracle_data_is_there() -> None:
    kinds = {c["kind"] for c in oracle()}
    assert kinds == {"traits", "tmem_frg", "tile_to_mma"}
    assert len(oracle()) > 1000


def test_tables_agree_with_cute() -> None:
    wrong = []
    n = 0
    for case in oracle():
        for what, want in case["expect"].items():
            n += 1
            got = _answer(case, what)
            if got != want:
                wrong.append((case.get("atom") or case.get("frg") or case.get("layout"), what, got, want))
    assert not wrong, (len(wrong), wrong[:5])
    assert n > 5000


# ---------------------------------------------------------------- pictures, scale factors
EXTRAS = os.path.join(os.path.dirname(__file__), "data", "umma_oracle_extras.jsonl")


def _printed(f: Any, x: Any) -> str:
    import contextlib
    import io
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        f(x)
    return buf.getvalue().strip("\n")


def test_umma_picture_shows_each_peer() -> None:
    text = _printed(cs.print_latex, make_tiled_mma(
        "SM100_MMA_F16BF16_2x1SM_SS<half_t, half_t, float, 128, 16, UMMA::Major::K, UMMA::Major::K>"))
    cells = text.count("\\node[fill")
    assert cells == 128 * 16 + 16 * 16 + 128 * 16          # C, A and B, one cell an element
    assert text.count("{T0 \\\\ ") > 0 and text.count("{T1 \\\\ ") > 0   # peers 0 and 1 of the CTA pair
    assert text.count("{T1 \\\\ ") == cells // 2


def test_pictures_and_scale_factors_agree_with_cute() -> None:
    import hashlib
    with open(EXTRAS) as fh:
        rows = [json.loads(line) for line in fh]
    assert {r["kind"] for r in rows} == {"picture", "tmem_sf_frg"}
    for r in rows:
        if r["kind"] == "picture":
            text = _printed(getattr(cs, r["fn"]), make_tiled_mma(r["atom"], tuple(r["layout"])))
            assert hashlib.sha256(text.encode()).hexdigest() == r["sha256"], (r["atom"], r["fn"], r["layout"])
        else:
            got = tmem_sf_frg_layout(r["sf"], r["n_sm"], r["is_sfa"], cs.parse(r["shape"]), r["alloc"])
            assert str(got) == r["expect"], r
