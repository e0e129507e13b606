"""Coordinate maps with CuTe's argument forms (``crd2idx(coord, layout)``, ``idx2crd(coord, shape)``).

Coordinate symbols are re-read as non-negative integers (a coordinate may be 0).

>>> from cute_sym.notation import parse
>>> crd2idx(parse("(_1,_5)"), parse("(_3,(_2,_3)):(_3,(_12,_1))"))
17
>>> idx2crd(16, (3, (2, 3)))
(1, (1, 2))
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

if TYPE_CHECKING:
    import sympy
else:
    from ..core.lazy import sympy

from ..core import int_tuple
from ..core.int_tuple import IntTuple, transform_leaf, unwrap
from ..core.integers import Dyn, IntLike
from ..core.lazy import is_expr
from .layout import Layout, as_int_tuple

__all__ = ["crd2idx", "idx2crd", "as_coordinate"]


def as_coordinate(coord: Any) -> Any:
    """Coordinate symbols made without a sign become non-negative (same name)."""
    def leaf(x: Any) -> Any:
        if is_expr(x) and x.free_symbols:
            from ..core.symbolic import DynSymbol
            # a symbol made without facts may be 0 as a coordinate
            sub = {s: Dyn(s.name, sign="nonnegative") for s in x.free_symbols
                   if not isinstance(s, DynSymbol)}
            return x.xreplace(sub) if sub else x
        return x
    return transform_leaf(coord, leaf)


def crd2idx(coord: Any, layout: Any, stride: Optional[IntTuple] = None) -> IntLike:
    """The index of ``coord`` in ``layout`` (or in ``shape``, ``stride``).

    @pre ``coord`` is weakly congruent with the shape ("Mismatched Ranks").
    @post equals ``layout(coord)``.

    >>> from cute_sym.layout import make_layout
    >>> crd2idx((1, (1, 2)), make_layout((4, (2, 3)), (1, (4, 8)))), crd2idx((1, 2), (4, 8), (8, 1))
    (21, 10)
    >>> crd2idx((1, 2), (Dyn("M"), 8))
    2*M + 1
    """
    coord = as_coordinate(as_int_tuple(unwrap(coord), "coordinate"))
    layout = unwrap(layout)
    if isinstance(layout, Layout):
        return int_tuple.crd2idx(coord, layout.shape, layout.stride)
    return int_tuple.crd2idx(coord, layout, stride)


def idx2crd(coord: Any, shape: Any, stride: Optional[IntTuple] = None) -> Any:
    """The natural coordinate of index ``coord`` in ``shape``.

    @post ``crd2idx(result, shape) == coord`` for ``0 <= coord < size(shape)``.

    >>> idx2crd(13, (4, (2, 3)))
    (1, (1, 1))
    >>> crd2idx(idx2crd(13, (4, (2, 3))), (4, (2, 3)))
    13
    """
    coord = as_coordinate(as_int_tuple(unwrap(coord), "coordinate"))
    shape = unwrap(shape)
    if isinstance(shape, Layout):
        shape = shape.shape
    return int_tuple.idx2crd(coord, shape, stride)
