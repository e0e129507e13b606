"""Partitions as functions: local_tile / inner_partition, local_partition / outer_partition.

Checked against CuTe's definition (``zipped_divide`` then a slice), as coverings
(every element owned by exactly one thread), by substitution for symbolic
thread indices and extents, and against CuTe's printed answers.
"""
from __future__ import annotations

import itertools
import json
import os
from typing import Any

import pytest
import sympy

import cute_sym as cs
from cute_sym import _, Layout, make_layout
from cute_sym import LayoutError
from cute_sym.core.int_tuple import idx2crd, product, product_each

from corpus import cases
from test_static_path import _count_sympy

TENSORS = ["(_16,_8):(_1,_16)", "(_16,_8):(_8,_1)", "(_12,_8):(_1,_16)", "(_8,_8,_2):(_1,_8,_64)",
           "((_4,_4),_8):((_1,_4),_16)", "(_16,_4):(_1,_32)"]
THREADS = ["(_4,_2):(_1,_4)", "(_4,_2):(_2,_1)", "(_2,_4):(_1,_2)", "(_1,_8):(_0,_1)", "(_8,_1):(_1,_0)",
           "(_2,_2):(_1,_2)", "_4:_1"]
TILERS = [(4, 2), (2, 4), (8, 8), (4,), (2, 2, 1)]


def _tensor(text: str, base: Any = 0) -> cs.Tensor:
    return cs.make_tensor(cs.make_gmem_ptr("A", "float", base), cs.parse(text))


def _fits(shape: Any, tile: tuple[Any, ...]) -> bool:
    modes = shape if type(shape) is tuple else (shape,)
    return len(tile) <= len(modes) and all(product(m) % t == 0 for m, t in zip(modes, tile))


def _offsets(T: cs.Tensor) -> list[Any]:
    return [T(i).offset for i in range(cs.size(T))]


# ---------------------------------------------------------------- local_partition / outer_partition
@pytest.mark.parametrize("ttext", TENSORS)
@pytest.mark.parametrize("thr", THREADS)
def test_local_partition_covers_each_element_once(ttext: str, thr: str) -> None:
    T, L = _tensor(ttext), cs.parse(thr)
    tile = product_each(L.shape) if type(L.shape) is tuple else (L.shape,)
    if not _fits(T.shape, tuple(tile)):
        return
    owned: list[Any] = []
    for t in range(cs.size(L)):
        P = cs.local_partition(T, L, t)
        owned.extend(_offsets(P))
    # each element of T belongs to exactly one thread (the thread layouts here are bijections)
    assert sorted(owned) == sorted(_offsets(T))


@pytest.mark.parametrize("ttext", TENSORS)
@pytest.mark.parametrize("thr", THREADS)
def test_local_partition_element_j_is_where_cute_says(ttext: str, thr: str) -> None:
    """Thread ``t`` sits at per-mode coordinate ``c = get_flat_coord(t)`` of a tile of extents
    ``n = product_each(shape(thr))``; its element at rest coordinate ``r`` is the tensor's
    element at ``c_k + n_k * r_k`` in each tiled mode (whole modes past the tiler)."""
    T, L = _tensor(ttext, 5), cs.parse(thr)
    tile = tuple(product_each(L.shape)) if type(L.shape) is tuple else (L.shape,)
    if not _fits(T.shape, tile):
        return
    tshape = T.shape if type(T.shape) is tuple else (T.shape,)
    for t in range(cs.size(L)):
        c = cs.tensor.get_flat_coord(L, t)
        if type(L.shape) is tuple:
            # the 1-D coordinate within each mode's thread extents is the thread's position
            assert L(tuple(idx2crd(ck, sk) for ck, sk in zip(c, L.shape))) == t
        else:
            assert L(c) == t
            c = (c,)
        P = cs.local_partition(T, L, t)
        rest = tuple(product(m) // n for m, n in zip(tshape, tile)) + tuple(product(m) for m in tshape[len(tile):])
        for j in range(cs.size(P)):
            r = idx2crd(j, rest) if len(rest) > 1 else (j,)
            full = tuple(c[k] + tile[k] * r[k] if k < len(tile) else r[k] for k in range(len(tshape)))
            want = T(tuple(idx2crd(x, m) for x, m in zip(full, tshape)) if len(tshape) > 1 else full[0])
            assert P(j) == want, (t, j)


@pytest.mark.parametrize("ttext", TENSORS)
def test_outer_partition_is_zipped_divide_sliced_in_the_tile(ttext: str) -> None:
    T = _tensor(ttext)
    for tiler in TILERS:
        if not _fits(T.shape, tiler):
            continue
        Z = cs.zipped_divide(T, tiler)
        for c in itertools.product(*[range(n) for n in tiler]):
            O = cs.outer_partition(T, tiler, c)
            r1 = cs.rank(Z.layout[1])
            assert O.layout == cs.slice_((tuple(c), _ if r1 == 1 else (_,) * r1), Z.layout)
            tile_index = cs.crd2idx(c, tiler)
            for j in range(cs.size(O)):
                assert O(j) == Z(tile_index, j)


# ---------------------------------------------------------------- local_tile / inner_partition
@pytest.mark.parametrize("ttext", TENSORS)
def test_local_tile_is_the_tile_at_coord(ttext: str) -> None:
    T = _tensor(ttext)
    tshape = T.shape if type(T.shape) is tuple else (T.shape,)
    for tiler in TILERS:
        if not _fits(T.shape, tiler):
            continue
        grid = [product(m) // n for m, n in zip(tshape, tiler)]
        for g in itertools.product(*[range(n) for n in grid]):
            B = cs.local_tile(T, tiler, g)
            # element i of the tile (coordinate e in the tile) is T at g*tiler + e, whole modes past the tiler
            inner = tuple(tiler) + tuple(product(m) for m in tshape[len(tiler):])
            for i in range(cs.size(B)):
                e = idx2crd(i, inner) if len(inner) > 1 else (i,)
                full = tuple(g[k] * tiler[k] + e[k] if k < len(tiler) else e[k] for k in range(len(tshape)))
                want = T(tuple(idx2crd(x, m) for x, m in zip(full, tshape)) if len(tshape) > 1 else full[0])
                assert B(i) == want


def test_local_tile_with_a_projection() -> None:
    """CuTe's GEMM idiom: one (BLK_M, BLK_N, BLK_K) tiler, projected per operand."""
    A = _tensor("(_64,_32):(_1,_64)")     # (M,K)
    B = _tensor("(_48,_32):(_32,_1)")     # (N,K)
    C = _tensor("(_64,_48):(_1,_64)")     # (M,N)
    tiler, coord = (16, 24, 8), (2, 1, _)
    a = cs.local_tile(A, tiler, coord, proj=(1, _, 1))
    b = cs.local_tile(B, tiler, coord, proj=(_, 1, 1))
    c = cs.local_tile(C, tiler, coord, proj=(1, 1, _))
    assert a == cs.local_tile(A, (16, 8), (2, _)) and str(a.layout) == "(_16,_8,_4):(_1,_64,_512)"
    assert b == cs.local_tile(B, (24, 8), (1, _))
    assert c == cs.local_tile(C, (16, 24), (2, 1))
    assert a(3, 5, 2).offset == A(2 * 16 + 3, 2 * 8 + 5).offset


def test_local_partition_with_a_projection() -> None:
    thr = cs.parse("(_2,_16,_1):(_16,_1,_0)")
    A = _tensor("(_64,_32):(_1,_64)")
    for t in range(32):
        p = cs.local_partition(A, thr, t, proj=(1, _, 1))
        assert p == cs.local_partition(A, cs.dice((1, _, 1), thr), t)
    assert str(cs.local_partition(A, thr, 3, proj=(1, _, 1)).layout) == "(_32,_32):(_2,_64)"


# ---------------------------------------------------------------- symbolic thread index and extents
def test_symbolic_tid_is_one_formula_for_every_thread() -> None:
    tid = cs.Dyn("tid", max=127, sign="nonnegative")
    for ttext, thr in [("(_128,_64):(_1,_128)", "(_16,_8):(_1,_16)"), ("(_64,_64):(_64,_1)", "(_8,_16):(_16,_1)"),
                       ("((_4,_8),_32):((_32,_1),_128)", "(_4,_32):(_1,_4)")]:
        T, L = _tensor(ttext), cs.parse(thr)
        P = cs.local_partition(T, L, tid)
        assert not P.engine.is_static() and P.layout.is_static()
        for t in range(128):
            concrete = cs.local_partition(T, L, t)
            assert P.layout == concrete.layout
            assert P.engine.offset.subs(tid, t) == concrete.engine.offset, (ttext, t)


def test_symbolic_extent_and_tid_by_substitution() -> None:
    tid = cs.Dyn("tid", max=127, sign="nonnegative")
    M, K = cs.Dyn("M", divisible_by=16), cs.Dyn("K", divisible_by=8)
    L = cs.parse("(_16,_8):(_1,_16)")
    T = cs.make_tensor(cs.make_gmem_ptr("A"), make_layout((M, K), (1, M)))
    P = cs.local_partition(T, L, tid)
    tile = cs.local_tile(T, (32, 16), (1, 2))
    for m, k in [(16, 8), (64, 32), (48, 24), (128, 64)]:
        C = cs.make_tensor(cs.make_gmem_ptr("A"), make_layout((m, k), (1, m)))
        Pm = cs.subs(P, {"M": m, "K": k}, ignore_unknown=True)
        assert [int(x) for x in cs.flatten(Pm.shape)] == list(cs.flatten(cs.local_partition(C, L, 0).shape))
        for t in range(128):
            want = cs.local_partition(C, L, t)
            got = cs.subs(P, {"M": m, "K": k, "tid": t}, ignore_unknown=True)
            assert [int(x.offset) for x in got] == _offsets(want), (m, k, t)
        if m >= 64 and k >= 48:
            tm = cs.subs(tile, {"M": m, "K": k}, ignore_unknown=True)
            assert [int(x.offset) for x in tm] == _offsets(cs.local_tile(C, (32, 16), (1, 2)))


def test_symbolic_tile_coordinate() -> None:
    bx, by = cs.Dyn("bx", sign="nonnegative"), cs.Dyn("by", sign="nonnegative")
    T = _tensor("(_256,_128):(_128,_1)")
    B = cs.local_tile(T, (64, 32), (bx, by))
    assert str(B) == "gmem_ptr[float](A+8192*bx+32*by) o (_64,_32):(_128,_1)"
    for x in range(4):
        for y in range(4):
            assert B.engine.offset.subs({bx: x, by: y}) == cs.local_tile(T, (64, 32), (x, y)).engine.offset


# ---------------------------------------------------------------- identity tensors partitioned
def test_identity_tensor_partition_gives_each_thread_its_coordinates() -> None:
    I = cs.make_identity_tensor((16, 8))
    L = cs.parse("(_4,_2):(_1,_4)")
    seen = []
    for t in range(8):
        P = cs.local_partition(I, L, t)
        seen.extend(P(j).to_tuple() for j in range(cs.size(P)))
    assert sorted(seen) == sorted(itertools.product(range(16), range(8)))
    assert str(cs.local_partition(I, L, 5)) == "ArithTuple(_1,_1) o (_4,_4):(_4@0,_2@1)"


# ---------------------------------------------------------------- CuTe's answers, static path, errors
def _views(op: str) -> list[dict[str, Any]]:
    return cases("views/" + op)


@pytest.mark.parametrize("case", _views("local_tile") + _views("outer_partition") + _views("local_partition"),
                         ids=lambda c: c["id"])
def test_cute_answers(case: dict[str, Any]) -> None:
    a = case["args"]
    T = cs.make_tensor(cs.make_gmem_ptr("T"), cs.parse(a["tensor_layout"]))
    if case["op"] == "local_partition":
        got = cs.local_partition(T, cs.parse(a["thr_layout"]), a["thr_idx"])
    else:
        got = getattr(cs, case["op"])(T, cs.parse(a["tiler"]), cs.parse(a["coord"]))
    assert str(got.layout) == case["expect"]


def _oracle() -> list[dict[str, Any]]:
    """Seeded random cases of the same kinds, rank 2 and 3, static and dynamic extents and strides, tiles
    that need not divide, and identity tensors (scripts/views_oracle.py: CuTe compiled with g++)."""
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "views_oracle.jsonl")) as fh:
        return [json.loads(line) for line in fh]


@pytest.mark.parametrize("op", ["local_tile", "outer_partition", "local_partition", "identity_tensor"])
def test_cute_answers_oracle(op: str) -> None:
    rows = [r for r in _oracle() if r["op"] == op]
    wrong = []
    for r in rows:
        a = r["args"]
        if op == "identity_tensor":
            got = cs.make_identity_tensor(cs.parse(a["shape"]))
        else:
            T = cs.make_tensor(cs.make_gmem_ptr("T"), cs.parse(a["tensor_layout"]))
            if op == "local_partition":
                got = cs.local_partition(T, cs.parse(a["thr_layout"]), a["thr_idx"])
            else:
                got = getattr(cs, op)(T, cs.parse(a["tiler"]), cs.parse(a["coord"]))
        if str(got.layout) != r["expect"]:
            wrong.append((r["cpp"], str(got.layout), r["expect"]))
    assert len(rows) >= 100 and not wrong, wrong[:5]


def _static_partitions() -> list[Any]:
    T = _tensor("(_128,_64):(_1,_128)")
    I = cs.make_identity_tensor((16, 8))
    L = cs.parse("(_16,_8):(_1,_16)")
    return [cs.local_partition(T, L, 37), cs.local_tile(T, (32, 16), (1, 2)), cs.outer_partition(T, (32, 16), (3, 5)),
            cs.inner_partition(T, (32, 16), 5), T(_, 3), T(3, 4), cs.zipped_divide(T, (4, 4)),
            cs.local_partition(I, cs.parse("(_4,_2):(_1,_4)"), 5), cs.local_tile(I, (4, 4), (1, 1)), I(3, 2),
            cs.composition(I, cs.parse("((_4,_8),(_2,_2)):((_32,_1),(_16,_8))")), cs.make_fragment_like(T),
            str(cs.local_partition(T, L, 3))]


def test_static_partition_creates_no_sympy_object() -> None:
    _static_partitions()
    made = _count_sympy(_static_partitions)
    assert made == [], f"{len(made)} sympy objects made, e.g. {sorted(set(made))[:8]}"
    for r in _static_partitions()[:-1]:
        assert r.is_static() if hasattr(r, "is_static") else cs.is_static(r), r


def test_misuse_is_a_layout_error() -> None:
    T = _tensor("(_16,_8):(_1,_16)")
    with pytest.raises(LayoutError):
        cs.local_partition(cs.parse("(_16,_8):(_1,_16)"), cs.parse("_4:_1"), 0)    # not a tensor
    with pytest.raises(LayoutError):
        cs.local_partition(T, (4, 2), 0)                                            # not a layout
    with pytest.raises(LayoutError):
        cs.local_tile(T, (4, 2), (1, 1, 1))                                         # too many coordinates
    with pytest.raises(LayoutError):
        cs.local_tile(T, (4, 2, 2), (1, 1, 1))                                      # too many tiler modes
    assert isinstance(sympy.Integer(1), sympy.Expr) and Layout is cs.Layout
