"""TiledCopy and ThrCopy: make_tiled_copy's TV algebra, the S/D TV layouts, thread partitions
(also at a symbolic thread index and over symbolic extents), retile.

Answers are checked as functions (post-conditions over every thread and value), by
substitution for the symbolic ones, and against CuTe's printed answers: the conformance
corpus and tests/data/copy_oracle.jsonl (CuTe compiled by scripts/copy_oracle.py).
"""
from __future__ import annotations

import json
import os
from typing import Any

import pytest
import sympy

import cute_sym as cs
from cute_sym.core.int_tuple import _
from cute_sym.core.integers import Dyn
from cute_sym.layout import Layout, size, slice_and_offset
from cute_sym.notation import parse, subs
from cute_sym.tensor.atoms.copy_atom import Copy_Atom
from cute_sym.tensor.copy import TiledCopy
from cute_sym.tensor.copy_make import make_tiled_copy, make_tiled_copy_D, make_tiled_copy_impl, make_tiled_copy_S

from corpus import cases

HERE = os.path.dirname(os.path.abspath(__file__))
ORACLE = os.path.join(HERE, "data", "copy_oracle.jsonl")
# the oracle files hold ~1400 tiled copies; a sample keeps the suite fast, CUTE_SYM_ORACLE_ALL=1 runs all
_EVERY = 1 if os.environ.get("CUTE_SYM_ORACLE_ALL") else 4


def sample(rows: list[dict[str, Any]], every: int = _EVERY) -> list[dict[str, Any]]:
    return rows[::every]


def tc_of(op: str, ty: str, thr: str, val: str) -> TiledCopy:
    return make_tiled_copy(Copy_Atom(op, ty), parse(thr), parse(val))


def as_layout(text: str) -> Layout:
    x = parse(text)
    return x if isinstance(x, Layout) else cs.make_layout(x)


def first_tile(layout: Layout, tiler: Any) -> Layout:
    """local_tile(T, tiler, (0, 0)) on the layout: the tile mode at rest coordinate 0."""
    z = cs.zipped_divide(layout, tiler)
    lay, off = slice_and_offset(((_,) * len(tiler), (0,) * len(tiler)), z)
    assert off == 0
    return lay


def table(layout: Layout) -> dict[tuple[int, int], int]:
    return {(t, v): layout(t, v) for t in range(size(layout[0])) for v in range(size(layout[1]))}


# ------------------------------------------------------------------ CuTe's answers
def views(op: str) -> list[dict[str, Any]]:
    return cases("views/" + op)


@pytest.mark.parametrize("case", views("tiled_copy"), ids=lambda c: c["id"])
def test_corpus_tiled_copy(case: dict[str, Any]) -> None:
    a = case["args"]
    tc = tc_of(a["copy_op"], a["type"], a["thr_layout"], a["val_layout"])
    assert str(getattr(tc, a["what"])()) == case["expect"]


@pytest.mark.parametrize("case", views("copy_partition"), ids=lambda c: c["id"])
def test_corpus_copy_partition(case: dict[str, Any]) -> None:
    a = case["args"]
    tc = tc_of(a["copy_op"], a["type"], a["thr_layout"], a["val_layout"])
    tile = first_tile(parse(a["tensor_layout"]), tuple(tc.Tiler_MN))
    lay = tc.get_slice(a["thr_idx"]).partition_S(tile)
    assert str(lay) == case["expect"]


def oracle() -> list[dict[str, Any]]:
    if not os.path.exists(ORACLE):
        return []
    with open(ORACLE) as fh:
        return [json.loads(line) for line in fh]


def _oracle_id(c: dict[str, Any]) -> str:
    return f"{c['op']}-{c['type']}-{c['thr_layout']}-{c['val_layout']}"


@pytest.mark.parametrize("k,case", list(enumerate(sample(oracle()))), ids=lambda x: _oracle_id(x) if isinstance(x, dict) else "")
def test_cute_oracle(k: int, case: dict[str, Any]) -> None:
    tc = tc_of(case["op"], case["type"], case["thr_layout"], case["val_layout"])
    e = case["expect"]
    m, n = tc.Tiler_MN
    # Td's extents are CuTe's run-time ints: symbols, given their values after the fact (a
    # sympy Integer would let cute_sym merge modes whose run-time strides happen to agree,
    # which CuTe's coalesce never does)
    M, N = Dyn("M", divisible_by=m), Dyn("N", divisible_by=2 * n)
    tensors = {"Ts": cs.make_layout((2 * m, 3 * n), cs.LayoutRight), "Td": cs.make_layout((M, N), (1, M))}
    values = {"M": m, "N": 2 * n}
    assert str(tc.Tiler_MN) == e["Tiler_MN"]
    assert str(tc.TiledLayout_TV) == e["TiledLayout_TV"]
    assert str(tc.get_layoutS_TV()) == e["get_layoutS_TV"]
    assert str(tc.get_layoutD_TV()) == e["get_layoutD_TV"]
    # one of the oracle's thread indices a case, in turn (all of them cost seconds)
    tids = sorted({key.split("/")[-1] for key in e if key.startswith("partition_")}, key=int)
    for key, want in e.items():
        if key.startswith("partition_") and key.endswith("/" + tids[k % len(tids)]):
            which, t, tid = key[len("partition_"):].split("/")
            thr = tc.get_slice(int(tid))
            lay = (thr.partition_S if which == "S" else thr.partition_D)(tensors[t])
            off = (thr.offset_S if which == "S" else thr.offset_D)(tensors[t])
            assert str(subs(lay, values, ignore_unknown=True)) == want, key
            assert int(subs(off, values, ignore_unknown=True)) == int(e[f"offset_{which}/{t}/{tid}"]), key
    frag = cs.make_layout(tc.get_slice(0).partition_D(tensors["Ts"]).shape)
    assert str(tc.retile(frag)) == e["retile_D"]


def views_oracle() -> list[dict[str, Any]]:
    path = os.path.join(HERE, "data", "copy_oracle_views.jsonl")
    if not os.path.exists(path):
        return []
    with open(path) as fh:
        return [json.loads(line) for line in fh]


@pytest.mark.parametrize("case", sample(views_oracle()),
                         ids=lambda c: f"{_oracle_id(c)}-{c['tensor_layout']}-{c['thr_idx']}")
def test_cute_oracle_views(case: dict[str, Any]) -> None:
    # the views conformance's calls (check.py), over every atom
    tc = cs.make_tiled_copy(cs.Copy_Atom(case["op"], case["type"]), parse(case["thr_layout"]), parse(case["val_layout"]))
    T = cs.make_tensor(cs.make_gmem_ptr("T"), parse(case["tensor_layout"]))
    tile = cs.local_tile(T, tc.Tiler_MN, (0, 0))
    thr = tc.get_slice(case["thr_idx"])
    assert str(thr.partition_S(tile).layout) == case["expect"]["partition_S"]
    assert str(thr.partition_D(tile).layout) == case["expect"]["partition_D"]


def mma_oracle() -> list[dict[str, Any]]:
    path = os.path.join(HERE, "data", "copy_oracle_mma.jsonl")
    if not os.path.exists(path):
        return []
    with open(path) as fh:
        return [json.loads(line) for line in fh]


def _mma_id(c: dict[str, Any]) -> str:
    if c["which"] == "cotiled":
        return f"cotiled-{c['op']}-{c['type']}-{c['atom_tv_layout']}-{c['data_layout']}"
    return f"{c['mma']}-{c['which']}-{c['op']}-{c['type']}-{c['atom_layout']}"


@pytest.mark.parametrize("case", sample(mma_oracle(), max(1, _EVERY // 2)), ids=_mma_id)
def test_cute_oracle_tiled_mma(case: dict[str, Any]) -> None:
    atom = cs.Copy_Atom(case["op"], case["type"])
    if case["which"] == "cotiled":
        tc = cs.make_cotiled_copy(atom, parse(case["atom_tv_layout"]), parse(case["data_layout"]))
    else:
        mma = cs.make_tiled_mma(case["mma"], tuple(case["atom_layout"]),
                                tuple(case["permutation"]) if case["permutation"] else None)
        make = {"A": cs.make_tiled_copy_A, "B": cs.make_tiled_copy_B, "C": cs.make_tiled_copy_C,
                "C_atom": cs.make_tiled_copy_C_atom}[case["which"]]
        tc = make(atom, mma)
    e = case["expect"]
    for what in ("Tiler_MN", "TiledLayout_TV"):
        assert str(getattr(tc, what)) == e[what], what
    assert str(tc.get_layoutS_TV()) == e["get_layoutS_TV"]
    assert str(tc.get_layoutD_TV()) == e["get_layoutD_TV"]
    m, n = (size(t) for t in tc.Tiler_MN)
    Ts = cs.make_layout((2 * m, 2 * n), cs.LayoutRight)
    for key, want in e.items():
        if key.startswith("partition_"):
            which, _t, tid = key[len("partition_"):].split("/")
            thr = tc.get_slice(int(tid))
            assert str(thr.partition_S(Ts) if which == "S" else thr.partition_D(Ts)) == want, key
            off = thr.offset_S(Ts) if which == "S" else thr.offset_D(Ts)
            assert off == int(e[f"offset_{which}/Ts/{tid}"]), key
    if "frag" in e:
        assert str(tc.retile(parse(e["frag"]))) == e["retile_D"]


# ------------------------------------------------------------------ post-conditions
TILINGS = [
    ("UniversalCopy<uint128_t>", "half_t", "(_32,_4):(_1,_32)", "(_8,_1)"),
    ("UniversalCopy<uint64_t>", "float", "(_4,_8):(_8,_1)", "(_1,_2)"),
    ("UniversalCopy<uint32_t>", "int8_t", "(_8,_4):(_1,_8)", "(_2,_2):(_2,_1)"),
    ("SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>", "half_t", "(_8,_16):(_16,_1)", "(_1,_8)"),
    ("SM80_CP_ASYNC_CACHEALWAYS_ZFILL<uint64_t>", "bfloat16_t", "(_16,_4):(_4,_1)", "(_1,_4)"),
    ("SM75_U32x4_LDSM_N", "half_t", "(_32,_1)", "(_1,_8)"),
    ("SM75_U32x2_LDSM_N", "int8_t", "(_8,_4):(_4,_1)", "(_8,_1)"),
    ("SM75_U16x8_LDSM_T", "half_t", "(_16,_4):(_1,_16)", "(_1,_8)"),
    ("SM90_U32x1_STSM_N", "half_t", "(_32,_2)", "(_2,_1)"),
    ("SM90_U16x4_STSM_T", "bfloat16_t", "(_4,_16):(_16,_1)", "(_4,_2)"),
]


@pytest.mark.parametrize("op,ty,thr,val", TILINGS)
def test_make_tiled_copy_inverts_the_raked_product(op: str, ty: str, thr: str, val: str) -> None:
    tc = tc_of(op, ty, thr, val)
    layout_mn = cs.raked_product(as_layout(thr), as_layout(val))
    nthr = size(as_layout(thr))
    assert tc.TiledNumThr == nthr and tc.Tiler_MN == tuple(cs.product(m) for m in layout_mn.shape)
    tv = tc.TiledLayout_TV
    for (t, v), idx in table(tv).items():
        assert layout_mn(idx) == t + v * nthr
    # the TV layout is a bijection onto the tile
    assert sorted(table(tv).values()) == list(range(size(layout_mn)))


@pytest.mark.parametrize("op,ty,thr,val", TILINGS)
def test_layout_TV_covers_the_tile(op: str, ty: str, thr: str, val: str) -> None:
    tc = tc_of(op, ty, thr, val)
    tile = cs.product(tuple(tc.Tiler_MN))
    s, d = table(tc.get_layoutS_TV()), table(tc.get_layoutD_TV())
    assert set(s.values()) == set(d.values()) == set(range(tile))
    ref = tc.get_layoutD_TV() if tc.Traits.RefLayout is tc.Traits.DstLayout else tc.get_layoutS_TV()
    assert table(ref) == table(tc.TiledLayout_TV)  # the TiledLayout_TV is in the reference order
    # the register side has one (thr, val) an element; ldmatrix's smem side repeats rows
    if "LDSM" in op:
        assert len(set(d.values())) == len(d)
    elif "STSM" in op:
        assert len(set(s.values())) == len(s)
    else:
        assert s == d and len(set(s.values())) == len(s)


@pytest.mark.parametrize("op,ty,thr,val", TILINGS)
def test_partitions_are_the_threads_share(op: str, ty: str, thr: str, val: str) -> None:
    tc = tc_of(op, ty, thr, val)
    m, n = tc.Tiler_MN
    T = cs.make_layout((2 * m, 2 * n), cs.LayoutRight)
    seen: list[int] = []
    frg = tc.tidfrg_D(T)
    for tid in range(tc.TiledNumThr):
        lay, off = tc.get_slice(tid).partition_D(T), tc.get_slice(tid).offset_D(T)
        elems = [off + lay(i) for i in range(size(lay))]
        want = [frg(tid, v, r) for v in range(size(frg[1])) for r in range(size(frg[2]))]
        assert sorted(elems) == sorted(want)
        seen.extend(elems)
    if "STSM" in op:  # the smem side repeats rows
        assert set(seen) == set(range(size(T)))
    else:
        assert sorted(seen) == list(range(size(T)))


@pytest.mark.parametrize("op,ty,thr,val", TILINGS)
def test_symbolic_thread_index_is_one_formula(op: str, ty: str, thr: str, val: str) -> None:
    tc = tc_of(op, ty, thr, val)
    m, n = tc.Tiler_MN
    T = cs.make_layout((2 * m, 3 * n), cs.LayoutRight)
    tid = Dyn("tid", max=tc.TiledNumThr - 1, sign="nonnegative")
    for which in ("S", "D"):
        lay, off = getattr(tc.get_slice(tid), f"partition_{which}")(T), getattr(tc.get_slice(tid), f"offset_{which}")(T)
        for t in range(0, tc.TiledNumThr, 3 if which == "S" else 5):
            clay, coff = getattr(tc.get_slice(t), f"partition_{which}")(T), getattr(tc.get_slice(t), f"offset_{which}")(T)
            assert subs(lay, {"tid": t}, ignore_unknown=True) == clay
            assert int(subs(off, {"tid": t}, ignore_unknown=True)) == coff


def test_symbolic_extents() -> None:
    tc = tc_of("SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>", "half_t", "(_8,_16):(_16,_1)", "(_1,_8)")
    M, N = Dyn("M", divisible_by=8), Dyn("N", divisible_by=128)
    tid = Dyn("tid", max=127, sign="nonnegative")
    lay = tc.get_slice(tid).partition_S(cs.make_layout((M, N), (N, 1)))
    off = tc.get_slice(tid).offset_S(cs.make_layout((M, N), (N, 1)))
    assert str(lay) == "((_8,_1),M/8,N/128):((_1,_0),8*N,_128)"
    for mv, nv in ((8, 128), (16, 256), (24, 384)):
        T = cs.make_layout((sympy.Integer(mv), sympy.Integer(nv)), (sympy.Integer(nv), 1))
        for t in (0, 5, 17, 127):
            clay, coff = tc.get_slice(t).partition_S(T), tc.get_slice(t).offset_S(T)
            assert subs(lay, {"M": mv, "N": nv, "tid": t}, ignore_unknown=True) == clay
            assert int(subs(off, {"M": mv, "N": nv, "tid": t}, ignore_unknown=True)) == coff


def test_retile_keeps_the_fragment() -> None:
    tc = tc_of("UniversalCopy<uint64_t>", "half_t", "(_16,_8):(_8,_1)", "(_1,_4)")
    frag = cs.make_layout((4, 2, 3))
    r = tc.retile(frag)
    assert size(r) == size(frag)
    assert sorted(r(i) for i in range(size(r))) == list(range(size(frag)))


def test_make_tiled_copy_S_and_D_keep_the_tiling() -> None:
    tc = tc_of("SM75_U32x4_LDSM_N", "half_t", "(_32,_1)", "(_1,_8)")
    s = make_tiled_copy_S(Copy_Atom("UniversalCopy<uint128_t>", "half_t"), tc)
    d = make_tiled_copy_D(Copy_Atom("UniversalCopy<uint32_t>", "half_t"), tc)
    assert s.Tiler_MN == d.Tiler_MN == tc.Tiler_MN
    assert s.TiledLayout_TV == tc.get_layoutS_TV() and d.TiledLayout_TV == tc.get_layoutD_TV()


def test_misuse_is_a_layout_error() -> None:
    atom = Copy_Atom("SM75_U32x4_LDSM_N", "half_t")
    with pytest.raises(cs.LayoutError, match="too few thrs"):
        make_tiled_copy(atom, parse("(_16,_1)"), parse("(_1,_8)"))
    with pytest.raises(cs.LayoutError, match="too few vals"):
        make_tiled_copy(atom, parse("(_32,_1)"), parse("(_1,_4)"))
    with pytest.raises(cs.LayoutError):
        make_tiled_copy("UniversalCopy<uint128_t>", parse("(_32,_1)"))  # type: ignore[arg-type]
    with pytest.raises(cs.LayoutError):
        make_tiled_copy_impl(atom, parse("_32:_1"), (32,))
    tc = tc_of("UniversalCopy<uint128_t>", "half_t", "(_32,_4):(_1,_32)", "(_8,_1)")
    with pytest.raises(cs.RankError):
        tc.tidfrg_S(parse("_256:_1"))
    with pytest.raises(AttributeError):
        tc.TiledLayout_TV = parse("_1:_0")  # type: ignore[misc]


def test_printing_as_cute() -> None:
    tc = tc_of("UniversalCopy<uint128_t>", "half_t", "(_32,_4):(_1,_32)", "(_8,_1)")
    text = str(tc)
    assert text.startswith("TiledCopy\n  Tiler_MN:       (_256,_4)\n  TiledLayout_TV: (_128,_8):(_8,_1)\n")
    assert "Copy_Atom\n  ThrID:        _1:_0\n" in text


def test_swizzled_tensor_keeps_the_offset_inside() -> None:
    # CuTe: a composed layout's slice accumulates the offset in the layout, the pointer stays
    tc = cs.make_tiled_copy(cs.Copy_Atom("SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>", "half_t"),
                            parse("(_16,_8):(_8,_1)"), parse("(_1,_8)"))
    plain = parse("(_32,_64):(_64,_1)")
    swz = parse("Sw<3,3,3> o _0 o (_32,_64):(_64,_1)")
    S = cs.make_tensor(cs.make_smem_ptr("S", "half_t"), swz)
    for tid in (0, 13, 127):
        thr = tc.get_slice(tid)
        part, lay, off = thr.partition_S(S), thr.partition_S(plain), thr.offset_S(plain)
        assert part.engine == S.engine and thr.offset_S(S) == 0
        assert all(part.layout(i) == swz.layout_a(off + lay(i)) for i in range(size(lay)))
    sym = tc.get_slice(Dyn("tid", max=127, sign="nonnegative")).partition_S(S)
    for tid in (0, 13, 127):
        want = tc.get_slice(tid).partition_S(S).layout
        got = subs(sym.layout, {"tid": tid}, ignore_unknown=True)
        assert all(got(i) == want(i) for i in range(size(want)))


@pytest.mark.parametrize("which", ["A", "B", "C"])
def test_tiled_copy_of_an_mma_is_its_operand(which: str) -> None:
    mma = cs.make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", (2, 2, 1), (32, 32, 16))
    op = {"A": "SM75_U32x4_LDSM_N", "B": "SM75_U16x8_LDSM_T", "C": "SM90_U32x2_STSM_N"}[which]
    ty = "float" if which == "C" else "half_t"
    if which == "C":
        op = "UniversalCopy<uint64_t>"
    make = {"A": cs.make_tiled_copy_A, "B": cs.make_tiled_copy_B, "C": cs.make_tiled_copy_C}[which]
    tc = make(cs.Copy_Atom(op, ty), mma)
    assert tc.TiledLayout_TV == getattr(mma, f"get_layout{which}_TV")()
    modes = {"A": (0, 2), "B": (1, 2), "C": (0, 1)}[which]
    assert tuple(tc.Tiler_MN) == tuple(mma.tile_size_mnk(i) for i in modes)
    assert tc.TiledNumThr == mma.thr_size()
    with pytest.raises(cs.LayoutError):
        make(cs.Copy_Atom(op, ty), "not an mma")  # type: ignore[arg-type]


@pytest.mark.parametrize("op,ty,thr,val", TILINGS[::3])
def test_identity_tensor_partitions_are_coordinates(op: str, ty: str, thr: str, val: str) -> None:
    # print_latex(TiledCopy) and predication partition identity tensors: the coordinates of the elements
    tc = tc_of(op, ty, thr, val)
    shape = tuple(tc.Tiler_MN)
    ident, plain = cs.make_identity_tensor(shape), cs.make_layout(shape)
    tid = Dyn("tid", max=tc.TiledNumThr - 1, sign="nonnegative")
    sym = tc.get_slice(tid).partition_D(ident)
    for t in range(0, tc.TiledNumThr, 7):
        part = tc.get_slice(t).partition_D(ident)
        lay, off = tc.get_slice(t).partition_D(plain), tc.get_slice(t).offset_D(plain)
        assert subs(sym, {"tid": t}, ignore_unknown=True).layout == part.layout
        for i in range(size(lay)):
            c = tuple(part(i))
            assert cs.crd2idx(c, shape) == off + lay(i)
            assert tuple(int(x) for x in subs(sym, {"tid": t}, ignore_unknown=True)(i)) == c


BRIEF_OPS = ([f"UniversalCopy<uint{w}_t>" for w in (8, 16, 32, 64, 128)]
             + [f"SM80_CP_ASYNC_{k}{z}<uint128_t>" for k in ("CACHEALWAYS", "CACHEGLOBAL") for z in ("", "_ZFILL")]
             + [f"SM75_U32x{n}_LDSM_N" for n in (1, 2, 4)] + [f"SM75_U16x{n}_LDSM_T" for n in (2, 4, 8)]
             + [f"SM90_U32x{n}_STSM_N" for n in (1, 2, 4)] + [f"SM90_U16x{n}_STSM_T" for n in (2, 4, 8)])


@pytest.mark.parametrize("op", BRIEF_OPS)
def test_every_atom_tiles_its_tile(op: str) -> None:
    t = cs.Copy_Traits(op)
    reg_bits = size(t.RefLayout[1])  # a thread's bits on the reference (register) side
    for ty in ("int8_t", "half_t", "float"):
        try:
            atom = cs.Copy_Atom(op, ty)
        except cs.LayoutError:
            continue
        bits = atom.bits
        if bits > reg_bits:
            continue
        nv = reg_bits // bits
        warp = size(t.ThrID) == 32
        tc = cs.make_tiled_copy(atom, cs.make_layout((32, 1) if warp else (16, 4)),
                                cs.make_layout((1, nv) if warp else (nv, 1)))
        assert tc.AtomNumVal == nv and tc.AtomNumVal * bits == reg_bits
        tile = cs.product(tuple(tc.Tiler_MN))
        s, d = table(tc.get_layoutS_TV()), table(tc.get_layoutD_TV())
        assert set(s.values()) == set(d.values()) == set(range(tile))
        reg = d if "LDSM" in op else s  # the register side: one (thr, val) an element
        assert len(set(reg.values())) == len(reg) == tile


# ---------------------------------------------------------------- issue 33
def test_make_tiled_copy_refuses_a_thread_layout_that_is_not_injective() -> None:
    atom = cs.Copy_Atom("UniversalCopy<uint64_t>", "float")
    with pytest.raises(cs.InjectivityError, match=r"thr_layout \(_2,_2\):\(_0,_0\) is not injective"):
        cs.make_tiled_copy(atom, cs.parse("(_2,_2):(_0,_0)"), cs.parse("(_1,_8)"))
    with pytest.raises(cs.InjectivityError, match=r"val_layout .* is not injective"):
        cs.make_tiled_copy(atom, cs.parse("(_4,_8):(_8,_1)"), cs.parse("(_2,_2):(_1,_1)"))
    # an injective thread layout: each thread has its own (m,n) cells, as the TV layout says
    for thr in ("(_4,_8):(_8,_1)", "(_4,_8):(_1,_4)", "(_2,_16):(_16,_1)"):
        tc = cs.make_tiled_copy(atom, cs.parse(thr), cs.parse("(_1,_2)"))
        tv = tc.TiledLayout_TV
        cells = [int(tv(t, v)) for t in range(tc.TiledNumThr) for v in range(tc.TiledNumVal)]
        assert sorted(cells) == list(range(len(cells)))
