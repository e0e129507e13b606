"""TiledMMA / ThrMMA: the (thread, value) layouts cover each tile as an MMA must, every thread's
partition is the right elements of any tensor, a symbolic thread index gives one formula equal to
the per-thread answers, and CuTe's own answers."""
from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
import sympy

import cute_sym as cs

from cute_sym.core.errors import LayoutError, RankError
from cute_sym.core.int_tuple import _, leaves
from cute_sym.core.integers import Dyn
from cute_sym.layout import Layout, make_layout, size
from cute_sym.notation import parse, to_str
from cute_sym.swizzle import Swizzle
from cute_sym.tensor import make_fragment_like, make_gmem_ptr, make_rmem_ptr, make_smem_ptr, make_tensor
from cute_sym.tensor.mma import (
    MMA_Atom, TiledMMA, make_tiled_mma, partition_shape_A, partition_shape_B, partition_shape_C, tile_shape,
)
from corpus import cases

ATOMS = [
    "SM70_8x8x4_F16F16F16F16_TN", "SM70_8x8x4_F32F16F16F32_NT", "SM70_8x8x4_F32F16F16F32_TT",
    "SM75_16x8x8_F32F16F16F32_TN", "SM75_8x8x16_S32S8S8S32_TN", "SM80_16x8x16_F16F16F16F16_TN",
    "SM80_16x8x8_F32TF32TF32F32_TN", "SM80_16x8x4_F32TF32TF32F32_TN", "SM80_8x8x4_F64F64F64F64_TN",
    "SM80_16x8x32_S32S8S8S32_TN", "SM80_16x8x64_S32U4U4S32_TN", "SM80_16x8x256_S32U1U1S32_TN_XORPOPC",
    "SM90_64x16x16_F16F16F16_RS<Major::K,Major::MN>", "SM90_64x24x32_S32U8S8_RS_TN",
]
ATOM_LAYOUTS = [(1, 1), (2, 1), (1, 2), (2, 2), (1, 4), (2, 1, 2), parse("(_2,_2):(_2,_1)")]


def images(layout: Layout) -> list[int]:
    out = [0]
    for s, d in zip(leaves(layout.shape), leaves(layout.stride)):
        out = [o + d * i for i in range(s) for o in out]
    return out


def table(layout: Layout, threads: int) -> list[list[int]]:
    """``layout(t, v)`` for every thread ``t`` and value ``v``: one row a thread."""
    img = images(layout)
    return [img[t::threads] for t in range(threads)]


def thread_groups(mma: TiledMMA, ignore: set[int]) -> list[list[int]]:
    """The threads (their indices: the image of thr_layout_vmnk) grouped by their (ThrV,ThrM,ThrN,ThrK)
    coordinate without the modes ``ignore``."""
    groups: dict[tuple[Any, ...], list[int]] = {}
    for t in sorted(set(images(mma.thr_layout_vmnk))):
        c = mma.get_slice(t).thr_vmnk
        groups.setdefault(tuple(x for k, x in enumerate(c) if k not in ignore), []).append(t)
    return list(groups.values())


@pytest.mark.parametrize("atom, atom_layout", list(itertools.product(ATOMS, ATOM_LAYOUTS)))
def test_tv_layouts_cover_each_tile(atom: str, atom_layout: Any) -> None:
    mma = make_tiled_mma(atom, atom_layout)
    TM, TN, TK = (mma.tile_size_mnk(k) for k in range(3))
    vmnk = mma.thr_layout_vmnk
    assert mma.thr_size() == size(MMA_Atom(atom).ThrID) * size(atom_layout if isinstance(atom_layout, Layout)
                                                               else make_layout(atom_layout))
    assert len(set(images(vmnk))) == size(vmnk)                       # one thread index a thread
    gmma_b = atom.startswith("SM90")                                  # B is in shared memory: all see all
    for op, extent, ignore in (("A", TM * TK, {2}), ("B", TN * TK, {0, 1} if gmma_b else {1}), ("C", TM * TN, {3})):
        tv = getattr(mma, f"get_layout{op}_TV")()
        rows = table(tv, size(tv[0]))
        groups = thread_groups(mma, ignore)
        # threads that differ only in modes operand op does not span hold the same elements ...
        for ts in groups:
            assert all(rows[t] == rows[ts[0]] for t in ts), (op, ts)
        # ... and one thread of each group covers the tile once
        assert sorted(e for ts in groups for e in rows[ts[0]]) == list(range(extent)), op


def reference_offset(T: Layout, mma: TiledMMA, tv: Layout, op: str, t: int, v: int, rest: tuple[int, int]) -> Any:
    """Where thread t's value v of tile ``rest`` lies in T, from the TV layout ``tv`` alone."""
    i, j = {"A": (0, 2), "B": (1, 2), "C": (0, 1)}[op]
    TI, TJ = mma.tile_size_mnk(i), mma.tile_size_mnk(j)
    e = tv(t, v)
    return T((rest[0] * TI + e % TI, rest[1] * TJ + e // TI))


TENSORS = ["(_64,_32):(_32,_1)", "(_64,_32):(_1,_64)", "(_128,_64):(_1,_130)", "((_8,_8),(_4,_8)):((_1,_8),(_512,_64))"]


@pytest.mark.parametrize("atom, atom_layout, tensor", [
    ("SM80_16x8x16_F16F16F16F16_TN", (2, 2), TENSORS[0]), ("SM80_16x8x8_F16F16F16F16_TN", (2, 1), TENSORS[1]),
    ("SM70_8x8x4_F32F16F16F32_TT", (2, 2), TENSORS[2]), ("SM75_8x8x16_S32S8S8S32_TN", (1, 2), TENSORS[3]),
    ("SM80_16x8x4_F32TF32TF32F32_TN", (2, 2), TENSORS[2]), ("SM70_8x8x4_F16F16F16F16_NT", (1, 2), TENSORS[0]),
])
def test_partition_is_the_threads_elements(atom: str, atom_layout: Any, tensor: str) -> None:
    mma = make_tiled_mma(atom, atom_layout)
    T = parse(tensor)
    for op in "ABC":
        TI, TJ = [mma.tile_size_mnk(k) for k in {"A": (0, 2), "B": (1, 2), "C": (0, 1)}[op]]
        if size(T[0]) % TI or size(T[1]) % TJ:
            continue
        tv = getattr(mma, f"get_layout{op}_TV")()
        for t in random.Random(7).sample(sorted(set(images(mma.thr_layout_vmnk))), 4):
            thr = mma.get_slice(t)
            frag, base = getattr(thr, f"partition_{op}")(T), getattr(thr, f"offset_{op}")(T)
            assert frag.rank() == 3
            for v, r0, r1 in itertools.product(range(size(frag[0])), range(size(frag[1])), range(size(frag[2]))):
                assert base + frag(v, r0, r1) == reference_offset(T, mma, tv, op, t, v, (r0, r1))


def test_partition_of_the_tile_is_the_tv_layout() -> None:
    for atom in ATOMS:
        mma = make_tiled_mma(atom, (2, 2))
        for op, (i, j) in (("A", (0, 2)), ("B", (1, 2)), ("C", (0, 1))):
            ref = make_layout((mma.tile_size_mnk(i), mma.tile_size_mnk(j)))
            tv = getattr(mma, f"get_layout{op}_TV")()
            for t in (0, 1, 5, mma.thr_size() - 1):
                thr = mma.get_slice(t)
                frag, base = getattr(thr, f"partition_{op}")(ref), getattr(thr, f"offset_{op}")(ref)
                assert [base + frag(v) for v in range(size(frag))] == [tv(t, v) for v in range(size(tv[1]))]


@pytest.mark.parametrize("atom, atom_layout", [
    ("SM80_16x8x16_F16F16F16F16_TN", (2, 2)), ("SM70_8x8x4_F32F16F16F32_NN", (2, 2)),
    ("SM90_64x32x16_F32BF16BF16_SS<Major::MN,Major::K>", (2, 1)),
])
def test_symbolic_thread_index_is_one_formula(atom: str, atom_layout: Any) -> None:
    """The offset formula in tid (and M, K) equals every thread's integer offset; the fragment's layout
    equals every thread's, as a function."""
    mma = make_tiled_mma(atom, atom_layout)
    threads = sorted(set(images(mma.thr_layout_vmnk)))
    tid = Dyn("tid", max=threads[-1], sign="nonnegative")
    M, K = Dyn("M", divisible_by=128), Dyn("K", divisible_by=64)
    for T in (parse("(_128,_64):(_64,_1)"), make_layout((M, K), (K, 1)), make_layout((M, K), (1, M))):
        for op in "ABC":
            sym = mma.get_slice(tid)
            frag, base = getattr(sym, f"partition_{op}")(T), getattr(sym, f"offset_{op}")(T)
            base = sympy.sympify(base)                      # a static 0 where no thread moves it (GMMA's B)
            assert base.free_symbols <= {tid, M, K}
            for m, k in ((128, 64), (256, 192)):
                values = {M: m, K: k}
                Tc = make_layout(tuple(int(sympy.sympify(x).subs(values)) for x in leaves(T.shape)),
                                 tuple(int(sympy.sympify(x).subs(values)) for x in leaves(T.stride)))
                want = getattr(mma.get_slice(0), f"partition_{op}")(Tc)
                fixed = base.xreplace({M: sympy.Integer(m), K: sympy.Integer(k)})
                for t in threads:
                    assert fixed.xreplace({tid: sympy.Integer(t)}) == getattr(mma.get_slice(t), f"offset_{op}")(Tc)
                got = [(sympy.sympify(a).subs(values), sympy.sympify(b).subs(values))
                       for a, b in zip(leaves(frag.shape), leaves(frag.stride))]
                assert [a for a, _b in got] == list(leaves(want.shape))
                assert [b if a != 1 else 0 for a, b in got] == [   # an extent-1 mode's stride is no matter
                    b if a != 1 else 0 for a, b in zip(leaves(want.shape), leaves(want.stride))]


def test_symbolic_offset_is_readable() -> None:
    mma = make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN", (2, 2))
    tid = Dyn("tid", max=127, sign="nonnegative")
    K = Dyn("K", divisible_by=32)
    base = mma.get_slice(tid).offset_A(make_layout((128, K), (K, 1)))
    assert to_str(base) == "16*K*((tid//32)%2)+K*((tid//4)%8)+2*(tid%4)"


def test_permutations() -> None:
    mma = make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN", (2, 2), (32, 32, 16))
    assert tile_shape(mma) == (32, 32, 16)
    tv = mma.get_layoutC_TV()
    assert sorted(images(tv)) == list(range(32 * 32))
    perm = make_tiled_mma("SM80_16x8x8_F16F16F16F16_TN", (1, 2), (_, parse("(_8,_2):(_2,_1)"), _))
    assert perm.tile_size_mnk(1) == 16 and sorted(images(perm.get_layoutB_TV())) == list(range(16 * 8))
    with pytest.raises(LayoutError, match="static permutations"):
        make_tiled_mma("SM80_16x8x8_F16F16F16F16_TN", (1, 1), (Dyn("P"), _, _))
    with pytest.raises(RankError, match="rank-3 PermutationMNK"):
        make_tiled_mma("SM80_16x8x8_F16F16F16F16_TN", (1, 1), (_, _, _, _))


def test_bad_arguments() -> None:
    with pytest.raises(RankError, match="rank-3 AtomLayoutMNK"):
        make_tiled_mma("SM80_16x8x8_F16F16F16F16_TN", (1, 1, 1, 2))
    with pytest.raises(LayoutError, match="no MMA atom named"):
        make_tiled_mma("SM80_16x8x8_F16F16F16F16_TT")
    mma = make_tiled_mma("SM80_16x8x8_F16F16F16F16_TN")
    with pytest.raises(LayoutError, match="negative"):
        mma.get_slice(-1)
    with pytest.raises(LayoutError, match="non-negative integer"):
        mma.get_slice(Dyn("t", sign="any"))
    with pytest.raises(LayoutError, match="is an integer"):
        mma.get_slice("3")
    with pytest.raises(RankError, match="rank >= 2"):
        mma.thrfrg_A(make_layout(16))
    with pytest.raises(LayoutError, match="Tensor or a Layout"):
        mma.get_slice(0).partition_A((16, 8))
    with pytest.raises(LayoutError, match="static AtomLayoutMNK of positive extents"):
        make_tiled_mma("SM80_16x8x8_F16F16F16F16_TN", (0, 2))
    with pytest.raises(LayoutError, match="static AtomLayoutMNK"):
        make_tiled_mma("SM80_16x8x8_F16F16F16F16_TN", make_layout((Dyn("A"), 2)))
    with pytest.raises(LayoutError, match="not a multiple of the atoms' 16"):
        make_tiled_mma("SM80_16x8x8_F16F16F16F16_TN", (2, 2), (_, parse("_4:_1"), _))
    with pytest.raises(RankError, match="not 0, 1 or 2"):
        mma.tile_size_mnk(3)
    with pytest.raises(LayoutError, match="expected a TiledMMA"):
        partition_shape_C(None, (16, 8))  # type: ignore[arg-type]
    with pytest.raises(LayoutError, match="expected a Layout or a shape"):
        make_tiled_mma("SM80_16x8x8_F16F16F16F16_TN", "2x2")


def test_values_and_printing() -> None:
    mma = make_tiled_mma(MMA_Atom("SM80_16x8x8_F16F16F16F16_TN"), parse("(_2,_1)"))
    assert repr(mma) == "TiledMMA('SM80_16x8x8_F16F16F16F16_TN', (_2,_1,_1):(_1,_0,_0))"
    assert repr(mma.get_slice(33)) == f"ThrMMA({mma!r}, thr_idx=33)"
    with pytest.raises(AttributeError):
        mma.atom = mma.atom
    assert partition_shape_A(mma, (64, 32)) == ((2, 2), 2, 4)
    assert partition_shape_B(mma, (32, 32)) == (2, 4, 4)
    assert partition_shape_C(mma, (64, 32)) == ((2, 2), 2, 4)
    assert str(mma.permutation_mnk(0)) == "_32" and mma.get_thread_slice(3).thr_vmnk == (3, 0, 0, 0)
    thr = mma.get_slice(3)       # a ThrMMA is also its TiledMMA, as in CuTe
    assert thr.get_layoutC_TV() == mma.get_layoutC_TV() and thr.tile_shape() == mma.tile_shape()
    with pytest.raises(AttributeError):
        thr.no_such_thing


@pytest.mark.parametrize("case", cases("views/tiled_mma"), ids=lambda c: c["id"])
def test_cute_tv_layouts(case: dict) -> None:  # type: ignore[type-arg]
    a = case["args"]
    assert str(getattr(make_tiled_mma(a["atom"], parse(a["atom_layout"])), a["what"])()) == case["expect"]


@pytest.mark.parametrize("case", cases("views/mma_partition"), ids=lambda c: c["id"])
def test_cute_partitions(case: dict) -> None:  # type: ignore[type-arg]
    a = case["args"]
    thr = make_tiled_mma(a["atom"], parse(a["atom_layout"])).get_slice(a["thr_idx"])
    T = make_tensor(make_gmem_ptr("T"), parse(a["tensor_layout"]))
    part = getattr(thr, "partition_" + a["which"])(T)
    assert str(part.layout) == case["expect"]
    assert part.engine == T.engine + getattr(thr, "offset_" + a["which"])(T.layout)


def _oracle_rows() -> list[dict[str, Any]]:
    from test_mma_atoms import oracle
    return [r for r in oracle() if any("/" in k for k in r["expect"])]


ORACLE_TENSORS = ("(_128,_64):(_64,_1)", "(256,128):(_1,256)")       # scripts/mma_oracle.py's TENSORS


@pytest.mark.parametrize("row", _oracle_rows(), ids=lambda r: r["atom"])
def test_oracle_tiled(row: dict[str, Any]) -> None:
    """CuTe's get_layoutA/B/C_TV and partition_A/B/C (two threads, a static and a dynamic tensor)
    over the atom layouts 2x2, 2x1, 1x4, for every warp-level atom and a sample of GMMA ones."""
    wrong = []
    mmas: dict[str, TiledMMA] = {}
    for key, want in row["expect"].items():
        if "/" not in key:
            continue
        lay, what, *rest = key.split("/")
        if lay not in mmas:
            a, b = (int(x) for x in lay.split("x"))
            mmas[lay] = make_tiled_mma(row["atom"], (a, b))
        mma = mmas[lay]
        if not rest:
            got = getattr(mma, what)()
        else:
            t = make_tensor(make_gmem_ptr("T"), parse(ORACLE_TENSORS[int(rest[0])]))
            got = getattr(mma.get_slice(int(rest[1])), what)(t).layout
        if to_str(got) != want:
            wrong.append((key, to_str(got), want))
    assert not wrong, wrong[:5]


def test_tensors_in_tensors_out() -> None:
    mma = make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN", (2, 2))
    gA = make_tensor(make_gmem_ptr("A", "half_t"), parse("(_128,_32):(_32,_1)"))
    assert mma.thrfrg_A(gA) == make_tensor(gA.engine, mma.thrfrg_A(gA.layout))
    thr = mma.get_slice(37)
    assert thr.partition_A(gA) == make_tensor(gA.engine + thr.offset_A(gA.layout), thr.partition_A(gA.layout))
    tid = Dyn("tid", max=127, sign="nonnegative")
    assert str(mma.get_slice(tid).partition_A(gA)) == (
        "gmem_ptr[half_t](A+2*(tid%4)+512*((tid//32)%2)+32*((tid//4)%8)) o ((_2,_2,_2),_4,_2):((_1,_256,_8),_1024,_16)")



def test_swizzled_tensors() -> None:
    """Over a swizzled layout the thread's base moves into the layout; every value is the swizzle of
    the plain layout's."""
    mma = make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN", (2, 2))
    plain = make_tensor(make_smem_ptr("sA", "half_t"), parse("(_128,_32):(_32,_1)"))
    swz = make_tensor(make_smem_ptr("sA", "half_t"), parse("Sw<3,3,3> o _0 o (_128,_32):(_32,_1)"))
    sw = Swizzle(3, 3, 3)
    for t in (0, 5, 77, 127):
        thr = mma.get_slice(t)
        a, b = thr.partition_A(swz), thr.partition_A(plain)
        assert a.engine == swz.engine and str(a.layout).startswith("Sw<3,3,3> o ")
        assert all(a(v, m, k).offset == sw(b(v, m, k).offset)
                   for v in range(8) for m in range(4) for k in range(2))
        assert thr.offset_A(swz) == sw(thr.offset_A(plain))
    assert mma.thrfrg_A(swz) == make_tensor(swz.engine, mma.thrfrg_A(swz.layout))
    tid = Dyn("tid", max=127, sign="nonnegative")
    sym = mma.get_slice(tid).partition_A(swz)
    for t in (0, 5, 77, 127):   # the base, a formula inside the swizzle, at every thread
        assert sym.layout.offset.xreplace({tid: sympy.Integer(t)}) == mma.get_slice(t).partition_A(swz).layout.offset
    with pytest.raises(LayoutError, match="is symbolic; a swizzle reads its bits"):
        mma.get_slice(tid).offset_A(swz)
    assert mma.get_slice(3).partition_fragment_A(swz).layout == mma.get_slice(3).partition_fragment_A(plain).layout


def test_fragments() -> None:
    mma = make_tiled_mma("SM80_16x8x16_F32BF16BF16F32_TN", (2, 2))
    gA = make_tensor(make_gmem_ptr("A", "bfloat16_t"), parse("(_128,_32):(_32,_1)"))
    gC = make_tensor(make_gmem_ptr("C", "float"), parse("(_128,_128):(_1,_128)"))
    thr = mma.get_slice(9)
    fA, fC = thr.partition_fragment_A(gA), thr.partition_fragment_C(gC)
    assert fA.engine == make_rmem_ptr("frgA", "bfloat16_t") and fC.engine == make_rmem_ptr("frgC", "float")
    assert fA.layout == make_fragment_like(thr.partition_A(gA).layout).layout == thr.partition_fragment_A(gA.layout)
    assert fA.shape == thr.partition_A(gA).shape and sorted(images(fA.layout)) == list(range(size(fA.layout)))
    assert fC.layout == make_layout(thr.partition_C(gC).shape)
    # GMMA: the operands in shared memory are descriptors, 128 bits a step
    g = make_tiled_mma("SM90_64x64x16_F16F16F16_SS<Major::K,Major::K>")
    sA = make_tensor(make_smem_ptr("sA", "half_t", 64), parse("(_64,_64):(_64,_1)"))
    d = g.get_slice(3).partition_fragment_A(sA)
    assert str(d) == "smem_ptr[GMMA::smem_desc<Major::K>](sA+8) o (_1,_1,_4):(_0,_0,_2)"
    with pytest.raises(LayoutError, match="only be constructed on smem"):
        g.get_slice(3).partition_fragment_B(make_tensor(make_gmem_ptr("B", "half_t"), parse("(_64,_64):(_64,_1)")))
    with pytest.raises(LayoutError, match="starts on 128 bits"):
        g.get_slice(3).partition_fragment_A(make_tensor(make_smem_ptr("sA", "half_t", 4), sA.layout))


def thread_coord_of(mma: Any, t: int) -> Any:
    from cute_sym.tensor.thread_index import thread_coord
    return thread_coord(mma.thr_layout_vmnk, t)


@pytest.mark.parametrize("atom, atom_layout, hi", [
    ("SM70_8x8x4_F16F16F16F16_NN", (2, 1), 63),            # past the threads of the MMA: refused
    ("SM80_16x8x8_F16F16F16F16_TN", (2, 1), None),           # no bound at all: the fact is asked
])
def test_symbolic_thread_index_past_the_threads(atom: str, atom_layout: Any, hi: Any) -> None:
    mma = make_tiled_mma(atom, atom_layout)
    n = int(cs.cosize(mma.thr_layout_vmnk))
    tid = Dyn("tid", sign="nonnegative") if hi is None else Dyn("tid", max=hi, sign="nonnegative")
    if hi is None:
        with pytest.raises(cs.UndecidableError, match=f"needs tid < {n}"):
            mma.get_slice(tid)
    else:
        with pytest.raises(LayoutError, match=f"may be {hi}, past the last thread of the tiled MMA"):
            mma.get_slice(tid)
    # an int past the threads: CuTe's reading where the thread layout has holes (views/mma_partition/06
    # pins it), else refused
    if int(cs.size(mma.thr_layout_vmnk)) != n:
        assert mma.get_slice(n).thr_vmnk == thread_coord_of(mma, n)
    else:
        with pytest.raises(LayoutError, match=f"thread index {n} is past the last thread"):
            mma.get_slice(n)
    # in range, the formula is the integer answer at every thread
    tid = Dyn("tid", max=n - 1, sign="nonnegative")
    T = parse("(_64,_64):(_64,_1)")
    for op in "ABC":
        base = getattr(mma.get_slice(tid), f"offset_{op}")(T)
        for t in range(0, n, 5):
            assert base.xreplace({tid: sympy.Integer(t)}) == getattr(mma.get_slice(t), f"offset_{op}")(T)


def test_static_partition_makes_no_sympy() -> None:
    from test_static_path import _count_sympy
    sA = parse("(_128,_32):(_32,_1)")

    def run() -> None:
        mma = make_tiled_mma("SM70_8x8x4_F32F16F16F32_TT", (2, 2), (32, 32, 8))
        mma.get_layoutA_TV(), mma.get_layoutB_TV(), mma.get_layoutC_TV(), partition_shape_C(mma, (64, 64))
        for t in (0, 17, 31):
            thr = mma.get_slice(t)
            thr.partition_A(sA), thr.offset_A(sA), thr.partition_B(sA), thr.offset_C(sA)
    assert _count_sympy(run) == []
