"""Compact layouts in a given mode order: ``make_ordered_layout``, and ``make_layout_like`` (the
order of another layout's strides), as CuTe builds them."""
from __future__ import annotations

from typing import Any

from ..core.errors import RankError
from ..core.int_tuple import IntTuple, compact_major, iter_leaves, norm, product, unflatten as tuple_unflatten
from ..core.integers import IntLike
from .layout import Layout, _check_tuple, make_layout  # noqa: F401 - make_layout for the examples

__all__ = ["make_ordered_layout", "make_layout_like"]


def make_ordered_layout(shape: Any, order: Any) -> Layout:
    """Compact layout whose modes are ordered by ``order`` (smallest stride first).

    Dynamic (symbolic) order values count as larger than every static one, in
    left-to-right order, as in CuTe. Equal orders get the same starting stride.

    @pre ``order`` is weakly congruent with ``shape`` ("Need equal rank of shape and order").
    @post ``result`` is compact: a bijection onto ``[0, size(shape))`` when the orders differ.

    >>> print(make_ordered_layout((2, 2, 2, 2), (0, 2, 3, 1)))
    (_2,_2,_2,_2):(_1,_4,_8,_2)
    """
    shape = _check_tuple(shape, "shape")
    order = _check_tuple(order, "order")
    ref_shape = _product_like(shape, order)
    flat_order = list(iter_leaves(order))
    ref_shape_flat = list(iter_leaves(ref_shape))
    max_static = 0
    for o in flat_order:
        if type(o) is int and o > max_static:
            max_static = o
    ref_order = [o if type(o) is int else max_static + 1 + i for i, o in enumerate(flat_order)]
    new_order = tuple_unflatten(tuple(ref_order), order) if type(order) is tuple else ref_order[0]

    def go(s: IntTuple, o: Any) -> IntTuple:
        if type(o) is tuple:
            if type(s) is not tuple or len(s) != len(o):
                raise RankError("make_ordered_layout: Need equal rank of shape and order")
            return tuple(go(x, y) for x, y in zip(s, o))
        start: IntLike = 1
        for rs, ro in zip(ref_shape_flat, ref_order):
            if ro < o:
                start = start * rs
        return compact_major(s, norm(start))

    return Layout._make(shape, go(shape, new_order))


def _product_like(shape: IntTuple, order: Any) -> IntTuple:
    if type(order) is tuple:
        if type(shape) is not tuple or len(shape) != len(order):
            raise RankError("make_ordered_layout: Need equal rank of shape and order")
        return tuple(_product_like(s, o) for s, o in zip(shape, order))
    return product(shape)


def make_layout_like(layout: Layout) -> Layout:
    """CuTe's ``make_layout_like``: a compact layout of the same shape whose modes are
    ordered like ``layout``'s (signed) strides; static-0 strides stay 0:
    ``make_layout(shape, compact_order(filter_zeros(stride, shape), stride))``.

    @post ``result.shape == layout.shape``; a static-0 stride of ``layout`` is 0 in
          ``result``; over the other modes ``result`` is compact (a bijection onto
          ``[0, size)`` of them), and ``stride_i < stride_j`` implies
          ``result.stride_i < result.stride_j`` (CuTe's ``compact_order``; symbolic
          strides come after the static ones, left to right). Equal strides are
          ordered left to right: CuTe gives them one start, so its answer
          overlaps and is not compact.

    >>> print(make_layout_like(make_layout((2, 3), (30, 2))))
    (_2,_3):(_3,_1)
    >>> print(make_layout_like(make_layout((2, 3, 4), (20, -1, 5))))
    (_2,_3,_4):(_12,_1,_3)
    >>> print(make_layout_like(make_layout((10, 2), (1, 0))))
    (_10,_2):(_1,_0)
    """
    def filter_zeros(d: Any, s: Any) -> Any:
        if type(d) is tuple:
            return tuple(filter_zeros(x, y) for x, y in zip(d, s))
        return 1 if type(d) is int and d == 0 else s

    # CuTe's order is the strides themselves (symbolic ones after the static ones, left to
    # right); equal strides would share a start and overlap, so ties go left to right.
    flat = list(iter_leaves(layout._stride))
    keys = [(0, d, i) if type(d) is int else (1, 0, i) for i, d in enumerate(flat)]
    rank = [0] * len(flat)
    for r, i in enumerate(sorted(range(len(flat)), key=lambda i: keys[i])):
        rank[i] = r
    order: Any = tuple_unflatten(tuple(rank), layout._stride) if type(layout._stride) is tuple else 0
    ref = make_ordered_layout(filter_zeros(layout._stride, layout._shape), order)
    return Layout._make(layout._shape, ref._stride)
