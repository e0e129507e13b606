"""CuTe's tuple builders: ``make_shape``, ``make_stride``, ``make_coord``, ``make_step``, ``make_tile``.

Each returns a tuple that prints in CuTe notation; like CuTe's, one argument
still makes a 1-tuple (``make_shape(8)`` is ``(_8)``, and a layout of it is
``(_8):(_1)``, not ``_8:_1``).

>>> from cute_sym.layout.layout import make_layout
>>> print(make_layout(make_shape(2, make_shape(2, 2)), make_stride(4, make_stride(2, 1))))
(_2,(_2,_2)):(_4,(_2,_1))
>>> print(make_shape(8), make_coord(_, 1), make_tile(make_layout(2, 3), _))
(_8) (_,_1) (_2:_3,_)
"""
from __future__ import annotations

from typing import Any

from ..core.errors import LayoutError
from ..core.int_tuple import Tup, Underscore, _
from .layout import Layout, MAX_NESTING, _check_tuple

__all__ = ["make_shape", "make_stride", "make_coord", "make_step", "make_tile"]


def make_shape(*extents: Any) -> Tup:
    """A shape: the tuple of ``extents`` (integers or shapes).

    @pre every leaf is an integer (static ``int`` or dynamic) and not negative.
    @post ``len(result) == len(extents)``; a layout of it is compact column-major.

    >>> make_shape(2, (3, 4))
    (_2,(_3,_4))
    """
    return Tup(_check_tuple(e, "shape") for e in extents)


def make_stride(*strides: Any) -> Tup:
    """A stride: the tuple of ``strides`` (integers, possibly negative, or strides).

    @pre every leaf is an integer.
    @post ``len(result) == len(strides)``.

    >>> make_stride(1, (-2, 8))
    (_1,(_-2,_8))
    """
    return Tup(_check_tuple(e, "stride") for e in strides)


def make_step(*steps: Any) -> Tup:
    """A step (the mode order of ``make_ordered_layout``, ``tile_to_shape``).

    >>> make_step(2, 0, 1)
    (_2,_0,_1)
    """
    return Tup(_check_tuple(e, "step") for e in steps)


def _coord(c: Any, level: int) -> Any:
    if c is _:
        return _
    if isinstance(c, (tuple, list)):
        if level >= MAX_NESTING:
            raise LayoutError(f"coordinate nests deeper than {MAX_NESTING} levels")
        return tuple(_coord(e, level + 1) for e in c)
    return _check_tuple(c, "coordinate")


def make_coord(*coords: Any) -> Tup:
    """A coordinate: integers, ``_`` (keep the mode: a slice) or coordinates.

    @pre every leaf is an integer or ``_``.
    @post ``len(result) == len(coords)``; ``L(make_coord(...))`` evaluates or slices ``L``.

    >>> make_coord(1, (_, 2))
    (_1,(_,_2))
    """
    return Tup(_coord(coords, 0))


def _tile(t: Any, level: int) -> Any:
    if t is _ or isinstance(t, Layout):
        return t
    if isinstance(t, (tuple, list)):
        if level >= MAX_NESTING:
            raise LayoutError(f"tile nests deeper than {MAX_NESTING} levels")
        return tuple(_tile(e, level + 1) for e in t)
    if isinstance(t, Underscore):
        return _
    if hasattr(t, "_domain"):       # a composed layout
        return t
    return _check_tuple(t, "shape")


def make_tile(*modes: Any) -> Tup:
    """A tiler: one layout (or shape, or ``_``, or tile) per mode, applied mode by mode.

    "A Tile is not a Layout, it's a tuple of Layouts or Tiles or Underscores."
    An integer ``n`` in a tile means the layout ``n:1``.

    @pre every element is a Layout, an integer, ``_`` or a tile.
    @post ``len(result) == len(modes)``.

    >>> from cute_sym.layout.layout import make_layout
    >>> make_tile(make_layout(2, 3), make_layout((2, 4), (1, 8)))
    (_2:_3,(_2,_4):(_1,_8))
    """
    return Tup(_tile(modes, 0))
