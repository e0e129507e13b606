"""CuTe's ``TV_Tiler`` (``cute/atom/partitioner.hpp``): a thread-value layout over a tile, and the
partitioner of one thread (or warp) it slices off.

A ``TV_Tiler`` holds ``Tiler_MN`` (the tile: a tuple of layouts, one a mode, or a shape) and
``TiledLayout_TV`` ((thr, val) -> coordinate of that tile, as an index of the tile). Its
``apply`` tiles an ``(M,N,...)`` tensor or layout to ``((Thr,Val),(RestM,RestN,...))``:
``zipped_divide(x, Tiler_MN)`` with the tile mode composed with ``TiledLayout_TV``. ``get_slice(c)``
is the partitioner of thread ``c``, whose ``partition(x)`` is ``apply(x)`` sliced at
``(c, (_,_,...))``: of an index ``c`` (an ``int`` or a symbolic integer) the one (thr, val) point
``c`` of the TV layout's domain in each rest tile, ``(RestM,RestN,...)``; of a coordinate
``(t, _)`` thread ``t``'s values too, ``(Val,RestM,RestN,...)``.

>>> from cute_sym.notation import parse
>>> from cute_sym.tensor.engine import make_gmem_ptr
>>> from cute_sym.tensor.tensor import make_tensor
>>> tv = make_tiler_impl(parse("(_2,_2):(_2,_1)"), (make_layout(2, 1), make_layout(2, 1)))
>>> print(tv)
TV_Tiler
  Tiler_MN:       (_2:_1,_2:_1)
  TiledLayout_TV: (_2,_2):(_2,_1)
>>> print(tv.apply(parse("(_4,_6):(_1,_4)")))
((_2,_2),(_2,_3)):((_4,_1),(_2,_8))
>>> g = make_tensor(make_gmem_ptr("g", "float"), parse("(_4,_6):(_1,_4)"))
>>> print(tv.get_slice(1).partition(g))
gmem_ptr[float](g+4) o (_2,_3):(_2,_8)
>>> print(tv.get_slice((1, _)).partition(g))                # thread 1 with its values
gmem_ptr[float](g+4) o (_2,_2,_3):(_1,_2,_8)
"""
from __future__ import annotations

from typing import Any, Union

from ..core.errors import LayoutError
from ..core.frozen import frozen_copy, frozen_deepcopy, frozen_reduce
from ..core.int_tuple import Underscore, _, fmt, leaves, product, unwrap, wrap
from ..core.integers import IntLike
from ..core.lazy import is_basic
from ..layout import Layout, cosize, make_layout, size
from ..swizzle import ComposedLayout
from . import ops as _ops
from .basis_layout import is_basis_layout
from .copy import _layout_of, _rank, _slice_and_offset
from .tensor import Tensor
from .thread_index import index_formula, thread_index_arg

LayoutLike = Union[Layout, ComposedLayout]

__all__ = ["TV_Tiler", "TV_Partitioner", "make_tiler_impl"]


class TV_Tiler:
    """``TV_Tiler<Layout_TV, Tiler_MN>``: the thread-value layout ``layout_tv`` ((thr, val) ->
    coordinate of the tile) over the tile ``tiler`` (a layout, a tuple of layouts one a mode, or a
    shape), as ``make_tiler_impl`` builds it.

    @pre ``layout_tv`` is a plain layout and ``tiler`` a tiler ``zipped_divide`` takes (checked
         where it is applied); the TV layout's values are coordinates of the tile (``cosize(layout_tv)
         <= size`` of the tile, where both are static); else :class:`LayoutError`.

    >>> from cute_sym.notation import parse
    >>> tv = TV_Tiler(parse("_4:_1"), (make_layout(4, 32), make_layout(1, 0)))
    >>> print(tv.Tiler_MN, tv.TiledLayout_TV)
    (_4:_32,_1:_0) _4:_1
    """
    __slots__ = ("TiledLayout_TV", "_tiler")
    TiledLayout_TV: Layout
    _tiler: Any

    def __init__(self, layout_tv: Layout, tiler: Any) -> None:
        if not isinstance(layout_tv, Layout):
            raise LayoutError(f"TV_Tiler: the TV layout (thr, val) -> tile coordinate is a plain layout, "
                              f"got {type(layout_tv).__name__}")
        if tiler is None:
            raise LayoutError("TV_Tiler: a tiler (a layout, a tuple of layouts or a shape) is needed")
        tile, reach = _tile_size(unwrap(tiler)), cosize(layout_tv)
        if type(tile) is int and type(reach) is int and reach > tile:
            raise LayoutError(f"TV_Tiler: the TV layout {layout_tv} reaches tile coordinate {reach - 1}, past the "
                              f"tile of {tile} elements ({fmt(wrap(tiler))}): its values are coordinates of the tile")
        put = object.__setattr__
        put(self, "TiledLayout_TV", layout_tv)
        put(self, "_tiler", unwrap(tiler))

    __reduce__ = frozen_reduce
    __copy__ = frozen_copy
    __deepcopy__ = frozen_deepcopy

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("TV_Tiler is immutable")

    @property
    def Tiler_MN(self) -> Any:
        """The tile: CuTe notation for a tuple of layouts (``(_4:_32,_1:_0)``) or a shape."""
        return wrap(self._tiler)

    def _tiler_rank(self) -> int:
        return len(self._tiler) if type(self._tiler) is tuple else 1

    def apply(self, x: Any) -> Any:
        """``zipped_divide(x, Tiler_MN).compose(TiledLayout_TV, _)``: the ``(M,N,...)`` tensor or
        layout ``x`` as ``((Thr,Val),(RestM,RestN,...))`` (a tensor over ``x``'s engine, or a layout).

        @pre ``x`` is a tensor or a layout of rank at least ``rank(Tiler_MN)`` that the tiler
             divides (``zipped_divide``'s conditions), else :class:`LayoutError`.
        @post ``result((t, v), r) == x(tile(TiledLayout_TV(t, v)), r)`` where ``tile`` is mode 0 of
              ``zipped_divide(x, Tiler_MN)``: mode 0 has the TV layout's shape.

        >>> from cute_sym.notation import parse
        >>> tv = TV_Tiler(parse("_4:_1"), (make_layout(4, 32), make_layout(1, 0)))
        >>> print(tv.apply(parse("(_128,_16):(_65536,_1)")))
        (_4,(_32,_16)):(_2097152,(_65536,_1))
        """
        lay = _layout_of(x, "TV_Tiler.apply")
        if _rank(lay) < self._tiler_rank():
            raise LayoutError(f"TV_Tiler.apply: the tiler {self.Tiler_MN} has rank {self._tiler_rank()}, "
                              f"more than the rank {_rank(lay)} of {lay}")
        out = _ops.composition(_ops.zipped_divide(lay, self._tiler), (self.TiledLayout_TV, _))
        return Tensor(x.engine, out) if isinstance(x, Tensor) else out

    def get_slice(self, coord: Any) -> "TV_Partitioner":
        """The partitioner of thread ``coord``: an ``int`` or a non-negative symbolic integer below
        ``size(TiledLayout_TV)``, an index of the TV layout's domain (CuTe's ``TV_Partitioner``)."""
        return TV_Partitioner(self, coord)

    def __repr__(self) -> str:
        return f"TV_Tiler({self.TiledLayout_TV}, {self.Tiler_MN})"

    def __str__(self) -> str:
        return ("TV_Tiler\n"
                f"  Tiler_MN:       {self.Tiler_MN}\n"
                f"  TiledLayout_TV: {self.TiledLayout_TV}")

    def __eq__(self, other: object) -> bool:
        return (type(other) is TV_Tiler and self.TiledLayout_TV == other.TiledLayout_TV
                and str(self.Tiler_MN) == str(other.Tiler_MN))

    def __hash__(self) -> int:
        return hash(("TV_Tiler", self.TiledLayout_TV, str(self.Tiler_MN)))


class TV_Partitioner:
    """``TV_Tiler::TV_Partitioner<SliceCoord>``: thread ``coord``'s share of what its tiler tiles.

    ``partition(x)`` is ``make_tensor(x.data(), apply(x.layout()))(coord, repeat<rank(x)>(_))``:
    of a tensor (gmem, smem, rmem or TMEM) the tensor of the slice's elements, ``(RestM,RestN,...)``
    (the TV layout's kept modes first, for a coordinate with ``_``); of a layout, that tensor's layout.

    @pre ``coord`` is an index ``0 <= coord < size(TiledLayout_TV)`` (a symbolic one: its largest
         value is below it, as ``Dyn("w", max=3, sign="nonnegative")``; without an upper bound the
         fact is asked, :class:`UndecidableError` naming it), or a static coordinate of the TV
         layout's shape with ``_`` where modes are kept; else :class:`LayoutError`.
    @post ``partition(x)`` at ``r`` is ``apply(x)((coord, r))``; for a symbolic ``coord`` the base
          offset is one formula, equal to the integer answer at each value of ``coord``.

    >>> from cute_sym.notation import parse
    >>> from cute_sym.core.integers import Dyn
    >>> tv = TV_Tiler(parse("_4:_1"), (make_layout(4, 32), make_layout(1, 0)))
    >>> print(tv.get_slice(Dyn("w", max=3, sign="nonnegative")).partition(parse("(_128,_16):(_1,_128)")))
    (_32,_16):(_1,_128)
    >>> print(tv.get_slice(Dyn("w", max=3, sign="nonnegative")).offset(parse("(_128,_16):(_1,_128)")))
    32*w
    """
    __slots__ = ("tiler", "coord")
    tiler: TV_Tiler
    coord: Any

    def __init__(self, tiler: TV_Tiler, coord: Any) -> None:
        tv = tiler.TiledLayout_TV
        n = size(tv)
        if type(n) is not int and is_basic(n) and n.is_Integer:
            n = int(n)              # a dynamic extent that is a known number (a symbolic tiler's 4)
        if type(n) is not int:
            raise LayoutError(f"TV_Tiler.get_slice: the TV layout {tv} must have a known size, got {n}")
        if type(coord) is tuple:
            if not all(type(c) is int or isinstance(c, Underscore) for c in leaves(coord)):
                raise LayoutError(f"TV_Tiler.get_slice: a coordinate of the TV layout holds static ints and _, "
                                  f"got {fmt(coord)}")
            if not _in_shape(coord, tv.shape):
                raise LayoutError(f"TV_Tiler.get_slice: {fmt(coord)} is not a coordinate of the TV layout's "
                                  f"shape {fmt(tv.shape)}")
        else:
            coord = thread_index_arg(coord, n, "TV tiler")
        object.__setattr__(self, "tiler", tiler)
        object.__setattr__(self, "coord", coord)

    __reduce__ = frozen_reduce
    __copy__ = frozen_copy
    __deepcopy__ = frozen_deepcopy

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("TV_Partitioner is immutable")

    def __repr__(self) -> str:
        return f"TV_Partitioner({self.tiler!r}, coord={self.coord})"

    def _split(self, x: Any) -> tuple[LayoutLike, IntLike]:
        """``apply(x)(coord, repeat<rank>(_))``: (the thread's layout, the offset of its origin)."""
        lay = _layout_of(x, "partition")
        tv = self.tiler.apply(lay)
        r = _rank(lay)
        rest = (_,) * r if r > 1 else _
        c = self.coord
        if isinstance(tv, ComposedLayout) or type(c) is int or type(c) is tuple or is_basis_layout(tv):
            return _slice_and_offset((self.coord, rest), tv)
        sliced, _off = _slice_and_offset((0, rest), tv)
        return sliced, index_formula(tv[0], self.coord)

    def partition(self, x: Any) -> Any:
        """Thread ``coord``'s elements of the ``(M,N,...)`` tensor ``x`` (a tensor over its engine,
        moved to the thread's origin), or of the layout ``x`` (the layout of that tensor)."""
        lay, off = self._split(x)
        if isinstance(x, Tensor):
            return Tensor(x.engine + off, lay)
        return lay

    def offset(self, x: Any) -> IntLike:
        """The offset in ``x`` (a tensor's layout, or a layout) of the thread's first element."""
        return self._split(x)[1]


def _tile_size(t: Any) -> Any:
    """The number of elements of the tile ``t`` (a layout, a shape, or a tuple of them): its
    ``size``, or None where ``t`` is none of these (``zipped_divide`` refuses it when applied)."""
    if isinstance(t, Layout):
        return t.size()
    if type(t) is tuple:
        n: Any = 1
        for x in t:
            k = _tile_size(x)
            if k is None:
                return None
            n = n * k
        return n
    return t if type(t) is int else None


def _in_shape(c: Any, s: Any) -> bool:
    """Whether ``c`` (ints and ``_``) is a coordinate of the shape ``s``: congruent where it is a
    tuple, an int below the size of its mode."""
    if isinstance(c, Underscore):
        return True
    if type(c) is tuple:
        return type(s) is tuple and len(c) == len(s) and all(_in_shape(a, b) for a, b in zip(c, s))
    return type(c) is int and 0 <= c < product(s)


def make_tiler_impl(layout_tv: Layout, tiler: Any) -> TV_Tiler:
    """CuTe's ``make_tiler_impl(layout_tv, tiler)``: the :class:`TV_Tiler` of ``layout_tv`` over ``tiler``.

    >>> print(make_tiler_impl(make_layout(4, 1), (make_layout(4, 32),)).Tiler_MN)
    (_4:_32)
    """
    return TV_Tiler(layout_tv, tiler)
