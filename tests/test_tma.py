"""TMA copies: the box is the smem layout's inverse read in gmem coordinates; partitions of the
gmem (coordinate) and smem tiles agree element by element; multicast splits the box; CuTe's
refusals are LayoutErrors that say what to do."""
from __future__ import annotations

import itertools
from typing import Any

import pytest

import cute_sym as cs
from cute_sym.tensor.arith_tuple import ArithmeticTuple, ScaledBasis, as_arithmetic_tuple
from cute_sym.tensor.tma import coalesce_256, make_tma_atom, make_tma_copy, tma_partition
from cute_sym.tensor.tma.make import nonswizzle_portion

BITS = {"half_t": 16, "float": 32, "float_e4m3_t": 8, "bfloat16_t": 16}


def _coord(x: Any, rank: int) -> tuple[Any, ...]:
    """A coordinate value (ArithmeticTuple, scaled basis or 0) as a tuple of ``rank`` ints."""
    if isinstance(x, ScaledBasis):
        x = as_arithmetic_tuple(x)
    if isinstance(x, ArithmeticTuple):
        v = tuple(int(e) for e in x.values)
        return v + (0,) * (rank - len(v))
    assert x == 0
    return (0,) * rank


def _to_gmem(tma: Any, c: tuple[int, ...]) -> tuple[int, ...]:
    """A TMA coordinate as a gmem coordinate: gmem mode i is TMA mode j where g_stride_[i] = E<j>."""
    out = []
    for d in tma.Traits.AuxParams.g_stride_:
        assert isinstance(d, ScaledBasis) and int(d.value) == 1
        out.append(c[d.modes[0]])
    return tuple(out)


def _case(kind: str, t: str, tile: tuple[int, int], gm: str, sw: str = "SW128") -> tuple[Any, Any, Any]:
    atom = cs.smem_layout_atom(f"GMMA::Layout_{kind}_{sw}_Atom<{t}>")
    sL = cs.tile_to_shape(atom, tile)
    gT = cs.make_tensor(cs.make_gmem_ptr("G", t), cs.parse(gm))
    return gT, sL, atom


def _fits(kind: str, t: str, sw: str, tile: tuple[int, int]) -> bool:
    a = cs.smem_layout_atom(f"GMMA::Layout_{kind}_{sw}_Atom<{t}>").layout_b.shape
    return tile[0] % a[0] == 0 and tile[1] % a[1] == 0


CASES = [(kind, t, sw, tile, cl)
         for kind in ("MN", "K") for t in ("half_t", "float", "float_e4m3_t")
         for sw in ("INTER", "SW32", "SW64", "SW128") for tile in ((64, 64), (128, 32), (128, 128))
         for cl in (1, 2) if _fits(kind, t, sw, tile)]


def _gmem_for(kind: str) -> str:
    return "(512,256):(_1,512)" if kind == "MN" else "(512,256):(256,_1)"


@pytest.mark.parametrize("kind,t,sw,tile,cl", CASES)
def test_box_is_the_smem_inverse(kind: str, t: str, sw: str, tile: tuple[int, int], cl: int) -> None:
    """Box element i lands at smem index i (before the swizzle) and reads gmem coordinate
    TmaGmemBasis(i): the smem layout's inverse composed with the CTA tile."""
    gT, sL, _ = _case(kind, t, tile, _gmem_for(kind), sw)
    op = "SM90_TMA_LOAD_MULTICAST" if cl > 1 else "SM90_TMA_LOAD"
    tma = make_tma_copy(op, gT, sL, tile, cl)
    basis = tma.Traits.AuxParams.TmaGmemBasis
    inner = nonswizzle_portion(sL)
    inv = cs.right_inverse(inner)
    n = cs.size(basis)
    assert n * BITS[t] == tma.Traits.NumBitsPerTMA
    for i in range(n):
        m, k = cs.idx2crd(inv(i), tile)        # the tile coordinate of smem index i
        assert _coord(basis(i), 2) == (m, k)   # the box's basis names gmem modes
    # the box's first mode runs along the gmem's unit-stride mode, at most 256 and within the swizzle row
    desc = tma.get_tma_descriptor()
    assert desc.box_dim[0] * BITS[t] // 8 <= max(16 * (1 << ("INTER SW32 SW64 SW128".split().index(sw))), 16) \
        or sw == "INTER"
    assert all(1 <= b <= 256 for b in desc.box_dim)
    # multicast: the CTAs share the box, its last modes cut
    total = 1
    for b in desc.box_dim:
        total *= b
    assert total * cl == n


@pytest.mark.parametrize("kind,t,sw,tile,cl", CASES[::3])
def test_partitions_agree(kind: str, t: str, sw: str, tile: tuple[int, int], cl: int) -> None:
    """partition_S of the coordinate tile and partition_D of the smem tile name the same element:
    the smem offset's tile coordinate, plus the tile's origin, is the gmem coordinate."""
    gT, sL, _ = _case(kind, t, tile, _gmem_for(kind), sw)
    op = "SM90_TMA_LOAD_MULTICAST" if cl > 1 else "SM90_TMA_LOAD"
    tma = make_tma_copy(op, gT, sL, tile, cl)
    mT = tma.get_tma_tensor(cs.shape(gT))
    origin = (1, 2)
    gTile = cs.local_tile(mT, tile, origin)
    sT = cs.make_tensor(cs.make_smem_ptr("S", t), sL)
    inv = cs.right_inverse(nonswizzle_portion(sL))
    for cta in range(cl):
        thr = tma.get_slice(cta)
        pg, ps = thr.partition_S(gTile), thr.partition_D(sT)
        assert cs.size(pg) == cs.size(ps) and cs.rank(pg.layout) == cs.rank(ps.layout)
        base_g = _coord(pg.data.coord, 2)
        base_s = ps.data.offset
        # the CTA's share of the first box, and the start of every box (what each TMA instruction
        # reads: under multicast a CTA's values span the whole box, as CuTe's TV layout does, and
        # only its share and the boxes' starts name the elements it lands)
        box = cs.size(tma.Traits.AuxParams.TmaGmemBasis)
        for v in list(range(box // cl)) + list(range(0, cs.size(ps), box)):
            g = _to_gmem(tma, tuple(a + b for a, b in zip(base_g, _coord(pg.layout(v), 2))))
            m, k = cs.idx2crd(inv(base_s + ps.layout(v)), tile)
            assert g == (origin[0] * tile[0] + m, origin[1] * tile[1] + k)


@pytest.mark.parametrize("kind,t,sw,tile,cl", CASES[1::4])
def test_tma_partition_agrees(kind: str, t: str, sw: str, tile: tuple[int, int], cl: int) -> None:
    gT, sL, _ = _case(kind, t, tile, _gmem_for(kind), sw)
    op = "SM90_TMA_LOAD_MULTICAST" if cl > 1 else "SM90_TMA_LOAD"
    atom = make_tma_atom(op, gT, sL, tile, cl)
    sT = cs.make_tensor(cs.make_smem_ptr("S", t), sL)
    gTile = cs.local_tile(atom.get_tma_tensor(cs.shape(gT)), tile, (0, 0))
    inv = cs.right_inverse(nonswizzle_portion(sL))
    box = cs.size(atom.Traits.AuxParams.TmaGmemBasis)
    for cta in range(cl):
        tg, ts = tma_partition(atom, cta, cs.make_layout(cl), cs.group_modes(sT, 0, 2), cs.group_modes(gTile, 0, 2))
        assert cs.size(tg.layout[0]) == cs.size(ts.layout[0]) == cs.size(sL)
        assert cs.size(ts.layout[0][0]) == box
        for i in list(range(box // cl)) + list(range(0, cs.size(sL), box)):
            gi = _coord(tg.data.coord, 2)
            c = _to_gmem(atom, tuple(a + b for a, b in zip(gi, _coord(tg.layout(i), 2))))
            m, k = cs.idx2crd(inv(ts.data.offset + ts.layout(i)), tile)
            assert c == (m, k)
        # each CTA starts at its share of the box: smem index box/cl * cta
        assert inv(ts.data.offset) == inv(nonswizzle_portion(sL)(cs.idx2crd(inv((box // cl) * cta), tile)))


def test_store_partitions_smem_as_source() -> None:
    gT, sL, _ = _case("K", "half_t", (64, 64), "(512,256):(256,_1)")
    tma = make_tma_copy("SM90_TMA_STORE", gT, sL)
    sT = cs.make_tensor(cs.make_smem_ptr("S", "half_t"), sL)
    gTile = cs.local_tile(tma.get_tma_tensor(cs.shape(gT)), (64, 64), (1, 1))
    src, dst = tma.get_slice(0).partition_S(sT), tma.get_slice(0).partition_D(gTile)
    assert src.shape == dst.shape
    assert str(dst.data) == "ArithTuple(_64,_64)"


@pytest.mark.parametrize("layout,want", [
    ("(_32,_8,_2):(_1,_32,_256)", "(_256,_2):(_1,_256)"),
    ("(_128,_4):(_1,_128)", "(_128,_4):(_1,_128)"),
    ("(_1,_64,_1,_2):(_0,_1,_0,_64)", "_128:_1"),
    ("(_16,M):(_1,_16)", "(_16,M):(_1,_16)"),
])
def test_coalesce_256(layout: str, want: str) -> None:
    lay = cs.parse(layout, {"M": cs.Dyn("M")}) if "M" in layout else cs.parse(layout)
    got = coalesce_256(lay)
    assert str(got) == want
    if lay.is_static():
        assert all(got(i) == lay(i) for i in range(cs.size(lay)))


def test_dynamic_extents() -> None:
    M, K = cs.Dyn("M", divisible_by=64, max=1 << 20), cs.Dyn("K", divisible_by=64, max=1 << 20)
    gT = cs.make_tensor(cs.make_gmem_ptr("A", "half_t"), cs.make_layout((M, K), (K, 1)))
    sL = cs.tile_to_shape(cs.smem_layout_atom("GMMA::Layout_K_SW128_Atom<half_t>"), (128, 64))
    tma = make_tma_copy("SM90_TMA_LOAD", gT, sL)
    assert str(tma.Traits.AuxParams.TmaGmemBasis) == "(_64,_128):(_1@1,_1@0)"
    assert str(tma.get_tma_tensor(cs.shape(gT)).layout) == "(M,K):(_1@1,_1@0)"
    d = tma.get_tma_descriptor()
    assert d.global_dim == (K, M) and d.box_dim == (64, 128) and d.swizzle == "128B"
    # without bounds, the 2^32 extent limit is a fact to be given (or collected as a guard)
    N = cs.Dyn("N", divisible_by=64)
    gN = cs.make_tensor(cs.make_gmem_ptr("A", "half_t"), cs.make_layout((M, N), (N, 1)))
    with pytest.raises(cs.UndecidableError, match="N <= 4294967296"):
        make_tma_copy("SM90_TMA_LOAD", gN, sL)
    with cs.collect_guards() as g:
        make_tma_copy("SM90_TMA_LOAD", gN, sL)
    assert g.holds({"N": 1024, "M": 1024}) and not g.holds({"N": 1 << 33, "M": 1024})
    # a row pitch that may not be a multiple of 16 bytes
    P = cs.Dyn("P", max=1 << 20)
    gP = cs.make_tensor(cs.make_gmem_ptr("A", "half_t"), cs.make_layout((M, P), (P, 1)))
    with pytest.raises(cs.UndecidableError, match="P"):
        make_tma_copy("SM90_TMA_LOAD", gP, sL)


REFUSALS = [
    # smem K-major, gmem M-major
    (("SM90_TMA_LOAD", "half_t", "(1024,256):(_1,1024)", "GMMA::Layout_K_SW128_Atom<half_t>", (128, 64), (128, 64), 1),
     "use GMMA::Layout_MN_SW128_Atom<half_t>"),
    # smem MN-major, gmem K-major
    (("SM90_TMA_LOAD", "float", "(512,512):(512,_1)", "GMMA::Layout_MN_SW64_Atom<float>", (64, 32), (64, 32), 1),
     "use GMMA::Layout_K_SW64_Atom<float>"),
    # CTA tile not the smem size
    (("SM90_TMA_LOAD", "half_t", "(1024,512):(512,_1)", "GMMA::Layout_K_SW128_Atom<half_t>", (64, 64), (128, 64), 1),
     "size equivalence"),
    # row pitch not a multiple of 16 bytes
    (("SM90_TMA_LOAD", "half_t", "(1024,100):(100,_1)", "GMMA::Layout_K_SW128_Atom<half_t>", (64, 64), (64, 64), 1),
     "multiple of 16 bytes"),
    # a multicast the box cannot be split into
    (("SM90_TMA_LOAD_MULTICAST", "half_t", "(1024,512):(512,_1)", "GMMA::Layout_K_SW128_Atom<half_t>", (8, 64),
      (8, 64), 3), "multicast"),
]


@pytest.mark.parametrize("args,text", REFUSALS)
def test_refusals_say_what_to_do(args: tuple[Any, ...], text: str) -> None:
    op, t, gm, atom, shape, tile, cl = args
    gT = cs.make_tensor(cs.make_gmem_ptr("T", t), cs.parse(gm))
    sL = cs.tile_to_shape(cs.smem_layout_atom(atom), shape)
    with pytest.raises(cs.LayoutError, match=text):
        cs.make_tma_copy(op, gT, sL, tile, cl)


def test_bad_arguments() -> None:
    gT = cs.make_tensor(cs.make_gmem_ptr("T"), cs.parse("(64,64):(_1,64)"))
    sL = cs.make_layout((64, 64))
    with pytest.raises(cs.LayoutError, match="element type"):
        cs.make_tma_copy("SM90_TMA_LOAD", gT, sL)
    gT = cs.make_tensor(cs.make_gmem_ptr("T", "half_t"), cs.parse("(64,64):(_1,64)"))
    with pytest.raises(cs.LayoutError, match="not a TMA copy operation"):
        cs.make_tma_copy("SM80_CP_ASYNC_CACHEALWAYS", gT, sL)
    with pytest.raises(NotImplementedError):
        cs.make_tma_copy("SM90_TMA_LOAD_IM2COL", gT, sL)
    with pytest.raises(cs.LayoutError, match="congruent"):
        cs.make_tma_copy("SM90_TMA_LOAD", gT, sL).get_tma_tensor((64, 64, 2))


def test_sweep_majors_and_types() -> None:
    """Every atom against both gmem majors: accepted exactly when the majors agree."""
    n = 0
    for kind, t, sw in itertools.product(("MN", "K"), ("half_t", "float", "float_e4m3_t"),
                                         ("INTER", "SW32", "SW64", "SW128")):
        for gk in ("MN", "K"):
            gT, sL, _ = _case(kind, t, (128, 128), _gmem_for(gk), sw)
            if kind == gk:
                make_tma_copy("SM90_TMA_LOAD", gT, sL)
            else:
                with pytest.raises(cs.LayoutError, match="Majorness"):
                    make_tma_copy("SM90_TMA_LOAD", gT, sL)
            n += 1
    assert n == 48


@pytest.mark.parametrize("t,sw", [(t, sw) for t in ("half_t", "float", "int8_t") for sw in ("SW32", "SW64", "SW128")])
def test_picture_placement_is_the_swizzle(t: str, sw: str) -> None:
    """K-major: the chunk at column c of smem row r holds the gmem chunk of row m = r (mod the atom)
    at chunk column c XOR (row bits the swizzle reads), as the hardware swizzles 16-byte chunks."""
    import xml.etree.ElementTree as ET
    b = {"SW32": 1, "SW64": 2, "SW128": 3}[sw]
    atom = cs.smem_layout_atom(f"GMMA::Layout_K_{sw}_Atom<{t}>")
    rowk = atom.layout_b.shape[1]
    gT = cs.make_tensor(cs.make_gmem_ptr("A", t), cs.parse("(512,512):(512,_1)"))
    sL = cs.tile_to_shape(atom, (16, rowk))
    tma = cs.make_tma_copy("SM90_TMA_LOAD", gT, sL)
    pl = cs.tma_placement(tma, gT, sL)
    ce = pl.chunk_elems
    per_row = rowk // ce                         # chunks in one swizzle row (2^B)
    assert per_row == 1 << b
    assert sorted(pl.smem_chunks) == sorted((m, c * ce) for m in range(16) for c in range(per_row))
    for q, (m, k) in enumerate(pl.smem_chunks):
        byte = q * 16
        row, rem = divmod(byte, 16 * per_row)
        col = rem // 16
        assert m == row
        # Sw<B,4,3> on bytes: bits [4,4+B) ^= bits [7,7+B)
        want_col = col ^ ((byte >> 7) & ((1 << b) - 1))
        assert k // ce == want_col
    svg = cs.tma_svg(tma, gT, sL)
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg") and svg.count('class="box"') == len(pl.boxes)
    assert "<svg" in cs.tma_html(tma, gT, sL)


@pytest.mark.parametrize("op", ["SM90_TMA_STORE", "SM90_TMA_REDUCE_ADD"])
def test_store_and_reduce_share_the_load_box(op: str) -> None:
    """A store or reduce-add has the same box, swizzle and coordinate tensor as the load of the
    same tiles (the smem tile is the source), one CTA a box."""
    gT, sL, _ = _case("MN", "float", (64, 32), "(512,256):(_1,512)")
    st, ld = make_tma_copy(op, gT, sL), make_tma_copy("SM90_TMA_LOAD", gT, sL)
    assert str(st.Traits.AuxParams.TmaGmemBasis) == str(ld.Traits.AuxParams.TmaGmemBasis)
    assert st.get_tma_descriptor().box_dim == ld.get_tma_descriptor().box_dim
    assert str(st.get_tma_tensor(cs.shape(gT)).layout) == str(ld.get_tma_tensor(cs.shape(gT)).layout)
    assert str(st.TiledLayout_TV) == str(ld.TiledLayout_TV) and st.Traits.op.direction != "load"


def test_a_padded_smem_layout_is_one_box_a_row() -> None:
    # (128,64):(72,1): only a row is contiguous in smem, so the box is one row of 64 (a rank-1 TMA
    # tile, which once crashed construct_tma_gbasis); the descriptor's box walks gmem's rows
    gT = cs.make_tensor(cs.make_gmem_ptr("T", "half_t"), cs.parse("(512,64):(64,_1)"))
    tma = cs.make_tma_copy("SM90_TMA_LOAD", gT, cs.parse("(_128,_64):(_72,_1)"), cs.parse("(_128,_64)"), 1)
    basis = tma.Traits.AuxParams.TmaGmemBasis
    assert str(basis) == "(_64,_1):(_1@1,_1@0)"
    assert cs.size(basis) * 128 == 128 * 64       # 128 boxes of one row cover the tile
