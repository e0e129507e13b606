"""The divides' pure-int path (static layouts, plain static tilers) against the general path and the
post-conditions: same shape, stride, nesting and errors on exhaustive sweeps of small cases."""
from __future__ import annotations

import itertools
from typing import Any, Callable

import cute_sym as cs
from cute_sym import Layout, _
from cute_sym.algebra import divide as D
from cute_sym.core.int_tuple import leaves

from postconditions import (
    check_flat_divide, check_logical_divide, check_tiled_divide, check_zipped_divide, small_layouts,
)

# layouts of rank 1..2 (flat), some nested ones, negative strides and a trailing static 1
LAYOUTS = list(small_layouts((1, 2, 3, 4), (0, 1, 2, 4), 2)) + [
    Layout((2, (2, 2)), (1, (2, 4))), Layout(((2, 3), 4), ((1, 2), 6)), Layout((4, (2, 1)), (2, (1, 8))),
    Layout((4, 2, 1), (1, 4, 0)), Layout((2, 3), (-1, 2)), Layout((3, 2, 2), (2, 1, 6)),
    Layout((9, (4, 8)), (59, (13, 1))), Layout(((4, 2), (2, 2)), ((1, 8), (4, 16))),
]
TILERS: list[Any] = [1, 2, 3, 4, 0, _, Layout(2, 1), Layout(2, 2), Layout(4, 1), Layout(3, 1), Layout(8, 1), Layout(3, 3), Layout(2, 0),
                     Layout((2, 2), (1, 4)), Layout((2, 2), (4, 1)), Layout((2, 3), (1, 2)), Layout(1, 0),
                     (2,), (2, 2), (_, 2), (4, _), (Layout(2, 2), 2), ((2, 2), 2), (2, 2, 2), (Layout(2, 3),),
                     ((_, 2),), ((2,), Layout((2, 2), (1, 2)))]

OPS: list[tuple[Callable[..., Any], Callable[..., Any]]] = [
    (D.logical_divide, D._logical_divide), (D.zipped_divide, D._zipped_divide),
    (D.tiled_divide, lambda a, t: D._unpack(D._zipped_divide(a, t), False)),
    (D.flat_divide, lambda a, t: D._unpack(D._zipped_divide(a, t), True)),
]


def _outcome(f: Callable[..., Any], *args: Any) -> Any:
    try:
        r = f(*args)
    except cs.LayoutError as e:
        return type(e), str(e)
    return r._shape, r._stride, str(r)


def _all_int(t: Any) -> bool:
    return all(_all_int(x) for x in t) if type(t) is tuple else type(t) is int


def test_static_path_is_the_general_path() -> None:
    """Every op, every pair: the same answer (shape, stride, printing) or the same error."""
    taken = 0
    for A, T in itertools.product(LAYOUTS, TILERS):
        for fast, general in OPS:
            got, want = _outcome(fast, A, T), _outcome(general, A, T)
            assert got == want, f"{fast.__name__}({A}, {T}): {got} != {want}"
            if not isinstance(got[0], type):
                taken += 1
    assert taken > 5000


def test_static_path_results_are_static() -> None:
    n = 0
    for A, T in itertools.product(LAYOUTS[::3], TILERS):
        try:
            if D._divide_static(A._shape, A._stride, T) is None:
                continue
            R = D.logical_divide(A, T)
        except cs.LayoutError:
            continue
        assert R._st is True and _all_int(R._shape) and _all_int(R._stride)
        n += 1
    assert n > 500


def _pow2(x: Any) -> bool:
    if isinstance(x, Layout):
        return all(e in (1, 2, 4, 8) for e in leaves(x._shape)) and all(
            e in (0, 1, 2, 4, 8, 16) for e in leaves(x._stride))
    if isinstance(x, tuple):
        return all(_pow2(e) for e in x)
    return x is _ or x in (1, 2, 4, 8)


def test_static_path_postconditions() -> None:
    """The checkers' domain (as tests/test_divide.py's sweeps): extents and tilers of powers of 2."""
    n = 0
    for A, T in itertools.product([L for L in LAYOUTS if _pow2(L)], [T for T in TILERS if _pow2(T)]):
        if T is _ or isinstance(T, int) and T < 1 or isinstance(T, tuple) and any(isinstance(t, tuple) for t in T):
            continue    # the checker takes a flat tiler
        try:
            R = D.logical_divide(A, T)
        except cs.LayoutError:
            continue
        if cs.size(A) == 0 or any(x <= 0 for x in leaves(R._shape)):
            continue
        check_logical_divide(A, T, R)
        n += 1
        try:
            Z = D.zipped_divide(A, T)
        except cs.RankError:
            continue    # a `_` mode that is not rank 2 (zip2_by); the general path raises the same
        check_zipped_divide(A, T, Z)
        check_tiled_divide(A, T, D.tiled_divide(A, T))
        check_flat_divide(A, T, D.flat_divide(A, T))
    assert n > 500


def test_not_static_takes_the_general_path() -> None:
    M = cs.Dyn("M", divisible_by=8)
    A = Layout((M, 8), (1, M))
    assert D._zipped_static(A, (4, 2)) is None      # the kernel is for static leaves: the entry checks first
    assert str(D.zipped_divide(A, (4, 2))) == str(D._zipped_divide(A, (4, 2)))
    assert D._divide_static(4, 1, cs.Dyn("N")) is None
