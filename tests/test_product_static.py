"""The products' pure-int path (static blocks, plain static tilers) against the general path and the
post-conditions: same shape, stride, nesting and errors (the disjointness refusals included) on
exhaustive sweeps of small cases."""
from __future__ import annotations

import itertools
from typing import Any, Callable

import cute_sym as cs
from cute_sym import Layout, _
from cute_sym.algebra import product as P
from cute_sym.core.int_tuple import leaves

from postconditions import (
    check_blocked_product, check_logical_product, check_raked_product, check_zipped_product, is_injective,
    small_layouts,
)

BLOCKS = list(small_layouts((1, 2, 3, 4), (0, 1, 2, 4), 2)) + [
    Layout((2, (2, 2)), (1, (2, 4))), Layout(((2, 3), 4), ((1, 2), 6)), Layout((4, (2, 1)), (2, (1, 8))),
    Layout((4, 2, 1), (1, 4, 0)), Layout((2, 3), (-1, 2)), Layout((8, 64, 1), (64, 1, 0)),
    Layout((8, (8, 8), 1), (8, (1, 64), 0)), Layout((4, 1, 8, 1), (8, -8, -1, -32)),
]
TILERS: list[Any] = list(small_layouts((1, 2, 3), (0, 1, 2, 3), 2))[::2] + [
    1, 2, 3, 0, _, (2,), (2, 3), (_, 2), (Layout(2, 2), 2), ((2, 2), 2), (2, 2, 2), ((_, 2),),
    Layout((16, 1, 3), (1, 0, 16)), Layout((2, 2, 2), (1, 4, 2)), Layout((3, (2, 2)), (1, (3, 6))),
]

OPS: list[tuple[Callable[..., Any], Callable[..., Any]]] = [
    (P.logical_product, P._logical_product), (P.zipped_product, P._zipped_product),
    (P.tiled_product, lambda a, t: P._unpack(P._zipped_product(a, t), False)),
    (P.flat_product, lambda a, t: P._unpack(P._zipped_product(a, t), True)),
]


def _outcome(f: Callable[..., Any], *args: Any) -> Any:
    try:
        r = f(*args)
    except cs.LayoutError as e:
        return type(e), str(e)
    return r._shape, r._stride, str(r)


def _rank_general(raked: bool) -> Callable[..., Any]:
    def f(a: Layout, t: Layout) -> Any:
        r = max(a.rank(), t.rank())
        res = P._logical_product(P._append_rank(a, r), P._append_rank(t, r))
        m0 = Layout(res.shape[0], res.stride[0])
        m1 = Layout(res.shape[1], res.stride[1])
        return P.zip_layouts(m1, m0) if raked else P.zip_layouts(m0, m1)
    return f


def test_static_path_is_the_general_path() -> None:
    """Every op, every pair: the same answer (shape, stride, printing) or the same error."""
    taken = 0
    for A, T in itertools.product(BLOCKS[::3] + BLOCKS[-8:], TILERS):
        ops = OPS + ([(P.blocked_product, _rank_general(False)), (P.raked_product, _rank_general(True))]
                     if isinstance(T, Layout) else [])
        for fast, general in ops:
            got, want = _outcome(fast, A, T), _outcome(general, A, T)
            assert got == want, f"{fast.__name__}({A}, {T}): {got} != {want}"
            if not isinstance(got[0], type):
                taken += 1
                assert _all_int(got[0]) and _all_int(got[1])
    assert taken > 10000


def _all_int(t: Any) -> bool:
    return all(_all_int(x) for x in t) if type(t) is tuple else type(t) is int


def _pow2(L: Layout) -> bool:
    return all(e in (1, 2, 4, 8) for e in leaves(L._shape)) and all(e in (0, 1, 2, 4, 8) for e in leaves(L._stride))


def test_static_path_postconditions() -> None:
    """The checkers' domain (as tests/test_product.py's sweeps): powers of 2, injective tilers."""
    n = 0
    tilers = [T for T in TILERS + list(small_layouts((1, 2, 4), (0, 1, 2, 4), 2))[1::3]
              if isinstance(T, Layout) and _pow2(T)]
    for A, B in itertools.product([L for L in BLOCKS if _pow2(L)][::2], tilers):
        if not is_injective(B) or any(x <= 0 for x in leaves(A._shape)):
            continue
        try:
            R = P.logical_product(A, B)
        except cs.LayoutError:
            continue
        assert R._st is True
        check_logical_product(A, B, R)
        check_zipped_product(A, B, P.zipped_product(A, B))
        n += 1
        try:
            BP, RP = P.blocked_product(A, B), P.raked_product(A, B)
        except cs.LayoutError:
            continue
        check_blocked_product(A, B, BP)
        check_raked_product(A, B, RP)
    assert n > 300


def test_refusals_on_the_static_path() -> None:
    # the copies of the block overlap (CuTe's rest is not complement(tiler(i))): still refused
    A = Layout(((16, 1), (2,), 1), ((1, 64), (64,), 128))
    refused = 0
    for B in small_layouts((1, 2, 3, 6), (1, 2, 3, 6, 12), 3):
        if not is_injective(B) or B.rank() != 3:
            continue
        got, want = _outcome(P.blocked_product, A, B), _outcome(_rank_general(False), A, B)
        assert got == want
        refused += isinstance(got[0], type) and "overlap" in got[1]
    assert refused > 0
