"""Queries of layouts and IntTuples, with CuTe's hierarchical indices: ``size(L, 1)`` is
CuTe's ``size<1>(L)``; likewise ``rank``, ``depth``, ``shape``, ``stride`` (``get_path``,
CuTe's ``get<I...>``, is in layout.py, below cosize).

>>> from cute_sym.layout.layout import make_layout
>>> L = make_layout((4, (2, 3)))
>>> size(L), size(L, 1), rank(L, 1), shape(L, 1, 0)
(24, 6, 2, 2)
"""
from __future__ import annotations

from typing import Any

from ..core.errors import LayoutError, RankError
from ..core.int_tuple import IntTuple, depth as tuple_depth, product, rank as tuple_rank
from ..core.integers import IntLike
from .layout import Layout, _check_tuple, get_path, make_layout

__all__ = ["shape", "stride", "size", "rank", "depth"]


def shape(x: Any, *idx: int) -> IntTuple:
    """The shape of a layout or a tensor (of its mode ``idx...``), or the IntTuple ``x`` (its element ``idx...``).

    @post ``shape(L, i, j) == get(shape(L), i, j)`` (CuTe's ``shape<i,j>(L)``).

    >>> L = make_layout((4, (2, 3)))
    >>> shape(L), shape(L, 1), shape(L, 1, 0)
    ((4, (2, 3)), (2, 3), 2)
    """
    if hasattr(x, "engine") and hasattr(x, "layout"):    # a tensor: its layout's shape (CuTe's shape(tensor))
        x = x.layout
    x = get_path(x, idx, "shape")
    return x.shape if isinstance(x, Layout) or hasattr(x, "_domain") else x


def stride(x: Layout, *idx: int) -> IntTuple:
    """The stride of a layout (of its mode ``idx...``; CuTe's ``stride<I...>(L)``).

    >>> stride(make_layout((4, (2, 3))), 1)
    (4, 8)
    """
    y = get_path(x, idx, "stride")
    if not isinstance(y, Layout):
        raise LayoutError(f"stride takes a Layout, got {type(x).__name__}")
    return y.stride


def size(x: Any, *idx: int) -> IntLike:
    """Number of elements: product of the shape of a layout (of its mode ``idx...``), or of an IntTuple.

    @post ``size(layout) == product(shape(layout))``, the size of the domain;
          ``size(L, i, j) == size(get(L, i, j))`` (CuTe's ``size<i,j>(L)``);
          static when every extent is static.

    >>> size(make_layout((4, (2, 3)))), size((4, 5)), size(make_layout((4, (2, 3))), 1)
    (24, 20, 6)
    >>> from cute_sym.core.integers import Dyn
    >>> size(make_layout((Dyn("M"), 4)))
    4*M
    """
    if idx:
        x = get_path(x, idx, "size")
    if isinstance(x, Layout):
        return product(x._shape)
    f = getattr(x, "size", None)
    if callable(f):
        return f()
    return product(_check_tuple(x, "IntTuple"))


def rank(x: Any, *idx: int) -> int:
    """Number of top-level modes (of mode ``idx...``).

    @post ``len(shape)`` for a tuple shape, 1 for an integral one.

    >>> rank(make_layout((4, (2, 3)))), rank(7), rank(make_layout((4, (2, 3))), 1)
    (2, 1, 2)
    """
    if idx:
        x = get_path(x, idx, "rank")
    if isinstance(x, Layout):
        return tuple_rank(x._shape)
    f = getattr(x, "rank", None)
    if callable(f):
        return f()  # type: ignore[no-any-return]
    return tuple_rank(_check_tuple(x, "IntTuple"))


def depth(x: Any, *idx: int) -> int:
    """Nesting depth of the shape (of mode ``idx...``; 0 for an integral shape).

    @post 0 for an integer, else ``1 + max`` of the modes' depths.

    >>> depth(make_layout((4, (2, 3)))), depth(7), depth((1, ((2,), 3))), depth((1, ((2,), 3)), 1)
    (2, 0, 3, 2)
    """
    if idx:
        x = get_path(x, idx, "depth")
    if isinstance(x, Layout):
        return tuple_depth(x._shape)
    f = getattr(x, "depth", None)
    if callable(f):
        return f()  # type: ignore[no-any-return]
    return tuple_depth(_check_tuple(x, "IntTuple"))
